// RUN: strati-opt %s -p canonicalize | filecheck %s

// Constant starts and ends make a static graph.slice when its type is the declared one
// (12 down to the start by 4 is 4 elements); otherwise the op stays (12 down by 5 is 3
// elements, not 2: it fails its run-time check), as do run-time bounds.
// CHECK-LABEL: func.func @f(
// CHECK-NEXT: %[[S:.*]] = graph.constant dense<12> : tensor<1xi64>
// CHECK-NEXT: %[[E:.*]] = graph.constant dense<-100> : tensor<1xi64>
// CHECK-NEXT: graph.slice %x {starts = array<i64: 12>, ends = array<i64: -100>, axes = array<i64: 1>, steps = array<i64: -4>} : (tensor<5x13xf32>) -> tensor<5x4xf32>
// CHECK-NEXT: graph.dynamic_slice %x, %[[S]], %[[E]] {axes = array<i64: 1>, steps = array<i64: -5>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x2xf32>
// CHECK-NEXT: graph.dynamic_slice %x, %r, %[[E]] {axes = array<i64: 1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x4xf32>
func.func @f(%x: tensor<5x13xf32>, %r: tensor<1xi64>) -> (tensor<5x4xf32>, tensor<5x2xf32>, tensor<5x4xf32>) {
  %s = graph.constant dense<[12]> : tensor<1xi64>
  %e = graph.constant dense<[-100]> : tensor<1xi64>
  %a = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x4xf32>
  %b = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1>, steps = array<i64: -5>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x2xf32>
  %c = graph.dynamic_slice %x, %r, %e {axes = array<i64: 1>, steps = array<i64: -4>} : (tensor<5x13xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x4xf32>
  func.return %a, %b, %c : tensor<5x4xf32>, tensor<5x2xf32>, tensor<5x4xf32>
}
