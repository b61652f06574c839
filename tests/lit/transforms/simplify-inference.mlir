// simplify-inference: batch norm folded into a preceding conv2d or gemm with constant
// weights, otherwise rewritten as one per-channel mul and add; dropout and identity go.
// The parameters below make every folded value exact (eps = 0, var a square).
// RUN: strati-opt %s --split-input-file -p simplify-inference | filecheck %s

// s = scale / sqrt(var + eps) = [2, 0.5, 2]; w' = w * s; b' = (b - mean) * s + bias.
// CHECK-LABEL: func.func @conv_bn(
// CHECK-NEXT: [[W:%.*]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]], {{\[\[\[}}6.000000e+00]]]]> : tensor<3x1x1x1xf32>
// CHECK-NEXT: [[B:%.*]] = graph.constant dense<[1.000000e+00, 1.500000e+00, 7.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: [[C:%.*]] = graph.conv2d %x, [[W]], [[B]] {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<3x1x1x1xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
// CHECK-NEXT: [[R:%.*]] = graph.relu [[C]]
// CHECK-NEXT: func.return [[R]]
// CHECK-NOT: graph.batch_norm
func.func @conv_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x3x6x6xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]]]> : tensor<3x1x1x1xf32>
  %b = graph.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %scale = graph.constant dense<[2.0, 1.0, 1.0]> : tensor<3xf32>
  %bias = graph.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %mean = graph.constant dense<[0.5, 1.0, -1.0]> : tensor<3xf32>
  %var = graph.constant dense<[1.0, 4.0, 0.25]> : tensor<3xf32>
  %c = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>, tensor<3x1x1x1xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %n = graph.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x3x6x6xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %r = graph.relu %n : tensor<1x3x6x6xf32>
  func.return %r : tensor<1x3x6x6xf32>
}

// -----

// A conv without bias gets one: b' = (0 - mean) * s + bias.
// CHECK-LABEL: func.func @conv_no_bias_bn(
// CHECK-NEXT: [[W:%.*]] = graph.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT: [[B:%.*]] = graph.constant dense<[-1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: [[C:%.*]] = graph.conv2d %x, [[W]], [[B]] : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: func.return [[C]]
func.func @conv_no_bias_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %scale = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %n = graph.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %n : tensor<1x2x4x4xf32>
}

// -----

