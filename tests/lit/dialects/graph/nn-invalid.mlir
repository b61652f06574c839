// Every verifier rule of the linear-algebra and nn ops has a case here; the messages name what is wrong.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

// matmul: a scalar lhs
func.func @case0(%a0: tensor<f32>, %a1: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.matmul' op lhs must have rank at least 1, got tensor<f32>}}
  %r = graph.matmul %a0, %a1 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// matmul: a scalar rhs
func.func @case1(%a0: tensor<3xf32>, %a1: tensor<f32>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.matmul' op rhs must have rank at least 1, got tensor<f32>}}
  %r = graph.matmul %a0, %a1 : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// matmul: mixed element types
func.func @case2(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf64>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.matmul' op operands must have the same element type, got tensor<2x3xf32>, tensor<3x5xf64>}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x5xf64>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// matmul: booleans
func.func @case3(%a0: tensor<2x3xi1>, %a1: tensor<3x5xi1>) -> tensor<2x5xi1> {
  // expected-error@+1 {{'graph.matmul' op expects integer or floating-point tensors, got tensor<2x3xi1>}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3xi1>, tensor<3x5xi1>) -> tensor<2x5xi1>
  func.return %r : tensor<2x5xi1>
}

// -----

// matmul: contraction
func.func @case4(%a0: tensor<2x3xf32>, %a1: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.matmul' op matmul contraction dimensions differ: [2x3] and [4x5]}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// matmul: contraction with a 1-D rhs
func.func @case5(%a0: tensor<2x3xf32>, %a1: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.matmul' op matmul contraction dimensions differ: [2x3] and [4]}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// matmul: batch dimensions
func.func @case6(%a0: tensor<2x3x4xf32>, %a1: tensor<3x4x5xf32>) -> tensor<3x3x5xf32> {
  // expected-error@+1 {{'graph.matmul' op matmul batch dimensions do not broadcast: [2x3x4] and [3x4x5]}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<3x3x5xf32>
  func.return %r : tensor<3x3x5xf32>
}

// -----

// matmul: declared result
func.func @case7(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf32>) -> tensor<2x6xf32> {
  // expected-error@+1 {{'graph.matmul' op result type tensor<2x6xf32> does not match the inferred type tensor<2x5xf32>}}
  %r = graph.matmul %a0, %a1 : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x6xf32>
  func.return %r : tensor<2x6xf32>
}

// -----

// matmul: 1-D times 1-D is a scalar
func.func @case8(%a0: tensor<3xf32>, %a1: tensor<3xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{'graph.matmul' op result type tensor<1xf32> does not match the inferred type tensor<f32>}}
  %r = graph.matmul %a0, %a1 : (tensor<3xf32>, tensor<3xf32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}

// -----

// gemm: integers
func.func @case9(%a0: tensor<2x3xi32>, %a1: tensor<3x5xi32>) -> tensor<2x5xi32> {
  // expected-error@+1 {{'graph.gemm' op expects a floating-point tensor, got tensor<2x3xi32>}}
  %r = graph.gemm %a0, %a1 : (tensor<2x3xi32>, tensor<3x5xi32>) -> tensor<2x5xi32>
  func.return %r : tensor<2x5xi32>
}

// -----

// gemm: mixed element types
func.func @case10(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf32>, %a2: tensor<5xf64>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op operands must have the same element type}}
  %r = graph.gemm %a0, %a1, %a2 : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<5xf64>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: rank of a
func.func @case11(%a0: tensor<2x3x1xf32>, %a1: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op operand a must have rank 2, got tensor<2x3x1xf32>}}
  %r = graph.gemm %a0, %a1 : (tensor<2x3x1xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: rank of b
func.func @case12(%a0: tensor<2x3xf32>, %a1: tensor<3xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op operand b must have rank 2, got tensor<3xf32>}}
  %r = graph.gemm %a0, %a1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: contraction
func.func @case13(%a0: tensor<2x3xf32>, %a1: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op gemm contraction dimensions differ: a [2x3] has K = 3, b [4x5] has K = 4}}
  %r = graph.gemm %a0, %a1 : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: contraction after the transpositions
func.func @case14(%a0: tensor<3x2xf32>, %a1: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op gemm contraction dimensions differ: transposed a [3x2] has K = 3, transposed b [3x5] has K = 5}}
  %r = graph.gemm %a0, %a1 {trans_a = true, trans_b = true} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: c must broadcast to (M, N) one way
func.func @case15(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf32>, %a2: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op c of shape [3x5] does not broadcast to the result shape (M, N) = [2x5]}}
  %r = graph.gemm %a0, %a1, %a2 : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: c of a higher rank
