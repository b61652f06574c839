// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// A saturating cast to float8 clamps to the type's finite range (448 for e4m3fn; maximumf and
// minimumf keep NaN) before arith.truncf; saturate = false converts directly.
// CHECK-LABEL: func.func @to_float8(
// CHECK: [[LO:%.*]] = arith.constant -4.480000e+02 : f32
// CHECK-NEXT: [[A:%.*]] = arith.maximumf %{{.*}}, [[LO]] : f32
// CHECK-NEXT: [[HI:%.*]] = arith.constant 4.480000e+02 : f32
// CHECK-NEXT: [[B:%.*]] = arith.minimumf [[A]], [[HI]] : f32
// CHECK-NEXT: [[Y:%.*]] = arith.truncf [[B]] : f32 to f8E4M3FN
// CHECK-NEXT: tensor.yield [[Y]] : f8E4M3FN
// CHECK: tensor.generic
// CHECK-NOT: arith.maximumf
// CHECK: arith.truncf %{{.*}} : f32 to f8E5M2
func.func @to_float8(%x: tensor<7xf32>) -> (tensor<7xf8E4M3FN>, tensor<7xf8E5M2>) {
  %a = graph.cast %x : (tensor<7xf32>) -> tensor<7xf8E4M3FN>
  %b = graph.cast %x {saturate = false} : (tensor<7xf32>) -> tensor<7xf8E5M2>
  func.return %a, %b : tensor<7xf8E4M3FN>, tensor<7xf8E5M2>
}

// -----

// A cast from bf16 is arith.extf, to bf16 arith.truncf: the LLVM emission gives them their bits.
// CHECK-LABEL: func.func @bf16(
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
func.func @bf16(%x: tensor<7xbf16>) -> tensor<7xbf16> {
  %a = graph.cast %x : (tensor<7xbf16>) -> tensor<7xf32>
  %b = graph.cast %a : (tensor<7xf32>) -> tensor<7xbf16>
  func.return %b : tensor<7xbf16>
}
