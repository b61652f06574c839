// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s

// dynamic_slice: a generic over the result; each element reads the start and end, counts a
// negative one from the end (13), clamps them for a backward step ([0, 12] and [-1, 12]),
// checks the extent (ceil((start - end) / 4) == 3) and reads start + i * -4 (0 if the check fails).
// CHECK-LABEL: func.func @dynamic_slice(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs({{%.*}} : tensor<5x3xf32>)
// CHECK: [[I0:%.*]] = tensor.index 0 : index
// CHECK-NEXT: [[I1:%.*]] = tensor.index 1 : index
// CHECK: [[S:%.*]] = tensor.extract %s[{{%.*}}] : tensor<1xi64>
// CHECK-NEXT: [[SI:%.*]] = arith.index_cast [[S]] : i64 to index
// CHECK: arith.constant 13 : index
// CHECK: arith.maxsi
// CHECK: [[C12:%.*]] = arith.constant 12 : index
// CHECK-NEXT: [[LO:%.*]] = arith.minsi {{%.*}}, [[C12]] : index
// CHECK: [[E:%.*]] = tensor.extract %e[{{%.*}}] : tensor<1xi64>
// CHECK: [[CM1:%.*]] = arith.constant -1 : index
// CHECK-NEXT: arith.maxsi {{%.*}}, [[CM1]] : index
// CHECK: [[HI:%.*]] = arith.minsi
// CHECK-NEXT: [[SPAN:%.*]] = arith.subi [[LO]], [[HI]] : index
// CHECK: [[C4:%.*]] = arith.constant 4 : index
// CHECK-NEXT: arith.divsi {{%.*}}, [[C4]] : index
// CHECK: [[EXT:%.*]] = arith.select
// CHECK-NEXT: [[C3:%.*]] = arith.constant 3 : index
// CHECK-NEXT: [[OK:%.*]] = arith.cmpi eq, [[EXT]], [[C3]] : index
// CHECK-NEXT: cf.assert [[OK]], "'graph.dynamic_slice' op at {{.*}}: the starts and ends give another number of elements along axis 1 than the result's 3"
// CHECK-NEXT: [[CM4:%.*]] = arith.constant -4 : index
// CHECK-NEXT: [[M:%.*]] = arith.muli [[I1]], [[CM4]] : index
// CHECK-NEXT: [[AT:%.*]] = arith.addi [[LO]], [[M]] : index
// CHECK: [[SAFE:%.*]] = arith.select [[OK]], [[AT]], {{%.*}} : index
// CHECK-NEXT: [[V:%.*]] = tensor.extract %x[[[I0]], [[SAFE]]] : tensor<5x13xf32>
// CHECK-NEXT: tensor.yield [[V]] : f32
func.func @dynamic_slice(%x: tensor<5x13xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<5x3xf32> {
  %r = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x3xf32>
  func.return %r : tensor<5x3xf32>
}

// -----

// Forward, i32 starts: clamped into [0, 7]; the extent is ceil((end - start) / 1).
// CHECK-LABEL: func.func @forward(
// CHECK: tensor.extract %s[{{%.*}}] : tensor<1xi32>
// CHECK-NEXT: arith.index_cast {{%.*}} : i32 to index
// CHECK: arith.maxsi
// CHECK-NEXT: [[C7:%.*]] = arith.constant 7 : index
// CHECK-NEXT: arith.minsi {{%.*}}, [[C7]] : index
// CHECK: [[SPAN:%.*]] = arith.subi
// CHECK: cf.assert
// CHECK: tensor.extract %x[{{%.*}}] : tensor<7xi64>
func.func @forward(%x: tensor<7xi64>, %s: tensor<1xi32>, %e: tensor<1xi32>) -> tensor<2xi64> {
  %r = graph.dynamic_slice %x, %s, %e : (tensor<7xi64>, tensor<1xi32>, tensor<1xi32>) -> tensor<2xi64>
  func.return %r : tensor<2xi64>
}
