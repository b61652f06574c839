func.func @broadcast_sum(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = graph.broadcast_to %x : (tensor<4xf32>) -> tensor<3x4xf32>
  %s = graph.reduce_sum %b {axes = array<i64: 0>, keepdims = false} : (tensor<3x4xf32>) -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}
func.func @gather_sum(%x: tensor<5x4xf32>) -> tensor<3xf32> {
  %i = graph.constant dense<[3, 0, -1]> : tensor<3xi64>
  %g = graph.gather %x, %i {axis = 1} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<5x3xf32>
  %s = graph.reduce_sum %g {axes = array<i64: 0>, keepdims = false} : (tensor<5x3xf32>) -> tensor<3xf32>
  func.return %s : tensor<3xf32>
}
func.func @edge_pad_sum(%x: tensor<3x4xf32>) -> tensor<6xf32> {
  %p = graph.pad %x {pads = array<i64: 1, 0, 2, 0>, mode = "edge"} : (tensor<3x4xf32>) -> tensor<6x4xf32>
  %s = graph.reduce_sum %p {axes = array<i64: 1>, keepdims = false} : (tensor<6x4xf32>) -> tensor<6xf32>
  func.return %s : tensor<6xf32>
}
