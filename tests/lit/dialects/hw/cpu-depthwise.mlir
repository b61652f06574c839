// The CPU's depthwise strategy (strati/dialects/hw/cpu/depthwise.py) and grouped convolutions
// as one matmul per group, chosen by cost (--print-strategy), on fixed AVX-512 (16 lanes) and
// AVX2 (8 lanes) descriptions.  A depthwise convolution on a small image, or strided, is
// blocked (channels in vectors); on a large image it stays direct (the copies into and out
// of the blocked layout would cost more); a grouped 1x1 is a matmul per group, a grouped 3x3
// gathers each group's patches (im2col).
// RUN: strati-opt %s --emit=tensor --print-strategy 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --emit=tensor --print-strategy 2>&1 >/dev/null | filecheck %s --check-prefix=WHY
// RUN: strati-opt %s --emit=tensor | filecheck %s
// The schedule at the loop level (knobs from the target: 12 pixels of the 24-pixel row with
// AVX-512's 32 registers, 8 with AVX2's 16), then the microkernel at the hw level.
// RUN: strati-opt %s --emit=loop | filecheck %s --check-prefix=LOOP512
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --emit=loop | filecheck %s --check-prefix=LOOP2
// RUN: strati-opt %s --emit=hw | filecheck %s --check-prefix=HW512
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt --emit=hw | filecheck %s --check-prefix=HW2
// A knob set on the op overrides the target's.
// RUN: sed -e 's/groups = 32 : i64}/groups = 32 : i64, "schedule.ow_tile" = 6 : i64}/' %s | strati-opt --emit=hw | filecheck %s --check-prefix=KNOB
// RUN: sed -e 's/groups = 32 : i64}/groups = 32 : i64, "schedule.ow_tile" = 0 : i64}/' %s | not strati-opt --emit=hw 2>&1 | filecheck %s --check-prefix=BAD
// RUN: strati-run %s --entry small --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry row --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry large --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry grouped --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry grouped3 --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// WHY: strategy: graph.conv2d -> cpu/depthwise: cheapest of depthwise {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, im2col (at {{.*}}:[[# @LINE + 59]]:3)
// WHY: strategy: graph.conv2d -> cpu/depthwise: cheapest of depthwise {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, im2col (at {{.*}}:[[# @LINE + 62]]:3)
// WHY: strategy: graph.conv2d -> cpu/depthwise: cheapest of depthwise {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, im2col (at {{.*}}:[[# @LINE + 65]]:3)
// WHY: strategy: graph.conv2d -> cpu/direct: cheapest of direct {{[0-9.e+]+}}, depthwise {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, im2col (at {{.*}}:[[# @LINE + 68]]:3)
// WHY: strategy: graph.conv2d -> cpu/1x1_as_matmul: cheapest of 1x1_as_matmul {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: blocked, depthwise, im2col (at {{.*}}:[[# @LINE + 71]]:3)
// WHY: strategy: graph.conv2d -> cpu/im2col: cheapest of im2col {{[0-9.e+]+}}, direct {{[0-9.e+]+}}; not applicable: 1x1_as_matmul, blocked, depthwise (at {{.*}}:[[# @LINE + 74]]:3)

// The depthwise form: the padded input gathered into 16-channel blocks (lane d3 of block d1),
// the taps folded into one reduction loop d4 (row d4 floordiv 3, column d4 mod 3).
// CHECK-LABEL: func.func @small(
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, ((d1 * 16) + d3), d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4, d3)>], {{.*}} outs({{.*}} : tensor<1x3x9x9x16xf32>)
// CHECK: tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, (d2 + (d4 floordiv 3)), (d3 + (d4 mod 3)), d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d5)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "parallel"]}
// The channel multiplier 2: lane d3 of block d1 reads input channel (d1*16 + d3) floordiv 2.
// CHECK-LABEL: func.func @strided(
// CHECK: affine_map<(d0, d1, d2, d3, d4) -> (d0, (((d1 * 16) + d3) floordiv 2), d2, d4)>
// CHECK: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + (d4 floordiv 3)), ((d3 * 2) + (d4 mod 3)), d5)>
// CHECK-LABEL: func.func @large(
// CHECK: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// One matmul per group: the image as (groups, 17, 196), the weights as (groups, 17, 17).
// CHECK-LABEL: func.func @grouped(
// CHECK: tensor.reshape %x : (tensor<1x68x14x14xf32>) -> tensor<1x68x196xf32>
// CHECK: tensor.reshape {{%[0-9]+}} : (tensor<1x68x196xf32>) -> tensor<4x17x196xf32>
// CHECK: tensor.reshape %w : (tensor<68x17x1x1xf32>) -> tensor<4x17x17xf32>
// CHECK: affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// Two images: batch row d0 = image * 3 + group reads the weights of group d0 mod 3.
// CHECK-LABEL: func.func @grouped3(
// CHECK: tensor.reshape {{%[0-9]+}} : (tensor<2x108x25xf32>) -> tensor<6x36x25xf32>
// CHECK: affine_map<(d0, d1, d2, d3) -> ((d0 mod 3), d1, d3)>

