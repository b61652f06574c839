//
// Every function here is also run numerically (loop interpreter against numpy and the
// tensor-level interpreter) by tests/unit/test_tensor_to_loop.py, which needs a formula
// for each function name.

// Elementwise with a broadcast operand, computed straight into the output argument:
// destination-passing signature, no temporary, both loops parallel.
func.func @bias_relu(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %z : i1
    tensor.yield %r : f32
  } -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
