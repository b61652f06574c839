// graph.dynamic_slice prints in the graph syntax and round-trips, custom and generic; absent
// axes and steps are not printed (given ones are, even when all 1).
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @dynamic_slices(
// CHECK-SAME: [[X:%.*]]: tensor<5x13xf32>, [[S:%.*]]: tensor<1xi64>, [[E:%.*]]: tensor<1xi64>, [[S2:%.*]]: tensor<2xi32>, [[E2:%.*]]: tensor<2xi32>)
func.func @dynamic_slices(%x: tensor<5x13xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %s2: tensor<2xi32>, %e2: tensor<2xi32>) -> (tensor<2x13xf32>, tensor<5x3xf32>, tensor<3x0xf32>) {
  // CHECK-NEXT: graph.dynamic_slice [[X]], [[S]], [[E]] : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x13xf32>
  // CHECK-NEXT: graph.dynamic_slice [[X]], [[S]], [[E]] {axes = array<i64: -1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x3xf32>
  // CHECK-NEXT: graph.dynamic_slice [[X]], [[S2]], [[E2]] {axes = array<i64: 1, 0>, steps = array<i64: 1, 1>} : (tensor<5x13xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x0xf32>
  %a = graph.dynamic_slice %x, %s, %e : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x13xf32>
  %b = graph.dynamic_slice %x, %s, %e {axes = array<i64: -1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x3xf32>
  %c = graph.dynamic_slice %x, %s2, %e2 {axes = array<i64: 1, 0>, steps = array<i64: 1, 1>} : (tensor<5x13xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x0xf32>
  func.return %a, %b, %c : tensor<2x13xf32>, tensor<5x3xf32>, tensor<3x0xf32>
}

// A dynamic dimension off the sliced axes stays dynamic.
// CHECK-LABEL: func.func @batch(
// CHECK-NEXT: graph.dynamic_slice {{.*}} {axes = array<i64: 1>} : (tensor<?x7xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
func.func @batch(%x: tensor<?x7xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>) -> tensor<?x4xf32> {
  %a = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1>} : (tensor<?x7xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4xf32>
  func.return %a : tensor<?x4xf32>
}
