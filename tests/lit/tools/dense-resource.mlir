// Large constants print as dense_resource<name> with their bytes in the file's
// {-# dialect_resources #-} section (docs/weights.md), and parse back bit for bit.
// RUN: strati-opt %s --resource-threshold 2 | filecheck %s
// RUN: strati-opt %s --resource-threshold 2 | strati-opt --resource-threshold 2 | filecheck %s
// RUN: strati-opt %s --resource-threshold 2 --print-op-generic | strati-opt --resource-threshold 2 | filecheck %s
// Lowered IR keeps them: a memref.global's blob is named after its symbol.
// RUN: strati-opt %s --resource-threshold 2 --emit=loop -o %t.loop.mlir
// RUN: strati-opt %t.loop.mlir --resource-threshold 2 | filecheck %s --check-prefix=LOOP
// LOOP: "memref.global"() <{sym_name = "__constant_4xf32", type = memref<4xf32>, initial_value = dense_resource<__constant_4xf32> : tensor<4xf32>
// LOOP: __constant_4xf32: "0x040000000000803f000000c00000404000000080"
// Under the threshold (1024 elements by default) they print as dense<...>: the same values.
// RUN: strati-opt %s | filecheck %s --check-prefix=DENSE
// RUN: strati-opt %s --resource-threshold 2 | strati-opt | filecheck %s --check-prefix=DENSE
// The values compute as any constant's, natively and in the interpreter.
// RUN: %python -c "import numpy; numpy.save('%t.npy', numpy.ones(4, 'float32'))"
// RUN: strati-run %s --input x=%t.npy --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %t.loop.mlir --input x=%t.npy | filecheck %s --check-prefix=EXEC-LOOP
// EXEC-LOOP: output0: float32[4] [2, -1, 4, 1]

// CHECK:      %w = graph.constant dense_resource<w> : tensor<4xf32>
// CHECK-NEXT: %k = graph.constant dense_resource<k> : tensor<3xi64>
// CHECK-NEXT: %m = graph.constant dense_resource<m> : tensor<4xi1>
// CHECK-NEXT: %s = graph.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %b = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       w: "0x040000000000803f000000c00000404000000080",
// CHECK-NEXT:       k: "0x080000000100000000000000ffffffffffffffff0300000000000000",
// CHECK-NEXT:       m: "0x0100000001000100"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

// DENSE: %w = graph.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00, -0.000000e+00]> : tensor<4xf32>
// DENSE: %k = graph.constant dense<[1, -1, 3]> : tensor<3xi64>
// DENSE: %m = graph.constant dense<[true, false, true, false]> : tensor<4xi1>

// EXEC: output0: float32[4] [2, -1, 4, 1]
// EXEC: check output0: {{.*}}: ok

func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<3xi64>, tensor<4xi1>, tensor<4xf32>, tensor<2xf32>) {
  %w = graph.constant dense_resource<weights> : tensor<4xf32>
  %k = graph.constant dense_resource<ks> : tensor<3xi64>
  %m = graph.constant dense_resource<mask> : tensor<4xi1>
  %s = graph.constant dense<2.0> : tensor<4xf32>
  %b = graph.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %y = graph.add %x, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %y, %k, %m, %s, %b : tensor<4xf32>, tensor<3xi64>, tensor<4xi1>, tensor<4xf32>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // MLIR's form: 4 bytes of alignment, then the data, little-endian; any case of hex digits
      weights: "0x040000000000803F000000C00000404000000080",
      ks: "0x080000000100000000000000FFFFFFFFFFFFFFFF0300000000000000",
      mask: "0x0100000001000100",
    }
  }
#-}
