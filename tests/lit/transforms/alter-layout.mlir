// alter-layout on a fixed AVX-512 description (blocks of 16 channels, the vector width) and,
// by sed, an AVX2 one (blocks of 8).  @chain: both convs blocked; relu, the residual add and
// the max pool carried in the blocked layout; the changes between the convs cancelled (one
// change in, one out); the constant weights folded into a constant in OHWI{c}o, the
// argument weights changed at run time; 20 channels pad to 2 blocks of 16 or 3 of 8. The
// input's 13 channels, fewer than a block of 16, are read as NCHW by the first conv; with
// blocks of 8 they are changed into 2 blocks.
// @kept: a softmax over the channels mixes them and a grouped conv keeps NCHW: each of the
// two other convs would be alone in the blocked layout (a change in and one out for nothing),
// so both keep NCHW; with lone=true they are blocked and the changes around the softmax stay.
// RUN: strati-opt %s -p alter-layout | filecheck %s --check-prefix=AVX512
// RUN: strati-opt %s -p 'alter-layout{lone=true}' | filecheck %s --check-prefix=LONE
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt -p alter-layout | filecheck %s --check-prefix=AVX2
// The altered graph compiled at -O3 agrees with its interpreter (the layout ops' numpy references), on both widths.
// RUN: strati-opt %s -p alter-layout | strati-run - --entry chain --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: sed -e 's/vector_width = 16/vector_width = 8/' %s | strati-opt -p alter-layout | strati-run - --entry chain --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-opt %s -p 'alter-layout{lone=true}' | strati-run - --entry kept --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// -O3 runs it (before fuse-ops, which groups each blocked conv with what follows it).
// RUN: strati-opt %s -O3 --emit=graph | filecheck %s --check-prefix=O3

// AVX512-LABEL: func.func @chain(
// AVX512-NEXT: [[W1:%[0-9]+]] = graph.constant dense_resource<{{.*}}> : tensor<2x3x3x13x16xf32>
// AVX512-NEXT: [[Y:%[0-9]+]] = graph.conv2d_blocked %x, [[W1]], %b1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x13x9x9xf32>, tensor<2x3x3x13x16xf32>, tensor<20xf32>) -> tensor<1x2x9x9x16xf32>
// AVX512-NEXT: [[R:%[0-9]+]] = graph.relu [[Y]] : tensor<1x2x9x9x16xf32>
// AVX512-NEXT: [[W2:%[0-9]+]] = graph.layout_transform %w2 {src = "OIHW", dst = "OHWI16o"} : (tensor<20x20x3x3xf32>) -> tensor<2x3x3x20x16xf32>
// AVX512-NEXT: [[Z:%[0-9]+]] = graph.conv2d_blocked [[R]], [[W2]]
// AVX512-NEXT: [[A:%[0-9]+]] = graph.add [[Z]], [[R]] : tensor<1x2x9x9x16xf32>
// AVX512-NEXT: [[M:%[0-9]+]] = graph.max_pool2d_blocked [[A]] {{.*}} : (tensor<1x2x9x9x16xf32>) -> tensor<1x2x5x5x16xf32>
// AVX512-NEXT: [[OUT:%[a-z0-9]+]] = graph.layout_transform [[M]] {src = "NCHW16c", dst = "NCHW"} : (tensor<1x2x5x5x16xf32>) -> tensor<1x20x5x5xf32>
// AVX512-NEXT: func.return [[OUT]]
// AVX512-LABEL: func.func @kept(
// AVX512-NEXT: %y = graph.conv2d %x, %w1
// AVX512-NEXT: %s = graph.softmax %y
// AVX512-NEXT: %z = graph.conv2d %s, %w2
// AVX512-NEXT: %g = graph.conv2d %z, %w3 {{.*}}groups = 2

