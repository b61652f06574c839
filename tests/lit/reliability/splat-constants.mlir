// Splat constants stay one element however large their type: parsing and printing
// dense<1.0> : tensor<16777216xf32> is instant and small (it took 21 s, 3 GB, 134 MB of text).
// RUN: strati-opt %s --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s | wc -c | filecheck %s --check-prefix=SIZE
// SIZE: {{^[0-9]{3}$}}
// A splat computes as the tensor it stands for, in both backends.
// RUN: strati-run %S/Inputs/splat-mul.mlir --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// EXEC: check output0: {{.*}}: ok
// CHECK: %c = graph.constant dense<1.000000e+00> : tensor<16777216xf32>
// CHECK: %b = graph.constant dense<-7> : tensor<4x4xi32>
// CHECK: %t = graph.constant dense<true> : tensor<3xi1>
// CHECK: %h = graph.constant dense<1.000000e-01> : tensor<8xf32>
// CHECK: %x = graph.constant dense<1.000000e-01> : tensor<2xf64>
func.func @f() -> (tensor<16777216xf32>, tensor<4x4xi32>, tensor<3xi1>, tensor<8xf32>, tensor<2xf64>) {
  %c = graph.constant dense<1.0> : tensor<16777216xf32>
  %b = graph.constant dense<-7> : tensor<4x4xi32>
  %t = graph.constant dense<true> : tensor<3xi1>
  %h = graph.constant dense<"0xCDCCCC3D"> : tensor<8xf32>
  %x = graph.constant dense<0.1> : tensor<2xf64>
  func.return %c, %b, %t, %h, %x : tensor<16777216xf32>, tensor<4x4xi32>, tensor<3xi1>, tensor<8xf32>, tensor<2xf64>
}

