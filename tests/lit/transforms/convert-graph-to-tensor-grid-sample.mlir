// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// grid_sample linear, zeros padding, 2-D: one generic over the result; each element extracts its
// two grid components (the last first: it addresses the last axis), denormalises them
// ((g + 1) * d - 1) / 2, takes floor and floor + 1 with weights 1 - t and t, and sums the four
// corners, each selected to 0 when outside, the last axis innermost, in f64, rounded to f32.
// CHECK-LABEL: func.func @linear_zeros(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(
// CHECK: [[N:%.*]] = tensor.index 0 : index
// CHECK: [[C:%.*]] = tensor.index 1 : index
// CHECK: tensor.extract %g[[[N]], {{%.*}}, {{%.*}}, {{%.*}}] : tensor<2x4x6x2xf32>
// CHECK: math.floor
// CHECK: tensor.extract %g[[[N]], {{%.*}}, {{%.*}}, {{%.*}}] : tensor<2x4x6x2xf32>
// CHECK: math.floor
// CHECK-COUNT-4: tensor.extract %x[[[N]], [[C]], {{%.*}}, {{%.*}}] : tensor<2x3x5x7xf32>
// CHECK-NOT: tensor.extract
// CHECK: arith.extf {{%.*}} : f32 to f64
// CHECK: arith.truncf {{%.*}} : f64 to f32
// CHECK: tensor.yield {{%.*}} : f32
func.func @linear_zeros(%x: tensor<2x3x5x7xf32>, %g: tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32> {
  %r = graph.grid_sample %x, %g : (tensor<2x3x5x7xf32>, tensor<2x4x6x2xf32>) -> tensor<2x3x4x6xf32>
  func.return %r : tensor<2x3x4x6xf32>
}

// -----

// grid_sample cubic: four taps per axis, 16 elements for two axes; reflection reflects the
// coordinate in f64 and every tap outside the input again.
// CHECK-LABEL: func.func @cubic_reflection(
// CHECK: arith.extf {{%.*}} : f32 to f64
// CHECK-COUNT-16: tensor.extract %x
// CHECK-NOT: tensor.extract
// CHECK: tensor.yield
func.func @cubic_reflection(%x: tensor<1x2x5x7xf32>, %g: tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.grid_sample %x, %g {mode = "cubic", padding_mode = "reflection", align_corners = true} : (tensor<1x2x5x7xf32>, tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// -----

// grid_sample nearest, border, 3-D: each coordinate rounded half to even, clamped when outside,
// truncated; one element, no weights.
// CHECK-LABEL: func.func @nearest_border(
// CHECK-COUNT-3: math.roundeven
// CHECK: [[V:%.*]] = tensor.extract %x
// CHECK-NEXT: tensor.yield [[V]] : f16
func.func @nearest_border(%x: tensor<1x1x3x4x5xf16>, %g: tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf16> {
  %r = graph.grid_sample %x, %g {mode = "nearest", padding_mode = "border"} : (tensor<1x1x3x4x5xf16>, tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf16>
  func.return %r : tensor<1x1x2x2x2xf16>
}
