// --emit stops the standard pipeline at each level; every level prints and reads back.
// RUN: strati-opt %s --emit=graph | filecheck %s --check-prefix=GRAPH
// GRAPH: graph.gemm
// RUN: strati-opt %s --emit=tensor | filecheck %s --check-prefix=TENSOR
// TENSOR-NOT: graph.
// TENSOR: tensor.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// TENSOR: func.return {{%.*}} : tensor<2x3xf32>
// RUN: strati-opt %s --emit=loop | filecheck %s --check-prefix=LOOP
// LOOP: func.func @f(%x: memref<2x4xf32>, %w: memref<3x4xf32>, %out: memref<2x3xf32>) attributes {strati.outputs = 1 : i64}
// LOOP-NOT: tensor.
// LOOP: loop.for
// LOOP: memref.store
// RUN: strati-opt %s --emit=loop | strati-opt | filecheck %s --check-prefix=LOOP
// RUN: strati-opt %s --emit=llvm | filecheck %s --check-prefix=LLVM
// LLVM: define void @"f"(ptr noalias %"x", ptr noalias %"w", ptr noalias %"out")
// LLVM: define void @"f_entry"
// --emit follows -p, and a module already below the level asked for is an error.
// RUN: strati-opt %s -p infer-shapes --emit=tensor --print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER
// ORDER: IR Dump After infer-shapes
// ORDER: IR Dump After convert-graph-to-tensor
// RUN: strati-opt %s --emit=loop | not strati-opt --emit=tensor 2>&1 | filecheck %s --check-prefix=BELOW
// BELOW: error: the module is at the loop level, below --emit=tensor

func.func @f(%x: tensor<2x4xf32>, %w: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %y = graph.gemm %x, %w {trans_b = true} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %r = graph.relu %y : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
