// tile: strip-mining by the sizes in schedule.tile (outermost first); a partial last tile
// is bounded by arith.minsi, a size that divides the trip count needs none.
// RUN: strati-opt %s -p tile | filecheck %s
// RUN: strati-opt %s -p tile | strati-opt -p tile | filecheck %s --check-prefix=AGAIN
// RUN: sed -e 's/schedule.tile = \[4\]/schedule.tile = [0]/' %s | not strati-opt -p tile 2>&1 | filecheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @rows(
// CHECK: loop.for %[[T5:[a-z0-9_]+]] = %c0 to %c10 step %c5 {
// CHECK-NEXT: %[[E5:[0-9]+]] = arith.addi %[[T5]], %c5 : index
// CHECK-NEXT: loop.for %[[T2:[a-z0-9_]+]] = %[[T5]] to %[[E5]] step %c2 {
// CHECK-NEXT: %[[E2:[0-9]+]] = arith.addi %[[T2]], %c2 : index
// CHECK-NEXT: %[[M2:[0-9]+]] = arith.minsi %[[E2]], %[[E5]] : index
// CHECK-NEXT: loop.for %i = %[[T2]] to %[[M2]] step %c1 {
// CHECK-NEXT: loop.for %[[T4:[a-z0-9_]+]] = %c0 to %c7 step %c4 {
// CHECK-NEXT: %[[E4:[0-9]+]] = arith.addi %[[T4]], %c4 : index
// CHECK-NEXT: %[[M4:[0-9]+]] = arith.minsi %[[E4]], %c7 : index
// CHECK-NEXT: loop.for %j = %[[T4]] to %[[M4]] step %c1 {
// CHECK-NEXT: memref.load %x[%i, %j]
// CHECK: } {schedule.tile_size = 4}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: } {parallel = true, schedule.tile_size = 2}
// CHECK-NEXT: } {parallel = true, schedule.tile_size = 5}
// AGAIN-COUNT-3: schedule.tile_size
// AGAIN-NOT: schedule.tile_size
// BAD: error: {{.*}}schedule.tile must be a list of positive integers
func.func @rows(%x: memref<10x7xf32>, %out: memref<10x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  loop.for %i = %c0 to %c10 step %c1 {
    loop.for %j = %c0 to %c7 step %c1 {
      %v = memref.load %x[%i, %j] : memref<10x7xf32>
      memref.store %v, %out[%i, %j] : memref<10x7xf32>
    } {schedule.tile = [4]}
  } {parallel = true, schedule.tile = [5, 2]}
  func.return
}
