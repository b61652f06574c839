// The verifier rules of loop.if, loop.while and loop.condition.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @no_condition(%out: memref<i64>) {
  // expected-error@+1 {{the first region must end with loop.condition}}
  "loop.while"() ({
    "loop.yield"() : () -> ()
  }, {
    "loop.yield"() : () -> ()
  }) : () -> ()
  func.return
}

// -----

func.func @condition_parent(%c: i1) {
  // expected-error@+1 {{'loop.condition' op expects its parent to be a loop.while}}
  loop.condition %c
}

// -----

func.func @if_args(%c: i1) {
  // expected-error@+1 {{each region takes no arguments and ends with loop.yield}}
  "loop.if"(%c) ({
  ^bb0(%x: index):
    "loop.yield"() : () -> ()
  }, {
    "loop.yield"() : () -> ()
  }) : (i1) -> ()
  func.return
}
