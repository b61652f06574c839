// Every verifier rule of the quantisation ops.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<4xf32>) -> tensor<4xi8> {
  // expected-error@+1 {{'graph.quantize' op scale must be > 0 and zero_point in [-128, 127], got 0.0 and 0}}
  %q = graph.quantize %x {scale = 0.0} : (tensor<4xf32>) -> tensor<4xi8>
  func.return %q : tensor<4xi8>
}

// -----
func.func @f(%x: tensor<4xi32>) -> tensor<4xi8> {
  // expected-error@+1 {{'graph.quantize' op quantizes a floating-point tensor, got tensor<4xi32>}}
  %q = graph.quantize %x {scale = 1.0} : (tensor<4xi32>) -> tensor<4xi8>
  func.return %q : tensor<4xi8>
}

// -----
func.func @f(%x: tensor<4xi32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.dequantize' op the operand must be a tensor of i8, got tensor<4xi32>}}
  %q = graph.dequantize %x {scale = 1.0} : (tensor<4xi32>) -> tensor<4xf32>
  func.return %q : tensor<4xf32>
}

// -----
func.func @f(%a: tensor<2x3xi8>, %b: tensor<4x5xi8>) -> tensor<2x5xi8> {
  // expected-error@+1 {{'graph.qmatmul' op expects 2-D operands of one contraction dimension, got tensor<2x3xi8> and tensor<4x5xi8>}}
  %q = graph.qmatmul %a, %b {shift = 1} : (tensor<2x3xi8>, tensor<4x5xi8>) -> tensor<2x5xi8>
  func.return %q : tensor<2x5xi8>
}

// -----
func.func @f(%a: tensor<2x3xi8>, %b: tensor<3x5xi8>) -> tensor<2x5xi8> {
  // expected-error@+1 {{'graph.qmatmul' op shift must be >= 0, got -1}}
  %q = graph.qmatmul %a, %b {shift = -1} : (tensor<2x3xi8>, tensor<3x5xi8>) -> tensor<2x5xi8>
  func.return %q : tensor<2x5xi8>
}

// -----
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x5xi8>) -> tensor<2x5xi8> {
  // expected-error@+1 {{'graph.qmatmul' op lhs must be a tensor of i8, got tensor<2x3xf32>}}
  %q = graph.qmatmul %a, %b : (tensor<2x3xf32>, tensor<3x5xi8>) -> tensor<2x5xi8>
  func.return %q : tensor<2x5xi8>
}

// -----
func.func @f(%x: tensor<1x4x5x5xi8>, %w: tensor<4x2x3x3xi8>) -> tensor<1x4x3x3xi8> {
  // expected-error@+1 {{'graph.qconv2d' op expects one group with 4 input channels, got 2 groups and a weight of 2}}
  %q = graph.qconv2d %x, %w {groups = 2} : (tensor<1x4x5x5xi8>, tensor<4x2x3x3xi8>) -> tensor<1x4x3x3xi8>
  func.return %q : tensor<1x4x3x3xi8>
}

// -----
func.func @f(%x: tensor<1x4x5x5xi8>, %w: tensor<4x4x3x3xi8>, %b: tensor<4xi8>) -> tensor<1x4x3x3xi8> {
  // expected-error@+1 {{'graph.qconv2d' op the bias must be a tensor of i32, got tensor<4xi8>}}
  %q = graph.qconv2d %x, %w, %b : (tensor<1x4x5x5xi8>, tensor<4x4x3x3xi8>, tensor<4xi8>) -> tensor<1x4x3x3xi8>
  func.return %q : tensor<1x4x3x3xi8>
}

// -----
func.func @f(%x: tensor<1x4x5x5xi8>, %w: tensor<4x4x3x3xi8>) -> tensor<1x4x4x4xi8> {
  // expected-error@+1 {{'graph.qconv2d' op result type tensor<1x4x4x4xi8> does not match the inferred type tensor<1x4x3x3xi8>}}
  %q = graph.qconv2d %x, %w : (tensor<1x4x5x5xi8>, tensor<4x4x3x3xi8>) -> tensor<1x4x4x4xi8>
  func.return %q : tensor<1x4x4x4xi8>
}
