// Every verifier error of the reduce ops and argmax.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @axis_out_of_range(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op axis 2 is out of range for rank 2}}
  %s = graph.reduce_sum %x {axes = array<i64: 2>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_mean' op axis -3 is out of range for rank 2}}
  %s = graph.reduce_mean %x {axes = array<i64: 0, -3>} : (tensor<3x4xf32>) -> tensor<1x1xf32>
  func.return
}

// -----

func.func @repeated_axes(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_max' op axes [1, -1] repeat an axis}}
  %s = graph.reduce_max %x {axes = array<i64: 1, -1>} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @sum_of_booleans(%x: tensor<3x4xi1>) {
  // expected-error@+1 {{'graph.reduce_sum' op expects an integer or floating-point tensor, got tensor<3x4xi1>}}
  %s = graph.reduce_sum %x : (tensor<3x4xi1>) -> tensor<1x1xi1>
  func.return
}

// -----

func.func @keepdims_forgotten(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_prod' op result type tensor<3xf32> does not match the inferred type tensor<3x1xf32>}}
  %s = graph.reduce_prod %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3xf32>
  func.return
}

// -----

func.func @wrong_element_type(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_min' op result type tensor<3xf64> does not match the inferred type tensor<3xf32>}}
  %s = graph.reduce_min %x {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf64>
  func.return
}

// -----

func.func @noop_is_the_identity(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.reduce_sum' op result type tensor<1x1xf32> does not match the inferred type tensor<3x4xf32>}}
  %s = graph.reduce_sum %x {noop_with_empty_axes = true} : (tensor<3x4xf32>) -> tensor<1x1xf32>
  func.return
}

// -----

func.func @not_a_property(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{graph.reduce_sum has no property 'axis' (its properties: axes, keepdims, noop_with_empty_axes)}}
  %s = graph.reduce_sum %x {axis = 1} : (tensor<3x4xf32>) -> tensor<3x1xf32>
  func.return
}

// -----

func.func @argmax_of_an_empty_axis(%x: tensor<3x0xf32>) {
  // expected-error@+1 {{'graph.argmax' op axis 1 has size 0: argmax of an empty axis is undefined}}
  %a = graph.argmax %x {axis = 1, keepdims = false} : (tensor<3x0xf32>) -> tensor<3xi64>
  func.return
}

// -----

func.func @argmax_axis_out_of_range(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.argmax' op axis -3 is out of range for rank 2}}
  %a = graph.argmax %x {axis = -3} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  func.return
}

// -----

func.func @argmax_of_a_scalar(%x: tensor<f32>) {
  // expected-error@+1 {{'graph.argmax' op axis 0 is out of range for rank 0 (argmax needs rank 1 or more)}}
  %a = graph.argmax %x : (tensor<f32>) -> tensor<i64>
  func.return
}

// -----

func.func @argmax_is_i64(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.argmax' op result type tensor<3x1xi32> does not match the inferred type tensor<3x1xi64>}}
  %a = graph.argmax %x {axis = 1} : (tensor<3x4xf32>) -> tensor<3x1xi32>
  func.return
}

// -----

func.func @argmax_keepdims(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{'graph.argmax' op result type tensor<3xi64> does not match the inferred type tensor<3x1xi64>}}
  %a = graph.argmax %x {axis = 1} : (tensor<3x4xf32>) -> tensor<3xi64>
  func.return
}

// -----

func.func @argmax_has_axis_not_axes(%x: tensor<3x4xf32>) {
  // expected-error@+1 {{graph.argmax has no property 'axes' (its properties: axis, keepdims, select_last_index)}}
  %a = graph.argmax %x {axes = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3x1xi64>
  func.return
}
