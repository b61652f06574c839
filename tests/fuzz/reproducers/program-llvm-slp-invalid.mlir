func.func @main(%a1: tensor<6x3x5xf32>, %a2: tensor<4x3x3xf32>) -> tensor<4x3x3xf32> {
  %v3 = graph.log_softmax %a2 {axis = 0} : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %v4 = graph.clip %v3 {min = -0.99, max = 0.99} : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %v5 = graph.asin %v4 : (tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  func.return %v5 : tensor<4x3x3xf32>
}
