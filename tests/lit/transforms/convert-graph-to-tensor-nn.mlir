// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// Batched matmul: loops (batch..., m, n, k); the size-1 batch dimension of the lhs
// broadcasts through a 0 in its map, the missing one of the rhs is dropped.
// CHECK-LABEL: func.func @matmul_batched(
// CHECK: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[E:%.*]] = tensor.empty() : tensor<2x5x3x6xf32>
// CHECK-NEXT: [[ACC:%.*]] = tensor.fill [[ZERO]], [[E]]
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) outs([[ACC]] : tensor<2x5x3x6xf32>)
// CHECK-NEXT: ^{{.*}}([[A:%.*]]: f32, [[B:%.*]]: f32, [[O:%.*]]: f32):
// CHECK-NEXT: [[P:%.*]] = arith.mulf [[A]], [[B]] : f32
// CHECK-NEXT: [[S:%.*]] = arith.addf [[O]], [[P]] : f32
// CHECK-NEXT: tensor.yield [[S]] : f32
// CHECK: func.return [[R]] : tensor<2x5x3x6xf32>
// CHECK-NOT: graph.
func.func @matmul_batched(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %r = graph.matmul %a, %b : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  func.return %r : tensor<2x5x3x6xf32>
}

// -----

// A 1-D lhs is promoted to a row by a reshape, and the row dimension reshaped away after.
// CHECK-LABEL: func.func @matmul_vector(
// CHECK: [[ROW:%.*]] = tensor.reshape %a : (tensor<4xf32>) -> tensor<1x4xf32>
// CHECK: [[P:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins([[ROW]], %b : tensor<1x4xf32>, tensor<3x4x5xf32>)
// CHECK: } -> tensor<3x1x5xf32>
// CHECK-NEXT: [[R:%.*]] = tensor.reshape [[P]] : (tensor<3x1x5xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: func.return [[R]]
func.func @matmul_vector(%a: tensor<4xf32>, %b: tensor<3x4x5xf32>) -> tensor<3x5xf32> {
  %r = graph.matmul %a, %b : (tensor<4xf32>, tensor<3x4x5xf32>) -> tensor<3x5xf32>
  func.return %r : tensor<3x5xf32>
}

// -----

