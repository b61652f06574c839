// The layout ops (made by alter-layout) print in the graph syntax and round-trip, custom and
// generic; their references run (strati-run's interpreter) and compile to the same values.
// RUN: strati-opt %s | strati-opt | filecheck %s
// RUN: strati-opt %s --print-op-generic | strati-opt | filecheck %s
// RUN: strati-run %s --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func @layouts(
// CHECK: graph.layout_transform %x {src = "NCHW", dst = "NCHW8c"} : (tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32>
// CHECK: graph.layout_transform %w {src = "OIHW", dst = "OHWI8o"} : (tensor<11x13x3x3xf32>) -> tensor<2x3x3x13x8xf32>
// CHECK: graph.conv2d_blocked {{%[0-9a-z]+}}, {{%[0-9a-z]+}}, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x13x8xf32>, tensor<11xf32>) -> tensor<1x2x2x3x8xf32>
// CHECK: graph.max_pool2d_blocked {{.*}} {kernel = array<i64: 2, 2>} : (tensor<1x2x2x3x8xf32>) -> tensor<1x2x1x2x8xf32>
// CHECK: graph.avg_pool2d_blocked {{.*}} {count_include_pad = true, kernel = array<i64: 1, 2>} : (tensor<1x2x1x2x8xf32>) -> tensor<1x2x1x1x8xf32>
// CHECK: graph.layout_transform {{.*}} {src = "NCHW8c", dst = "NCHW"} : (tensor<1x2x1x1x8xf32>) -> tensor<1x11x1x1xf32>
// EXEC: check output0: {{.*}}: ok
func.func @layouts(%x: tensor<1x13x4x5xf32>, %w: tensor<11x13x3x3xf32>, %b: tensor<11xf32>) -> tensor<1x11x1x1xf32> {
  %xb = graph.layout_transform %x {src = "NCHW", dst = "NCHW8c"} : (tensor<1x13x4x5xf32>) -> tensor<1x2x4x5x8xf32>
  %wb = graph.layout_transform %w {src = "OIHW", dst = "OHWI8o"} : (tensor<11x13x3x3xf32>) -> tensor<2x3x3x13x8xf32>
  %y = graph.conv2d_blocked %xb, %wb, %b {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x5x8xf32>, tensor<2x3x3x13x8xf32>, tensor<11xf32>) -> tensor<1x2x2x3x8xf32>
  %m = graph.max_pool2d_blocked %y {kernel = array<i64: 2, 2>} : (tensor<1x2x2x3x8xf32>) -> tensor<1x2x1x2x8xf32>
  %a = graph.avg_pool2d_blocked %m {kernel = array<i64: 1, 2>, count_include_pad = true} : (tensor<1x2x1x2x8xf32>) -> tensor<1x2x1x1x8xf32>
  %o = graph.layout_transform %a {src = "NCHW8c", dst = "NCHW"} : (tensor<1x2x1x1x8xf32>) -> tensor<1x11x1x1xf32>
  func.return %o : tensor<1x11x1x1xf32>
}
