// Rules that match an op with several results and replace all of them: (a, b) = op(...) -> (r1, r2).
// RUN: strati-opt %s --rules %S/Inputs/split.rules | filecheck %s
// RUN: strati-opt %s --rules %S/Inputs/split.rules --verify-each | filecheck %s
// RUN: strati-opt --print-rules %S/Inputs/split.rules | filecheck %s --check-prefix=PRINT
// RUN: strati-opt --print-rules %S/Inputs/split.rules > %t.rules
// RUN: strati-opt --print-rules %t.rules | diff - %t.rules

// PRINT:      rule split_of_concat:
// PRINT-NEXT:   (a, b) = graph.split(graph.concat(x, y) {axis = k}) {axis = k}
// PRINT-NEXT:   -> (x, y)
// PRINT-NEXT:   where same_type(x, a), same_type(y, b)
// PRINT-NEXT: rule split_one:
// PRINT-NEXT:   (a) = graph.split(x : T) : T
// PRINT-NEXT:   -> (x)
// PRINT-NEXT: rule split_relu:
// PRINT-NEXT:   (a, b) = graph.split(graph.relu(x)) {axis = 0}
// PRINT-NEXT:   -> (graph.relu(graph.slice(x) {starts = [0], ends = [2]}) : type(a), graph.relu(graph.slice(x) {starts = [2], ends = [4]}) : type(b))
// PRINT-NEXT:   where type(x) == tensor<4xf32>, type(a) == tensor<2xf32>

// CHECK-LABEL: func.func @concat(
// CHECK-NEXT: func.return %y, %x
func.func @concat(%x: tensor<2x3xf32>, %y: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x3xf32>) {
  %c = graph.concat %x, %y {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %a, %b = graph.split %c {axis = 1, sizes = array<i64: 3, 5>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  func.return %b, %a : tensor<2x5xf32>, tensor<2x3xf32>
}

// Another axis, or other sizes: nothing happens.
// CHECK-LABEL: func.func @other_axis(
// CHECK-NEXT: graph.concat
// CHECK-NEXT: graph.split
func.func @other_axis(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %c = graph.concat %x, %y {axis = 0} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %a, %b = graph.split %c {axis = 1} : (tensor<4x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  func.return %a, %b : tensor<4x2xf32>, tensor<4x2xf32>
}

// CHECK-LABEL: func.func @one(
// CHECK-NEXT: func.return %x
func.func @one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.split %x {axis = 0} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func @relu(
// CHECK-NEXT: [[S0:%.*]] = graph.slice %x {starts = array<i64: 0>, ends = array<i64: 2>} : (tensor<4xf32>) -> tensor<2xf32>
// CHECK-NEXT: [[R0:%.*]] = graph.relu [[S0]] : tensor<2xf32>
// CHECK-NEXT: [[S1:%.*]] = graph.slice %x {starts = array<i64: 2>, ends = array<i64: 4>} : (tensor<4xf32>) -> tensor<2xf32>
// CHECK-NEXT: [[R1:%.*]] = graph.relu [[S1]] : tensor<2xf32>
// CHECK-NEXT: func.return [[R1]], [[R0]]
func.func @relu(%x: tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %r = graph.relu %x : tensor<4xf32>
  %a, %b = graph.split %r {axis = 0} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %b, %a : tensor<2xf32>, tensor<2xf32>
}