func.func @case16(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf32>, %a2: tensor<1x2x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op c of shape [1x2x5] does not broadcast}}
  %r = graph.gemm %a0, %a1, %a2 : (tensor<2x3xf32>, tensor<3x5xf32>, tensor<1x2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: alpha
func.func @case17(%a0: tensor<2x3xf32>, %a1: tensor<3x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.gemm' op alpha must be finite, got inf}}
  %r = graph.gemm %a0, %a1 {alpha = 0x7FF0000000000000 : f64} : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// gemm: declared result
func.func @case18(%a0: tensor<3x2xf32>, %a1: tensor<3x5xf32>) -> tensor<3x5xf32> {
  // expected-error@+1 {{'graph.gemm' op result type tensor<3x5xf32> does not match the inferred type tensor<2x5xf32>}}
  %r = graph.gemm %a0, %a1 {trans_a = true} : (tensor<3x2xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return %r : tensor<3x5xf32>
}

// -----

// conv2d: integers
func.func @case19(%a0: tensor<1x3x8x8xi32>, %a1: tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32> {
  // expected-error@+1 {{'graph.conv2d' op expects a floating-point tensor, got tensor<1x3x8x8xi32>}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  func.return %r : tensor<1x4x6x6xi32>
}

// -----

// conv2d: mixed element types
func.func @case20(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op operands must have the same element type}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: strides count
func.func @case21(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op strides must have 2 values, got 3}}
  %r = graph.conv2d %a0, %a1 {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: strides positive
func.func @case22(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op strides must be positive, got [0, 1]}}
  %r = graph.conv2d %a0, %a1 {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: pads count
func.func @case23(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op pads must have 4 values, got 2}}
  %r = graph.conv2d %a0, %a1 {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: pads non-negative
func.func @case24(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op pads must be non-negative, got [0, 0, -1, 0]}}
  %r = graph.conv2d %a0, %a1 {pads = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: dilations count
func.func @case25(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op dilations must have 2 values, got 1}}
  %r = graph.conv2d %a0, %a1 {dilations = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: dilations positive
func.func @case26(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op dilations must be positive, got [1, 0]}}
  %r = graph.conv2d %a0, %a1 {dilations = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: groups positive
func.func @case27(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op groups must be positive, got 0}}
  %r = graph.conv2d %a0, %a1 {groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: input rank
func.func @case28(%a0: tensor<3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op input must have rank 4, got tensor<3x8x8xf32>}}
  %r = graph.conv2d %a0, %a1 : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32>
  func.return %r : tensor<4x6x6xf32>
}

// -----

// conv2d: weight rank
func.func @case29(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op weight must have rank 4, got tensor<4x3x3xf32>}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: empty kernel
func.func @case30(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op weight kernel must be non-empty, got 0x3}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x3x0x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: channels
func.func @case31(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op input channels 3 do not match weight channels 4 x groups 1}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: channels with groups
func.func @case32(%a0: tensor<1x4x8x8xf32>, %a1: tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op input channels 4 do not match weight channels 1 x groups 2}}
  %r = graph.conv2d %a0, %a1 {groups = 2} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  func.return %r : tensor<1x6x6x6xf32>
}

// -----

// conv2d: output channels and groups
func.func @case33(%a0: tensor<1x4x8x8xf32>, %a1: tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op output channels 5 are not divisible by groups 2}}
  %r = graph.conv2d %a0, %a1 {groups = 2} : (tensor<1x4x8x8xf32>, tensor<5x2x3x3xf32>) -> tensor<1x5x6x6xf32>
  func.return %r : tensor<1x5x6x6xf32>
}

// -----

// conv2d: bias shape
func.func @case34(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>, %a2: tensor<5xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op bias must have shape [4], got tensor<5xf32>}}
  %r = graph.conv2d %a0, %a1, %a2 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: bias rank
func.func @case35(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>, %a2: tensor<1x4xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op bias must have shape [4], got tensor<1x4xf32>}}
  %r = graph.conv2d %a0, %a1, %a2 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: kernel taller than the padded input
