// The quantisation ops print, round-trip (custom and generic), and lower to int32
// accumulation plus an exact requantisation.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s
// RUN: strati-opt %s --emit=tensor | filecheck %s --check-prefix=TENSOR
// RUN: strati-run %s --random-inputs 3 --check --rtol 0 --atol 0 | filecheck %s --check-prefix=EXEC

// CHECK: %q = graph.quantize %x {scale = 0.0625, zero_point = 3} : (tensor<5x12xf32>) -> tensor<5x12xi8>
// CHECK: %m = graph.qmatmul %q, %w {shift = 5} : (tensor<5x12xi8>, tensor<12x7xi8>) -> tensor<5x7xi8>
// CHECK: %y = graph.dequantize %m {scale = 0.25} : (tensor<5x7xi8>) -> tensor<5x7xf32>
// CHECK: %c = graph.qconv2d %qi, %k, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, shift = 4} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x4xi8>
// TENSOR: math.roundeven {{.*}} : f32
// TENSOR: arith.muli {{.*}} : i32
// TENSOR: arith.mulf {{.*}}, %{{.*}} : f64
// TENSOR-NEXT: math.roundeven {{.*}} : f64
// TENSOR: arith.fptosi {{.*}} : f64 to i8
// EXEC-NOT: FAILED
// EXEC: check output0: max abs error 0, max rel error 0 (rtol 0, atol 0): ok
// EXEC: check output1: max abs error 0, max rel error 0 (rtol 0, atol 0): ok

func.func @q(%x: tensor<5x12xf32>, %w: tensor<12x7xi8>, %k: tensor<6x3x3x3xi8>, %b: tensor<6xi32>, %img: tensor<1x3x8x8xf32>) -> (tensor<5x7xf32>, tensor<1x6x4x4xf32>) {
  %q = graph.quantize %x {scale = 0.0625, zero_point = 3} : (tensor<5x12xf32>) -> tensor<5x12xi8>
  %m = graph.qmatmul %q, %w {shift = 5} : (tensor<5x12xi8>, tensor<12x7xi8>) -> tensor<5x7xi8>
  %y = graph.dequantize %m {scale = 0.25} : (tensor<5x7xi8>) -> tensor<5x7xf32>
  %qi = graph.quantize %img {scale = 0.125} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xi8>
  %c = graph.qconv2d %qi, %k, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, shift = 4} : (tensor<1x3x8x8xi8>, tensor<6x3x3x3xi8>, tensor<6xi32>) -> tensor<1x6x4x4xi8>
  %z = graph.dequantize %c {scale = 0.5, zero_point = -2} : (tensor<1x6x4x4xi8>) -> tensor<1x6x4x4xf32>
  func.return %y, %z : tensor<5x7xf32>, tensor<1x6x4x4xf32>
}
