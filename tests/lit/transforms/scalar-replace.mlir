// scalar-replace: an element the loop reads and writes at an address that does not depend
// on it lives in a one-element alloca across the loop (a register, after LLVM's SROA).
// RUN: strati-opt %s --split-input-file -p scalar-replace | filecheck %s

// CHECK-LABEL: func.func @mm(
// CHECK: loop.for %j = %c0 to %c4 step %c1 {
// CHECK-NEXT: %acc = memref.alloca() : memref<1xf32>
// CHECK-NEXT: %[[C:[0-9]+]] = memref.load %out[%i, %j] : memref<3x4xf32>
// CHECK-NEXT: memref.store %[[C]], %acc[%c0] : memref<1xf32>
// CHECK-NEXT: loop.for %k = %c0 to %c5 step %c1 {
// CHECK-NOT: %out
// CHECK: %[[A:[a-z0-9_]+]] = memref.load %acc[%c0] : memref<1xf32>
// CHECK: %s = arith.addf %[[A]], %m : f32
// CHECK-NEXT: memref.store %s, %acc[%c0] : memref<1xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[D:[0-9]+]] = memref.load %acc[%c0] : memref<1xf32>
// CHECK-NEXT: memref.store %[[D]], %out[%i, %j] : memref<3x4xf32>
// CHECK-NOT: schedule.scalar_replace
func.func @mm(%a: memref<3x5xf32>, %b: memref<5x4xf32>, %out: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  loop.for %i = %c0 to %c3 step %c1 {
    loop.for %j = %c0 to %c4 step %c1 {
      loop.for %k = %c0 to %c5 step %c1 {
        %x = memref.load %a[%i, %k] : memref<3x5xf32>
        %y = memref.load %b[%k, %j] : memref<5x4xf32>
        %acc = memref.load %out[%i, %j] : memref<3x4xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        memref.store %s, %out[%i, %j] : memref<3x4xf32>
      } {schedule.scalar_replace = true}
    } {parallel = true}
  } {parallel = true}
  func.return
}

// -----

// The address depends on the loop (out[i, k]), or two addresses may overlap (out[i, j] and
// out[i, n] with n unknown): nothing is replaced.
// CHECK-LABEL: func.func @not_invariant(
// CHECK-NOT: memref.alloca
func.func @not_invariant(%x: memref<3x5xf32>, %out: memref<3x5xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  loop.for %i = %c0 to %c3 step %c1 {
    loop.for %k = %c0 to %c5 step %c1 {
      %v = memref.load %x[%i, %k] : memref<3x5xf32>
      memref.store %v, %out[%i, %k] : memref<3x5xf32>
    } {schedule.scalar_replace = true}
    loop.for %j = %c0 to %c5 step %c1 {
      %v = memref.load %out[%i, %n] : memref<3x5xf32>
      memref.store %v, %out[%i, %c1] : memref<3x5xf32>
    } {schedule.scalar_replace = true}
  }
  func.return
}
