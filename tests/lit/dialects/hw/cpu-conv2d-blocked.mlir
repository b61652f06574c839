// The CPU's `blocked` strategy of graph.conv2d_blocked (the blocked layout alter-layout makes):
// on AVX2 the layout's block of 8 channels is one vector, so a register tile holds two
// neighbouring output blocks (`schedule.oc_blocks = 2`: the weights and the result viewed as
// [ob / 2][2]..., no copy), the two vectors of the NCHW form's tile; 13 input channels (a
// partial input block) are one loop. Three output blocks do not pair: one block per tile.
// RUN: strati-opt %s --emit=tensor | filecheck %s
// RUN: strati-opt %s --emit=hw | filecheck %s --check-prefix=HW
// RUN: strati-run %s --entry pairs --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry odd --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry plain --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// The input blocks' loop in chunks when their weights do not fit 5/8 of an L1 of 8 KB (9 x 2
// blocks x 8 x 4 = 4608 bytes per input block of the second function: one per chunk).
// RUN: sed -e 's/l1 = 32768/l1 = 8192/' %s | strati-opt --emit=hw | filecheck %s --check-prefix=CHUNK
// RUN: sed -e 's/l1 = 32768/l1 = 8192/' %s | strati-run - --entry split --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @pairs
// CHECK: tensor.reshape %b : (tensor<32xf32>) -> tensor<2x2x8xf32>
// CHECK: tensor.reshape %w : (tensor<4x3x3x13x8xf32>) -> tensor<2x2x3x3x13x8xf32>
// CHECK: tensor.generic {{.*}} -> (d0, (d6 floordiv 8), (d2 + d4), (d3 + d5), (d6 mod 8))>, {{.*}} -> (d1, d7, d4, d5, d6, d8)>, {{.*}} -> (d0, d1, d7, d2, d3, d8)>]
// CHECK-SAME: schedule.oc_blocks = 2
// CHECK: tensor.reshape {{.*}} : (tensor<1x2x2x5x6x8xf32>) -> tensor<1x4x5x6x8xf32>
// CHECK-LABEL: func.func @odd
// CHECK-NOT: schedule.oc_blocks
// CHECK: tensor.generic {{.*}} -> (d1, d4, d5, ((d6 * 8) + d7), d8)>, {{.*}} -> (d0, d1, d2, d3, d8)>]
// CHECK-NOT: schedule.oc_blocks
// CHECK-LABEL: func.func @split
// An NCHW input (3 channels, a stride of 2): padded as NCHW and read at x[n, ic, ih, iw].
// CHECK-LABEL: func.func @plain
// CHECK: tensor.pad %x, {{.*}} {low = array<i64: 0, 0, 3, 3>, high = array<i64: 0, 0, 3, 3>} : (tensor<1x3x11x11xf32>, f32) -> tensor<1x3x17x17xf32>
// CHECK: tensor.generic {{.*}} -> (d0, d6, ((d2 * 2) + d4), ((d3 * 2) + d5))>, {{.*}} -> (d1, d7, d4, d5, d6, d8)>, {{.*}} -> (d0, d1, d7, d2, d3, d8)>]

// Rows of 6 pixels in tiles of 3 (6 + 0, where 5 + 1 leaves a tile of 2 accumulators).
// HW-LABEL: func.func @pairs
// HW: loop.for {{%[0-9]+}} = %c0{{.*}} to %c6 step %c3 {
// HW-COUNT-6: memref.alloca() : memref<8xf32>
// HW-COUNT-3: memref.load {{.*}} : memref<1x2x7x8x8xf32>
// HW: vector.load {{.*}} : memref<2x2x3x3x13x8xf32>, vector<8xf32>
// HW-COUNT-6: vector.fma {{.*}} : vector<8xf32>
// HW-LABEL: func.func @odd
// One vector per tile: the 3 rows of 3 pixels jammed into one tile of 9 accumulators.
// HW-COUNT-9: vector.fma {{.*}} : vector<8xf32>
// HW-NOT: vector.fma
// HW-LABEL: func.func @split
// HW-LABEL: func.func @plain
// HW: memref.load {{.*}} : memref<1x3x17x17xf32>
// HW: vector.fma {{.*}} : vector<8xf32>

// CHUNK-LABEL: func.func @split
// CHUNK: } {schedule.ic_chunk = 1}

// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @pairs(%x: tensor<1x2x5x6x8xf32>, %w: tensor<4x3x3x13x8xf32>, %b: tensor<32xf32>) -> tensor<1x4x5x6x8xf32> {
    %y = graph.conv2d_blocked %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x6x8xf32>, tensor<4x3x3x13x8xf32>, tensor<32xf32>) -> tensor<1x4x5x6x8xf32>
    func.return %y : tensor<1x4x5x6x8xf32>
  }
  func.func @odd(%x: tensor<1x2x5x6x8xf32>, %w: tensor<3x3x3x16x8xf32>) -> tensor<1x3x3x3x8xf32> {
    %y = graph.conv2d_blocked %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x6x8xf32>, tensor<3x3x3x16x8xf32>) -> tensor<1x3x3x3x8xf32>
    func.return %y : tensor<1x3x3x3x8xf32>
  }
  func.func @split(%x: tensor<1x4x6x7x8xf32>, %w: tensor<2x3x3x32x8xf32>) -> tensor<1x2x6x7x8xf32> {
    %y = graph.conv2d_blocked %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x7x8xf32>, tensor<2x3x3x32x8xf32>) -> tensor<1x2x6x7x8xf32>
    func.return %y : tensor<1x2x6x7x8xf32>
  }
  func.func @plain(%x: tensor<1x3x11x11xf32>, %w: tensor<2x7x7x3x8xf32>, %b: tensor<13xf32>) -> tensor<1x2x6x6x8xf32> {
    %y = graph.conv2d_blocked %x, %w, %b {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x3x11x11xf32>, tensor<2x7x7x3x8xf32>, tensor<13xf32>) -> tensor<1x2x6x6x8xf32>
    func.return %y : tensor<1x2x6x6x8xf32>
  }
}
