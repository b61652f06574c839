// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// A reduction over axes 0 and 2 without keepdims: those loops are reductions, the output
// map names the kept loop only, and the accumulator starts at 0.
// CHECK-LABEL: func.func @reduce_sum(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4xf32>)
// CHECK: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[E:%.*]] = tensor.empty() : tensor<3xf32>
// CHECK-NEXT: [[ACC:%.*]] = tensor.fill [[ZERO]], [[E]] : (f32, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins([[X]] : tensor<2x3x4xf32>) outs([[ACC]] : tensor<3xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, [[O:%.*]]: f32):
// CHECK-NEXT: [[S:%.*]] = arith.addf [[O]], [[V]] : f32
// CHECK-NEXT: tensor.yield [[S]] : f32
// CHECK: func.return [[R]] : tensor<3xf32>
// CHECK-NOT: graph.
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = graph.reduce_sum %x {axes = array<i64: -1, 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// keepdims: a constant 0 in the output map; an integer max starts at the type's lowest value.
// CHECK-LABEL: func.func @reduce_max_keepdims(
// CHECK: [[LOW:%.*]] = arith.constant -2147483648 : i32
// CHECK: [[ACC:%.*]] = tensor.fill [[LOW]], {{%.*}} : (i32, tensor<3x1xi32>) -> tensor<3x1xi32>
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xi32>) outs([[ACC]] : tensor<3x1xi32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: i32, [[O:%.*]]: i32):
// CHECK-NEXT: [[M:%.*]] = arith.maxsi [[O]], [[V]] : i32
// CHECK-NEXT: tensor.yield [[M]] : i32
// CHECK: func.return [[R]]
func.func @reduce_max_keepdims(%x: tensor<3x4xi32>) -> tensor<3x1xi32> {
  %r = graph.reduce_max %x {axes = array<i64: 1>} : (tensor<3x4xi32>) -> tensor<3x1xi32>
  func.return %r : tensor<3x1xi32>
}

// -----

// The min of booleans is their conjunction, starting from true; no axes: all of them.
// CHECK-LABEL: func.func @reduce_min_bool(
// CHECK: [[TRUE:%.*]] = arith.constant true
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, 0)>], iterator_types = ["reduction", "reduction"]}
// CHECK: arith.andi
func.func @reduce_min_bool(%x: tensor<3x4xi1>) -> tensor<1x1xi1> {
  %r = graph.reduce_min %x : (tensor<3x4xi1>) -> tensor<1x1xi1>
  func.return %r : tensor<1x1xi1>
}

// -----

// f16 multiplies in f32 and is rounded once at the end.
// CHECK-LABEL: func.func @reduce_prod(
// CHECK: [[ONE:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK: [[P:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%x : tensor<5xf16>) outs({{%.*}} : tensor<f32>)
// CHECK: arith.extf {{%.*}} : f16 to f32
// CHECK-NEXT: arith.mulf
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []} ins([[P]] : tensor<f32>)
// CHECK: arith.truncf {{%.*}} : f32 to f16
// CHECK: func.return [[R]] : tensor<f16>
func.func @reduce_prod(%x: tensor<5xf16>) -> tensor<f16> {
  %r = graph.reduce_prod %x {keepdims = false} : (tensor<5xf16>) -> tensor<f16>
  func.return %r : tensor<f16>
}

// -----

