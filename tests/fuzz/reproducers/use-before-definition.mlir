// The issue's chain: conv2d -> batch_norm -> relu.  simplify-inference folds the batch
// norm into the conv's weights and bias, fuse-ops makes conv and relu one group, and
// fuse-loops makes the group one loop nest: bias, accumulation and relu inside the
// same (n, oc, oh) loops, in the output buffer, with no memref.alloc anywhere.
// PIPE-LABEL: func.func @conv_bn_relu(
// PIPE-SAME: %x: memref<1x2x5x5xf32>, %out: memref<1x3x3x3xf32>)
// PIPE-NOT: memref.alloc
// PIPE: loop.for [[N:%[0-9]+]] = %c0 to %c1 step %c1 {
// PIPE-NEXT: loop.for [[O:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for [[H:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for [[V1:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: [[B:%[0-9]+]] = memref.load %beta[[[O]]] : memref<3xf32>
// PIPE-NEXT: memref.store [[B]], %out[[[N]], [[O]], [[H]], [[V1]]] : memref<1x3x3x3xf32>
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for [[V2:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: loop.for {{.*}} = %c0 to %c2 step %c1 {
// PIPE-NEXT: loop.for
// PIPE[-NEXT: loop.for
// PIPE-NEXT: arith.addi
// PIPE-NEXT: arith.addi
// PIPE-NEXT: memref.load %x
// PIPE-NEXT: memref.load %w
// PIPE-NEXT: [[ACC:%[0-9]+]] = memref.load %out[[[N]], [[O]], [[H]], [[V2]]]
// PIPE-NEXT: [[P:%[0-9]+]] = arith.mulf
// PIPE-NEXT: [[S:%[0-9]+]] = arith.addf [[ACC]], [[P]] : f32
// PIPE-NEXT: memref.store [[S]], %out[[[N]], [[O]], [[H]], [[V2]]]
// PIPE-NEXT: }
// PIPE-NEXT: }
// PIPE-NEXT: }
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: loop.for [[V3:%[0-9]+]] = %c0 to %c3 step %c1 {
// PIPE-NEXT: [[Y:%[0-9]+]] = memref.load %out[[[N]], [[O]], [[H]], [[V3]]]
// PIPE-NEXT: [[Z:%[0-9]+]] = arith.constant 0.000000e+00 : f32
// PIPE-NEXT: [[R:%[0-9]+]] = arith.maximumf [[Y]], [[Z]] : f32
// PIPE-NEXT: memref.store [[R]], %out[[[N]], [[O]], [[H]], [[V3]]]
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: } {parallel = true}
// PIPE-NEXT: func.return
func.func @conv_bn_relu(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x3x3xf32> {
  %w = graph.constant dense<0.25> : tensor<3x2x3x3xf32>
  %gamma = graph.constant dense<[1.0, 0.5, 2.0]> : tensor<3xf32>
  %beta = graph.constant dense<[0.0, 0.1, -0.1]> : tensor<3xf32>
  %mean = graph.constant dense<[0.1, 0.0, -0.1]> : tensor<3xf32>
  %var = graph.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
  %n = graph.batch_norm %c, %gamma, %beta, %beta, %var : (tensor<1x3x3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
  %c = graph.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %r = graph.relu %n : tensor<1x3x3x3xf32>
  func.return %r : tensor<1x3x3x3xf32>
}
