// Every verifier rule of the trigonometric functions, mod, bit_shift and resize's linear mode has a
// case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// sin: an integer tensor
func.func @case0(%a0: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'graph.sin' op expects a floating-point tensor, got tensor<4xi32>}}
  %r = graph.sin %a0 : tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

// atanh: result of another shape
func.func @case1(%a0: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'graph.atanh' op result type tensor<5xf32> does not match the inferred type tensor<4xf32>}}
  %r = graph.atanh %a0 : (tensor<4xf32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// -----

// mod: operands of different element types
func.func @case2(%a0: tensor<4xf32>, %a1: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.mod' op operands must have the same element type, got tensor<4xf32>, tensor<4xf64>}}
  %r = graph.mod %a0, %a1 : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// mod: booleans
func.func @case3(%a0: tensor<4xi1>, %a1: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.mod' op expects a numeric tensor, got tensor<4xi1>}}
  %r = graph.mod %a0, %a1 : tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

// mod: shapes that do not broadcast
func.func @case4(%a0: tensor<4x2xi32>, %a1: tensor<3xi32>) -> tensor<4x3xi32> {
  // expected-error@+1 {{'graph.mod' op shapes [4x2] and [3] do not broadcast (dimension 1: [2, 3])}}
  %r = graph.mod %a0, %a1 : (tensor<4x2xi32>, tensor<3xi32>) -> tensor<4x3xi32>
  func.return %r : tensor<4x3xi32>
}

// -----

// bit_shift: floats
func.func @case5(%a0: tensor<4xf32>, %a1: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.bit_shift' op expects an integer tensor, got tensor<4xf32>}}
  %r = graph.bit_shift %a0, %a1 {direction = "left"} : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// bit_shift: an unknown direction
func.func @case6(%a0: tensor<4xui8>, %a1: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error@+1 {{'graph.bit_shift' op direction must be "left" or "right", got "up"}}
  %r = graph.bit_shift %a0, %a1 {direction = "up"} : tensor<4xui8>
  func.return %r : tensor<4xui8>
}

// -----

// bit_shift: operands of different types
func.func @case7(%a0: tensor<4xui8>, %a1: tensor<4xui16>) -> tensor<4xui8> {
  // expected-error@+1 {{'graph.bit_shift' op operands must have the same element type, got tensor<4xui8>, tensor<4xui16>}}
  %r = graph.bit_shift %a0, %a1 {direction = "left"} : (tensor<4xui8>, tensor<4xui16>) -> tensor<4xui8>
  func.return %r : tensor<4xui8>
}

// -----

// resize: an unknown mode
func.func @case8(%a0: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op mode must be "nearest", "linear" or "cubic", got "bicubic"}}
  %r = graph.resize %a0 {mode = "bicubic"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  func.return %r : tensor<1x1x4x4xf32>
}

// -----

// resize: linear on integers
func.func @case9(%a0: tensor<1x1x2x2xi32>) -> tensor<1x1x4x4xi32> {
  // expected-error@+1 {{'graph.resize' op mode linear expects a floating-point tensor, got tensor<1x1x2x2xi32>}}
  %r = graph.resize %a0 {mode = "linear"} : (tensor<1x1x2x2xi32>) -> tensor<1x1x4x4xi32>
  func.return %r : tensor<1x1x4x4xi32>
}

// -----

// resize: linear with a coordinate mode of nearest's only
func.func @case10(%a0: tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.resize' op coordinate_transformation_mode "tf_half_pixel_for_nn" is not one of mode linear's: half_pixel, asymmetric, align_corners, pytorch_half_pixel}}
  %r = graph.resize %a0 {mode = "linear", coordinate_transformation_mode = "tf_half_pixel_for_nn"} : (tensor<1x1x2x2xf32>) -> tensor<1x1x4x4xf32>
  func.return %r : tensor<1x1x4x4xf32>
}
