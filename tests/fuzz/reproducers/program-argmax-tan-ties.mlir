func.func @main(%a1: tensor<4x1x1xf32>, %a6: tensor<3xf32>, %a7: tensor<3x6xf32>) -> (tensor<1x1x1xf32>, tensor<f32>) {
  %v2 = graph.reduce_max %a1 {axes = array<i64: 0, 1>} : (tensor<4x1x1xf32>) -> tensor<1x1x1xf32>
  %v3 = graph.reduce_mean %v2 {axes = array<i64: 1>} : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %v4 = graph.maximum %v3, %v2 : (tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %v5 = graph.reduce_mean %v4 {axes = array<i64: 0, 1, 2>} : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %v8 = graph.matmul %a6, %a7 : (tensor<3xf32>, tensor<3x6xf32>) -> tensor<6xf32>
  %v9 = graph.clip %v8 {min = -10.0, max = 10.0} : (tensor<6xf32>) -> tensor<6xf32>
  %v10 = graph.cosh %v9 : (tensor<6xf32>) -> tensor<6xf32>
  %v11 = graph.clip %v10 {min = -1.2, max = 1.2} : (tensor<6xf32>) -> tensor<6xf32>
  %v12 = graph.tan %v11 : (tensor<6xf32>) -> tensor<6xf32>
  %v13 = graph.argmax %v12 {axis = -1, keepdims = false} : (tensor<6xf32>) -> tensor<i64>
  %v14 = graph.cast %v13 : (tensor<i64>) -> tensor<f32>
  func.return %v5, %v14 : tensor<1x1x1xf32>, tensor<f32>
}
