// strati-opt --external-weights, as strati-import's, writes the blobs to OUT.weights.bin beside -o
// OUT (docs/weights.md); reading the module back finds them beside the .mlir, from any directory.
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: strati-opt %s --resource-threshold 2 --external-weights -o %t/a/m.mlir
// RUN: filecheck %s < %t/a/m.mlir
// CHECK:      %w = graph.constant dense_resource<w> : tensor<4xf32>
// CHECK:      {-#
// CHECK-NEXT:   external_resources: {
// CHECK-NEXT:     strati_weights: {
// CHECK-NEXT:       file: "m.weights.bin",
// CHECK-NEXT:       w: "offset=0,size=16"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
// Through a pass into another directory: its own weights file, the same bytes.
// RUN: cd %t/b && strati-opt %t/a/m.mlir -p canonicalize --resource-threshold 2 --external-weights -o n.mlir
// RUN: filecheck %s --check-prefix=AGAIN < %t/b/n.mlir
// AGAIN: file: "n.weights.bin",
// RUN: cmp %t/a/m.weights.bin %t/b/n.weights.bin
// Without the flag the blobs go back into the text.
// RUN: strati-opt %t/a/m.mlir --resource-threshold 2 | filecheck %s --check-prefix=INLINE
// INLINE: w: "0x040000000000803f000000c00000404000000080"
// strati-reduce reads them beside its input, not beside its candidates; the result holds them.
// RUN: cd %t/b && strati-reduce %t/a/m.mlir --test "grep -q graph.add {} && grep -q graph.constant {}" -o %t/r.mlir -q
// RUN: filecheck %s --check-prefix=REDUCED < %t/r.mlir
// REDUCED: graph.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, -0.000000e+00]> : tensor<4xf32>
// REDUCED: graph.add
// Bad invocations: one line each.
// RUN: not strati-opt %s --external-weights 2>&1 | filecheck %s --check-prefix=NO-OUT
// NO-OUT: strati-opt: error: --external-weights needs -o OUT.mlir (the weights go to OUT.weights.bin beside it)
// RUN: not strati-opt %s --external-weights --emit=llvm -o %t/x.ll 2>&1 | filecheck %s --check-prefix=LLVM
// LLVM: strati-opt: error: --external-weights writes one module's IR, not --emit=llvm

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = graph.constant dense<[1.0, -2.0, 3.0, -0.0]> : tensor<4xf32>
  %y = graph.add %x, %w : tensor<4xf32>
  %z = graph.relu %y : tensor<4xf32>
  func.return %z : tensor<4xf32>
}
