// The ops that index by values fold through their references: topk's two results, a running sum,
// a gather_nd with a negative index (ties in topk: the lower index first).
// RUN: strati-opt %s -p fold-constants | filecheck %s

// CHECK-LABEL: func.func @fold()
// CHECK-NEXT: %v = graph.constant dense<[7.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: %i = graph.constant dense<[2, 0]> : tensor<2xi64>
// CHECK-NEXT: %c = graph.constant dense<[1, 3, 6, 10]> : tensor<4xi32>
// CHECK-NEXT: %g = graph.constant dense<[7.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: func.return %v, %i, %c, %g
func.func @fold() -> (tensor<2xf32>, tensor<2xi64>, tensor<4xi32>, tensor<3xf32>) {
  %x = graph.constant dense<[3.0, -1.0, 7.0, 3.0]> : tensor<4xf32>
  %v, %i = graph.topk %x {k = 2} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xi64>)
  %n = graph.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %c = graph.cumsum %n {axis = 0} : tensor<4xi32>
  %j = graph.constant dense<[[2], [0], [-1]]> : tensor<3x1xi64>
  %g = graph.gather_nd %x, %j : (tensor<4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  func.return %v, %i, %c, %g : tensor<2xf32>, tensor<2xi64>, tensor<4xi32>, tensor<3xf32>
}
