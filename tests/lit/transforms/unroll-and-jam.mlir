// unroll-and-jam: the loop carrying schedule.unroll_jam = U runs U iterations at once in
// each iteration of the loops inside it, then a remainder loop runs the last ones.
// RUN: strati-opt %s --split-input-file -p unroll-and-jam | filecheck %s
// Unrolled by its trip count or more: no loop is left (the remainder vanishes too).
// RUN: sed -e 's/schedule.unroll_jam = 3/schedule.unroll_jam = 8/' %s | strati-opt --split-input-file -p unroll-and-jam | filecheck %s --check-prefix=FULL

// CHECK-LABEL: func.func @mm(
// CHECK: loop.for %i = %c0 to %c6 step %c3 {
// CHECK-NEXT: %[[I1:[0-9]+]] = arith.addi %i, %c1 : index
// CHECK-NEXT: %[[I2:[0-9]+]] = arith.addi %i, %c2 : index
// CHECK-NEXT: loop.for %k = %c0 to %c5 step %c1 {
// CHECK-NEXT: loop.for %j = %c0 to %c6 step %c1 {
// CHECK-NEXT: memref.load %a[%i, %k]
// CHECK-NEXT: memref.load %a[%[[I1]], %k]
// CHECK-NEXT: memref.load %a[%[[I2]], %k]
// CHECK: memref.store %s, %out[%i, %j]
// CHECK-NEXT: memref.store %s_1, %out[%[[I1]], %j]
// CHECK-NEXT: memref.store %s_2, %out[%[[I2]], %j]
// CHECK: } {parallel = true}
// CHECK-NEXT: loop.for %[[R:[a-z0-9_]+]] = %c6 to %c7 step %c1 {
// CHECK-NOT: schedule.unroll_jam
// FULL-LABEL: func.func @mm(
// FULL-COUNT-7: memref.store %s{{(_[0-9]+)?}}, %out
// FULL-NOT: loop.for %i
// FULL-NOT: schedule.unroll_jam
func.func @mm(%a: memref<7x5xf32>, %b: memref<5x6xf32>, %out: memref<7x6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  loop.for %i = %c0 to %c7 step %c1 {
    loop.for %k = %c0 to %c5 step %c1 {
      loop.for %j = %c0 to %c6 step %c1 {
        %x = memref.load %a[%i, %k] : memref<7x5xf32>
        %y = memref.load %b[%k, %j] : memref<5x6xf32>
        %acc = memref.load %out[%i, %j] : memref<7x6xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        memref.store %s, %out[%i, %j] : memref<7x6xf32>
      }
    }
  } {parallel = true, schedule.unroll_jam = 3}
  func.return
}

// -----

// Not legal: iteration i writes out[i + 1], which iteration i + 1 reads.  The loop stays.
// CHECK-LABEL: func.func @shifted(
// FULL-LABEL: func.func @shifted(
// CHECK: loop.for %i = %c0 to %c6 step %c1 {
// CHECK-NOT: schedule.unroll_jam
func.func @shifted(%out: memref<7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  loop.for %i = %c0 to %c6 step %c1 {
    %x = memref.load %out[%i] : memref<7xf32>
    %n = arith.addi %i, %c1 : index
    memref.store %x, %out[%n] : memref<7xf32>
  } {schedule.unroll_jam = 3}
  func.return
}