// gemm with trans_b: the rows of b (the output columns) scale by s = [1, 2, 0.5, 1];
// c' = (beta * c - mean) * s + bias, and beta becomes 1.
// CHECK-LABEL: func.func @gemm_bn(
// CHECK-NEXT: [[B:%.*]] = graph.constant dense<{{\[}}[1.000000e+00, 1.000000e+00], [2.000000e+00, 4.000000e+00], [5.000000e-01, 5.000000e-01], [1.000000e+00, 0.000000e+00]]> : tensor<4x2xf32>
// CHECK-NEXT: [[C:%.*]] = graph.constant dense<[2.000000e+00, 2.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: [[G:%.*]] = graph.gemm %a, [[B]], [[C]] {trans_b = true} : (tensor<3x2xf32>, tensor<4x2xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: func.return [[G]]
func.func @gemm_bn(%a: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %b = graph.constant dense<[[1.0, 1.0], [1.0, 2.0], [1.0, 1.0], [1.0, 0.0]]> : tensor<4x2xf32>
  %c = graph.constant dense<1.0> : tensor<4xf32>
  %scale = graph.constant dense<[1.0, 2.0, 0.5, 1.0]> : tensor<4xf32>
  %bias = graph.constant dense<[0.0, 0.0, 0.0, 1.0]> : tensor<4xf32>
  %mean = graph.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %var = graph.constant dense<1.0> : tensor<4xf32>
  %g = graph.gemm %a, %b, %c {beta = 2.0, trans_b = true} : (tensor<3x2xf32>, tensor<4x2xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %n = graph.batch_norm %g, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<3x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %n : tensor<3x4xf32>
}

// -----

// Without trans_b the columns of b scale; without c, c' = bias - mean * s.
// CHECK-LABEL: func.func @gemm_no_trans_bn(
// CHECK-NEXT: [[B:%.*]] = graph.constant dense<{{\[}}[2.000000e+00, 5.000000e-01], [4.000000e+00, 1.500000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT: [[C:%.*]] = graph.constant dense<[-2.000000e+00, 1.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: [[G:%.*]] = graph.gemm %a, [[B]], [[C]] {alpha = 3.0} : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: func.return [[G]]
func.func @gemm_no_trans_bn(%a: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %b = graph.constant dense<[[1.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %scale = graph.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %var = graph.constant dense<1.0> : tensor<2xf32>
  %g = graph.gemm %a, %b {alpha = 3.0} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %n = graph.batch_norm %g, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  func.return %n : tensor<3x2xf32>
}

// -----

// A standalone batch norm: x * s + (bias - mean * s), constants shaped (C, 1, 1).
// CHECK-LABEL: func.func @standalone_bn(
// CHECK-NEXT: [[S:%.*]] = graph.constant dense<{{\[\[\[}}2.000000e+00]], {{\[\[}}5.000000e-01]], {{\[\[}}2.000000e+00]]]> : tensor<3x1x1xf32>
// CHECK-NEXT: [[T:%.*]] = graph.constant dense<{{\[\[\[}}-1.000000e+00]], {{\[\[}}5.000000e-01]], {{\[\[}}1.000000e+00]]]> : tensor<3x1x1xf32>
// CHECK-NEXT: [[M:%.*]] = graph.mul %x, [[S]] : (tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x4xf32>
// CHECK-NEXT: [[A:%.*]] = graph.add [[M]], [[T]] : (tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x4xf32>
// CHECK-NEXT: func.return [[A]]
func.func @standalone_bn(%x: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %scale = graph.constant dense<[2.0, 1.0, 1.0]> : tensor<3xf32>
  %bias = graph.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32>
  %mean = graph.constant dense<[0.5, 1.0, -1.0]> : tensor<3xf32>
  %var = graph.constant dense<[1.0, 4.0, 0.25]> : tensor<3xf32>
  %n = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  func.return %n : tensor<2x3x4x4xf32>
}

// -----

// On a 2-D input the per-channel constants are vectors.
// CHECK-LABEL: func.func @standalone_bn_2d(
// CHECK-NEXT: [[S:%.*]] = graph.constant dense<[2.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: [[T:%.*]] = graph.constant dense<[-1.000000e+00, 5.000000e-01]> : tensor<2xf32>
// CHECK-NEXT: [[M:%.*]] = graph.mul %x, [[S]] : (tensor<5x2xf32>, tensor<2xf32>) -> tensor<5x2xf32>
// CHECK-NEXT: graph.add [[M]], [[T]] : (tensor<5x2xf32>, tensor<2xf32>) -> tensor<5x2xf32>
func.func @standalone_bn_2d(%x: tensor<5x2xf32>) -> tensor<5x2xf32> {
  %scale = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %n = graph.batch_norm %x, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<5x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<5x2xf32>
  func.return %n : tensor<5x2xf32>
}

// -----

// The conv has a second user, so its weights must stay: the batch norm becomes mul + add.
// CHECK-LABEL: func.func @conv_two_users(
// CHECK-NEXT: [[W:%.*]] = graph.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT: [[C:%.*]] = graph.conv2d %x, [[W]] :
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: [[M:%.*]] = graph.mul [[C]],
// CHECK-NEXT: [[A:%.*]] = graph.add [[M]],
// CHECK-NEXT: func.return [[A]], [[C]]
func.func @conv_two_users(%x: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %scale = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %n = graph.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %n, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// Conv weights that are function arguments (as in examples/cnn.mlir): no fold into the conv.
// CHECK-LABEL: func.func @conv_weight_argument(
// CHECK-NEXT: [[C:%.*]] = graph.conv2d %x, %w :
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: [[M:%.*]] = graph.mul [[C]],
// CHECK-NEXT: graph.add [[M]],
func.func @conv_weight_argument(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %scale = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %n = graph.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %n : tensor<1x2x4x4xf32>
}

// -----

// A parameter that is not a constant: nothing is folded.
// CHECK-LABEL: func.func @bn_argument_scale(
// CHECK: [[C:%.*]] = graph.conv2d %x, [[W:%[a-z0-9_]+]] :
// CHECK-NEXT: [[N:%.*]] = graph.batch_norm [[C]], %scale,
// CHECK-NEXT: func.return [[N]]
// CHECK-NOT: graph.mul
func.func @bn_argument_scale(%x: tensor<1x1x4x4xf32>, %scale: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %n = graph.batch_norm %c, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %n : tensor<1x2x4x4xf32>
}

// -----

// Dropout and identity go, also between a conv and its batch norm.
// CHECK-LABEL: func.func @dropout_identity(
// CHECK-NEXT: graph.constant
// CHECK-NEXT: graph.constant
// CHECK-NEXT: [[C:%.*]] = graph.conv2d %x,
// CHECK-NEXT: func.return [[C]]
func.func @dropout_identity(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = graph.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %scale = graph.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %bias = graph.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %mean = graph.constant dense<[0.5, 1.0]> : tensor<2xf32>
  %var = graph.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %c = graph.conv2d %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %d = graph.dropout %c {ratio = 0.1} : tensor<1x2x4x4xf32>
  %i = graph.identity %d : tensor<1x2x4x4xf32>
  %n = graph.batch_norm %i, %scale, %bias, %mean, %var {epsilon = 0.0} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  func.return %n : tensor<1x2x4x4xf32>
}
