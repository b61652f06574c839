// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{the step must be positive, got 0}}
  cpu.parallel %i = %n to %n step %c0 {
  }
  func.return
}

// -----

func.func @nested(%n: index) {
  cpu.parallel %i = %n to %n step %n {
    // expected-error@+1 {{cpu.parallel cannot be nested in another cpu.parallel of the same function}}
    cpu.parallel %j = %n to %n step %n {
    }
  }
  func.return
}

// -----

func.func @not_index(%n: index) {
  // expected-error@+1 {{the body must take exactly one index argument, the induction variable}}
  "cpu.parallel"(%n, %n, %n) ({
  ^bb0(%i: i32):
    "cpu.yield"() : () -> ()
  }) : (index, index, index) -> ()
  func.return
}

// -----

func.func @no_property(%n: index) {
  // expected-error@+2 {{cpu.parallel has no property 'unroll' (its properties: none)}}
  cpu.parallel %i = %n to %n step %n {
  } {unroll = 2}
  func.return
}

// -----

// expected-error@+1 {{#hw.target vector_width must be a power of two >= 1, got 6}}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 6, fma = true, cores = 2, l1 = 1, l2 = 2, l3 = 3>} {
}

// -----

// expected-error@+1 {{#hw.target cores must be at least 1, got 0}}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 0, l1 = 1, l2 = 2, l3 = 3>} {
}

// -----

// expected-error@+1 {{unknown #hw.target field 'lanes'}}
builtin.module attributes {hw.target = #hw.target<"cpu", lanes = 8, fma = true, cores = 2, l1 = 1, l2 = 2, l3 = 3>} {
}

// -----

// expected-error@+1 {{#hw.target is missing l2, l3}}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 1>} {
}

// -----

// expected-error@+1 {{#hw.target field 'cores' given twice}}
builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, cores = 2, fma = true, cores = 2, l1 = 1, l2 = 2, l3 = 3>} {
}