// LONE-LABEL: func.func @kept(
// LONE: graph.conv2d_blocked
// LONE-NEXT: [[Y:%[a-z0-9]+]] = graph.layout_transform {{.*}} {src = "NCHW16c", dst = "NCHW"}
// LONE-NEXT: [[S:%[a-z0-9]+]] = graph.softmax [[Y]]
// LONE-NEXT: graph.layout_transform [[S]] {src = "NCHW", dst = "NCHW16c"}
// LONE: graph.conv2d_blocked
// LONE-NEXT: [[Z:%[a-z0-9]+]] = graph.layout_transform {{.*}} {src = "NCHW16c", dst = "NCHW"}
// LONE-NEXT: graph.conv2d [[Z]], %w3 {{.*}}groups = 2

// AVX2-LABEL: func.func @chain(
// AVX2-NEXT: graph.layout_transform %x {src = "NCHW", dst = "NCHW8c"} : (tensor<1x13x9x9xf32>) -> tensor<1x2x9x9x8xf32>
// AVX2-NEXT: graph.constant dense_resource<{{.*}}> : tensor<3x3x3x13x8xf32>
// AVX2-NEXT: graph.conv2d_blocked {{.*}} -> tensor<1x3x9x9x8xf32>
// AVX2-NEXT: graph.relu
// AVX2-NEXT: graph.layout_transform %w2 {src = "OIHW", dst = "OHWI8o"} : (tensor<20x20x3x3xf32>) -> tensor<3x3x3x20x8xf32>
// AVX2-NEXT: graph.conv2d_blocked
// AVX2-NEXT: graph.add
// AVX2-NEXT: graph.max_pool2d_blocked
// AVX2-NEXT: graph.layout_transform {{.*}} {src = "NCHW8c", dst = "NCHW"} : (tensor<1x3x5x5x8xf32>) -> tensor<1x20x5x5xf32>
// AVX2-NEXT: func.return

// EXEC: check output0: {{.*}}: ok

// O3-LABEL: func.func @chain(
// O3-NOT: graph.layout_transform %x
// O3: graph.conv2d_blocked
// O3: graph.conv2d_blocked
// O3: graph.layout_transform {{.*}} {src = "NCHW16c", dst = "NCHW"}
// O3-LABEL: func.func @kept(
// O3-NOT: graph.layout_transform

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 16, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
func.func @chain(%x: tensor<1x13x9x9xf32>, %b1: tensor<20xf32>, %w2: tensor<20x20x3x3xf32>) -> tensor<1x20x5x5xf32> {
  %w1 = graph.constant dense<5.000000e-01> : tensor<20x13x3x3xf32>
  %y = graph.conv2d %x, %w1, %b1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x13x9x9xf32>, tensor<20x13x3x3xf32>, tensor<20xf32>) -> tensor<1x20x9x9xf32>
  %r = graph.relu %y : tensor<1x20x9x9xf32>
  %z = graph.conv2d %r, %w2 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x9x9xf32>, tensor<20x20x3x3xf32>) -> tensor<1x20x9x9xf32>
  %a = graph.add %z, %r : tensor<1x20x9x9xf32>
  %m = graph.max_pool2d %a {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x9x9xf32>) -> tensor<1x20x5x5xf32>
  func.return %m : tensor<1x20x5x5xf32>
}
func.func @kept(%x: tensor<1x16x6x6xf32>, %w1: tensor<32x16x1x1xf32>, %w2: tensor<32x32x1x1xf32>, %w3: tensor<32x16x3x3xf32>) -> tensor<1x32x6x6xf32> {
  %y = graph.conv2d %x, %w1 : (tensor<1x16x6x6xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x6x6xf32>
  %s = graph.softmax %y {axis = 1 : i64} : tensor<1x32x6x6xf32>
  %z = graph.conv2d %s, %w2 : (tensor<1x32x6x6xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x6x6xf32>
  %g = graph.conv2d %z, %w3 {pads = array<i64: 1, 1, 1, 1>, groups = 2 : i64} : (tensor<1x32x6x6xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x6x6xf32>
  func.return %g : tensor<1x32x6x6xf32>
}
}
