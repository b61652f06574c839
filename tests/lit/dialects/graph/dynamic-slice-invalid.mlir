// Every verifier rule of graph.dynamic_slice has a case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// float starts
func.func @case0(%x: tensor<5xf32>, %s: tensor<1xf32>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op starts must be a rank-1 integer tensor, got tensor<1xf32>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5xf32>, tensor<1xf32>, tensor<1xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// rank-0 ends
func.func @case1(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<i64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op ends must be a rank-1 integer tensor, got tensor<i64>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5xf32>, tensor<1xi64>, tensor<i64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// a dynamic number of starts
func.func @case2(%x: tensor<5xf32>, %s: tensor<?xi64>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op starts must have a static length, got tensor<?xi64>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5xf32>, tensor<?xi64>, tensor<1xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// starts and ends of different lengths
func.func @case3(%x: tensor<5x4xf32>, %s: tensor<1xi64>, %e: tensor<2xi64>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op starts has 1 entries but ends has 2}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5x4xf32>, tensor<1xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// more starts than dimensions
func.func @case4(%x: tensor<5xf32>, %s: tensor<2xi64>, %e: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op starts has 2 entries for rank 1}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// axes of the wrong length
func.func @case5(%x: tensor<5x4xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op starts has 1 entries but axes has 2}}
  %r = graph.dynamic_slice %x, %s, %e {axes = array<i64: 0, 1>} : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// a zero step
func.func @case6(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op steps [0] contain a zero step}}
  %r = graph.dynamic_slice %x, %s, %e {steps = array<i64: 0>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// an axis out of range
func.func @case7(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op axes [1]: axis 1 is out of range for rank 1}}
  %r = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// the result's rank differs
func.func @case8(%x: tensor<5x4xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op the result must have the rank of the input (2), got tensor<2xf32>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// a dynamic extent along a sliced axis
func.func @case9(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<?xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op the result's extent along sliced axis 0 must be static, got tensor<?xf32>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  func.return %r : tensor<?xf32>
}

// -----

// an extent the dimension cannot give with this step
func.func @case10(%x: tensor<5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<4xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op a slice of 4 elements along axis 0 does not fit a dimension of 5 with step -2}}
  %r = graph.dynamic_slice %x, %s, %e {steps = array<i64: -2>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

// an unsliced dimension changed
func.func @case11(%x: tensor<5x4xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'graph.dynamic_slice' op result type tensor<2x3xf32> does not match the inferred type tensor<2x4xf32>}}
  %r = graph.dynamic_slice %x, %s, %e : (tensor<5x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
