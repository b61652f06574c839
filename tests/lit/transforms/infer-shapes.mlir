// RUN: strati-opt %s --split-input-file -p infer-shapes | filecheck %s

// Dynamic result dimensions that the operands determine are made static, and the
// function's signature follows its return.
// CHECK-LABEL: func.func @refine(
// CHECK-SAME: -> tensor<4x3xf32>
// CHECK: [[S:%.*]] = graph.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT: [[R:%.*]] = graph.relu [[S]] : tensor<4x3xf32>
// CHECK-NEXT: func.return [[R]] : tensor<4x3xf32>
func.func @refine(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<?x?xf32> {
  %s = graph.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<?x?xf32>
  %r = graph.relu %s : tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// Unknown input dimensions stay unknown, known ones propagate.
// CHECK-LABEL: func.func @partial(
// CHECK: graph.add %a, %b : (tensor<?x1xf32>, tensor<5xf32>) -> tensor<?x5xf32>
// CHECK: -> tensor<?x5xi1>
func.func @partial(%a: tensor<?x1xf32>, %b: tensor<5xf32>) -> tensor<?x?xi1> {
  %s = graph.add %a, %b : (tensor<?x1xf32>, tensor<5xf32>) -> tensor<?x?xf32>
  %c = graph.less %s, %b : (tensor<?x?xf32>, tensor<5xf32>) -> tensor<?x?xi1>
  func.return %c : tensor<?x?xi1>
}

// -----

// Ops without an infer_type (here an unregistered one is not possible, so func ops) are left alone.
// CHECK-LABEL: func.func @static(
// CHECK-NEXT: graph.exp %x : tensor<2xf32>
func.func @static(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = graph.exp %x : tensor<2xf32>
  func.return %y : tensor<2xf32>
}