func.func @case36(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x9x3xf32>) -> tensor<1x4x1x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op dilated kernel height 9 exceeds padded input height 8}}
  %r = graph.conv2d %a0, %a1 : (tensor<1x3x8x8xf32>, tensor<4x3x9x3xf32>) -> tensor<1x4x1x6xf32>
  func.return %r : tensor<1x4x1x6xf32>
}

// -----

// conv2d: dilated kernel wider than the padded input
func.func @case37(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{'graph.conv2d' op dilated kernel width 9 exceeds padded input width 8}}
  %r = graph.conv2d %a0, %a1 {dilations = array<i64: 1, 4>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d: declared result
func.func @case38(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  // expected-error@+1 {{'graph.conv2d' op result type tensor<1x4x4x4xf32> does not match the inferred type tensor<1x4x3x3xf32>}}
  %r = graph.conv2d %a0, %a1 {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %r : tensor<1x4x4x4xf32>
}

// -----

// max_pool2d: booleans
func.func @case39(%a0: tensor<1x3x8x8xi1>) -> tensor<1x3x7x7xi1> {
  // expected-error@+1 {{'graph.max_pool2d' op expects integer or floating-point tensors, got tensor<1x3x8x8xi1>}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xi1>) -> tensor<1x3x7x7xi1>
  func.return %r : tensor<1x3x7x7xi1>
}

// -----

// max_pool2d: input rank
func.func @case40(%a0: tensor<3x8x8xf32>) -> tensor<3x7x7xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op input must have rank 4, got tensor<3x8x8xf32>}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x7x7xf32>
  func.return %r : tensor<3x7x7xf32>
}

// -----

// max_pool2d: no kernel
func.func @case41(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op needs the property 'kernel'}}
  %r = graph.max_pool2d %a0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: kernel count
func.func @case42(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op kernel must have 2 values, got 3}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 3, 3, 3>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: kernel positive
func.func @case43(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op kernel must be positive, got [0, 3]}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 0, 3>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: strides positive
func.func @case44(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op strides must be positive, got [1, -2]}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>, strides = array<i64: 1, -2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: pads count
func.func @case45(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op pads must have 4 values, got 2}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>, pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: dilations positive
func.func @case46(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op dilations must be positive, got [0, 1]}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>, dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: a pad as wide as the kernel
func.func @case47(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op pads must be smaller than the kernel, got left pad 2 for kernel [2, 2]}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>, pads = array<i64: 0, 2, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: kernel larger than the padded input
func.func @case48(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op dilated kernel height 10 exceeds padded input height 9}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 10, 1>, pads = array<i64: 1, 0, 0, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// max_pool2d: ceil mode never starts a window in the right padding
func.func @case49(%a0: tensor<1x1x5x5xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'graph.max_pool2d' op result type tensor<1x1x4x4xf32> does not match the inferred type tensor<1x1x3x3xf32>}}
  %r = graph.max_pool2d %a0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true} : (tensor<1x1x5x5xf32>) -> tensor<1x1x4x4xf32>
  func.return %r : tensor<1x1x4x4xf32>
}

// -----

// avg_pool2d: integers
func.func @case50(%a0: tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32> {
  // expected-error@+1 {{'graph.avg_pool2d' op expects a floating-point tensor, got tensor<1x3x8x8xi32>}}
  %r = graph.avg_pool2d %a0 {kernel = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  func.return %r : tensor<1x3x7x7xi32>
}

// -----

// avg_pool2d: pads smaller than the kernel
func.func @case51(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op pads must be smaller than the kernel, got bottom pad 3 for kernel [3, 3]}}
  %r = graph.avg_pool2d %a0 {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// avg_pool2d: declared result
func.func @case52(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'graph.avg_pool2d' op result type tensor<1x3x4x4xf32> does not match the inferred type tensor<1x3x5x5xf32>}}
  %r = graph.avg_pool2d %a0 {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = true} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  func.return %r : tensor<1x3x4x4xf32>
}

// -----

// global_avg_pool2d: integers
func.func @case53(%a0: tensor<1x3x8x8xi32>) -> tensor<1x3x1x1xi32> {
  // expected-error@+1 {{'graph.global_avg_pool2d' op expects a floating-point tensor, got tensor<1x3x8x8xi32>}}
  %r = graph.global_avg_pool2d %a0 : (tensor<1x3x8x8xi32>) -> tensor<1x3x1x1xi32>
  func.return %r : tensor<1x3x1x1xi32>
}

