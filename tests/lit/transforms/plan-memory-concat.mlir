// A SqueezeNet fire module at -O3 on a fixed AVX-512 description: the two expand convolutions
// compute their blocks into the bytes of the concatenation's result (plan-memory's parts:
// arena offsets 0 and 8192 inside its 16384), and the relus the concatenation's copies carried
// run in place on that result, one name for its bytes (no strati.may_alias argument), so they
// vectorise. The numerics are the graph interpreter's.
// RUN: strati-opt %s -O3 --emit=loop | filecheck %s
// RUN: strati-opt %s -O3 --emit=hw | filecheck %s --check-prefix=HW
// RUN: strati-run %s --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @fire(
// CHECK: [[E1:%[0-9]+]] = loop.arena_view %arena[0] : memref<{{[0-9]+}}xi8> to memref<1x1x2x8x8x16xf32>
// CHECK: [[E2:%[0-9]+]] = loop.arena_view %arena[8192] : memref<{{[0-9]+}}xi8> to memref<1x1x2x8x8x16xf32>
// CHECK: [[C:%[0-9]+]] = loop.arena_view %arena[0] : memref<{{[0-9]+}}xi8> to memref<1x4x8x8x16xf32>
// CHECK-NEXT: func.call @fire.kernel{{[0-9]+}}([[C]]) : (memref<1x4x8x8x16xf32>) -> ()
// CHECK-NEXT: func.call @fire.kernel{{[0-9]+}}([[C]]) : (memref<1x4x8x8x16xf32>) -> ()
// CHECK-NOT: strati.may_alias

// HW: func.func private @fire.kernel{{[0-9]+}}(%0: memref<1x4x8x8x16xf32>) attributes {strati.kernel} {
// HW: [[V:%[0-9]+]] = vector.load %0[{{.*}}] : memref<1x4x8x8x16xf32>, vector<16xf32>
// HW: [[M:%[0-9]+]] = arith.maximumf [[V]], {{%[0-9]+}} : vector<16xf32>
// HW-NEXT: vector.store [[M]], %0[{{.*}}] : memref<1x4x8x8x16xf32>, vector<16xf32>

// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
func.func @fire(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w1 = graph.constant dense<0.25> : tensor<16x16x1x1xf32>
  %w2 = graph.constant dense<0.125> : tensor<32x16x1x1xf32>
  %w3 = graph.constant dense<0.0625> : tensor<32x16x3x3xf32>
  %w4 = graph.constant dense<0.5> : tensor<16x64x1x1xf32>
  %s0 = graph.conv2d %x, %w1 : (tensor<1x16x8x8xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x8xf32>
  %s = graph.relu %s0 : tensor<1x16x8x8xf32>
  %e1 = graph.conv2d %s, %w2 : (tensor<1x16x8x8xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x8x8xf32>
  %e2 = graph.conv2d %s, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x8x8xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x8x8xf32>
  %r1 = graph.relu %e1 : tensor<1x32x8x8xf32>
  %r2 = graph.relu %e2 : tensor<1x32x8x8xf32>
  %c = graph.concat %r1, %r2 {axis = 1 : i64} : (tensor<1x32x8x8xf32>, tensor<1x32x8x8xf32>) -> tensor<1x64x8x8xf32>
  %y = graph.conv2d %c, %w4 : (tensor<1x64x8x8xf32>, tensor<16x64x1x1xf32>) -> tensor<1x16x8x8xf32>
  func.return %y : tensor<1x16x8x8xf32>
}
}
