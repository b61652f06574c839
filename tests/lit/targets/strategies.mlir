// The CPU's strategies for graph.conv2d, chosen per op by cost (--print-strategy says which
// and why), here on a fixed AVX-512 machine (16 lanes): a 1x1 convolution with output
// channels to fill the vectors is blocked (channels in vectors, see cpu-schedule-conv.mlir);
// with fewer output channels than a vector it is not: a strided one gathers its patches first
// (im2col), since its direct form is scalar; one with long rows stays direct.
// RUN: strati-opt %s --emit=tensor --print-strategy 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: strati-opt %s --emit=tensor | filecheck %s
// RUN: sed -e 's/attributes {hw.target = .*>} {/{/' %s | strati-run - --entry convs --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// With AVX2 (8 lanes, a register tile of 5 pixels x 2 vectors) the pointwise conv's rows of 7
// would take tiles of 4 and 3 pixels: it computes on its image as one row of 49 (a view), in
// tiles of 5, and a view gives the result its rows back.
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --emit=tensor | filecheck %s --check-prefix=ROW
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-run - --entry convs --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// ROW: tensor.reshape %x : (tensor<1x16x7x7xf32>) -> tensor<1x16x1x49xf32>
// ROW: tensor.generic {{.*}} outs({{.*}} : tensor<1x2x1x49x16xf32>) attrs = {schedule.ow_tile = 5 : i64, schedule.oh_tile = 1 : i64}
// ROW: %y = tensor.reshape {{%[0-9]+}} : (tensor<1x2x16x1x49xf32>) -> tensor<1x32x7x7xf32>
// RUN: sed -e 's/attributes {hw.target = .*>} {/{/' %s | strati-run - --entry wide --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// WHY: strategy: graph.conv2d -> cpu/blocked: cheapest of blocked {{[0-9.e+]+}}, 1x1_as_matmul {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: depthwise, im2col (at {{.*}}strategies.mlir:[[# @LINE + 28]]:3)
// WHY: strategy: graph.conv2d -> cpu/im2col: cheapest of im2col {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, depthwise (at {{.*}}strategies.mlir:[[# @LINE + 28]]:3)
// WHY: strategy: graph.conv2d -> cpu/direct: cheapest of direct {{[0-9.e+]+}}, im2col {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, depthwise (at {{.*}}strategies.mlir:[[# @LINE + 32]]:3)
// CHECK-LABEL: func.func @convs(
// The pointwise conv, blocked by 32 output channels (two vectors): the weights (an argument,
// so at run time) re-laid-out as [oc/32][kh][kw][ic][32], the output accumulated from the
// bias in [n][oc/32][oh][ow][32] over loops (n, ob, oh, ow, kh, kw, ic, c), then copied back.
// CHECK: [[W5:%[0-9]+]] = tensor.reshape %w1 : (tensor<32x16x1x1xf32>) -> tensor<1x32x16x1x1xf32>
// CHECK: [[WP:%[0-9]+]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3, d1, d2)>, {{.*}} ins([[W5]] : {{.*}}) outs({{.*}} : tensor<1x1x1x16x32xf32>)
// CHECK: tensor.reshape %b1 : (tensor<32xf32>) -> tensor<1x32xf32>
// CHECK: [[Y:%[0-9]+]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d6, (d2 + d4), (d3 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d4, d5, d6, d7)>, affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d7)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "parallel"]} ins(%x, [[WP]] : tensor<1x16x7x7xf32>, tensor<1x1x1x16x32xf32>)
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d2, d3)>], {{.*}} ins([[Y]] : tensor<1x1x7x7x32xf32>) outs({{.*}} : tensor<1x1x32x7x7xf32>)
// CHECK: tensor.reshape {{%[0-9]+}} : (tensor<1x1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
// The strided conv (8 output channels, half a vector: not blocked): the padded input's
// patches (ic, kh, kw, oh, ow) copied, then the matmul.
// CHECK: [[PAD:%[0-9]+]] = tensor.pad %y
// CHECK: [[PATCHES:%[0-9]+]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d4 * 2) + d2), ((d5 * 2) + d3))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>]
// CHECK: [[COLS:%[0-9]+]] = tensor.reshape [[PATCHES]] : (tensor<1x32x3x3x4x4xf32>) -> tensor<1x288x16xf32>
// CHECK: tensor.reshape %w3 : (tensor<8x32x3x3xf32>) -> tensor<8x288xf32>
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins([[COLS]],
// CHECK-LABEL: func.func @wide(
// The direct form: the op's own seven loops over the padded input.
// CHECK: tensor.pad
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
func.func @convs(%x: tensor<1x16x7x7xf32>, %w1: tensor<32x16x1x1xf32>, %b1: tensor<32xf32>, %w3: tensor<8x32x3x3xf32>) -> tensor<1x8x4x4xf32> {
  %y = graph.conv2d %x, %w1, %b1 : (tensor<1x16x7x7xf32>, tensor<32x16x1x1xf32>, tensor<32xf32>) -> tensor<1x32x7x7xf32>
  %z = graph.conv2d %y, %w3 {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<8x32x3x3xf32>) -> tensor<1x8x4x4xf32>
  func.return %z : tensor<1x8x4x4xf32>
}

func.func @wide(%x: tensor<1x4x6x64xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x64xf32> {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x64xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x64xf32>
  func.return %y : tensor<1x8x6x64xf32>
}
}
