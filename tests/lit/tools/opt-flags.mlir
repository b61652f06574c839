// The driver's flags, each checked on one small module.
// RUN: strati-opt %s -p infer-shapes,fold-constants --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// AFTER: // -----// IR Dump After infer-shapes //----- //
// AFTER: graph.add %x, {{%.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// AFTER: // -----// IR Dump After fold-constants{max_elements=1048576} //----- //
// AFTER-NOT: graph.neg

// RUN: rm -rf %t && strati-opt %s -p 'infer-shapes,fold-constants{max-elements=8}' --print-ir-tree-dir=%t -o /dev/null
// RUN: filecheck %s --check-prefix=TREE0 < %t/0_infer-shapes.mlir
// TREE0: // IR after pass 0: infer-shapes
// TREE0: graph.neg
// RUN: filecheck %s --check-prefix=TREE1 < %t/1_fold-constants.mlir
// TREE1: // IR after pass 1: fold-constants{max_elements=8}
// TREE1-NOT: graph.neg

// RUN: strati-opt %s -p infer-shapes --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// TIME: Execution time report
// TIME: Total Execution Time: {{[0-9.]+}} seconds
// TIME: Parser
// TIME: Verifier
// TIME: infer-shapes
// TIME: Output

// Verifying once at the end gives the same IR as verifying after every pass.
// RUN: strati-opt %examples/cnn.mlir --emit=loop -O3 > %t.each && strati-opt %examples/cnn.mlir --emit=loop -O3 --no-verify-passes > %t.once
// RUN: diff %t.each %t.once && filecheck %s --check-prefix=ONCE < %t.once
// ONCE: loop.for

// RUN: strati-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// GENERIC: "graph.add"(%x, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x?xf32>
// RUN: strati-opt %s --print-debuginfo | filecheck %s --check-prefix=LOC
// LOC: graph.neg {{.*}} loc("{{.*}}opt-flags.mlir":[[# @LINE + 22]]:3)

// RUN: strati-opt --list-passes | filecheck %s --check-prefix=PASSES
// PASSES: strati passes:
// PASSES: fold-constants
// PASSES: infer-shapes
// PASSES: xDSL passes:
// PASSES: canonicalize

// RUN: strati-opt --list-op-attrs | filecheck %s --check-prefix=ATTRS
// ATTRS: op {{ +}}infer_type  reference  pattern {{ +}}flops
// ATTRS: graph.add {{ +}}x {{ +}}x {{ +}}broadcast
// ATTRS: graph.conv2d {{ +}}x {{ +}}x {{ +}}out_elemwise_fusable

// Unregistered ops are accepted only on request.
// RUN: sed 's/graph.relu \([^ ]*\) : tensor<2x?xf32>/"mystery.op"(\1) : (tensor<2x?xf32>) -> tensor<2x?xf32>/' %s | strati-opt --allow-unregistered-dialect | filecheck %s --check-prefix=UNREG
// UNREG: "mystery.op"(%s) : (tensor<2x?xf32>) -> tensor<2x?xf32>
// RUN: sed 's/graph.relu \([^ ]*\) : tensor<2x?xf32>/"mystery.op"(\1) : (tensor<2x?xf32>) -> tensor<2x?xf32>/' %s | not strati-opt 2>&1 | filecheck %s --check-prefix=NOUNREG
// NOUNREG: error: Operation mystery.op is not registered

func.func @f(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %c = graph.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %n = graph.neg %c : tensor<3xf32>
  %s = graph.add %x, %n : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x?xf32>
  %r = graph.relu %s : tensor<2x?xf32>
  func.return %r : tensor<2x?xf32>
}
