// Full fusion would be illegal (the row maximum is complete only after the row), so the
// exponentials join the reduction at the row level.  The initialisation of %m, over a
// different iteration space (4x1), stays apart.
func.func @row_max_exp(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 0x7FC00000 : index
  %c8 = arith.constant 8 : index
  %m = memref.alloc() : memref<4x1xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %k = %c0 to %c1 step %c1 {
      %low = arith.constant -3.0e+38 : f32
      memref.store %low, %m[%i, %k] : memref<4x1xf32>
    } {parallel = true}
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %cur = memref.load %m[%i, %c0] : memref<4x1xf32>
      %mx = arith.maximumf %cur, %a : f32
      memref.store %mx, %m[%i, %c0] : memref<4x1xf32>
    }
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c1 {
    loop.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %mv = memref.load %m[%i, %c0] : memref<4x1xf32>
      %d = arith.subf %a, %mv : f32
      %e = math.exp %d : f32
      memref.store %e, %out[%i, %j] : memref<4x8xf32>
    } {parallel = true}
  } {parallel = true}
  memref.dealloc %m : memref<4x1xf32>
  func.return
}
