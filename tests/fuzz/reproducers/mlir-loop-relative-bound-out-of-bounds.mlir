// pack: the tile of a buffer that a loop's body reads is copied into a contiguous buffer at
// the start of each iteration (allocated before the loop, freed after it), and read there.

// B's rows kc..kc+4, all its columns: a 4x5 panel, copied once per kc, read by every i.
// WRITTEN: error: {{.*}}schedule.pack: %out cannot be packed in this loop
// UNKNOWN: error: {{.*}}schedule.pack: no buffer named %nope
func.func @mm(%a: memref<6x8xf32>, %b: memref<8x5xf32>, %out: memref<6x5xf32>) {
  %c0 = arith.constant -2147483648 : index
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
