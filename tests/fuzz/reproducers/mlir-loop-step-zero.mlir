// Two temporaries live at the same time (both read by the last nest): disjoint bytes.
// REPORT: plan-memory @overlap: 2 buffers, 0 in place; one buffer per temporary: 32 bytes live at peak, 32 bytes in all; arena: 128 bytes
func.func @overlap(%x: memref<4xf32>, %out: memref<4xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %a[%i] : memref<4xf32>
  } {parallel = true}
  %b = memref.alloc() : memref<4xf32>
  loop.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %b[%i] : memref<4xf32>
  } {parallel = true}
  loop.for %i = %c0 to %c4 step %c0 {
    %v = memref.load %a[%i] : memref<4xf32>
    %w = memref.load %b[%i] : memref<4xf32>
    %s = arith.addf %v, %w : f32
    memref.store %s, %out[%i] : memref<4xf32>
  } {parallel = true}
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  func.return
}