// mean: the sum, then a division by the count.
// CHECK-LABEL: func.func @reduce_mean(
// CHECK: [[S:%.*]] = tensor.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>)
// CHECK: arith.addf
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins([[S]] : tensor<3xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[N:%.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: [[M:%.*]] = arith.divf [[V]], [[N]] : f32
// CHECK-NEXT: tensor.yield [[M]] : f32
// CHECK: func.return [[R]]
func.func @reduce_mean(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %r = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// The mean of integers: summed in i64, divided truncating toward zero, truncated back.
// CHECK-LABEL: func.func @reduce_mean_int(
// CHECK: [[S:%.*]] = tensor.generic {{.*}} ins(%x : tensor<3x4xi32>) outs({{%.*}} : tensor<3xi64>)
// CHECK: arith.extsi {{%.*}} : i32 to i64
// CHECK-NEXT: arith.addi
// CHECK: tensor.generic {{.*}} ins([[S]] : tensor<3xi64>) outs({{%.*}} : tensor<3xi32>)
// CHECK: [[N:%.*]] = arith.constant 4 : i64
// CHECK-NEXT: [[Q:%.*]] = arith.divsi {{%.*}}, [[N]] : i64
// CHECK-NEXT: arith.trunci [[Q]] : i64 to i32
func.func @reduce_mean_int(%x: tensor<3x4xi32>) -> tensor<3xi32> {
  %r = graph.reduce_mean %x {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xi32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}

// -----

// No axes with noop_with_empty_axes: the identity, no op at all.
// CHECK-LABEL: func.func @reduce_noop(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>)
// CHECK-NEXT: func.return [[X]] : tensor<3x4xf32>
func.func @reduce_noop(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = graph.reduce_sum %x {noop_with_empty_axes = true} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %r : tensor<3x4xf32>
}

// -----

// argmax: two outputs (the best value, from -inf, and its index, from 0); the index is
// tensor.index of the reduced loop; a strict comparison keeps the first maximum; a NaN wins.
// CHECK-LABEL: func.func @argmax(
// CHECK: [[NINF:%.*]] = arith.constant 0xff800000 : f32
// CHECK: [[BEST:%.*]] = tensor.fill [[NINF]], {{%.*}} : (f32, tensor<3xf32>) -> tensor<3xf32>
// CHECK: [[ZERO:%.*]] = arith.constant 0 : i64
// CHECK: [[AT:%.*]] = tensor.fill [[ZERO]], {{%.*}} : (i64, tensor<3xi64>) -> tensor<3xi64>
// CHECK-NEXT: {{%.*}}, [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs([[BEST]], [[AT]] : tensor<3xf32>, tensor<3xi64>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, [[B:%.*]]: f32, [[I:%.*]]: i64):
// CHECK-NEXT: [[J:%.*]] = tensor.index 1 : index
// CHECK-NEXT: [[J64:%.*]] = arith.index_cast [[J]] : index to i64
// CHECK-NEXT: [[GT:%.*]] = arith.cmpf ogt, [[V]], [[B]] : f32
// CHECK: [[TAKE:%.*]] = arith.ori [[GT]], {{%.*}} : i1
// CHECK-NEXT: [[NB:%.*]] = arith.select [[TAKE]], [[V]], [[B]] : f32
// CHECK-NEXT: [[NI:%.*]] = arith.select [[TAKE]], [[J64]], [[I]] : i64
// CHECK-NEXT: tensor.yield [[NB]], [[NI]] : f32, i64
// CHECK: func.return [[R]] : tensor<3xi64>
func.func @argmax(%x: tensor<3x4xf32>) -> tensor<3xi64> {
  %r = graph.argmax %x {axis = -1, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xi64>
  func.return %r : tensor<3xi64>
}

// -----

// select_last_index: a non-strict comparison; keepdims: a 0 in the output maps.
// CHECK-LABEL: func.func @argmax_last(
// CHECK: {{%.*}}, [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["reduction", "parallel"]}
// CHECK: tensor.index 0 : index
// CHECK: arith.cmpi sge, {{%.*}}, {{%.*}} : i32
// CHECK: func.return [[R]] : tensor<1x4xi64>
func.func @argmax_last(%x: tensor<3x4xi32>) -> tensor<1x4xi64> {
  %r = graph.argmax %x {select_last_index = true} : (tensor<3x4xi32>) -> tensor<1x4xi64>
  func.return %r : tensor<1x4xi64>
}

// -----

// reshape, flatten, squeeze and unsqueeze are all tensor.reshape.
// CHECK-LABEL: func.func @reshapes(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4xf32>, [[Y:%.*]]: tensor<1x3x1xf32>)
// CHECK-NEXT: [[A:%.*]] = tensor.reshape [[X]] : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: [[B:%.*]] = tensor.reshape [[X]] : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: [[C:%.*]] = tensor.reshape [[Y]] : (tensor<1x3x1xf32>) -> tensor<3xf32>
// CHECK-NEXT: [[D:%.*]] = tensor.reshape [[Y]] : (tensor<1x3x1xf32>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: func.return [[A]], [[B]], [[C]], [[D]]
func.func @reshapes(%x: tensor<2x3x4xf32>, %y: tensor<1x3x1xf32>) -> (tensor<6x4xf32>, tensor<2x12xf32>, tensor<3xf32>, tensor<1x3x1x1xf32>) {
  %a = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %b = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %c = graph.squeeze %y : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %d = graph.unsqueeze %y {axes = array<i64: -1>} : (tensor<1x3x1xf32>) -> tensor<1x3x1x1xf32>
  func.return %a, %b, %c, %d : tensor<6x4xf32>, tensor<2x12xf32>, tensor<3xf32>, tensor<1x3x1x1xf32>
}

// -----

// transpose: the input map is the inverse permutation of the loops (result[d0, d1, d2] = x[d1, d2, d0]).
// CHECK-LABEL: func.func @transpose(
// CHECK: [[E:%.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs([[E]] : tensor<4x2x3xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %r = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  func.return %r : tensor<4x2x3xf32>
}

// -----

// broadcast_to: a copy whose input map drops the new leading loop and pins the size-1 dimension.
// CHECK-LABEL: func.func @broadcast_to(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<3x1xi64>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: i64, {{%.*}}: i64):
// CHECK-NEXT: tensor.yield [[V]] : i64
// CHECK: func.return [[R]]
func.func @broadcast_to(%x: tensor<3x1xi64>) -> tensor<2x3x5xi64> {
  %r = graph.broadcast_to %x : (tensor<3x1xi64>) -> tensor<2x3x5xi64>
  func.return %r : tensor<2x3x5xi64>
}

// -----

// slice: ONNX clamping resolved to concrete offsets and sizes; negative steps are negative strides.
// CHECK-LABEL: func.func @slice(
// CHECK-NEXT: [[R:%.*]] = tensor.extract_slice %x {offsets = array<i64: 4, 5>, sizes = array<i64: 3, 2>, strides = array<i64: -2, -3>} : (tensor<5x6xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: func.return [[R]]
func.func @slice(%x: tensor<5x6xf32>) -> tensor<3x2xf32> {
  %r = graph.slice %x {starts = array<i64: 4, 5>, ends = array<i64: -100, -100>, axes = array<i64: 0, -1>, steps = array<i64: -2, -3>} : (tensor<5x6xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

// split: one extract_slice per part.
// CHECK-LABEL: func.func @split(
// CHECK-NEXT: [[A:%.*]] = tensor.extract_slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 6, 2>, strides = array<i64: 1, 1>} : (tensor<6x5xf32>) -> tensor<6x2xf32>
// CHECK-NEXT: [[B:%.*]] = tensor.extract_slice %x {offsets = array<i64: 0, 2>, sizes = array<i64: 6, 3>, strides = array<i64: 1, 1>} : (tensor<6x5xf32>) -> tensor<6x3xf32>
// CHECK-NEXT: func.return [[A]], [[B]]
func.func @split(%x: tensor<6x5xf32>) -> (tensor<6x2xf32>, tensor<6x3xf32>) {
  %r:2 = graph.split %x {axis = -1, sizes = array<i64: 2, 3>} : (tensor<6x5xf32>) -> (tensor<6x2xf32>, tensor<6x3xf32>)
  func.return %r#0, %r#1 : tensor<6x2xf32>, tensor<6x3xf32>
}

// -----

// concat: tensor.concat with the axis made non-negative.
// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: [[R:%.*]] = tensor.concat %x, %y {dim = 1} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: func.return [[R]]
func.func @concat(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %r = graph.concat %x, %y {axis = -1} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

// Constant pad with negative pads: crop with extract_slice, then tensor.pad the rest.
// CHECK-LABEL: func.func @pad_constant(
// CHECK-NEXT: [[C:%.*]] = tensor.extract_slice %x {offsets = array<i64: 1, 0>, sizes = array<i64: 3, 3>, strides = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: [[V:%.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT: [[R:%.*]] = tensor.pad [[C]], [[V]] {low = array<i64: 0, 2>, high = array<i64: 1, 0>} : (tensor<3x3xf32>, f32) -> tensor<4x5xf32>
// CHECK-NEXT: func.return [[R]]
func.func @pad_constant(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = graph.pad %x {pads = array<i64: -1, 2, 1, -2>, value = 1.5} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  func.return %r : tensor<4x5xf32>
}

// -----

// Reflect pad: each padded dimension's source index is |i - low| reflected at n - 1,
// in index arithmetic; unpadded dimensions read tensor.index as is.
// CHECK-LABEL: func.func @pad_reflect(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs({{%.*}} : tensor<3x7xf32>)
// CHECK: [[I:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[J:%.*]] = tensor.index 1 : index
// CHECK-NEXT: [[LOW:%.*]] = arith.constant 2 : index
// CHECK-NEXT: [[T:%.*]] = arith.subi [[J]], [[LOW]] : index
// CHECK-NEXT: [[Z:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[NT:%.*]] = arith.subi [[Z]], [[T]] : index
// CHECK-NEXT: [[A:%.*]] = arith.maxsi [[T]], [[NT]] : index
// CHECK-NEXT: [[TWICE:%.*]] = arith.constant 6 : index
// CHECK-NEXT: [[B:%.*]] = arith.subi [[TWICE]], [[A]] : index
// CHECK-NEXT: [[K:%.*]] = arith.minsi [[A]], [[B]] : index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[I]], [[K]]] : tensor<3x4xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @pad_reflect(%x: tensor<3x4xf32>) -> tensor<3x7xf32> {
  %r = graph.pad %x {pads = array<i64: 0, 2, 0, 1>, mode = "reflect"} : (tensor<3x4xf32>) -> tensor<3x7xf32>
  func.return %r : tensor<3x7xf32>
}

// -----

// Edge pad: the source index clamped to [0, n - 1].
// CHECK-LABEL: func.func @pad_edge(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs({{%.*}} : tensor<6xi32>)
// CHECK: [[I:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[LOW:%.*]] = arith.constant 1 : index
// CHECK-NEXT: [[T:%.*]] = arith.subi [[I]], [[LOW]] : index
// CHECK-NEXT: [[Z:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[A:%.*]] = arith.maxsi [[T]], [[Z]] : index
// CHECK-NEXT: [[LAST:%.*]] = arith.constant 2 : index
// CHECK-NEXT: [[K:%.*]] = arith.minsi [[A]], [[LAST]] : index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[K]]] : tensor<3xi32>
// CHECK-NEXT: tensor.yield [[V]] : i32
func.func @pad_edge(%x: tensor<3xi32>) -> tensor<6xi32> {
  %r = graph.pad %x {pads = array<i64: 1, 2>, mode = "edge"} : (tensor<3xi32>) -> tensor<6xi32>
  func.return %r : tensor<6xi32>
}

// -----

// gather: the indices are read through their map; a negative index gets the size added;
// one outside [-n, n) fails a run-time check (cf.assert, on the index as given, which compiled
// code reports) and reads element 0 meanwhile.
// CHECK-LABEL: func.func @gather(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%i : tensor<2x2xi32>)
// CHECK-NEXT: ^{{.*}}([[IDX:%.*]]: i32, {{%.*}}: f32):
// CHECK-NEXT: [[K:%.*]] = arith.index_cast [[IDX]] : i32 to index
// CHECK-NEXT: [[MN:%.*]] = arith.constant -3 : index
// CHECK-NEXT: [[GE:%.*]] = arith.cmpi sge, [[K]], [[MN]] : index
// CHECK-NEXT: [[N2:%.*]] = arith.constant 3 : index
// CHECK-NEXT: [[LT:%.*]] = arith.cmpi slt, [[K]], [[N2]] : index
// CHECK-NEXT: [[OK:%.*]] = arith.andi [[GE]], [[LT]] : i1
// CHECK-NEXT: [[Z:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[NEG:%.*]] = arith.cmpi slt, [[K]], [[Z]] : index
// CHECK-NEXT: [[N:%.*]] = arith.constant 3 : index
// CHECK-NEXT: [[KN:%.*]] = arith.addi [[K]], [[N]] : index
// CHECK-NEXT: [[K2:%.*]] = arith.select [[NEG]], [[KN]], [[K]] : index
// CHECK-NEXT: cf.assert [[OK]], "'graph.gather' op at {{.*}}convert-graph-to-tensor-reduce-shape.mlir:[[# @LINE + 8]]:3: an index is out of range for dimension 1 of size 3"
// CHECK-NEXT: [[Z2:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[K3:%.*]] = arith.select [[OK]], [[K2]], [[Z2]] : index
// CHECK-NEXT: [[I0:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[I0]], [[K3]]] : tensor<5x3xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<2x2xi32>) -> tensor<5x2x2xf32> {
  %r = graph.gather %x, %i {axis = 1} : (tensor<5x3xf32>, tensor<2x2xi32>) -> tensor<5x2x2xf32>
  func.return %r : tensor<5x2x2xf32>
}

// -----

// resize nearest (asymmetric, floor): x = i / scale in f32, floored, clamped, converted to an
// index; the axis of scale 1 reads tensor.index unchanged.
// CHECK-LABEL: func.func @resize(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs({{%.*}} : tensor<1x10xf32>)
// CHECK: [[I:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[J:%.*]] = tensor.index 1 : index
// CHECK-NEXT: [[J64:%.*]] = arith.index_cast [[J]] : index to i64
// CHECK-NEXT: [[JF:%.*]] = arith.sitofp [[J64]] : i64 to f32
// CHECK-NEXT: [[S:%.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: [[X:%.*]] = arith.divf [[JF]], [[S]] : f32
// CHECK-NEXT: [[F:%.*]] = math.floor [[X]] : f32
// CHECK-NEXT: [[Z:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[A:%.*]] = arith.maximumf [[F]], [[Z]] : f32
// CHECK-NEXT: [[LAST:%.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: [[B:%.*]] = arith.minimumf [[A]], [[LAST]] : f32
// CHECK-NEXT: [[K64:%.*]] = arith.fptosi [[B]] : f32 to i64
// CHECK-NEXT: [[K:%.*]] = arith.index_cast [[K64]] : i64 to index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[I]], [[K]]] : tensor<1x5xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @resize(%x: tensor<1x5xf32>) -> tensor<1x10xf32> {
  %r = graph.resize %x {scales = array<f32: 1.0, 2.0>, coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x5xf32>) -> tensor<1x10xf32>
  func.return %r : tensor<1x10xf32>
}

// -----

// half_pixel with round_prefer_ceil: x = (i + 0.5) / scale - 0.5, rounded up from a half.
// CHECK-LABEL: func.func @resize_half_pixel(
// CHECK: [[H:%.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: [[P:%.*]] = arith.addf {{%.*}}, [[H]] : f32
// CHECK-NEXT: [[S:%.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: [[D:%.*]] = arith.divf [[P]], [[S]] : f32
// CHECK-NEXT: [[H2:%.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: [[X:%.*]] = arith.subf [[D]], [[H2]] : f32
// CHECK-NEXT: [[F:%.*]] = math.floor [[X]] : f32
// CHECK-NEXT: [[FR:%.*]] = arith.subf [[X]], [[F]] : f32
// CHECK-NEXT: [[HALF:%.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: [[UP:%.*]] = arith.cmpf oge, [[FR]], [[HALF]] : f32
// CHECK-NEXT: [[ONE:%.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: [[F1:%.*]] = arith.addf [[F]], [[ONE]] : f32
// CHECK-NEXT: arith.select [[UP]], [[F1]], [[F]] : f32
// CHECK: tensor.extract %x[{{%.*}}] : tensor<8xi32>
func.func @resize_half_pixel(%x: tensor<8xi32>) -> tensor<4xi32> {
  %r = graph.resize %x {scales = array<f32: 0.5>, nearest_mode = "round_prefer_ceil"} : (tensor<8xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}
