func.func @main(%a1: tensor<f32>, %a2: tensor<1x3x6x6xf32>, %a9: tensor<3x2x2x3xf32>) -> (tensor<1x3x0xf32>, tensor<3x2x2x3xf32>, tensor<3x1xf32>) {
  %v3 = graph.avg_pool2d %a2 {kernel = array<i64: 1, 1>, count_include_pad = true} : (tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %v4:2 = graph.split %v3 {axis = 2} : (tensor<1x3x6x6xf32>) -> (tensor<1x3x3x6xf32>, tensor<1x3x3x6xf32>)
  %v6 = graph.slice %v4#1 {starts = array<i64: -2>, ends = array<i64: -2>, axes = array<i64: 3>, steps = array<i64: 2>} : (tensor<1x3x3x6xf32>) -> tensor<1x3x3x0xf32>
  %c7 = graph.constant dense<"0x00000000000000000100000000000000"> : tensor<1x2xi64>
  %v8 = graph.gather_nd %v6, %c7 : (tensor<1x3x3x0xf32>, tensor<1x2xi64>) -> tensor<1x3x0xf32>
  %v10 = graph.clip %a9 {min = -1.2, max = 1.2} : (tensor<3x2x2x3xf32>) -> tensor<3x2x2x3xf32>
  %v11 = graph.tan %v10 : (tensor<3x2x2x3xf32>) -> tensor<3x2x2x3xf32>
  %v12 = graph.reduce_max %v6 {axes = array<i64: 0, 3>, keepdims = false} : (tensor<1x3x3x0xf32>) -> tensor<3x3xf32>
  %c13 = graph.constant dense<"0x2DDE983F4908843E2A9A093F"> : tensor<3x1xf32>
  %v14 = graph.matmul %v12, %c13 : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  func.return %v8, %v11, %v14 : tensor<1x3x0xf32>, tensor<3x2x2x3xf32>, tensor<3x1xf32>
}
