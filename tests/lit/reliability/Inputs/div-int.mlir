func.func @f(%x: tensor<6xi32>, %y: tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>) {
  %q = graph.div %x, %y : tensor<6xi32>
  %p = graph.mul %q, %y : tensor<6xi32>
  %r = graph.sub %x, %p : tensor<6xi32>
  func.return %q, %r : tensor<6xi32>, tensor<6xi32>
}
