func.func @g(%a: tensor<64x3xf32>) -> tensor<64x3xf32> {
  %c = graph.constant dense<2.5> : tensor<64x3xf32>
  %h = graph.constant dense<"0x0000C03F"> : tensor<3xf32>
  %y = graph.mul %a, %c : tensor<64x3xf32>
  %z = graph.add %y, %h : (tensor<64x3xf32>, tensor<3xf32>) -> tensor<64x3xf32>
  func.return %z : tensor<64x3xf32>
}