// -----

// global_avg_pool2d: input rank
func.func @case54(%a0: tensor<1x3x8xf32>) -> tensor<1x3x1xf32> {
  // expected-error@+1 {{'graph.global_avg_pool2d' op input must have rank 4, got tensor<1x3x8xf32>}}
  %r = graph.global_avg_pool2d %a0 : (tensor<1x3x8xf32>) -> tensor<1x3x1xf32>
  func.return %r : tensor<1x3x1xf32>
}

// -----

// global_avg_pool2d: empty window
func.func @case55(%a0: tensor<1x3x0x8xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error@+1 {{'graph.global_avg_pool2d' op spatial dimensions must be non-empty, got 0x8}}
  %r = graph.global_avg_pool2d %a0 : (tensor<1x3x0x8xf32>) -> tensor<1x3x1x1xf32>
  func.return %r : tensor<1x3x1x1xf32>
}

// -----

// global_avg_pool2d: keeps H and W as 1
func.func @case56(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{'graph.global_avg_pool2d' op result type tensor<1x3xf32> does not match the inferred type tensor<1x3x1x1xf32>}}
  %r = graph.global_avg_pool2d %a0 : (tensor<1x3x8x8xf32>) -> tensor<1x3xf32>
  func.return %r : tensor<1x3xf32>
}

// -----

// batch_norm: integers
func.func @case57(%a0: tensor<1x3x8x8xi32>, %a1: tensor<3xi32>, %a2: tensor<3xi32>, %a3: tensor<3xi32>, %a4: tensor<3xi32>) -> tensor<1x3x8x8xi32> {
  // expected-error@+1 {{'graph.batch_norm' op expects a floating-point tensor, got tensor<1x3x8x8xi32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x3x8x8xi32>
  func.return %r : tensor<1x3x8x8xi32>
}

// -----

