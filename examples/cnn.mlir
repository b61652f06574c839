builtin.module {
  func.func @cnn(%x: tensor<1x3x16x16xf32>, %k1: tensor<8x3x3x3xf32>, %k2: tensor<16x8x3x3xf32>, %c2: tensor<16xf32>, %w: tensor<10x16xf32>, %b: tensor<10xf32>) -> tensor<1x10xf32> {
    %gamma = graph.constant dense<[1.000000e+00, 5.000000e-01, 2.000000e+00, 1.500000e+00, 7.500000e-01, 1.250000e+00, 1.000000e+00, 2.500000e-01]> : tensor<8xf32>
    %beta = graph.constant dense<[0.000000e+00, 1.000000e-01, -1.000000e-01, 2.000000e-01, 0.000000e+00, -2.000000e-01, 5.000000e-02, 0.000000e+00]> : tensor<8xf32>
    %mean = graph.constant dense<[1.000000e-01, 0.000000e+00, -1.000000e-01, 2.000000e-01, 3.000000e-01, -3.000000e-01, 0.000000e+00, 5.000000e-02]> : tensor<8xf32>
    %var = graph.constant dense<[1.000000e+00, 2.000000e+00, 5.000000e-01, 1.500000e+00, 1.000000e+00, 3.000000e+00, 2.500000e+00, 7.500000e-01]> : tensor<8xf32>
    %c = graph.conv2d %x, %k1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
    %n = graph.batch_norm %c, %gamma, %beta, %mean, %var : (tensor<1x8x16x16xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x16x16xf32>
    %r = graph.relu %n : tensor<1x8x16x16xf32>
    %p = graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x16x16xf32>) -> tensor<1x8x8x8xf32>
    %c2_1 = graph.conv2d %p, %k2, %c2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<16x8x3x3xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
    %r2 = graph.relu %c2_1 : tensor<1x16x8x8xf32>
    %g = graph.global_avg_pool2d %r2 : (tensor<1x16x8x8xf32>) -> tensor<1x16x1x1xf32>
    %f = graph.flatten %g : (tensor<1x16x1x1xf32>) -> tensor<1x16xf32>
    %z = graph.gemm %f, %w, %b {trans_b = true} : (tensor<1x16xf32>, tensor<10x16xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    %y = graph.softmax %z : tensor<1x10xf32>
    func.return %y : tensor<1x10xf32>
  }
}
