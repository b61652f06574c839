// RUN: strati-opt %s --split-input-file -p 'split-functions{max_nests=2}' | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'split-functions{max_nests=2}' | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'split-functions' | filecheck %s --check-prefix=NONE
//
// split-functions: a function of more than `max_nests` loop nests becomes calls of private
// parts (`strati.kernel`: noinline) of at most `max_nests` nests each, in order.  What a part
// uses from outside is an argument, constants are cloned in; an allocation used only inside
// a part goes with it, one used by later ops stays before the call; a deallocation of a buffer
// allocated outside the part comes after the call.  A last part of one nest stays inline;
// a function of at most `max_nests` nests stays as it is.
// Numerics and the counts that grow linearly: tests/unit/test_compile_scaling.py.

// CHECK-LABEL: func.func @relus(
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %a = memref.alloc() : memref<8xf32>
// CHECK-NEXT: func.call @relus.part0(%x, %a) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: %b = memref.alloc() : memref<8xf32>
// CHECK-NEXT: func.call @relus.part1(%a, %b, %y) : (memref<8xf32>, memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: memref.dealloc %a : memref<8xf32>
// CHECK-NEXT: loop.for
// CHECK: memref.dealloc %b
// CHECK-NEXT: func.return
// CHECK: func.func private @relus.part0(%0: memref<8xf32>, %1: memref<8xf32>) attributes {strati.kernel} {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: loop.for
// CHECK: memref.store {{.*}}, %1[
// CHECK: %t = memref.alloc() : memref<8xf32>
// CHECK-NEXT: loop.for
// CHECK: memref.store {{.*}}, %t[
// CHECK: memref.dealloc %t : memref<8xf32>
// CHECK-NEXT: func.return
// CHECK: func.func private @relus.part1(%0: memref<8xf32>, %1: memref<8xf32>, %2: memref<8xf32>) attributes {strati.kernel} {
// CHECK-NOT: memref.dealloc
// CHECK: func.return
// CHECK-NOT: func.func
// NONE-NOT: func.call
func.func @relus(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<8xf32>
  loop.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %a[%i] : memref<8xf32>
  }
  %t = memref.alloc() : memref<8xf32>
  loop.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    memref.store %v, %t[%i] : memref<8xf32>
  }
  memref.dealloc %t : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  loop.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %b[%i] : memref<8xf32>
  }
  memref.dealloc %a : memref<8xf32>
  loop.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %b[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
  }
  loop.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %b[%i] : memref<8xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  memref.dealloc %b : memref<8xf32>
  func.return
}

// -----

// Two nests: at most max_nests, nothing to split.
// CHECK-LABEL: func.func @small(
// CHECK-NOT: func.call
// CHECK: func.return
func.func @small(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
  }
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %y[%i] : memref<4xf32>
    memref.store %v, %x[%i] : memref<4xf32>
  }
  func.return
}
