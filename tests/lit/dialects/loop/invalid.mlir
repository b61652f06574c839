// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @unroll(%n: index) {
  // expected-error@+1 {{unroll must be at least 1}}
  loop.for %i = %n to %n step %n {
  } {unroll = 0}
  func.return
}

// -----

// A constant step of 0 would never end (the mlir fuzzer's seed 21037 hung strati-run); a
// negative one neither counts down (as scf.for, the step must be positive).
func.func @zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{the step must be positive, got 0}}
  loop.for %i = %n to %n step %c0 {
  }
  func.return
}

// -----

func.func @negative_step(%n: index) {
  %c = arith.constant -2 : index
  // expected-error@+1 {{the step must be positive, got -2}}
  loop.for %i = %n to %n step %c {
  }
  func.return
}

// -----

func.func @view_count(%a: memref<4x8xf32>) {
  // expected-error@+1 {{memref<4x8xf32> and memref<30xf32> have different numbers of elements}}
  %v = loop.view %a : memref<4x8xf32> to memref<30xf32>
  func.return
}

// -----

func.func @view_type(%a: memref<4x8xf32>) {
  // expected-error@+1 {{a view cannot change the element type}}
  %v = loop.view %a : memref<4x8xf32> to memref<32xi32>
  func.return
}

// -----

func.func @bad_property(%n: index) {
  // expected-error@+2 {{loop.for property 'vector_width' expects an integer, got "eight"}}
  loop.for %i = %n to %n step %n {
  } {vector_width = "eight"}
  func.return
}
