// Accesses that constant loop bounds take out of their memref's static shape, on iterations
// that surely run, are errors (compiled, they would read or write outside the buffer); what
// cannot be known before running (a bound computed at run time, an access under loop.if, a
// loop that never runs) is not checked.
// RUN: strati-opt %s --split-input-file --verify-diagnostics

func.func @bound(%out: memref<4x1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 2143289344 : index
  %v = arith.constant 1.0 : f32
  loop.for %i = %c0 to %big step %c1 {
    // expected-error@+1 {{index 0 goes out of bounds: it takes 0 to 2143289343, and dimension 0 of memref<4x1xf32> has 4 elements}}
    memref.store %v, %out[%i, %c0] : memref<4x1xf32>
  }
  func.return
}

// -----

func.func @shifted(%x: memref<8x5xf32>, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  loop.for %i = %c0 to %c8 step %c2 {
    loop.for %j = %c0 to %c4 step %c1 {
      %k = arith.muli %j, %c2 : index
      %s = arith.subi %k, %c1 : index
      // expected-error@+1 {{index 1 goes out of bounds: it takes -1 to 5, and dimension 1 of memref<8x5xf32> has 5 elements}}
      %v = memref.load %x[%i, %s] : memref<8x5xf32>
      memref.store %v, %out[%i] : memref<8xf32>
    }
  }
  func.return
}

// -----

func.func @lanes(%x: memref<2x20xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  loop.for %i = %c0 to %c2 step %c1 {
    loop.for %j = %c0 to %c16 step %c8 {
      // expected-error@+1 {{index 1 goes out of bounds: it takes 0 to 23, and dimension 1 of memref<2x20xf32> has 20 elements}}
      %v = vector.load %x[%i, %j] : memref<2x20xf32>, vector<16xf32>
      vector.store %v, %x[%i, %c0] : memref<2x20xf32>, vector<16xf32>
    }
  }
  func.return
}

// -----

// A loop whose bounds are a constant apart (%kc to %kc + 4) runs 4 times whatever %kc is: the
// accesses in it are checked, its variable %kc plus an offset of 0 to 3 (mlir fuzzer seed 22524).
func.func @relative(%a: memref<6x8xf32>, %out: memref<6xf32>) {
  %low = arith.constant -2147483648 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  loop.for %kc = %c0 to %c8 step %c4 {
    %ke = arith.addi %kc, %c4 : index
    loop.for %i = %low to %c6 step %c1 {
      loop.for %k = %kc to %ke step %c1 {
        // expected-error@+1 {{index 0 goes out of bounds: it takes -2147483648 to 5, and dimension 0 of memref<6x8xf32> has 6 elements}}
        %x = memref.load %a[%i, %k] : memref<6x8xf32>
        memref.store %x, %out[%c0] : memref<6xf32>
      }
    }
  }
  func.return
}

// -----

func.func @relative_past_the_end(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %v = arith.constant 1.0 : f32
  loop.for %kc = %c0 to %c8 step %c3 {
    %ke = arith.addi %kc, %c3 : index
    loop.for %k = %kc to %ke step %c1 {
      // expected-error@+1 {{index 0 goes out of bounds: it takes 0 to 8, and dimension 0 of memref<8xf32> has 8 elements}}
      memref.store %v, %a[%k] : memref<8xf32>
    }
  }
  func.return
}

// -----

func.func @not_checked(%x: memref<4xf32>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %v = arith.constant 1.0 : f32
  loop.for %i = %c0 to %n step %c1 {
    memref.store %v, %x[%i] : memref<4xf32>
  }
  loop.for %i = %c9 to %c0 step %c1 {
    memref.store %v, %x[%i] : memref<4xf32>
  }
  loop.for %i = %c0 to %c9 step %c1 {
    loop.if %c {
      memref.store %v, %x[%i] : memref<4xf32>
    }
  }
  loop.for %i = %c0 to %c9 step %c1 {
    %j = arith.remui %i, %c9 : index
    memref.store %v, %x[%j] : memref<4xf32>
  }
  loop.for %i = %c0 to %c9 step %c9 {
    memref.store %v, %x[%i] : memref<4xf32>
  }
  loop.for %i = %c0 to %c9 step %c1 {
    %e = arith.muli %i, %c9 : index
    loop.for %k = %i to %e step %c1 {  // bounds not a constant apart: its trips vary (and may be 0)
      memref.store %v, %x[%k] : memref<4xf32>
    }
  }
  func.return
}
