// Every verifier rule of graph.grid_sample has a case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// an unknown mode (ONNX 16's "bilinear" is imported as "linear")
func.func @case0(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op mode must be one of linear, nearest, cubic, got "bilinear"}}
  %r = graph.grid_sample %x, %g {mode = "bilinear"} : (tensor<1x1x3x3xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// -----

// an unknown padding mode
func.func @case1(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op padding_mode must be one of zeros, border, reflection, got "edge"}}
  %r = graph.grid_sample %x, %g {padding_mode = "edge"} : (tensor<1x1x3x3xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// -----

// no spatial axis
func.func @case2(%x: tensor<1x3xf32>, %g: tensor<1x2xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{'graph.grid_sample' op input must have rank 3 or more (N, C, spatial...), got tensor<1x3xf32>}}
  %r = graph.grid_sample %x, %g : (tensor<1x3xf32>, tensor<1x2xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// -----

// linear interpolation of integers
func.func @case3(%x: tensor<1x1x3x3xi32>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32> {
  // expected-error@+1 {{'graph.grid_sample' op mode linear expects a floating-point input, got tensor<1x1x3x3xi32>}}
  %r = graph.grid_sample %x, %g : (tensor<1x1x3x3xi32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi32>
  func.return %r : tensor<1x1x2x2xi32>
}

// -----

// boolean input
func.func @case4(%x: tensor<1x1x3x3xi1>, %g: tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi1> {
  // expected-error@+1 {{'graph.grid_sample' op expects a numeric input, got tensor<1x1x3x3xi1>}}
  %r = graph.grid_sample %x, %g {mode = "nearest"} : (tensor<1x1x3x3xi1>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xi1>
  func.return %r : tensor<1x1x2x2xi1>
}

// -----

// an integer grid
func.func @case5(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2x2xi64>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op grid must be a floating-point tensor, got tensor<1x2x2x2xi64>}}
  %r = graph.grid_sample %x, %g : (tensor<1x1x3x3xf32>, tensor<1x2x2x2xi64>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// -----

// the grid's rank does not match the input's
func.func @case6(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2xf32>) -> tensor<1x1x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op grid must have rank 4 for a rank-4 input, got tensor<1x2x2xf32>}}
  %r = graph.grid_sample %x, %g : (tensor<1x1x3x3xf32>, tensor<1x2x2xf32>) -> tensor<1x1x2xf32>
  func.return %r : tensor<1x1x2xf32>
}

// -----

// three coordinates for two spatial axes
func.func @case7(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op the last dimension of grid must be 2 (one coordinate per spatial axis), got 3}}
  %r = graph.grid_sample %x, %g : (tensor<1x1x3x3xf32>, tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32>
  func.return %r : tensor<1x1x2x2xf32>
}

// -----

// batches differ
func.func @case8(%x: tensor<2x1x3x3xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<2x1x2x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op grid's batch (1) differs from input's (2)}}
  %r = graph.grid_sample %x, %g : (tensor<2x1x3x3xf32>, tensor<1x2x2x2xf32>) -> tensor<2x1x2x2xf32>
  func.return %r : tensor<2x1x2x2xf32>
}

// -----

// the result's shape is not (N, C, grid's output positions)
func.func @case9(%x: tensor<1x1x3x3xf32>, %g: tensor<1x2x4x2xf32>) -> tensor<1x1x4x2xf32> {
  // expected-error@+1 {{'graph.grid_sample' op result type tensor<1x1x4x2xf32> does not match the inferred type tensor<1x1x2x4xf32>}}
  %r = graph.grid_sample %x, %g : (tensor<1x1x3x3xf32>, tensor<1x2x4x2xf32>) -> tensor<1x1x4x2xf32>
  func.return %r : tensor<1x1x4x2xf32>
}
