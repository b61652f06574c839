// lrn: beta
func.func @case81(%a0: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  // expected-error@+1 {{'graph.lrn' op beta must be finite, got inf}}
  %r = graph.lrn %a0 {size = 3, beta = 0x7FF0000000000000 : i8} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
  func.return %r : tensor<1x3x8x8xf32>
}
