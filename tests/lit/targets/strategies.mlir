// The CPU's two strategies for graph.conv2d, chosen per op by cost (--print-strategy says
// which and why): a 1x1 convolution is one matmul per image over h*w, a 3x3 one stays direct.
// RUN: strati-opt %s --emit=tensor --print-strategy 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: strati-opt %s --emit=tensor | filecheck %s
// RUN: strati-run %s --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// WHY: strategy: graph.conv2d -> cpu/1x1_as_matmul: cheapest of 1x1_as_matmul {{[0-9.e+]+}}, direct {{[0-9.e+]+}} (at {{.*}}strategies.mlir:[[# @LINE + 14]]:3)
// WHY: strategy: graph.conv2d -> cpu/direct: the only one that applies (cost {{[0-9.e+]+}}); not applicable: 1x1_as_matmul (at {{.*}}strategies.mlir:[[# @LINE + 14]]:3)
// CHECK-LABEL: func.func @convs(
// The pointwise conv: the image flattened, loops (n, oc, p, ic), the product reshaped back.
// CHECK: [[X3:%[0-9]+]] = tensor.reshape %x : (tensor<1x16x7x7xf32>) -> tensor<1x16x49xf32>
// CHECK: [[W2:%[0-9]+]] = tensor.reshape %w1 : (tensor<32x16x1x1xf32>) -> tensor<32x16xf32>
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins([[X3]], [[W2]] : tensor<1x16x49xf32>, tensor<32x16xf32>)
// CHECK: tensor.reshape {{%[0-9]+}} : (tensor<1x32x49xf32>) -> tensor<1x32x7x7xf32>
// The 3x3 conv: the op's own seven loops over the padded input.
// CHECK: tensor.pad
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// EXEC: check output0: {{.*}}: ok

func.func @convs(%x: tensor<1x16x7x7xf32>, %w1: tensor<32x16x1x1xf32>, %b1: tensor<32xf32>, %w3: tensor<8x32x3x3xf32>) -> tensor<1x8x7x7xf32> {
  %y = graph.conv2d %x, %w1, %b1 : (tensor<1x16x7x7xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  %z = graph.conv2d %y, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<8x32x3x3xf32>) -> tensor<1x8x7x7xf32>
  func.return %z : tensor<1x8x7x7xf32>
}
