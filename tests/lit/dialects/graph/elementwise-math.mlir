// The trigonometric functions, mod, bit_shift and resize with modes linear and cubic print in the graph
// syntax and round-trip, custom and generic.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @trigonometric(
// CHECK-SAME: [[X:%.*]]: tensor<4x8xf32>)
func.func @trigonometric(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: [[A:%.*]] = graph.sin [[X]] : tensor<4x8xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.cos [[A]] : tensor<4x8xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.tan [[B]] : tensor<4x8xf32>
  // CHECK-NEXT: [[D:%.*]] = graph.asin [[C]] : tensor<4x8xf32>
  // CHECK-NEXT: [[E:%.*]] = graph.acos [[D]] : tensor<4x8xf32>
  // CHECK-NEXT: [[F:%.*]] = graph.atan [[E]] : tensor<4x8xf32>
  // CHECK-NEXT: [[G:%.*]] = graph.sinh [[F]] : tensor<4x8xf32>
  // CHECK-NEXT: [[H:%.*]] = graph.cosh [[G]] : tensor<4x8xf32>
  // CHECK-NEXT: [[I:%.*]] = graph.asinh [[H]] : tensor<4x8xf32>
  // CHECK-NEXT: [[J:%.*]] = graph.acosh [[I]] : tensor<4x8xf32>
  // CHECK-NEXT: [[K:%.*]] = graph.atanh [[J]] : tensor<4x8xf32>
  // CHECK-NEXT: func.return [[K]] : tensor<4x8xf32>
  %a = graph.sin %x : tensor<4x8xf32>
  %b = graph.cos %a : tensor<4x8xf32>
  %c = graph.tan %b : tensor<4x8xf32>
  %d = graph.asin %c : tensor<4x8xf32>
  %e = graph.acos %d : tensor<4x8xf32>
  %f = graph.atan %e : tensor<4x8xf32>
  %g = graph.sinh %f : tensor<4x8xf32>
  %h = graph.cosh %g : tensor<4x8xf32>
  %i = graph.asinh %h : tensor<4x8xf32>
  %j = graph.acosh %i : tensor<4x8xf32>
  %k = graph.atanh %j : tensor<4x8xf32>
  func.return %k : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @mod_shift(
// CHECK-SAME: [[A:%.*]]: tensor<4x1xi32>, [[B:%.*]]: tensor<8xi32>, [[X:%.*]]: tensor<3xf64>, [[U:%.*]]: tensor<3xui8>)
func.func @mod_shift(%a: tensor<4x1xi32>, %b: tensor<8xi32>, %x: tensor<3xf64>, %u: tensor<3xui8>) -> (tensor<4x8xi32>, tensor<4x8xi32>, tensor<3xf64>, tensor<3xui8>, tensor<3xui8>) {
  // CHECK-NEXT: [[M:%.*]] = graph.mod [[A]], [[B]] : (tensor<4x1xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: [[N:%.*]] = graph.mod [[A]], [[B]] {fmod = true} : (tensor<4x1xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  // CHECK-NEXT: [[F:%.*]] = graph.mod [[X]], [[X]] {fmod = true} : tensor<3xf64>
  // CHECK-NEXT: [[L:%.*]] = graph.bit_shift [[U]], [[U]] {direction = "left"} : tensor<3xui8>
  // CHECK-NEXT: [[R:%.*]] = graph.bit_shift [[U]], [[U]] {direction = "right"} : tensor<3xui8>
  %m = graph.mod %a, %b {fmod = false} : (tensor<4x1xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  %n = graph.mod %a, %b {fmod = true} : (tensor<4x1xi32>, tensor<8xi32>) -> tensor<4x8xi32>
  %f = graph.mod %x, %x {fmod = true} : tensor<3xf64>
  %l = graph.bit_shift %u, %u {direction = "left"} : tensor<3xui8>
  %r = graph.bit_shift %u, %u {direction = "right"} : tensor<3xui8>
  func.return %m, %n, %f, %l, %r : tensor<4x8xi32>, tensor<4x8xi32>, tensor<3xf64>, tensor<3xui8>, tensor<3xui8>
}

// CHECK-LABEL: func.func @resize_linear(
// CHECK-SAME: [[X:%.*]]: tensor<1x2x3x5xf32>)
func.func @resize_linear(%x: tensor<1x2x3x5xf32>) -> (tensor<1x2x6x15xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.resize [[X]] {mode = "linear", scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00>} : (tensor<1x2x3x5xf32>) -> tensor<1x2x6x15xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.resize [[X]] {mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x2x3x5xf32>) -> tensor<1x2x4x4xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.resize [[X]] {mode = "cubic", cubic_coeff_a = -0.5, exclude_outside = true} : (tensor<1x2x3x5xf32>) -> tensor<1x2x4x4xf32>
  %a = graph.resize %x {mode = "linear", scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00>} : (tensor<1x2x3x5xf32>) -> tensor<1x2x6x15xf32>
  %b = graph.resize %x {mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x2x3x5xf32>) -> tensor<1x2x4x4xf32>
  %c = graph.resize %x {mode = "cubic", cubic_coeff_a = -0.5, exclude_outside = true} : (tensor<1x2x3x5xf32>) -> tensor<1x2x4x4xf32>
  func.return %a, %b, %c : tensor<1x2x6x15xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
