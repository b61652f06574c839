builtin.module {
  func.func @main(%a1: tensor<1x3x3xf32>) -> tensor<1x3x1xf32> {
    %v2 = graph.resize %a1 {nearest_mode = "round_prefer_ceil"} : (tensor<1x3x3xf32>) -> tensor<1x3x1xf32>
    %v4 = graph.argmax %v2 {axis = -3} : (tensor<1x3x1xf32>) -> tensor<1x3x1xi64>
    %v5 = graph.cast %v4 : (tensor<1x3x1xi64>) -> tensor<1x3x1xf32>
    func.return %v5 : tensor<1x3x1xf32>
  }
}
