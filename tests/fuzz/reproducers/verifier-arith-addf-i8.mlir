// The destination of the insert is read again afterwards: it is copied, not overwritten.
func.func @insert_keeps_dest(%x: tensor<3x3xf32>, %s: tensor<1x2xf32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  %d = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.addf %a, %a : i8
    tensor.yield %t : f32
  } -> tensor<3x3xf32>
  %i = tensor.insert_slice %s, %d {offsets = array<i64: 2, 2>, strides = array<i64: 1, -2>} : (tensor<1x2xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  %e2 = tensor.empty() : tensor<3x3xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%i, %d : tensor<3x3xf32>, tensor<3x3xf32>) outs(%e2 : tensor<3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.subf %a, %b : f32
    tensor.yield %t : f32
  } -> tensor<3x3xf32>
  func.return %r : tensor<3x3xf32>
}
