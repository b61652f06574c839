// unroll-windows: a chain of short reduction loops (a pooling window) is unrolled completely,
// the taps in the loops' order; the output element is loaded once and stored once (the stores
// between taps are forwarded to the next tap's load), and the taps' index sums are folded.
// RUN: strati-opt %s --split-input-file -p unroll-windows | filecheck %s
// With max-trips below the window's 6 taps only the inner loop (3 taps) unrolls.
// RUN: strati-opt %s --split-input-file -p 'unroll-windows{max-trips=5}' | filecheck %s --check-prefix=INNER

// CHECK-LABEL: func.func @max_pool(
// CHECK: loop.for %ow = %c0 to %c3 step %c1 {
// CHECK-NEXT: %h = arith.muli %oh, %c2 : index
// CHECK-NEXT: %w = arith.muli %ow, %c2 : index
// CHECK-NEXT: %v = memref.load %x[%h, %w] : memref<5x7xf32>
// CHECK-NEXT: %a = memref.load %out[%oh, %ow] : memref<2x3xf32>
// CHECK-NEXT: %m = arith.maximumf %a, %v : f32
// CHECK-NEXT: %ww = arith.addi %w, %c1 : index
// CHECK-NEXT: %v_1 = memref.load %x[%h, %ww] : memref<5x7xf32>
// CHECK-NEXT: %m_1 = arith.maximumf %m, %v_1 : f32
// CHECK-NOT: memref.store
// CHECK-NOT: loop.for
// CHECK: %hh = arith.addi %h, %c1 : index
// CHECK-NEXT: %v_3 = memref.load %x[%hh, %w] : memref<5x7xf32>
// CHECK: %m_5 = arith.maximumf %m_4, %v_5 : f32
// CHECK-NEXT: memref.store %m_5, %out[%oh, %ow] : memref<2x3xf32>
// CHECK-NEXT: } {parallel = true}
// INNER-LABEL: func.func @max_pool(
// INNER: loop.for %kh = %c0 to %c2 step %c1 {
// INNER-NOT: loop.for
// INNER-COUNT-3: arith.maximumf
// INNER-NEXT: memref.store
// INNER-NEXT: }
func.func @max_pool(%x: memref<5x7xf32>, %out: memref<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  loop.for %oh = %c0 to %c2 step %c1 {
    loop.for %ow = %c0 to %c3 step %c1 {
      %h = arith.muli %oh, %c2 : index
      %w = arith.muli %ow, %c2 : index
      loop.for %kh = %c0 to %c2 step %c1 {
        loop.for %kw = %c0 to %c3 step %c1 {
          %hh = arith.addi %h, %kh : index
          %ww = arith.addi %w, %kw : index
          %v = memref.load %x[%hh, %ww] : memref<5x7xf32>
          %a = memref.load %out[%oh, %ow] : memref<2x3xf32>
          %m = arith.maximumf %a, %v : f32
          memref.store %m, %out[%oh, %ow] : memref<2x3xf32>
        }
      }
    } {parallel = true}
  } {parallel = true}
  func.return
}

// -----

// Not windows: a loop that stores at its own variable (a parallel one, or not marked so), a
// reduction of more than max-trips (64) iterations, and a sum (LLVM may reassociate our adds:
// unrolled, it would not keep its order).
// CHECK-LABEL: func.func @not_windows(
// CHECK: loop.for %j = %c0 to %c4 step %c1 {
// CHECK: loop.for %k = %c0 to %c65 step %c1 {
// CHECK: loop.for %t = %c0 to %c4 step %c1 {
func.func @not_windows(%x: memref<4x65xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c65 = arith.constant 65 : index
  %z = arith.constant 0.0 : f32
  loop.for %j = %c0 to %c4 step %c1 {
    memref.store %z, %out[%j] : memref<4xf32>
  }
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %k = %c0 to %c65 step %c1 {
      %v = memref.load %x[%i, %k] : memref<4x65xf32>
      %a = memref.load %out[%i] : memref<4xf32>
      %s = arith.maximumf %a, %v : f32
      memref.store %s, %out[%i] : memref<4xf32>
    }
    loop.for %t = %c0 to %c4 step %c1 {
      %v = memref.load %x[%i, %t] : memref<4x65xf32>
      %a = memref.load %out[%i] : memref<4xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %out[%i] : memref<4xf32>
    }
  } {parallel = true}
  func.return
}

// -----

// Forwarding stops at what may write the element another way: a store to the same buffer at
// another address (%i + 1 may be %i of another iteration) makes the next load read memory.
// CHECK-LABEL: func.func @may_overlap(
// CHECK: memref.store %s, %out[%i]
// CHECK-NEXT: memref.store %v, %out[%n]
// CHECK-NEXT: %v_1 = memref.load %x[%c1]
// CHECK-NEXT: %a_1 = memref.load %out[%i]
// CHECK: memref.store %s_1, %out[%i]
func.func @may_overlap(%x: memref<8xf32>, %out: memref<9xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  loop.for %i = %c0 to %c8 step %c1 {
    %n = arith.addi %i, %c1 : index
    loop.for %k = %c0 to %c2 step %c1 {
      %v = memref.load %x[%k] : memref<8xf32>
      %a = memref.load %out[%i] : memref<9xf32>
      %s = arith.maximumf %a, %v : f32
      memref.store %s, %out[%i] : memref<9xf32>
      memref.store %v, %out[%n] : memref<9xf32>
    }
  } {parallel = true}
  func.return
}
