// The ops that index by values print in the graph syntax and round-trip, custom and generic;
// properties holding their default value are not printed.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @gathers(
// CHECK-SAME: [[X:%.*]]: tensor<5x3xf32>, [[I:%.*]]: tensor<4x3xi64>, [[J:%.*]]: tensor<2x1xi32>, [[K:%.*]]: tensor<5x1xi32>)
func.func @gathers(%x: tensor<5x3xf32>, %i: tensor<4x3xi64>, %j: tensor<2x1xi32>, %k: tensor<5x1xi32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<5xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.gather_elements [[X]], [[I]] : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.gather_elements [[X]], [[I]] {axis = -1} : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  // CHECK-NEXT: [[C:%.*]] = graph.gather_nd [[X]], [[J]] : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  // CHECK-NEXT: [[D:%.*]] = graph.gather_nd [[X]], [[K]] {batch_dims = 1} : (tensor<5x3xf32>, tensor<5x1xi32>) -> tensor<5xf32>
  %a = graph.gather_elements %x, %i {axis = 0} : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  %b = graph.gather_elements %x, %i {axis = -1} : (tensor<5x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  %c = graph.gather_nd %x, %j : (tensor<5x3xf32>, tensor<2x1xi32>) -> tensor<2x3xf32>
  %d = graph.gather_nd %x, %k {batch_dims = 1} : (tensor<5x3xf32>, tensor<5x1xi32>) -> tensor<5xf32>
  func.return %a, %b, %c, %d : tensor<4x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>, tensor<5xf32>
}

// CHECK-LABEL: func.func @scatter_nd(
// CHECK-SAME: [[X:%.*]]: tensor<5x3xf32>, [[I:%.*]]: tensor<2x1xi64>, [[U:%.*]]: tensor<2x3xf32>)
func.func @scatter_nd(%x: tensor<5x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> (tensor<5x3xf32>, tensor<5x3xf32>) {
  // CHECK-NEXT: [[A:%.*]] = graph.scatter_nd [[X]], [[I]], [[U]] : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.scatter_nd [[X]], [[I]], [[U]] {reduction = "max"} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %a = graph.scatter_nd %x, %i, %u : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  %b = graph.scatter_nd %x, %i, %u {reduction = "max"} : (tensor<5x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<5x3xf32>
  func.return %a, %b : tensor<5x3xf32>, tensor<5x3xf32>
}

// CHECK-LABEL: func.func @cumsum_topk(
// CHECK-SAME: [[X:%.*]]: tensor<4x7xf32>)
func.func @cumsum_topk(%x: tensor<4x7xf32>) -> (tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x3xf32>, tensor<4x3xi64>, tensor<2x7xf32>, tensor<2x7xi64>) {
  // CHECK-NEXT: [[A:%.*]] = graph.cumsum [[X]] {axis = 1} : tensor<4x7xf32>
  // CHECK-NEXT: [[B:%.*]] = graph.cumsum [[X]] {axis = 0, exclusive = true, reverse = true} : tensor<4x7xf32>
  // CHECK-NEXT: [[V:%.*]], [[I:%.*]] = graph.topk [[X]] {k = 3} : (tensor<4x7xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  // CHECK-NEXT: [[W:%.*]], [[J:%.*]] = graph.topk [[X]] {k = 2, axis = 0, largest = false} : (tensor<4x7xf32>) -> (tensor<2x7xf32>, tensor<2x7xi64>)
  %a = graph.cumsum %x {axis = 1, exclusive = false} : tensor<4x7xf32>
  %b = graph.cumsum %x {axis = 0, exclusive = true, reverse = true} : tensor<4x7xf32>
  %v, %i = graph.topk %x {k = 3} : (tensor<4x7xf32>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  %w, %j = graph.topk %x {k = 2, axis = 0, largest = false} : (tensor<4x7xf32>) -> (tensor<2x7xf32>, tensor<2x7xi64>)
  func.return %a, %b, %v, %i, %w, %j : tensor<4x7xf32>, tensor<4x7xf32>, tensor<4x3xf32>, tensor<4x3xi64>, tensor<2x7xf32>, tensor<2x7xi64>
}
