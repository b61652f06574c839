// Translation validation: --verify-each-numerics runs the module on seeded random inputs before and
// after each pass, with the interpreter of its level, and stops at the first pass that changes the results.
// The standard pipeline keeps the numerics down to the loop level (the hw level's vector ops are beyond
// the interpreters: checking stops there, with a warning).
// RUN: strati-opt %s --emit=loop -O3 --verify-each-numerics | filecheck %s --check-prefix=GOOD
// GOOD: loop.for
// RUN: strati-opt %s --emit=hw --verify-each-numerics -o /dev/null 2>&1 | filecheck %s --check-prefix=HW
// HW: strati-opt: warning: numerics are not checked after pass 'convert-loop-to-hw': op 'vector.
// A wrong plug-in pass at the graph level is caught, and the op it made is named at its location.
// RUN: not strati-opt %s --load-plugin %S/../../unit/plugins/wrong_passes.py -p canonicalize,test-add-to-sub --verify-each-numerics 2>&1 | filecheck %s --check-prefix=GRAPH
// GRAPH: verify-each-numerics.mlir:[[# @LINE + 20]]:3: error: 'graph.sub' op has a different result after pass 'test-add-to-sub' (@main output 0: max abs error {{.*}}; seeded random inputs, seed 0)
// Without the check the wrong pass goes through.
// RUN: strati-opt %s --load-plugin %S/../../unit/plugins/wrong_passes.py -p test-add-to-sub | filecheck %s --check-prefix=UNCHECKED
// UNCHECKED: graph.sub
// At the loop level, the loop nest that writes the changed output is named; --crash-reproducer keeps
// the IR the wrong pass was given, headed by the pipeline to run on it.
// RUN: not strati-opt %s --load-plugin %S/../../unit/plugins/wrong_passes.py -p convert-graph-to-tensor,convert-tensor-to-loop,test-shorten-last-loop --verify-each-numerics --crash-reproducer %t.repro.mlir 2>&1 | filecheck %s --check-prefix=LOOP
// LOOP: verify-each-numerics.mlir:[[# @LINE + 14]]:3: error: 'loop.for' op has a different result after pass 'test-shorten-last-loop' (@main output 0:
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
// REPRO: // strati-opt -p 'test-shorten-last-loop'
// REPRO: "loop.for"
// The seed is an option, and a module that cannot run is one line.
// RUN: strati-opt %s -p canonicalize --verify-each-numerics --numerics-seed 7 -o /dev/null
// RUN: not strati-opt %s --verify-each-numerics --numerics-seed -1 2>&1 | filecheck %s --check-prefix=SEED
// SEED: verify-each-numerics.mlir: error: the numerics seed must be a non-negative integer, got -1
// RUN: not strati-opt %S/Inputs/dynamic.mlir -p canonicalize --verify-each-numerics 2>&1 | filecheck %s --check-prefix=DYNAMIC
// DYNAMIC: dynamic.mlir:1:1: error: 'func.func' op cannot check numerics: argument 0 of @f has type tensor<?x4xf32> (static tensors or buffers only)

func.func @main(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> tensor<4x8xf32> {
  %a = graph.relu %x : tensor<4x8xf32>
  %b = graph.add %a, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.tanh %b : tensor<4x8xf32>
  func.return %c : tensor<4x8xf32>
}
