// gather_nd over data or indices with a zero dimension: the interpreter gave "cannot reshape
// array of size 0" (program fuzzer, seed 1447); every level agrees with it now.
// RUN: strati-run %s --random-inputs 0 --backend interp | filecheck %s --check-prefix=INTERP
// RUN: strati-run %s --random-inputs 0 --check -O0 | filecheck %s
// RUN: strati-run %s --random-inputs 0 --check -O3 | filecheck %s
// INTERP: output0: float32[1, 3, 0] []
// INTERP: output1: float32[2, 0, 2] []
// CHECK: check output0: {{.*}}: ok
// CHECK: check output1: {{.*}}: ok
func.func @main(%x: tensor<1x3x3x0xf32>, %y: tensor<2x3x2xf32>) -> (tensor<1x3x0xf32>, tensor<2x0x2xf32>) {
  %c = graph.constant dense<[[0, 1]]> : tensor<1x2xi64>
  %g = graph.gather_nd %x, %c : (tensor<1x3x3x0xf32>, tensor<1x2xi64>) -> tensor<1x3x0xf32>
  %e = graph.constant dense<0> : tensor<2x0x1xi64>
  %h = graph.gather_nd %y, %e {batch_dims = 1} : (tensor<2x3x2xf32>, tensor<2x0x1xi64>) -> tensor<2x0x2xf32>
  func.return %g, %h : tensor<1x3x0xf32>, tensor<2x0x2xf32>
}
