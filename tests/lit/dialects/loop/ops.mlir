// The loop dialect prints and reads back; schedule properties at their defaults are not printed.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s

// CHECK-LABEL: func.func @row_sums(
// CHECK: loop.for [[I:%.*]] = [[C0:%.*]] to [[C4:%.*]] step [[C1:%.*]] {
// CHECK: memref.store {{%.*}}, %out[[[I]]] : memref<4xf32>
// CHECK: loop.for [[J:%.*]] = [[C0]] to [[C8:%.*]] step [[C1]] {
// CHECK-NEXT: [[X:%.*]] = memref.load %a[[[I]], [[J]]] : memref<4x8xf32>
// CHECK: } {vector_width = 8, unroll = 2}
// CHECK-NEXT: } {parallel = true}
// CHECK-NEXT: loop.for {{%.*}} = [[C0]] to [[C8]] step [[C1]] {
// CHECK-NEXT: }
// CHECK-NEXT: loop.view %a : memref<4x8xf32> to memref<32xf32>
func.func @row_sums(%a: memref<4x8xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  loop.for %i = %c0 to %c4 step %c1 {
    %z = arith.constant 0.0 : f32
    memref.store %z, %out[%i] : memref<4xf32>
    loop.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %j] : memref<4x8xf32>
      %acc = memref.load %out[%i] : memref<4xf32>
      %s = arith.addf %x, %acc : f32
      memref.store %s, %out[%i] : memref<4xf32>
    } {vector_width = 8, unroll = 2}
  } {parallel = true}
  loop.for %k = %c0 to %c8 step %c1 {
  } {parallel = false, unroll = 1}
  %v = loop.view %a : memref<4x8xf32> to memref<32xf32>
  func.return
}
