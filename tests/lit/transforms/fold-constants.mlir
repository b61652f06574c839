// RUN: strati-opt %s --split-input-file -p fold-constants | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'fold-constants{max-elements=2}' | filecheck %s --check-prefix=LIMIT

// A whole constant subgraph folds in one run; the constants it consumed are erased;
// the op that also takes a function argument stays.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: [[C:%.*]] = graph.constant dense<[0.000000e+00, 3.000000e+00, 8.000000e+00]> : tensor<3xf32>
// CHECK-NEXT: [[R:%.*]] = graph.add %x, [[C]]
// CHECK-NEXT: func.return [[R]]
// LIMIT-LABEL: func.func @chain(
// LIMIT: graph.mul
// LIMIT: graph.relu
func.func @chain(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = graph.constant dense<[-1.000000e+00, 1.000000e+00, 2.000000e+00]> : tensor<3xf32>
  %b = graph.constant dense<[5.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<3xf32>
  %m = graph.mul %a, %b : tensor<3xf32>
  %r = graph.relu %m : tensor<3xf32>
  %y = graph.add %x, %r : tensor<3xf32>
  func.return %y : tensor<3xf32>
}

// -----

// Broadcasting and a change of element type fold too; an op with a non-constant operand does not.
// CHECK-LABEL: func.func @compare(
// CHECK-NEXT: [[C:%.*]] = graph.constant dense<{{\[}}[false, true], [false, false]]> : tensor<2x2xi1>
// CHECK-NEXT: func.return [[C]]
func.func @compare() -> tensor<2x2xi1> {
  %a = graph.constant dense<[[1.000000e+00], [4.000000e+00]]> : tensor<2x1xf32>
  %b = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %c = graph.less %a, %b : (tensor<2x1xf32>, tensor<2xf32>) -> tensor<2x2xi1>
  func.return %c : tensor<2x2xi1>
}

// -----

// A constant subgraph three ops deep (neg, broadcast_to, transpose) folds in one run.
// With max-elements=2 the limit stops it after neg: broadcast_to would make 6 elements,
// and what uses its result is then not constant either.
// CHECK-LABEL: func.func @deep(
// CHECK-NEXT: [[C:%.*]] = graph.constant dense<{{\[}}[-1.000000e+00, -1.000000e+00, -1.000000e+00], [-2.000000e+00, -2.000000e+00, -2.000000e+00]]> : tensor<2x3xf32>
// CHECK-NEXT: [[R:%.*]] = graph.mul %x, [[C]]
// CHECK-NEXT: func.return [[R]]
// LIMIT-LABEL: func.func @deep(
// LIMIT-NEXT: [[N:%.*]] = graph.constant dense<[-1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// LIMIT-NEXT: [[B:%.*]] = graph.broadcast_to [[N]]
// LIMIT-NEXT: [[T:%.*]] = graph.transpose [[B]]
// LIMIT-NEXT: graph.mul %x, [[T]]
func.func @deep(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = graph.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  %n = graph.neg %a : tensor<2xf32>
  %b = graph.broadcast_to %n : (tensor<2xf32>) -> tensor<3x2xf32>
  %t = graph.transpose %b : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %y = graph.mul %x, %t : tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
