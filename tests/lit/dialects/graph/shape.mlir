// The data-movement ops print in the graph syntax and round-trip, custom and generic;
// properties holding their default value are not printed.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>)
func.func @reshape(%x: tensor<3x4xf32>) -> (tensor<2x6xf32>, tensor<?x2xf32>, tensor<12xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.reshape [[X]] : (tensor<3x4xf32>) -> tensor<2x6xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.reshape [[X]] : (tensor<3x4xf32>) -> tensor<?x2xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.reshape [[B]] : (tensor<?x2xf32>) -> tensor<12xf32>
  // CHECK-NEXT: func.return [[A]], [[B]], [[C]] : tensor<2x6xf32>, tensor<?x2xf32>, tensor<12xf32>
  %a = graph.reshape %x : (tensor<3x4xf32>) -> tensor<2x6xf32>
  %b = graph.reshape %x : (tensor<3x4xf32>) -> tensor<?x2xf32>
  %c = graph.reshape %b : (tensor<?x2xf32>) -> tensor<12xf32>
  func.return %a, %b, %c : tensor<2x6xf32>, tensor<?x2xf32>, tensor<12xf32>
}

// CHECK-LABEL: func.func @broadcast_to(
// CHECK-SAME: [[X:%.*]]: tensor<3x1xi64>, [[Y:%.*]]: tensor<?x4xf32>)
func.func @broadcast_to(%x: tensor<3x1xi64>, %y: tensor<?x4xf32>) -> (tensor<2x3x5xi64>, tensor<2x?x4xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.broadcast_to [[X]] : (tensor<3x1xi64>) -> tensor<2x3x5xi64>
  // CHECK-NEXT: [[B:%.*]] = graph.broadcast_to [[Y]] : (tensor<?x4xf32>) -> tensor<2x?x4xf32>
  // CHECK-NEXT: func.return [[A]], [[B]] : tensor<2x3x5xi64>, tensor<2x?x4xf32>
  %a = graph.broadcast_to %x : (tensor<3x1xi64>) -> tensor<2x3x5xi64>
  %b = graph.broadcast_to %y : (tensor<?x4xf32>) -> tensor<2x?x4xf32>
  func.return %a, %b : tensor<2x3x5xi64>, tensor<2x?x4xf32>
}

// CHECK-LABEL: func.func @flatten(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x5xf32>)
func.func @flatten(%x: tensor<2x3x5xf32>) -> (tensor<2x15xf32>, tensor<6x5xf32>, tensor<30x1xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.flatten [[X]] : (tensor<2x3x5xf32>) -> tensor<2x15xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.flatten [[X]] {axis = -1} : (tensor<2x3x5xf32>) -> tensor<6x5xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.flatten [[X]] {axis = 3} : (tensor<2x3x5xf32>) -> tensor<30x1xf32>
  // CHECK-NEXT: func.return [[A]], [[B]], [[C]]
  %a = graph.flatten %x {axis = 1} : (tensor<2x3x5xf32>) -> tensor<2x15xf32>
  %b = graph.flatten %x {axis = -1} : (tensor<2x3x5xf32>) -> tensor<6x5xf32>
  %c = graph.flatten %x {axis = 3} : (tensor<2x3x5xf32>) -> tensor<30x1xf32>
  func.return %a, %b, %c : tensor<2x15xf32>, tensor<6x5xf32>, tensor<30x1xf32>
}

// CHECK-LABEL: func.func @transpose(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4xf32>)
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<3x4x2xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.transpose [[X]] : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.transpose [[X]] {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  // CHECK-NEXT: func.return [[A]], [[B]]
  %a = graph.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %b = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  func.return %a, %b : tensor<4x3x2xf32>, tensor<3x4x2xf32>
}

// CHECK-LABEL: func.func @squeeze_unsqueeze(
// CHECK-SAME: [[X:%.*]]: tensor<1x3x1xf32>)
func.func @squeeze_unsqueeze(%x: tensor<1x3x1xf32>) -> (tensor<3xf32>, tensor<1x3xf32>, tensor<1x3x1x1xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.squeeze [[X]] : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.squeeze [[X]] {axes = array<i64: -1>} : (tensor<1x3x1xf32>) -> tensor<1x3xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.unsqueeze [[B]] {axes = array<i64: 2, -1>} : (tensor<1x3xf32>) -> tensor<1x3x1x1xf32>
  // CHECK-NEXT: func.return [[A]], [[B]], [[C]]
  %a = graph.squeeze %x : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %b = graph.squeeze %x {axes = array<i64: -1>} : (tensor<1x3x1xf32>) -> tensor<1x3xf32>
  %c = graph.unsqueeze %b {axes = array<i64: 2, -1>} : (tensor<1x3xf32>) -> tensor<1x3x1x1xf32>
  func.return %a, %b, %c : tensor<3xf32>, tensor<1x3xf32>, tensor<1x3x1x1xf32>
}

