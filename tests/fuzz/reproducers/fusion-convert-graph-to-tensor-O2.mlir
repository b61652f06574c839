func.func @main(%a1: tensor<1x6x2xf32>, %a5: tensor<1x3x8x6xf32>) -> (tensor<1x6x2xf32>, tensor<1x1x1x1x2xf32>, tensor<1x1x1x1xf32>) {
  %v2 = graph.leaky_relu %a1 : (tensor<1x6x2xf32>) -> tensor<1x6x2xf32>
  %v3 = graph.unsqueeze %a1 {axes = array<i64: 1, 2>} : (tensor<1x6x2xf32>) -> tensor<1x1x1x6x2xf32>
  %v4 = graph.reduce_min %v3 {axes = array<i64: 0, 1, -3, 3>} : (tensor<1x1x1x6x2xf32>) -> tensor<1x1x1x1x2xf32>
  %v6 = graph.global_avg_pool2d %a5 : (tensor<1x3x8x6xf32>) -> tensor<1x3x1x1xf32>
  %v7 = graph.broadcast_to %v6 : (tensor<1x3x1x1xf32>) -> tensor<4x3x4x4xf32>
  %v8 = graph.reduce_max %v7 : (tensor<4x3x4x4xf32>) -> tensor<1x1x1x1xf32>
  func.return %v2, %v4, %v8 : tensor<1x6x2xf32>, tensor<1x1x1x1x2xf32>, tensor<1x1x1x1xf32>
}
