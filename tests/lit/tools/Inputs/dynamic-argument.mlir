func.func @g(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %s = graph.add %x, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %r = graph.relu %s : tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