// CHECK-LABEL: func.func @slice(
// CHECK-SAME: [[X:%.*]]: tensor<5x7xf32>)
func.func @slice(%x: tensor<5x7xf32>) -> (tensor<3x6xf32>, tensor<5x2xf32>, tensor<5x7xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.slice [[X]] {starts = array<i64: 1, 0>, ends = array<i64: 4, -1>} : (tensor<5x7xf32>) -> tensor<3x6xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.slice [[X]] {starts = array<i64: -1>, ends = array<i64: -100>, axes = array<i64: -1>, steps = array<i64: -4>} : (tensor<5x7xf32>) -> tensor<5x2xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.slice [[X]] {starts = array<i64: 0>, ends = array<i64: 9223372036854775807>} : tensor<5x7xf32>
  // CHECK-NEXT: func.return [[A]], [[B]], [[C]]
  %a = graph.slice %x {starts = array<i64: 1, 0>, ends = array<i64: 4, -1>} : (tensor<5x7xf32>) -> tensor<3x6xf32>
  %b = graph.slice %x {starts = array<i64: -1>, ends = array<i64: -100>, axes = array<i64: -1>, steps = array<i64: -4>} : (tensor<5x7xf32>) -> tensor<5x2xf32>
  %c = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 9223372036854775807>} : tensor<5x7xf32>
  func.return %a, %b, %c : tensor<3x6xf32>, tensor<5x2xf32>, tensor<5x7xf32>
}

// CHECK-LABEL: func.func @pad(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xi64>)
func.func @pad(%x: tensor<3x4xi64>) -> (tensor<4x7xi64>, tensor<5x5xi64>, tensor<2x5xi64>) {
  // CHECK-NEXT: [[A:%.*]] = graph.pad [[X]] {pads = array<i64: 1, 2, 0, 1>} : (tensor<3x4xi64>) -> tensor<4x7xi64>
  // CHECK-NEXT: [[B:%.*]] = graph.pad [[X]] {pads = array<i64: 1, 0, 1, 1>, mode = "reflect"} : (tensor<3x4xi64>) -> tensor<5x5xi64>
  // CHECK-NEXT: [[C:%.*]] = graph.pad [[X]] {pads = array<i64: -1, 2, 0, -1>, value = -7.0} : (tensor<3x4xi64>) -> tensor<2x5xi64>
  // CHECK-NEXT: func.return [[A]], [[B]], [[C]]
  %a = graph.pad %x {pads = array<i64: 1, 2, 0, 1>, mode = "constant", value = 0.0} : (tensor<3x4xi64>) -> tensor<4x7xi64>
  %b = graph.pad %x {pads = array<i64: 1, 0, 1, 1>, mode = "reflect"} : (tensor<3x4xi64>) -> tensor<5x5xi64>
  %c = graph.pad %x {pads = array<i64: -1, 2, 0, -1>, value = -7} : (tensor<3x4xi64>) -> tensor<2x5xi64>
  func.return %a, %b, %c : tensor<4x7xi64>, tensor<5x5xi64>, tensor<2x5xi64>
}

// CHECK-LABEL: func.func @edge_pad(
// CHECK-SAME: [[X:%.*]]: tensor<?x4xf32>)
func.func @edge_pad(%x: tensor<?x4xf32>) -> tensor<?x10xf32> {
  // CHECK-NEXT: [[A:%.*]] = graph.pad [[X]] {pads = array<i64: 0, 3, 2, 3>, mode = "edge"} : (tensor<?x4xf32>) -> tensor<?x10xf32>
  // CHECK-NEXT: func.return [[A]]
  %a = graph.pad %x {pads = array<i64: 0, 3, 2, 3>, mode = "edge"} : (tensor<?x4xf32>) -> tensor<?x10xf32>
  func.return %a : tensor<?x10xf32>
}