// batch_norm: mixed element types
func.func @case58(%a0: tensor<1x3x8x8xf32>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %a3: tensor<3xf32>, %a4: tensor<3xf64>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op operands must have the same element type}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf64>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// batch_norm: input rank
func.func @case59(%a0: tensor<3xf32>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %a3: tensor<3xf32>, %a4: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.batch_norm' op input must have rank at least 2, got tensor<3xf32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// batch_norm: epsilon
func.func @case60(%a0: tensor<1x3x8x8xf32>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %a3: tensor<3xf32>, %a4: tensor<3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op epsilon must be non-negative, got -1e-05}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 {epsilon = -1.0e-05} : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// batch_norm: scale
func.func @case61(%a0: tensor<1x3x8x8xf32>, %a1: tensor<4xf32>, %a2: tensor<3xf32>, %a3: tensor<3xf32>, %a4: tensor<3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op scale must have shape [3], got tensor<4xf32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// batch_norm: bias
func.func @case62(%a0: tensor<1x3x8x8xf32>, %a1: tensor<3xf32>, %a2: tensor<3x1xf32>, %a3: tensor<3xf32>, %a4: tensor<3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op bias must have shape [3], got tensor<3x1xf32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// batch_norm: mean
func.func @case63(%a0: tensor<1x3x8x8xf32>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %a3: tensor<1xf32>, %a4: tensor<3xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op mean must have shape [3], got tensor<1xf32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<3xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// batch_norm: var
func.func @case64(%a0: tensor<1x3x8x8xf32>, %a1: tensor<3xf32>, %a2: tensor<3xf32>, %a3: tensor<3xf32>, %a4: tensor<f32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.batch_norm' op var must have shape [3], got tensor<f32>}}
  %r = graph.batch_norm %a0, %a1, %a2, %a3, %a4 : (tensor<1x3x8x8xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// layer_norm: integers
func.func @case65(%a0: tensor<2x5xi32>, %a1: tensor<5xi32>) -> tensor<2x5xi32> {
  // expected-error@+1 {{'graph.layer_norm' op expects a floating-point tensor, got tensor<2x5xi32>}}
  %r = graph.layer_norm %a0, %a1 : (tensor<2x5xi32>, tensor<5xi32>) -> tensor<2x5xi32>
  func.return %r : tensor<2x5xi32>
}

// -----

// layer_norm: mixed element types
func.func @case66(%a0: tensor<2x5xf32>, %a1: tensor<5xf16>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.layer_norm' op operands must have the same element type}}
  %r = graph.layer_norm %a0, %a1 : (tensor<2x5xf32>, tensor<5xf16>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// layer_norm: a scalar input
func.func @case67(%a0: tensor<f32>, %a1: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'graph.layer_norm' op input must have rank at least 1, got tensor<f32>}}
  %r = graph.layer_norm %a0, %a1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// layer_norm: axis
func.func @case68(%a0: tensor<2x5xf32>, %a1: tensor<5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.layer_norm' op axis 2 is out of range for rank 2}}
  %r = graph.layer_norm %a0, %a1 {axis = 2} : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// layer_norm: epsilon
func.func @case69(%a0: tensor<2x5xf32>, %a1: tensor<5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.layer_norm' op epsilon must be non-negative, got -1.0}}
  %r = graph.layer_norm %a0, %a1 {epsilon = -1.0} : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// layer_norm: scale
func.func @case70(%a0: tensor<2x5xf32>, %a1: tensor<4xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.layer_norm' op scale of shape [4] does not broadcast to the input shape [2x5]}}
  %r = graph.layer_norm %a0, %a1 : (tensor<2x5xf32>, tensor<4xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// layer_norm: bias
func.func @case71(%a0: tensor<2x5xf32>, %a1: tensor<5xf32>, %a2: tensor<2x2x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.layer_norm' op bias of shape [2x2x5] does not broadcast to the input shape [2x5]}}
  %r = graph.layer_norm %a0, %a1, %a2 : (tensor<2x5xf32>, tensor<5xf32>, tensor<2x2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// softmax: integers
func.func @case72(%a0: tensor<2x5xi32>) -> tensor<2x5xi32> {
  // expected-error@+1 {{'graph.softmax' op expects a floating-point tensor, got tensor<2x5xi32>}}
  %r = graph.softmax %a0 : (tensor<2x5xi32>) -> tensor<2x5xi32>
  func.return %r : tensor<2x5xi32>
}

// -----

// softmax: a scalar
func.func @case73(%a0: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'graph.softmax' op input must have rank at least 1, got tensor<f32>}}
  %r = graph.softmax %a0 : (tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

// softmax: axis
func.func @case74(%a0: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.softmax' op axis -3 is out of range for rank 2}}
  %r = graph.softmax %a0 {axis = -3} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// log_softmax: axis
func.func @case75(%a0: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // expected-error@+1 {{'graph.log_softmax' op axis 2 is out of range for rank 2}}
  %r = graph.log_softmax %a0 {axis = 2} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// log_softmax: integers
func.func @case76(%a0: tensor<2x5xi64>) -> tensor<2x5xi64> {
  // expected-error@+1 {{'graph.log_softmax' op expects a floating-point tensor, got tensor<2x5xi64>}}
  %r = graph.log_softmax %a0 : (tensor<2x5xi64>) -> tensor<2x5xi64>
  func.return %r : tensor<2x5xi64>
}

// -----

// lrn: integers
func.func @case77(%a0: tensor<1x3x8x8xi32>) -> tensor<1x3x8x8xi32> {
  // expected-error@+1 {{'graph.lrn' op expects a floating-point tensor, got tensor<1x3x8x8xi32>}}
  %r = graph.lrn %a0 {size = 3} : (tensor<1x3x8x8xi32>) -> tensor<1x3x8x8xi32>
  func.return %r : tensor<1x3x8x8xi32>
}

// -----

// lrn: input rank
func.func @case78(%a0: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'graph.lrn' op input must have rank at least 2, got tensor<3xf32>}}
  %r = graph.lrn %a0 {size = 3} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// lrn: no size
func.func @case79(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.lrn' op needs the property 'size'}}
  %r = graph.lrn %a0 : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// lrn: size
func.func @case80(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.lrn' op size must be positive, got 0}}
  %r = graph.lrn %a0 {size = 0} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}

// -----

// lrn: beta
func.func @case81(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.lrn' op beta must be finite, got inf}}
  %r = graph.lrn %a0 {size = 3, beta = 0x7FF0000000000000 : f64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}
