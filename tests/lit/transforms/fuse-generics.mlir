// RUN: strati-opt %s --split-input-file -p fuse-generics | filecheck %s
// RUN: strati-opt %s --split-input-file -p fuse-generics | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p convert-graph-to-tensor | filecheck %s --check-prefix=GROUP
//
// Producer-consumer fusion of tensor.generic ops.  tests/unit/test_fusion.py also runs
// every tensor-level function here through the interpreter before and after the pass.

// An elementwise chain is one generic: the producer's body comes first, its maps
// composed with the consumer's (the bias stays broadcast); its init is gone.
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: %e1 = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT: %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e1 : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%a: f32, %c: f32, %o: f32):
// CHECK-NEXT: %t = arith.addf %a, %c : f32
// CHECK-NEXT: [[E:%[a-z0-9_]+]] = math.exp %t : f32
// CHECK-NEXT: tensor.yield [[E]] : f32
// CHECK-NEXT: } -> tensor<2x3xf32>
// CHECK-NEXT: func.return %y
func.func @chain(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %e0 = tensor.empty() : tensor<2x3xf32>
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x3xf32>, tensor<3xf32>) outs(%e0 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.addf %a, %c : f32
    tensor.yield %t : f32
  } -> tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    tensor.yield %t : f32
  } -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// A producer that writes its result transposed: its input is read through the inverse
// permutation, and its loop index 1 is the consumer's loop 0.
// CHECK-LABEL: func.func @transposed(
// CHECK-NEXT: %e1 = tensor.empty() : tensor<3x2xf32>
// CHECK-NEXT: %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e1 : tensor<3x2xf32>) {
// CHECK-NEXT: ^bb0(%a: f32, %o: f32):
// CHECK-NEXT: %i = tensor.index 0 : index
// CHECK: %t = arith.addf %a, %f : f32
// CHECK-NEXT: [[N:%[a-z0-9_]+]] = arith.negf %t : f32
// CHECK-NEXT: tensor.yield [[N]] : f32
func.func @transposed(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e0 = tensor.empty() : tensor<3x2xf32>
  %p = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e0 : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = tensor.index 1 : index
    %n = arith.index_cast %i : index to i64
    %f = arith.sitofp %n : i64 to f32
    %t = arith.addf %a, %f : f32
    tensor.yield %t : f32
  } -> tensor<3x2xf32>
  %e1 = tensor.empty() : tensor<3x2xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%p : tensor<3x2xf32>) outs(%e1 : tensor<3x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    tensor.yield %t : f32
  } -> tensor<3x2xf32>
  func.return %y : tensor<3x2xf32>
}

// -----

// An elementwise producer fuses into a reduction that reads each element once.
// CHECK-LABEL: func.func @into_reduction(
// CHECK: %f = tensor.fill
// CHECK-NEXT: %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
// CHECK-NEXT: ^bb0(%a: f32, %acc: f32):
// CHECK-NEXT: %z = arith.constant
// CHECK-NEXT: %t = arith.maximumf %a, %z : f32
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addf %acc, %t : f32
// CHECK-NEXT: tensor.yield [[S]] : f32
// CHECK-NOT: tensor.generic
func.func @into_reduction(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %r = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %t = arith.maximumf %a, %z : f32
    tensor.yield %t : f32
  } -> tensor<4x8xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<4xf32>
  %f = tensor.fill %zero, %e1 : (f32, tensor<4xf32>) -> tensor<4xf32>
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%r : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  func.return %s : tensor<4xf32>
}

// -----

// An input of both is read once.
// CHECK-LABEL: func.func @shared_input(
// CHECK: tensor.generic {{.*}} ins(%x : tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
// CHECK-NEXT: ^bb0(%a: f32, %o: f32):
// CHECK-NEXT: %t = arith.mulf %a, %a : f32
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = arith.addf %t, %a : f32
// CHECK-NOT: tensor.generic
func.func @shared_input(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e0 = tensor.empty() : tensor<2x3xf32>
  %sq = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x3xf32>) outs(%e0 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.mulf %a, %a : f32
    tensor.yield %t : f32
  } -> tensor<2x3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sq, %x : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    tensor.yield %t : f32
  } -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// Not fused: a producer with two consumers (fusing would compute it twice).
// CHECK-LABEL: func.func @two_users(
// CHECK: %p = tensor.generic
// CHECK: %n = tensor.generic {{.*}} ins(%p
// CHECK: %m = tensor.generic {{.*}} ins(%p
func.func @two_users(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e0 = tensor.empty() : tensor<4xf32>
  %p = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %n = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.negf %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %m = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.tanh %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  func.return %n, %m : tensor<4xf32>, tensor<4xf32>
}

