// Every verifier rule of the ops that index by values has a case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// gather_elements: float indices
func.func @case0(%a0: tensor<5x3xf32>, %a1: tensor<4x3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'graph.gather_elements' op indices must be an integer tensor, got tensor<4x3xf32>}}
  %r = graph.gather_elements %a0, %a1 : (tensor<5x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// gather_elements: rank-0 data
func.func @case1(%a0: tensor<f32>, %a1: tensor<i64>) -> tensor<f32> {
  // expected-error@+1 {{'graph.gather_elements' op expects a tensor of rank 1 or more, got tensor<f32>}}
  %r = graph.gather_elements %a0, %a1 : (tensor<f32>, tensor<i64>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// gather_elements: ranks differ
func.func @case2(%a0: tensor<5x3xf32>, %a1: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.gather_elements' op indices must have the rank of data (2), got tensor<4xi64>}}
  %r = graph.gather_elements %a0, %a1 : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// gather_elements: axis out of range
func.func @case3(%a0: tensor<5x3xf32>, %a1: tensor<4x3xi64>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'graph.gather_elements' op axis 2 is out of range for rank 2}}
  %r = graph.gather_elements %a0, %a1 {axis = 2} : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// gather_elements: an index dimension larger than data's
func.func @case4(%a0: tensor<5x3xf32>, %a1: tensor<4x4xi64>) -> tensor<4x4xf32> {
  // expected-error@+1 {{'graph.gather_elements' op indices dimension 1 (4) is larger than data's (3)}}
  %r = graph.gather_elements %a0, %a1 : (tensor<5x3xf32>, tensor<4x4xi64>) -> tensor<4x4xf32>
  func.return %r : tensor<4x4xf32>
}

// -----

// gather_nd: rank-0 indices
func.func @case5(%a0: tensor<5x3xf32>, %a1: tensor<i64>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.gather_nd' op indices must have rank 1 or more, got tensor<i64>}}
  %r = graph.gather_nd %a0, %a1 : (tensor<5x3xf32>, tensor<i64>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// gather_nd: a dynamic tuple length
func.func @case6(%a0: tensor<5x3xf32>, %a1: tensor<2x?xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.gather_nd' op the last dimension of indices must be static, got tensor<2x?xi64>}}
  %r = graph.gather_nd %a0, %a1 : (tensor<5x3xf32>, tensor<2x?xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// gather_nd: tuples longer than data's rank
func.func @case7(%a0: tensor<5x3xf32>, %a1: tensor<2x3xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.gather_nd' op index tuples of length 3 do not address a rank-2 data after 0 batch dimensions}}
  %r = graph.gather_nd %a0, %a1 : (tensor<5x3xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// gather_nd: batch_dims too large
func.func @case8(%a0: tensor<5x3xf32>, %a1: tensor<5x1xi64>) -> tensor<5xf32> {
  // expected-error@+1 {{'graph.gather_nd' op batch_dims 2 must be below the ranks of data and indices (2, 2)}}
  %r = graph.gather_nd %a0, %a1 {batch_dims = 2} : (tensor<5x3xf32>, tensor<5x1xi64>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// -----

// gather_nd: batch dimensions differ
func.func @case9(%a0: tensor<5x3xf32>, %a1: tensor<4x1xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.gather_nd' op batch dimension 0 differs: data [5x3], indices [4x1]}}
  %r = graph.gather_nd %a0, %a1 {batch_dims = 1} : (tensor<5x3xf32>, tensor<4x1xi64>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// scatter_nd: an unknown reduction
func.func @case10(%a0: tensor<5x3xf32>, %a1: tensor<2x1xi64>, %a2: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter_nd' op reduction must be one of none, add, mul, max, min, got "sum"}}
  %r = graph.scatter_nd %a0, %a1, %a2 {reduction = "sum"} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// scatter_nd: updates of another element type
func.func @case11(%a0: tensor<5x3xf32>, %a1: tensor<2x1xi64>, %a2: tensor<2x3xf64>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter_nd' op updates must have data's element type, got tensor<2x3xf64>}}
  %r = graph.scatter_nd %a0, %a1, %a2 : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf64>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// scatter_nd: float indices
func.func @case12(%a0: tensor<5x3xf32>, %a1: tensor<2x1xf32>, %a2: tensor<2x3xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter_nd' op indices must be an integer tensor, got tensor<2x1xf32>}}
  %r = graph.scatter_nd %a0, %a1, %a2 : (tensor<5x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// scatter_nd: tuples longer than data's rank
func.func @case13(%a0: tensor<5x3xf32>, %a1: tensor<2x3xi64>, %a2: tensor<2xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter_nd' op index tuples of length 3 do not address a rank-2 data}}
  %r = graph.scatter_nd %a0, %a1, %a2 : (tensor<5x3xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// scatter_nd: updates of the wrong shape
func.func @case14(%a0: tensor<5x3xf32>, %a1: tensor<2x1xi64>, %a2: tensor<2x4xf32>) -> tensor<5x3xf32> {
  // expected-error@+1 {{'graph.scatter_nd' op updates must have shape [2x3], got [2x4]}}
  %r = graph.scatter_nd %a0, %a1, %a2 : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// cumsum: booleans
func.func @case15(%a0: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.cumsum' op expects a numeric tensor, got tensor<4xi1>}}
  %r = graph.cumsum %a0 {axis = 0} : tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

// cumsum: axis out of range
func.func @case16(%a0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{'graph.cumsum' op axis -3 is out of range for rank 2}}
  %r = graph.cumsum %a0 {axis = -3} : tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}

// -----

// cumsum: a rank-0 tensor
func.func @case17(%a0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'graph.cumsum' op expects a tensor of rank 1 or more, got tensor<f32>}}
  %r = graph.cumsum %a0 {axis = 0} : tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// topk: k larger than the dimension
func.func @case18(%a0: tensor<4x5xf32>) -> tensor<4x6xf32> {
  // expected-error@+1 {{'graph.topk' op k = 6 is not in [0, 5] (dimension 1)}}
  %r, %i = graph.topk %a0 {k = 6} : (tensor<4x5xf32>) -> (tensor<4x6xf32>, tensor<4x6xi64>)
  func.return %r : tensor<4x6xf32>
}

// -----

// topk: a negative k
func.func @case19(%a0: tensor<4x5xf32>) -> tensor<4x5xf32> {
  // expected-error@+1 {{'graph.topk' op k = -1 is not in [0, 5] (dimension 1)}}
  %r, %i = graph.topk %a0 {k = -1} : (tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xi64>)
  func.return %r : tensor<4x5xf32>
}

// -----

// topk: booleans
func.func @case20(%a0: tensor<4xi1>) -> tensor<1xi1> {
  // expected-error@+1 {{'graph.topk' op expects a numeric tensor, got tensor<4xi1>}}
  %r, %i = graph.topk %a0 {k = 1} : (tensor<4xi1>) -> (tensor<1xi1>, tensor<1xi64>)
  func.return %r : tensor<1xi1>
}

// -----

// topk: indices declared i32
func.func @case21(%a0: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.topk' op result #1 type tensor<2xi32> does not match the inferred type tensor<2xi64>}}
  %r, %i = graph.topk %a0 {k = 2} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  func.return %r : tensor<2xf32>
}

// -----

// cumprod: booleans
func.func @case_cumprod_bool(%a0: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'graph.cumprod' op expects a numeric tensor, got tensor<4xi1>}}
  %r = graph.cumprod %a0 {axis = 0} : tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

// cumprod: axis out of range
func.func @case_cumprod_axis(%a0: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error@+1 {{'graph.cumprod' op axis 2 is out of range for rank 2}}
  %r = graph.cumprod %a0 {axis = 2} : tensor<4x2xf32>
  func.return %r : tensor<4x2xf32>
}
