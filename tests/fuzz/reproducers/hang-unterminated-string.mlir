func.func @concat_scalar(%a: tensor<f32>, %b: tensor<f32>) -> tensor<2xf32> {
  // expected-error@+1 {{'graph.concat' op cannot concatenate rank-0 tensors}}
  %r = graph.concat %a, %b {axis = 0} ": (tensor<f32>, tensor<f32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}
