// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1}' | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=1}' | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'outline-kernels{min_ops=100}' | filecheck %s --check-prefix=NONE
//
// outline-kernels: every top-level loop nest of a function becomes a call of a private
// kernel function (`strati.kernel`: noinline in the generated code), and identical nests
// (same ops on buffers of the same types, other buffers) share one.  Constants are cloned
// into the kernel; what else the nest uses is an argument.  A buffer argument that may share
// bytes with another one (an in-place nest on one arena's bytes) is `strati.may_alias`
// (not noalias in the generated code).  Numerics: tests/unit/test_outline_kernels.py.

// Two relus of the same shape on different buffers: one kernel, called twice; the
// copy of another shape is a second kernel.
// CHECK-LABEL: func.func @two_layers(
// CHECK: func.call @two_layers.kernel0(%x, %t) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: func.call @two_layers.kernel0(%t, %y) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: func.call @two_layers.kernel1(%x, %z) : (memref<8xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: func.return
// CHECK: func.func private @two_layers.kernel0(%0: memref<8xf32>, %1: memref<8xf32>) attributes {strati.kernel} {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c8 = arith.constant 8 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: loop.for %i = %c0 to %c8 step %c1 {
// CHECK-NEXT: memref.load %0[%i]
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: memref.store {{.*}}, %1[%i]
// CHECK: func.func private @two_layers.kernel1(
// CHECK-NOT: func.func
// NONE-NOT: func.call
func.func @two_layers(%x: memref<8xf32>, %t: memref<8xf32>, %y: memref<8xf32>, %z: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  loop.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %t[%i] : memref<8xf32>
  }
  loop.for %i = %c0 to %c8 step %c1 {
    %a = memref.load %t[%i] : memref<8xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %y[%i] : memref<8xf32>
  }
  loop.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %x[%i] : memref<8xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %z[%i] : memref<4xf32>
  }
  func.return
}

// -----

// In place: the nest reads and writes the same bytes of the arena through two views, so
// both arguments may alias; a view elsewhere in the arena does not.
// CHECK-LABEL: func.func @in_place(
// CHECK: func.call @in_place.kernel0(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK-NEXT: func.call @in_place.kernel1(%a, %c) : (memref<16xf32>, memref<16xf32>) -> ()
// CHECK: func.func private @in_place.kernel0(%0: memref<16xf32> {strati.may_alias}, %1: memref<16xf32> {strati.may_alias}) attributes {strati.kernel}
// CHECK: func.func private @in_place.kernel1(%0: memref<16xf32>, %1: memref<16xf32>) attributes {strati.kernel}
func.func @in_place(%out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %a = loop.arena_view %arena[0] : memref<128xi8> to memref<16xf32>
  %b = loop.arena_view %arena[0] : memref<128xi8> to memref<16xf32>
  %c = loop.arena_view %arena[64] : memref<128xi8> to memref<16xf32>
  loop.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %a[%i] : memref<16xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %b[%i] : memref<16xf32>
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %a[%i] : memref<16xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %c[%i] : memref<16xf32>
  }
  memref.dealloc %arena : memref<128xi8>
  func.return
}

// -----
// The same loops over buffers of other types (a copy into channels 0-3 of a 4- and of a
// 6-channel buffer, as a concat does) are two kernels: the arguments' types are part of what
// makes a kernel (they were one, and the second call did not verify).
// CHECK-LABEL: func.func @same_loops_other_types(
// CHECK: func.call @same_loops_other_types.kernel0(%x, %a) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: func.call @same_loops_other_types.kernel1(%x, %b) : (memref<4xf32>, memref<6xf32>) -> ()
func.func @same_loops_other_types(%x: memref<4xf32>, %a: memref<4xf32>, %b: memref<6xf32>) attributes {strati.outputs = 2 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  }
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %b[%i] : memref<6xf32>
  }
  func.return
}
