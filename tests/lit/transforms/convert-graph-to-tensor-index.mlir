// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// gather_elements: a generic over the indices' shape; the index replaces the axis's loop index.
// CHECK-LABEL: func.func @gather_elements(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%i : tensor<4x3xi64>)
// CHECK-NEXT: ^{{.*}}([[IDX:%.*]]: i64, {{%.*}}: f32):
// CHECK-NEXT: [[K:%.*]] = arith.index_cast [[IDX]] : i64 to index
// CHECK: [[K2:%.*]] = arith.select {{%.*}}, {{%.*}}, [[K]] : index
// CHECK-NEXT: [[J:%.*]] = tensor.index 1 : index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[K2]], [[J]]] : tensor<5x3xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @gather_elements(%x: tensor<5x3xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %r = graph.gather_elements %x, %i {axis = 0} : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  func.return %r : tensor<4x3xf32>
}

// -----

// gather_nd: each component of the index tuple is extracted from the indices (unsigned ones need
// no fix for negatives), then the element of data.
// CHECK-LABEL: func.func @gather_nd(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs({{%.*}} : tensor<2xf32>)
// CHECK: [[P:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[A:%.*]] = tensor.extract %i[[[P]], [[C0]]] : tensor<2x2xui32>
// CHECK-NEXT: [[AI:%.*]] = arith.index_cast [[A]] : ui32 to index
// CHECK-NEXT: [[C1:%.*]] = arith.constant 1 : index
// CHECK-NEXT: [[B:%.*]] = tensor.extract %i[[[P]], [[C1]]] : tensor<2x2xui32>
// CHECK-NEXT: [[BI:%.*]] = arith.index_cast [[B]] : ui32 to index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[AI]], [[BI]]] : tensor<5x3xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
func.func @gather_nd(%x: tensor<5x3xf32>, %i: tensor<2x2xui32>) -> tensor<2xf32> {
  %r = graph.gather_nd %x, %i : (tensor<5x3xf32>, tensor<2x2xui32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// scatter_nd: data's loops, then the update positions as a reduction, writing into data itself
// (the init); an update whose index tuple is the element's combines with it.
// CHECK-LABEL: func.func @scatter_nd(
// CHECK: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%u : tensor<2x3xf32>) outs(%x : tensor<5x3xf32>)
// CHECK-NEXT: ^{{.*}}([[UPD:%.*]]: f32, [[ACC:%.*]]: f32):
// CHECK-NEXT: [[U:%.*]] = tensor.index 2 : index
// CHECK-NEXT: [[C0:%.*]] = arith.constant 0 : index
// CHECK-NEXT: [[T:%.*]] = tensor.extract %i[[[U]], [[C0]]] : tensor<2x1xui32>
// CHECK-NEXT: [[TI:%.*]] = arith.index_cast [[T]] : ui32 to index
// CHECK-NEXT: [[D0:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[HIT:%.*]] = arith.cmpi eq, [[TI]], [[D0]] : index
// CHECK-NEXT: [[SUM:%.*]] = arith.addf [[ACC]], [[UPD]] : f32
// CHECK-NEXT: [[V:%.*]] = arith.select [[HIT]], [[SUM]], [[ACC]] : f32
// CHECK-NEXT: tensor.yield [[V]] : f32
// CHECK: func.return [[R]]
func.func @scatter_nd(%x: tensor<5x3xf32>, %i: tensor<2x1xui32>, %u: tensor<2x3xf32>) -> tensor<5x3xf32> {
  %r = graph.scatter_nd %x, %i, %u {reduction = "add"} : (tensor<5x3xf32>, tensor<2x1xui32>, tensor<2x3xf32>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// cumsum (exclusive): the axis again as a reduction loop; elements strictly before are added.
// CHECK-LABEL: func.func @cumsum(
// CHECK: [[ZERO:%.*]] = tensor.fill
// CHECK-NEXT: [[R:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<4x7xf32>) outs([[ZERO]] : tensor<4x7xf32>)
// CHECK-NEXT: ^{{.*}}([[E:%.*]]: f32, [[ACC:%.*]]: f32):
// CHECK-NEXT: [[J:%.*]] = tensor.index 2 : index
// CHECK-NEXT: [[I:%.*]] = tensor.index 1 : index
// CHECK-NEXT: [[TAKE:%.*]] = arith.cmpi slt, [[J]], [[I]] : index
// CHECK-NEXT: [[SUM:%.*]] = arith.addf [[ACC]], [[E]] : f32
// CHECK-NEXT: [[V:%.*]] = arith.select [[TAKE]], [[SUM]], [[ACC]] : f32
// CHECK-NEXT: tensor.yield [[V]] : f32
func.func @cumsum(%x: tensor<4x7xf32>) -> tensor<4x7xf32> {
  %r = graph.cumsum %x {axis = 1, exclusive = true} : tensor<4x7xf32>
  func.return %r : tensor<4x7xf32>
}

// -----

// topk: each element's rank (larger elements, or equal ones with lower indices, before it),
// then the element and index of each rank below k.
// CHECK-LABEL: func.func @topk(
// CHECK: [[RANK:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %x : tensor<4x7xf32>, tensor<4x7xf32>) outs({{%.*}} : tensor<4x7xi64>)
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oeq
// CHECK: [[V:%.*]], [[I:%.*]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, [[RANK]] : tensor<4x7xf32>, tensor<4x7xi64>) outs({{%.*}}, {{%.*}} : tensor<4x3xf32>, tensor<4x3xi64>)
// CHECK: func.return [[V]], [[I]]
func.func @topk(%x: tensor<4x7xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>) {
  %v, %i = graph.topk %x {k = 3} : (tensor<4x7xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  func.return %v, %i : tensor<4x3xf32>, tensor<4x3xi64>
}

// -----

// mod: numpy's sign rule on remsi (zero and -1 divisors guarded); fmod on floats is arith.remf;
// the trigonometric functions are math ops.
// CHECK-LABEL: func.func @mod(
// CHECK: arith.remsi
// CHECK: arith.xori
// CHECK: arith.remf {{%.*}}, {{%.*}} : f32
// CHECK: math.acosh {{%.*}} : f32
func.func @mod(%a: tensor<4xi32>, %b: tensor<4xi32>, %x: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) {
  %r = graph.mod %a, %b : tensor<4xi32>
  %f = graph.mod %x, %x {fmod = true} : tensor<4xf32>
  %s = graph.acosh %x : tensor<4xf32>
  func.return %r, %f, %s : tensor<4xi32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// bit_shift: a shift amount outside [0, width) is replaced by 0 (which LLVM defines) and the
// result by the sign fill: 0 for an unsigned one, -1 or 0 by the sign for a signed right shift.
// CHECK-LABEL: func.func @bit_shift(
// CHECK: [[OK:%.*]] = arith.andi
// CHECK-NEXT: [[AMOUNT:%.*]] = arith.select [[OK]], [[B:%.*]], {{%.*}} : ui8
// CHECK-NEXT: [[S:%.*]] = arith.shrui {{%.*}}, [[AMOUNT]] : ui8
// CHECK-NEXT: arith.select [[OK]], [[S]], {{%.*}} : ui8
// CHECK: [[OK2:%.*]] = arith.andi
// CHECK-NEXT: [[AMOUNT2:%.*]] = arith.select [[OK2]], {{%.*}}, {{%.*}} : i32
// CHECK: [[NEG:%.*]] = arith.cmpi slt
// CHECK: [[FILL:%.*]] = arith.select [[NEG]], {{%.*}}, {{%.*}} : i32
// CHECK-NEXT: [[S2:%.*]] = arith.shrsi {{%.*}}, [[AMOUNT2]] : i32
// CHECK-NEXT: arith.select [[OK2]], [[S2]], [[FILL]] : i32
func.func @bit_shift(%a: tensor<4xui8>, %b: tensor<4xui8>, %c: tensor<4xi32>) -> (tensor<4xui8>, tensor<4xi32>) {
  %r = graph.bit_shift %a, %b {direction = "right"} : tensor<4xui8>
  %s = graph.bit_shift %c, %c {direction = "right"} : tensor<4xi32>
  func.return %r, %s : tensor<4xui8>, tensor<4xi32>
}

// -----

// resize linear (asymmetric): x = i / scale clamped to [0, 4], its floor and the next index
// (clamped), and the two elements weighted by 1 - w and w; the unscaled axis reads its index.
// CHECK-LABEL: func.func @resize_linear(
// CHECK: [[I:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[J:%.*]] = tensor.index 1 : index
// CHECK: [[X:%.*]] = arith.divf {{%.*}}, {{%.*}} : f32
// CHECK: [[LO:%.*]] = arith.maximumf [[X]], {{%.*}} : f32
// CHECK: [[C:%.*]] = arith.minimumf [[LO]], {{%.*}} : f32
// CHECK-NEXT: [[F:%.*]] = math.floor [[C]] : f32
// CHECK: [[X0:%.*]] = arith.index_cast {{%.*}} : i64 to index
// CHECK-NEXT: [[W:%.*]] = arith.subf [[C]], [[F]] : f32
// CHECK: [[W0:%.*]] = arith.subf {{%.*}}, [[W]] : f32
// CHECK: [[X1:%.*]] = arith.minsi {{%.*}}, {{%.*}} : index
// CHECK-NEXT: [[A:%.*]] = tensor.extract %x[[[I]], [[X0]]] : tensor<1x5xf32>
// CHECK-NEXT: [[AW:%.*]] = arith.mulf [[A]], [[W0]] : f32
// CHECK-NEXT: [[B:%.*]] = tensor.extract %x[[[I]], [[X1]]] : tensor<1x5xf32>
// CHECK-NEXT: [[BW:%.*]] = arith.mulf [[B]], [[W]] : f32
// CHECK-NEXT: [[Y:%.*]] = arith.addf [[AW]], [[BW]] : f32
// CHECK-NEXT: tensor.yield [[Y]] : f32
func.func @resize_linear(%x: tensor<1x5xf32>) -> tensor<1x10xf32> {
  %r = graph.resize %x {mode = "linear", coordinate_transformation_mode = "asymmetric"} : (tensor<1x5xf32>) -> tensor<1x10xf32>
  func.return %r : tensor<1x10xf32>
}

// -----

// resize cubic: four taps per resized axis (floor(x) - 1 .. floor(x) + 2, clamped to the edge),
// so 4 x 4 elements for two resized axes, each weighted by the product of its taps' weights.
// CHECK-LABEL: func.func @resize_cubic(
// CHECK-COUNT-16: tensor.extract %x
// CHECK-NOT: tensor.extract
// CHECK: tensor.yield
func.func @resize_cubic(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %r = graph.resize %x {mode = "cubic"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32>
  func.return %r : tensor<1x1x8x8xf32>
}