// gemm: the transposes are swapped maps; alpha and beta * c (broadcast along rows) follow
// in one elementwise generic.
// CHECK-LABEL: func.func @gemm(
// CHECK: [[P:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x3xf32>, tensor<5x4xf32>)
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins([[P]], %c : tensor<3x5xf32>, tensor<5xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, [[C:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[ALPHA:%.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: [[VA:%.*]] = arith.mulf [[V]], [[ALPHA]] : f32
// CHECK-NEXT: [[BETA:%.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: [[CB:%.*]] = arith.mulf [[C]], [[BETA]] : f32
// CHECK-NEXT: [[Y:%.*]] = arith.addf [[VA]], [[CB]] : f32
// CHECK-NEXT: tensor.yield [[Y]] : f32
// CHECK: func.return [[R]]
func.func @gemm(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = graph.gemm %a, %b, %c {alpha = 0.5, beta = 2.0, trans_a = true, trans_b = true} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  func.return %r : tensor<3x5xf32>
}

// -----

// With beta = 0, c is not read: the product is the result.
// CHECK-LABEL: func.func @gemm_beta_zero(
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>)
// CHECK-NOT: %c
// CHECK: func.return [[R]]
func.func @gemm_beta_zero(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = graph.gemm %a, %b, %c {beta = 0.0} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  func.return %r : tensor<3x5xf32>
}

// -----

// conv2d: the input is padded first (the bottom pad trimmed to what the windows read),
// the bias broadcast into the accumulator, then loops (n, oc, oh, ow, ic, kh, kw) with
// the group in the input's channel map and strides and dilations in its spatial maps.
// (Placed on another target, so that none of the CPU's strategies applies: the CPU would
// take a grouped convolution as a matmul per group, see cpu-depthwise.mlir.)
// CHECK-LABEL: func.func @conv2d(
// CHECK: [[ZERO:%.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: [[XP:%.*]] = tensor.pad %x, [[ZERO]] {low = array<i64: 0, 0, 1, 0>, high = array<i64: 0, 0, 1, 1>} : (tensor<1x4x7x8xf32>, f32) -> tensor<1x4x9x9xf32>
// CHECK-NEXT: [[E:%.*]] = tensor.empty() : tensor<1x6x4x4xf32>
// CHECK-NEXT: [[INIT:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<6xf32>) outs([[E]] : tensor<1x6x4x4xf32>)
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (((d1 floordiv 3) * 2) + d4), ((d2 * 2) + d5), ((d3 * 2) + (d6 * 2)))>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins([[XP]], %w : tensor<1x4x9x9xf32>, tensor<6x2x3x2xf32>) outs([[INIT]] : tensor<1x6x4x4xf32>)
// CHECK-NEXT: ^{{.*}}([[X:%.*]]: f32, [[W:%.*]]: f32, [[O:%.*]]: f32):
// CHECK-NEXT: [[P:%.*]] = arith.mulf [[X]], [[W]] : f32
// CHECK-NEXT: [[S:%.*]] = arith.addf [[O]], [[P]] : f32
// CHECK-NEXT: tensor.yield [[S]] : f32
// CHECK: func.return [[R]]
func.func @conv2d(%x: tensor<1x4x7x8xf32>, %w: tensor<6x2x3x2xf32>, %b: tensor<6xf32>) -> tensor<1x6x4x4xf32> {
  %r = graph.conv2d %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 2, 1>, dilations = array<i64: 1, 2>, groups = 2, "strati.placement" = "npu"} : (tensor<1x4x7x8xf32>, tensor<6x2x3x2xf32>, tensor<6xf32>) -> tensor<1x6x4x4xf32>
  func.return %r : tensor<1x6x4x4xf32>
}

// -----

// Depthwise without padding or bias: no pad, a zero-filled accumulator, channel d1 + d4.
// CHECK-LABEL: func.func @conv2d_depthwise(
// CHECK-NOT: tensor.pad
// CHECK: [[ACC:%.*]] = tensor.fill
// CHECK-NEXT: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 + d4), (d2 + d5), (d3 + d6))>, {{.*}} ins(%x, %w : tensor<1x3x5x5xf32>, tensor<3x1x3x3xf32>) outs([[ACC]] : tensor<1x3x3x3xf32>)
func.func @conv2d_depthwise(%x: tensor<1x3x5x5xf32>, %w: tensor<3x1x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %r = graph.conv2d %x, %w {groups = 3} : (tensor<1x3x5x5xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x3x3xf32>
  func.return %r : tensor<1x3x3x3xf32>
}

// -----

// max_pool2d in ceil mode: -inf fills the accumulator and the padding that the partial
// last windows reach; a (kh, kw) empty tensor gives the window loops their extents.
// CHECK-LABEL: func.func @max_pool2d(
// CHECK: [[LOW:%.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT: [[E:%.*]] = tensor.empty() : tensor<1x2x3x3xf32>
// CHECK-NEXT: [[ACC:%.*]] = tensor.fill [[LOW]], [[E]]
// CHECK-NEXT: [[NEGINF:%.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT: [[XP:%.*]] = tensor.pad %x, [[NEGINF]] {low = array<i64: 0, 0, 0, 0>, high = array<i64: 0, 0, 1, 1>} : (tensor<1x2x5x5xf32>, f32) -> tensor<1x2x6x6xf32>
// CHECK-NEXT: [[WIN:%.*]] = tensor.empty() : tensor<2x2xf32>
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins([[XP]], [[WIN]] : tensor<1x2x6x6xf32>, tensor<2x2xf32>) outs([[ACC]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, {{%.*}}: f32, [[O:%.*]]: f32):
// CHECK-NEXT: [[M:%.*]] = arith.maximumf [[O]], [[V]] : f32
// CHECK-NEXT: tensor.yield [[M]] : f32
// CHECK: func.return [[R]]
func.func @max_pool2d(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// -----

// avg_pool2d without count_include_pad: window sums over the zero-padded input, then a
// division by the count of in-bounds taps per output position (a constant table).
// CHECK-LABEL: func.func @avg_pool2d(
// CHECK: [[XP:%.*]] = tensor.pad %x, {{%.*}} {low = array<i64: 0, 0, 1, 1>, high = array<i64: 0, 0, 1, 1>}
// CHECK: [[SUM:%.*]] = tensor.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins([[XP]], {{%.*}} : tensor<1x2x7x7xf32>, tensor<3x3xf32>)
// CHECK: arith.addf
// CHECK: [[DIV:%.*]] = arith.constant dense<{{\[}}[4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins([[SUM]], [[DIV]] : tensor<1x2x3x3xf32>, tensor<3x3xf32>)
// CHECK-NEXT: ^{{.*}}([[S:%.*]]: f32, [[N:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[Q:%.*]] = arith.divf [[S]], [[N]] : f32
// CHECK-NEXT: tensor.yield [[Q]]
// CHECK: func.return [[R]]
func.func @avg_pool2d(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// -----

// With count_include_pad every window counts kernel taps: one scalar divisor.
// CHECK-LABEL: func.func @avg_pool2d_include_pad(
// CHECK: [[SUM:%.*]] = tensor.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins([[SUM]] : tensor<1x2x3x3xf32>)
// CHECK-NEXT: ^{{.*}}([[S:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[N:%.*]] = arith.constant 9.000000e+00 : f32
// CHECK-NEXT: arith.divf [[S]], [[N]] : f32
// CHECK: func.return [[R]]
func.func @avg_pool2d_include_pad(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %r = graph.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  func.return %r : tensor<1x2x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @global_avg_pool2d(
// CHECK: [[SUM:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x3x4x5xf32>)
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins([[SUM]] : tensor<2x3x1x1xf32>)
// CHECK: arith.constant 2.000000e+01 : f32
// CHECK-NEXT: arith.divf
// CHECK: func.return [[R]]
func.func @global_avg_pool2d(%x: tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32> {
  %r = graph.global_avg_pool2d %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  func.return %r : tensor<2x3x1x1xf32>
}

// -----

// batch_norm: sqrt(var + eps) once per channel, then one elementwise generic reading the
// per-channel parameters through (d1).
// CHECK-LABEL: func.func @batch_norm(
// CHECK: [[STD:%.*]] = tensor.generic {{.*}} ins(%v : tensor<3xf32>)
// CHECK: arith.constant 1.000000e-03 : f32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: math.sqrt
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s, %b, %m, [[STD]] :
// CHECK-NEXT: ^{{.*}}([[X:%.*]]: f32, [[SC:%.*]]: f32, [[B:%.*]]: f32, [[M:%.*]]: f32, [[SD:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[C:%.*]] = arith.subf [[X]], [[M]] : f32
// CHECK-NEXT: [[N:%.*]] = arith.divf [[C]], [[SD]] : f32
// CHECK-NEXT: [[Y:%.*]] = arith.mulf [[N]], [[SC]] : f32
// CHECK-NEXT: [[Z:%.*]] = arith.addf [[Y]], [[B]] : f32
// CHECK-NEXT: tensor.yield [[Z]]
// CHECK: func.return [[R]]
func.func @batch_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %r = graph.batch_norm %x, %s, %b, %m, %v {epsilon = 1.0e-03} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  func.return %r : tensor<2x3x4x4xf32>
}

// -----

// layer_norm over the last two axes (axis = -2): sum, mean, sum of centred squares,
// standard deviation, then the normalization with scale and bias broadcast.
// CHECK-LABEL: func.func @layer_norm(
// CHECK: [[SUM:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<2x3x4xf32>)
// CHECK: [[MEAN:%.*]] = tensor.generic {{.*}} ins([[SUM]] : tensor<2x1x1xf32>)
// CHECK: arith.constant 1.200000e+01 : f32
// CHECK: [[SQ:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>], iterator_types = ["parallel", "reduction", "reduction"]} ins(%x, [[MEAN]] : tensor<2x3x4xf32>, tensor<2x1x1xf32>)
// CHECK: [[STD:%.*]] = tensor.generic {{.*}} ins([[SQ]] : tensor<2x1x1xf32>)
// CHECK: math.sqrt
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d0, 0, 0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, [[MEAN]], [[STD]], %s, %b :
// CHECK: func.return [[R]]
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %r = graph.layer_norm %x, %s, %b {axis = -2} : (tensor<2x3x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  func.return %r : tensor<2x3x4xf32>
}

// -----

// softmax: max-reduce, exp(x - max), sum-reduce, divide.
// CHECK-LABEL: func.func @softmax(
// CHECK: [[NEGINF:%.*]] = arith.constant 0xff800000 : f32
// CHECK: [[MAX:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x5xf32>)
// CHECK: arith.maximumf
// CHECK: [[EXP:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, [[MAX]] : tensor<2x5xf32>, tensor<2x1xf32>)
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK: [[SUM:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins([[EXP]] : tensor<2x5xf32>)
// CHECK: arith.addf
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins([[EXP]], [[SUM]] : tensor<2x5xf32>, tensor<2x1xf32>)
// CHECK: arith.divf
// CHECK: func.return [[R]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = graph.softmax %x : tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// log_softmax along axis 0: (x - max) - log(sum of exp(x - max)).
// CHECK-LABEL: func.func @log_softmax(
// CHECK: [[MAX:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<2x5xf32>)
// CHECK: [[EXP:%.*]] = tensor.generic {{.*}} ins(%x, [[MAX]] : tensor<2x5xf32>, tensor<1x5xf32>)
// CHECK: [[SUM:%.*]] = tensor.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins([[EXP]] : tensor<2x5xf32>)
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins(%x, [[MAX]], [[SUM]] : tensor<2x5xf32>, tensor<1x5xf32>, tensor<1x5xf32>)
// CHECK-NEXT: ^{{.*}}([[X:%.*]]: f32, [[M:%.*]]: f32, [[S:%.*]]: f32, {{%.*}}: f32):
// CHECK-NEXT: [[C:%.*]] = arith.subf [[X]], [[M]] : f32
// CHECK-NEXT: [[L:%.*]] = math.log [[S]] : f32
// CHECK-NEXT: [[Y:%.*]] = arith.subf [[C]], [[L]] : f32
// CHECK-NEXT: tensor.yield [[Y]]
// CHECK: func.return [[R]]
func.func @log_softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %r = graph.log_softmax %x {axis = 0} : tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

// lrn with an even size: channels padded 1 before and 2 after, a reduction of squares
// over the (4,) window loop, then x / (bias + alpha / size * sum) ** beta.
// CHECK-LABEL: func.func @lrn(
// CHECK: [[XP:%.*]] = tensor.pad %x, {{%.*}} {low = array<i64: 0, 1, 0, 0>, high = array<i64: 0, 2, 0, 0>} : (tensor<1x5x2x2xf32>, f32) -> tensor<1x8x2x2xf32>
// CHECK-NEXT: [[WIN:%.*]] = tensor.empty() : tensor<4xf32>
// CHECK: [[SQ:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, (d1 + d4), d2, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins([[XP]], [[WIN]] : tensor<1x8x2x2xf32>, tensor<4xf32>)
// CHECK-NEXT: ^{{.*}}([[V:%.*]]: f32, {{%.*}}: f32, [[O:%.*]]: f32):
// CHECK-NEXT: [[V2:%.*]] = arith.mulf [[V]], [[V]] : f32
// CHECK-NEXT: arith.addf [[O]], [[V2]] : f32
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins(%x, [[SQ]] : tensor<1x5x2x2xf32>, tensor<1x5x2x2xf32>)
// CHECK: arith.constant 1.250000e-01 : f32
// CHECK: math.powf
// CHECK-NEXT: arith.divf
// CHECK: func.return [[R]]
func.func @lrn(%x: tensor<1x5x2x2xf32>) -> tensor<1x5x2x2xf32> {
  %r = graph.lrn %x {size = 4, alpha = 0.5, beta = 0.75, bias = 2.0} : tensor<1x5x2x2xf32>
  func.return %r : tensor<1x5x2x2xf32>
}

// -----

// float16 accumulates in float32 and is rounded once at the end.
// CHECK-LABEL: func.func @matmul_f16(
// CHECK: [[P:%.*]] = tensor.generic {{.*}} outs({{%.*}} : tensor<3x5xf32>)
// CHECK-NEXT: ^{{.*}}([[A:%.*]]: f16, [[B:%.*]]: f16, [[O:%.*]]: f32):
// CHECK-NEXT: [[A32:%.*]] = arith.extf [[A]] : f16 to f32
// CHECK-NEXT: [[B32:%.*]] = arith.extf [[B]] : f16 to f32
// CHECK: [[R:%.*]] = tensor.generic {{.*}} ins([[P]] : tensor<3x5xf32>) outs({{%.*}} : tensor<3x5xf16>)
// CHECK: arith.truncf {{%.*}} : f32 to f16
// CHECK: func.return [[R]] : tensor<3x5xf16>
func.func @matmul_f16(%a: tensor<3x4xf16>, %b: tensor<4x5xf16>) -> tensor<3x5xf16> {
  %r = graph.matmul %a, %b : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf16>
  func.return %r : tensor<3x5xf16>
}
