// Pooling on the CPU: `unroll-windows` unrolls each output's window (the taps in order, the
// output element in a register), then `vectorize` takes the output row: with stride 1 the taps
// are vector loads of shifted input rows (9 per vector of 8 outputs, one store); with stride 2
// the row stays scalar (its taps are 2 apart) but its window is unrolled just the same. A
// 7x7 average pool's 49 taps are unrolled (64 at most); numerics against the interpreter.
// RUN: strati-opt %s -O 3 --emit=hw | filecheck %s
// RUN: strati-run %s --entry same --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry strided --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry window --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// RUN: strati-run %s --entry average --random-inputs 0 --check | filecheck %s --check-prefix=EXEC

// CHECK-LABEL: func.func private @same.kernel
// CHECK: loop.for %{{[0-9]+}} = %c0 to %c8 step %c8 {
// CHECK-COUNT-9: arith.maximumf %{{[0-9]+}}, %{{[0-9]+}} : vector<8xf32>
// CHECK-NEXT: vector.store
// CHECK-NEXT: } {parallel = true}
// CHECK: loop.for %{{[0-9]+}} = %c12 to %c13 step %c1 {
// CHECK-COUNT-9: arith.maximumf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT: memref.store
// CHECK-NEXT: } {parallel = true}

// CHECK-LABEL: func.func private @strided.kernel
// CHECK: memref.store %{{[0-9]+}}, %0[{{.*}}] : memref<1x3x6x6xf32>
// CHECK: loop.for %{{[0-9]+}} = %c0 to %c6 step %c1 {
// CHECK-NOT: loop.for
// CHECK-COUNT-9: arith.maximumf %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT: memref.store
// CHECK-NEXT: } {parallel = true}

// CHECK-LABEL: func.func private @window.kernel
// CHECK-NOT: loop.for %{{[0-9]+}} = %c0 to %c7 step %c1
// CHECK-COUNT-49: arith.maximumf
// CHECK-NOT: arith.maximumf
// CHECK: func.return

// CHECK-LABEL: func.func private @average.kernel
// CHECK: loop.for %{{[0-9]+}} = %c0 to %c7 step %c1
// CHECK: arith.addf
// CHECK-NOT: arith.addf
// CHECK: func.return

// EXEC: check output0: {{.*}}: ok

builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true, cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
  func.func @same(%x: tensor<1x3x13x13xf32>) -> tensor<1x3x13x13xf32> {
    %y = graph.max_pool2d %x {kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x13x13xf32>) -> tensor<1x3x13x13xf32>
    func.return %y : tensor<1x3x13x13xf32>
  }
  func.func @strided(%x: tensor<1x3x13x13xf32>) -> tensor<1x3x6x6xf32> {
    %y = graph.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x13x13xf32>) -> tensor<1x3x6x6xf32>
    func.return %y : tensor<1x3x6x6xf32>
  }
  func.func @window(%x: tensor<1x5x7x7xf32>) -> tensor<1x5x1x1xf32> {
    %y = graph.max_pool2d %x {kernel = array<i64: 7, 7>} : (tensor<1x5x7x7xf32>) -> tensor<1x5x1x1xf32>
    func.return %y : tensor<1x5x1x1xf32>
  }
  func.func @average(%x: tensor<1x5x7x7xf32>) -> tensor<1x5x1x1xf32> {
    %y = graph.avg_pool2d %x {kernel = array<i64: 7, 7>} : (tensor<1x5x7x7xf32>) -> tensor<1x5x1x1xf32>
    func.return %y : tensor<1x5x1x1xf32>
  }
}