// LOOP512: } {parallel = true, schedule.ow_tile = 12, schedule.oh_tile = 1}
// LOOP2: } {parallel = true, schedule.ow_tile = 8, schedule.oh_tile = 1}

// The 24-pixel row of @row in tiles of 12 (8) pixels: one accumulator vector per pixel, kept
// in registers (allocas SROA promotes) across the 9 taps.
// HW512-LABEL: func.func @row(
// HW512: loop.for {{%[0-9]+}} = %c0{{.*}} to %c24 step %c12 {
// HW512-COUNT-12: memref.alloca() : memref<16xf32>
// HW512-NEXT: vector.load
// HW512: loop.for {{%[0-9]+}} = %c0{{.*}} to %c9{{.*}} step %c1
// HW512-COUNT-12: vector.fma {{.*}} : vector<16xf32>
// HW512: } {parallel = true, schedule.ow_tile = 12}
// HW2-LABEL: func.func @row(
// HW2: loop.for {{%[0-9]+}} = %c0{{.*}} to %c24 step %c8 {
// HW2-COUNT-8: memref.alloca() : memref<8xf32>
// HW2: loop.for {{%[0-9]+}} = %c0{{.*}} to %c9{{.*}} step %c1
// HW2-COUNT-8: vector.fma {{.*}} : vector<8xf32>
// HW2-NOT: vector.fma
// HW2: } {parallel = true, schedule.ow_tile = 8}

// KNOB-LABEL: func.func @row(
// KNOB: loop.for {{%[0-9]+}} = %c0{{.*}} to %c24 step %c6 {
// KNOB: } {parallel = true, schedule.ow_tile = 6}

// BAD: <stdin>:[[# @LINE + 14]]:3: error: 'graph.conv2d' op schedule.ow_tile must be a positive integer, not 0

// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
func.func @small(%x: tensor<1x40x7x7xf32>, %w: tensor<40x1x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x7x7xf32> {
  %y = graph.conv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, groups = 40 : i64} : (tensor<1x40x7x7xf32>, tensor<40x1x3x3xf32>, tensor<40xf32>) -> tensor<1x40x7x7xf32>
  func.return %y : tensor<1x40x7x7xf32>
}
func.func @strided(%x: tensor<1x24x13x13xf32>, %w: tensor<48x1x3x3xf32>) -> tensor<1x48x7x7xf32> {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 24 : i64} : (tensor<1x24x13x13xf32>, tensor<48x1x3x3xf32>) -> tensor<1x48x7x7xf32>
  func.return %y : tensor<1x48x7x7xf32>
}
func.func @row(%x: tensor<1x32x9x48xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<1x32x5x24xf32> {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 32 : i64} : (tensor<1x32x9x48xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x5x24xf32>
  func.return %y : tensor<1x32x5x24xf32>
}
func.func @large(%x: tensor<1x16x64x64xf32>, %w: tensor<16x1x3x3xf32>) -> tensor<1x16x64x64xf32> {
  %y = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>, groups = 16 : i64} : (tensor<1x16x64x64xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x64x64xf32>
  func.return %y : tensor<1x16x64x64xf32>
}
func.func @grouped(%x: tensor<1x68x14x14xf32>, %w: tensor<68x17x1x1xf32>, %b: tensor<68xf32>) -> tensor<1x68x14x14xf32> {
  %y = graph.conv2d %x, %w, %b {groups = 4 : i64} : (tensor<1x68x14x14xf32>, tensor<68x17x1x1xf32>, tensor<68xf32>) -> tensor<1x68x14x14xf32>
  func.return %y : tensor<1x68x14x14xf32>
}
func.func @grouped3(%x: tensor<2x12x9x9xf32>, %w: tensor<18x4x3x3xf32>) -> tensor<2x18x5x5xf32> {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, groups = 3 : i64} : (tensor<2x12x9x9xf32>, tensor<18x4x3x3xf32>) -> tensor<2x18x5x5xf32>
  func.return %y : tensor<2x18x5x5xf32>
}
}