// CHECK-LABEL: func.func @concat(
// CHECK-SAME: [[A:%.*]]: tensor<2x3xf32>, [[B:%.*]]: tensor<4x3xf32>, [[C:%.*]]: tensor<?x3xf32>)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<?x3xf32>) -> (tensor<6x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>) {
  // CHECK-NEXT: [[X:%.*]] = graph.concat [[A]], [[B]] {axis = 0} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  // CHECK-NEXT: [[Y:%.*]] = graph.concat [[A]], [[C]], [[B]] {axis = -2} : (tensor<2x3xf32>, tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: [[Z:%.*]] = graph.concat [[A]] {axis = 1} : tensor<2x3xf32>
  // CHECK-NEXT: func.return [[X]], [[Y]], [[Z]]
  %x = graph.concat %a, %b {axis = 0} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %y = graph.concat %a, %c, %b {axis = -2} : (tensor<2x3xf32>, tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  %z = graph.concat %a {axis = 1} : tensor<2x3xf32>
  func.return %x, %y, %z : tensor<6x3xf32>, tensor<?x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @split(
// CHECK-SAME: [[X:%.*]]: tensor<3x6xf32>)
func.func @split(%x: tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>, tensor<1x6xf32>) {
  // The printer names each result of a multi-result op.
  // CHECK-NEXT: [[P0:%[^ ,]+]], [[P1:%[^ ,]+]] = graph.split [[X]] {axis = 1, sizes = array<i64: 2, 4>} : (tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>)
  // CHECK-NEXT: {{%[^ ,]+}}, {{%[^ ,]+}}, [[Q2:%[^ ,]+]] = graph.split [[X]] : (tensor<3x6xf32>) -> (tensor<1x6xf32>, tensor<1x6xf32>, tensor<1x6xf32>)
  // CHECK-NEXT: func.return [[P0]], [[P1]], [[Q2]]
  %p:2 = graph.split %x {axis = 1, sizes = array<i64: 2, 4>} : (tensor<3x6xf32>) -> (tensor<3x2xf32>, tensor<3x4xf32>)
  %q:3 = graph.split %x {axis = 0} : (tensor<3x6xf32>) -> (tensor<1x6xf32>, tensor<1x6xf32>, tensor<1x6xf32>)
  func.return %p#0, %p#1, %q#2 : tensor<3x2xf32>, tensor<3x4xf32>, tensor<1x6xf32>
}

// CHECK-LABEL: func.func @gather(
// CHECK-SAME: [[D:%.*]]: tensor<5x4xf32>, [[I:%.*]]: tensor<2x3xi64>, [[S:%.*]]: tensor<i32>)
func.func @gather(%d: tensor<5x4xf32>, %i: tensor<2x3xi64>, %s: tensor<i32>) -> (tensor<2x3x4xf32>, tensor<5xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.gather [[D]], [[I]] : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.gather [[D]], [[S]] {axis = -1} : (tensor<5x4xf32>, tensor<i32>) -> tensor<5xf32>
  // CHECK-NEXT: func.return [[A]], [[B]]
  %a = graph.gather %d, %i {axis = 0} : (tensor<5x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  %b = graph.gather %d, %s {axis = -1} : (tensor<5x4xf32>, tensor<i32>) -> tensor<5xf32>
  func.return %a, %b : tensor<2x3x4xf32>, tensor<5xf32>
}

// CHECK-LABEL: func.func @resize(
// CHECK-SAME: [[X:%.*]]: tensor<1x2x3x5xf32>)
func.func @resize(%x: tensor<1x2x3x5xf32>) -> (tensor<1x2x6x15xf32>, tensor<1x2x7x4xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.resize [[X]] {scales = array<f32: 1.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00>} : (tensor<1x2x3x5xf32>) -> tensor<1x2x6x15xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.resize [[X]] {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x2x3x5xf32>) -> tensor<1x2x7x4xf32>
  // CHECK-NEXT: func.return [[A]], [[B]]
  %a = graph.resize %x {scales = array<f32: 1.0, 1.0, 2.0, 3.0>, coordinate_transformation_mode = "half_pixel", nearest_mode = "round_prefer_floor"} : (tensor<1x2x3x5xf32>) -> tensor<1x2x6x15xf32>
  %b = graph.resize %x {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x2x3x5xf32>) -> tensor<1x2x7x4xf32>
  func.return %a, %b : tensor<1x2x6x15xf32>, tensor<1x2x7x4xf32>
}
