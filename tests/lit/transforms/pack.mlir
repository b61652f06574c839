// pack: the tile of a buffer that a loop's body reads is copied into a contiguous buffer at
// the start of each iteration (allocated before the loop, freed after it), and read there.
// RUN: strati-opt %s --split-input-file -p pack | filecheck %s
// RUN: sed -e 's/schedule.pack = \["b"\]/schedule.pack = ["out"]/' %s | not strati-opt --split-input-file -p pack 2>&1 | filecheck %s --check-prefix=WRITTEN
// RUN: sed -e 's/schedule.pack = \["b"\]/schedule.pack = ["nope"]/' %s | not strati-opt --split-input-file -p pack 2>&1 | filecheck %s --check-prefix=UNKNOWN

// B's rows kc..kc+4, all its columns: a 4x5 panel, copied once per kc, read by every i.
// CHECK-LABEL: func.func @mm(
// CHECK: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<4x5xf32>
// CHECK-NEXT: loop.for %kc = %c0 to %c8 step %c4 {
// CHECK-NEXT: %ke = arith.addi %kc, %c4 : index
// CHECK-NEXT: loop.for %[[P:[a-z0-9_]+]] = %kc to %ke step %c1 {
// CHECK-NEXT: loop.for %[[Q:[a-z0-9_]+]] = %c0 to %c5 step %c1 {
// CHECK-NEXT: %[[V:[0-9]+]] = memref.load %b[%[[P]], %[[Q]]] : memref<8x5xf32>
// CHECK-NEXT: %[[R:[0-9]+]] = arith.subi %[[P]], %kc : index
// CHECK-NEXT: memref.store %[[V]], %b_packed[%[[R]], %[[Q]]] : memref<4x5xf32>
// CHECK: loop.for %k = %kc to %ke step %c1 {
// CHECK: %[[K:[0-9]+]] = arith.subi %k, %kc : index
// CHECK-NEXT: %y = memref.load %b_packed[%[[K]], %j] : memref<4x5xf32>
// CHECK: memref.dealloc %b_packed : memref<4x5xf32>
// CHECK-NOT: schedule.pack
// WRITTEN: error: {{.*}}schedule.pack: %out cannot be packed in this loop
// UNKNOWN: error: {{.*}}schedule.pack: no buffer named %nope
func.func @mm(%a: memref<6x8xf32>, %b: memref<8x5xf32>, %out: memref<6x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  loop.for %kc = %c0 to %c8 step %c4 {
    %ke = arith.addi %kc, %c4 : index
    loop.for %i = %c0 to %c6 step %c1 {
      loop.for %k = %kc to %ke step %c1 {
        loop.for %j = %c0 to %c5 step %c1 {
          %x = memref.load %a[%i, %k] : memref<6x8xf32>
          %y = memref.load %b[%k, %j] : memref<8x5xf32>
          %acc = memref.load %out[%i, %j] : memref<6x5xf32>
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %acc, %m : f32
          memref.store %s, %out[%i, %j] : memref<6x5xf32>
        }
      }
    } {parallel = true}
  } {schedule.pack = ["b"]}
  func.return
}

// -----

// B read transposed (b[j, k]): the copy follows the loops, k then j, so the loads of the
// inner j loop are contiguous in the copy.
// CHECK-LABEL: func.func @mm_bt(
// CHECK: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<8x5xf32>
// CHECK: memref.load %b[%[[J:[a-z0-9_]+]], %[[K2:[a-z0-9_]+]]] : memref<5x8xf32>
// CHECK-NEXT: memref.store {{.*}}, %b_packed[%[[K2]], %[[J]]] : memref<8x5xf32>
// CHECK: %y = memref.load %b_packed[%k, %j] : memref<8x5xf32>
func.func @mm_bt(%a: memref<6x8xf32>, %b: memref<5x8xf32>, %out: memref<6x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  loop.for %i = %c0 to %c6 step %c1 {
    loop.for %k = %c0 to %c8 step %c1 {
      loop.for %j = %c0 to %c5 step %c1 {
        %x = memref.load %a[%i, %k] : memref<6x8xf32>
        %y = memref.load %b[%j, %k] : memref<5x8xf32>
        %acc = memref.load %out[%i, %j] : memref<6x5xf32>
        %m = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %m : f32
        memref.store %s, %out[%i, %j] : memref<6x5xf32>
      }
    }
  } {parallel = true, schedule.pack = ["b"]}
  func.return
}

// -----

// schedule.pack_panels: B's columns are read by the points of the tile loop %jr (steps of 4),
// so the 8 x 10 panel is copied as 3 micro-panels of 8 x 4 (the last one partial), each
// contiguous: the copy stores at [(j - 0) / 4, k, (j - 0) % 4], the loads read
// [%jr / 4 (once per tile), k, j - %jr].
// CHECK-LABEL: func.func @mm_panels(
// CHECK: %b_packed = memref.alloc() {alignment = 64 : i64} : memref<3x8x4xf32>
// CHECK: %[[V:[0-9]+]] = memref.load %b[%[[P:[a-z0-9_]+]], %[[Q:[a-z0-9_]+]]] : memref<8x10xf32>
// CHECK-NEXT: %[[BLK:[0-9]+]] = arith.divui %[[Q]], %c4 : index
// CHECK-NEXT: %[[IN:[0-9]+]] = arith.remui %[[Q]], %c4 : index
// CHECK-NEXT: memref.store %[[V]], %b_packed[%[[BLK]], %[[P]], %[[IN]]] : memref<3x8x4xf32>
// CHECK: loop.for %jr = %c0 to %c10 step %c4 {
// CHECK-NEXT: %[[T:[0-9]+]] = arith.divui %jr, %c4 : index
// CHECK: %[[JJ:[0-9]+]] = arith.subi %j, %jr : index
// CHECK-NEXT: %y = memref.load %b_packed[%[[T]], %k, %[[JJ]]] : memref<3x8x4xf32>
// CHECK-NOT: schedule.pack
func.func @mm_panels(%a: memref<6x8xf32>, %b: memref<8x10xf32>, %out: memref<6x10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  loop.for %i0 = %c0 to %c1 step %c1 {
    loop.for %jr = %c0 to %c10 step %c4 {
      %je = arith.addi %jr, %c4 : index
      %jm = arith.minsi %je, %c10 : index
      loop.for %i = %c0 to %c6 step %c1 {
        loop.for %k = %c0 to %c8 step %c1 {
          loop.for %j = %jr to %jm step %c1 {
            %x = memref.load %a[%i, %k] : memref<6x8xf32>
            %y = memref.load %b[%k, %j] : memref<8x10xf32>
            %acc = memref.load %out[%i, %j] : memref<6x10xf32>
            %m = arith.mulf %x, %y : f32
            %s = arith.addf %acc, %m : f32
            memref.store %s, %out[%i, %j] : memref<6x10xf32>
          }
        }
      } {parallel = true}
    } {parallel = true}
  } {schedule.pack_panels = ["b"]}
  func.return
}