// -----

// Not fused: the consumer reads each producer element twice (a broadcast read).
// CHECK-LABEL: func.func @broadcast_read(
// CHECK: %p = tensor.generic
// CHECK: %y = tensor.generic {{.*}} ins(%x, %p
func.func @broadcast_read(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %e0 = tensor.empty() : tensor<3xf32>
  %p = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<3xf32>) outs(%e0 : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    tensor.yield %t : f32
  } -> tensor<3xf32>
  %e1 = tensor.empty() : tensor<2x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %p : tensor<2x3xf32>, tensor<3xf32>) outs(%e1 : tensor<2x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %t = arith.mulf %a, %c : f32
    tensor.yield %t : f32
  } -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// Not fused here: a reduction producer with an elementwise consumer (fuse-loops does that).
// CHECK-LABEL: func.func @reduction_producer(
// CHECK: %s = tensor.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: %y = tensor.generic {{.*}} ins(%s
func.func @reduction_producer(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4xf32>
  %f = tensor.fill %zero, %e0 : (f32, tensor<4xf32>) -> tensor<4xf32>
  %s = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %acc, %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = math.exp %a : f32
    tensor.yield %t : f32
  } -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// A fusion group lowers to as few generics as fusion allows: the conv (on the CPU, a small
// image takes the im2col strategy: the patches, then the matmul over them), the batch
// norm's per-channel std, and one generic for batch norm and relu together (its inputs
// shared where they are the same value through the same map).
// GROUP-LABEL: func.func @group(
// GROUP: tensor.generic {{.*}} outs(%{{[0-9]+}} : tensor<1x3x3x3x6x6xf32>)
// GROUP: tensor.fill
// GROUP-NEXT: [[PRODUCT:%[0-9]+]] = tensor.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// GROUP: %conv = tensor.reshape [[PRODUCT]] : (tensor<1x4x36xf32>) -> tensor<1x4x6x6xf32>
// GROUP: math.sqrt
// GROUP: %r = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %p, %{{.*}} : tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>)
// GROUP: arith.divf
// GROUP: arith.maximumf
// GROUP-NOT: tensor.generic
// GROUP: func.return %r
func.func @group(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %p: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %y = graph.fused "fused_conv2d_batch_norm_relu" out_elemwise_fusable (%a = %x, %b = %w, %c = %p) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32> {
    %conv = graph.conv2d %a, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %n = graph.batch_norm %conv, %c, %c, %c, %c : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    %r = graph.relu %n : tensor<1x4x6x6xf32>
    graph.yield %r : tensor<1x4x6x6xf32>
  }
  func.return %y : tensor<1x4x6x6xf32>
}

// -----

// An elementwise consumer reading a transposing copy through a reshape (the copy that takes a
// blocked convolution back to NCHW, then a residual add and relu) is rewritten on the copy's
// shape and loops, its other input and its result reshaped (views once bufferized), so the
// copy fuses into it: one generic in the copy's loop order, reading %x in order.
// CHECK-LABEL: func.func @through_reshape(
// CHECK-NEXT: [[R:%[0-9]+]] = tensor.reshape %res : (tensor<8x3xf32>) -> tensor<2x4x3xf32>
// CHECK-NEXT: [[E:%[0-9]+]] = tensor.empty() : tensor<2x4x3xf32>
// CHECK-NEXT: [[Y:%[0-9]+]] = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} ins([[R]], %x : tensor<2x4x3xf32>, tensor<2x3x4xf32>) outs([[E]] : tensor<2x4x3xf32>) {
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: } -> tensor<2x4x3xf32>
// CHECK-NEXT: %y = tensor.reshape [[Y]] : (tensor<2x4x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT: func.return %y
func.func @through_reshape(%x: tensor<2x3x4xf32>, %res: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %e0 = tensor.empty() : tensor<2x4x3xf32>
  %t = tensor.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2, d1)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e0 : tensor<2x4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    tensor.yield %a : f32
  } -> tensor<2x4x3xf32>
  %v = tensor.reshape %t : (tensor<2x4x3xf32>) -> tensor<8x3xf32>
  %e1 = tensor.empty() : tensor<8x3xf32>
  %y = tensor.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v, %res : tensor<8x3xf32>, tensor<8x3xf32>) outs(%e1 : tensor<8x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %z : f32
    tensor.yield %m : f32
  } -> tensor<8x3xf32>
  func.return %y : tensor<8x3xf32>
}
