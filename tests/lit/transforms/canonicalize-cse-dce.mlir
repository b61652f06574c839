// Graph ops are pure: cse merges duplicates (and drops dead ones), dce and canonicalize erase dead ones.
// RUN: strati-opt %s -p cse | filecheck %s --check-prefix=CSE
// RUN: strati-opt %s -p dce | filecheck %s --check-prefix=DCE
// RUN: strati-opt %s -p canonicalize,cse | filecheck %s --check-prefix=CANON

// CSE-LABEL: func.func @f(
// CSE-COUNT-1: graph.exp
// CSE-NOT: graph.exp
// DCE-LABEL: func.func @f(
// DCE-COUNT-2: graph.exp
// DCE-NOT: graph.tanh
// CANON-LABEL: func.func @f(
// CANON-NEXT: [[E:%.*]] = graph.exp %x
// CANON-NEXT: [[S:%.*]] = graph.add [[E]], [[E]]
// CANON-NEXT: func.return [[S]]
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = graph.exp %x : tensor<8xf32>
  %b = graph.exp %x : tensor<8xf32>
  %dead = graph.tanh %x : tensor<8xf32>
  %s = graph.add %a, %b : tensor<8xf32>
  func.return %s : tensor<8xf32>
}
