// The reduce ops and argmax print in the graph syntax and round-trip, custom and generic.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @sum(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>)
func.func @sum(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  // CHECK-NEXT: [[S:%.*]] = graph.reduce_sum [[X]] {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  // CHECK-NEXT: func.return [[S]] : tensor<3xf32>
  %s = graph.reduce_sum %x {axes = array<i64: 1>, keepdims = false} : (tensor<3x4xf32>) -> tensor<3xf32>
  func.return %s : tensor<3xf32>
}

// Defaults (no axes: all of them; keepdims = true) are not printed.
// CHECK-LABEL: func.func @sum_all(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xi64>)
func.func @sum_all(%x: tensor<3x4xi64>) -> tensor<1x1xi64> {
  // CHECK-NEXT: [[S:%.*]] = graph.reduce_sum [[X]] : (tensor<3x4xi64>) -> tensor<1x1xi64>
  // CHECK-NEXT: func.return [[S]] : tensor<1x1xi64>
  %s = graph.reduce_sum %x {keepdims = true, noop_with_empty_axes = false} : (tensor<3x4xi64>) -> tensor<1x1xi64>
  func.return %s : tensor<1x1xi64>
}

// Negative, unsorted axes are kept as written.
// CHECK-LABEL: func.func @mean(
// CHECK-SAME: [[X:%.*]]: tensor<2x3x4xf32>)
func.func @mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  // CHECK-NEXT: [[M:%.*]] = graph.reduce_mean [[X]] {axes = array<i64: -1, 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK-NEXT: func.return [[M]] : tensor<3xf32>
  %m = graph.reduce_mean %x {axes = array<i64: -1, 0>, keepdims = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  func.return %m : tensor<3xf32>
}

// With noop_with_empty_axes, empty axes are the identity: the short type form.
// CHECK-LABEL: func.func @max_noop(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>)
func.func @max_noop(%x: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // CHECK-NEXT: [[M:%.*]] = graph.reduce_max [[X]] {axes = array<i64>, noop_with_empty_axes = true} : tensor<3x4xf32>
  // CHECK-NEXT: func.return [[M]] : tensor<3x4xf32>
  %m = graph.reduce_max %x {axes = array<i64>, noop_with_empty_axes = true} : tensor<3x4xf32>
  func.return %m : tensor<3x4xf32>
}

// Dynamic dimensions.
// CHECK-LABEL: func.func @min_dynamic(
// CHECK-SAME: [[X:%.*]]: tensor<?x4x?xi64>)
func.func @min_dynamic(%x: tensor<?x4x?xi64>) -> tensor<?x1x?xi64> {
  // CHECK-NEXT: [[M:%.*]] = graph.reduce_min [[X]] {axes = array<i64: 1>} : (tensor<?x4x?xi64>) -> tensor<?x1x?xi64>
  // CHECK-NEXT: func.return [[M]] : tensor<?x1x?xi64>
  %m = graph.reduce_min %x {axes = array<i64: 1>} : (tensor<?x4x?xi64>) -> tensor<?x1x?xi64>
  func.return %m : tensor<?x1x?xi64>
}

// Every axis without keepdims: a rank-0 result.
// CHECK-LABEL: func.func @prod_scalar(
// CHECK-SAME: [[X:%.*]]: tensor<2x0x3xf64>)
func.func @prod_scalar(%x: tensor<2x0x3xf64>) -> tensor<f64> {
  // CHECK-NEXT: [[P:%.*]] = graph.reduce_prod [[X]] {keepdims = false} : (tensor<2x0x3xf64>) -> tensor<f64>
  // CHECK-NEXT: func.return [[P]] : tensor<f64>
  %p = graph.reduce_prod %x {keepdims = false} : (tensor<2x0x3xf64>) -> tensor<f64>
  func.return %p : tensor<f64>
}

// CHECK-LABEL: func.func @argmax(
// CHECK-SAME: [[X:%.*]]: tensor<3x4xf32>)
func.func @argmax(%x: tensor<3x4xf32>) -> (tensor<3xi64>, tensor<1x4xi64>) {
  // CHECK-NEXT: [[A:%.*]] = graph.argmax [[X]] {axis = -1, keepdims = false, select_last_index = true} : (tensor<3x4xf32>) -> tensor<3xi64>
  // CHECK-NEXT: [[B:%.*]] = graph.argmax [[X]] : (tensor<3x4xf32>) -> tensor<1x4xi64>
  // CHECK-NEXT: func.return [[A]], [[B]] : tensor<3xi64>, tensor<1x4xi64>
  %a = graph.argmax %x {axis = -1, keepdims = false, select_last_index = true} : (tensor<3x4xf32>) -> tensor<3xi64>
  %b = graph.argmax %x : (tensor<3x4xf32>) -> tensor<1x4xi64>
  func.return %a, %b : tensor<3xi64>, tensor<1x4xi64>
}

// CHECK-LABEL: func.func @argmax_dynamic(
// CHECK-SAME: [[X:%.*]]: tensor<?x5xi1>)
func.func @argmax_dynamic(%x: tensor<?x5xi1>) -> tensor<5xi64> {
  // CHECK-NEXT: [[A:%.*]] = graph.argmax [[X]] {keepdims = false} : (tensor<?x5xi1>) -> tensor<5xi64>
  // CHECK-NEXT: func.return [[A]] : tensor<5xi64>
  %a = graph.argmax %x {axis = 0, keepdims = false} : (tensor<?x5xi1>) -> tensor<5xi64>
  func.return %a : tensor<5xi64>
}
