// cpu-schedule-matmul takes a matmul nest out of the loop that fuse-loops built around it; the
// statements after the nest in that loop (here the bias and the softmax that read the product)
// go into a loop after the scheduled nest, those before it into a loop before it.  They were
// all put before the nest, so softmax read the product before it was computed (AlexNet, VGG and
// ResNet's classifiers gave their logits, not probabilities, at -O2 and -O3).
// RUN: strati-run %s --random-inputs 0 -O2 --check | filecheck %s --check-prefix=OK
// RUN: strati-run %s --random-inputs 0 -O3 --check | filecheck %s --check-prefix=OK
// RUN: strati-opt %s --emit=hw -O2 --target cpu | filecheck %s
// OK-NOT: FAILED
// OK: check output0: {{.*}}: ok
// The initialisation of the product, then the scheduled nest (its packed panels), then the
// consumers, in that order.
// CHECK-LABEL: func.func private @f.kernel0(
// CHECK: vector.store {{.*}}, %0[{{.*}}] : memref<1x1000xf32>, vector<{{8|16}}xf32>
// CHECK: %buf_packed = memref.alloc
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: func.return
func.func @f(%x: tensor<1x512xf32>, %w: tensor<1000x512xf32>, %b: tensor<1000xf32>) -> tensor<1x1000xf32> {
  %y = graph.gemm %x, %w, %b {trans_b = true} : (tensor<1x512xf32>, tensor<1000x512xf32>, tensor<1000xf32>) -> tensor<1x1000xf32>
  %p = graph.softmax %y {axis = 1} : tensor<1x1000xf32>
  func.return %p : tensor<1x1000xf32>
}
