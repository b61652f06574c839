// RUN: strati-opt %s --split-input-file -p fuse-ops | filecheck %s
// RUN: strati-opt %s --split-input-file -p fuse-ops | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p fuse-ops --print-op-generic | strati-opt --split-input-file | filecheck %s
// RUN: strati-opt %s --split-input-file -p fuse-ops,fuse-ops | filecheck %s
// RUN: strati-opt %s --split-input-file -p 'fuse-ops{max_depth=2}' | filecheck %s --check-prefix=DEPTH
// RUN: strati-opt %s --split-input-file -p fuse-ops,infer-shapes | filecheck %s --check-prefix=SHAPES
//
// Grouping decisions of fuse-ops (TVM's FuseOps rules on the registered patterns).
// The second and third RUN lines round-trip graph.fused through its custom and
// generic syntax; the fourth checks that the pass is idempotent (a group is opaque).

// An elementwise chain is one group; its kind is the largest of its ops' (add: broadcast).
// CHECK-LABEL: func.func @chain(
// CHECK-NEXT: %r = graph.fused "fused_add_exp_relu" broadcast ([[X:%[a-z0-9_]+]] = %x, [[B:%[a-z0-9_]+]] = %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT: %a = graph.add [[X]], [[B]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %e = graph.exp %a : tensor<2x3xf32>
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = graph.relu %e : tensor<2x3xf32>
// CHECK-NEXT: graph.yield [[R]] : tensor<2x3xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.return %r : tensor<2x3xf32>
// DEPTH-LABEL: func.func @chain(
// DEPTH-NEXT: %e = graph.fused "fused_add_exp" broadcast
// DEPTH: graph.yield
// DEPTH-NEXT: }
// DEPTH-NEXT: %r = graph.relu %e : tensor<2x3xf32>
func.func @chain(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %a = graph.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %e = graph.exp %a : tensor<2x3xf32>
  %r = graph.relu %e : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

// conv2d (out_elemwise_fusable) takes its elementwise tail.  The constant weight is
// not a member: it stays outside and is an operand of the group.
// CHECK-LABEL: func.func @conv_relu(
// CHECK-NEXT: %w = graph.constant
// CHECK-NEXT: %r = graph.fused "fused_conv2d_relu" out_elemwise_fusable ([[X:%[a-z0-9_]+]] = %x, [[W:%[a-z0-9_]+]] = %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
// CHECK-NEXT: %c = graph.conv2d [[X]], [[W]] : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NEXT: [[R:%[a-z0-9_]+]] = graph.relu %c : tensor<1x4x6x6xf32>
// CHECK-NEXT: graph.yield [[R]] : tensor<1x4x6x6xf32>
// CHECK-NEXT: }
// CHECK-NOT: graph.constant
// CHECK: func.return %r
func.func @conv_relu(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32> {
  %w = graph.constant dense<0.5> : tensor<4x3x3x3xf32>
  %c = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// conv2d -> batch_norm (broadcast, read elementwise) -> relu: one group.
// CHECK-LABEL: func.func @conv_bn_relu(
// CHECK: %r = graph.fused "fused_conv2d_batch_norm_relu" out_elemwise_fusable
// CHECK-NEXT: graph.conv2d
// CHECK-NEXT: graph.batch_norm
// CHECK-NEXT: graph.relu
// CHECK-NEXT: graph.yield
func.func @conv_bn_relu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %p: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %n = graph.batch_norm %c, %p, %p, %p, %p : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %n : tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}

// -----

// A value with two users in different groups: %e feeds a reduction and the division
// after it.  Its post-dominator is the division, but the path through the reduction
// is not fusable, so exp (with its own producer) is a group of its own whose result
// both users read: computed once, never duplicated into either group.  The reduction
// does not fuse into its consumer.
// CHECK-LABEL: func.func @shared(
// CHECK-NEXT: %e = graph.fused "fused_add_exp" broadcast
// CHECK-NEXT: %a = graph.add
// CHECK-NEXT: [[E:%[a-z0-9_]+]] = graph.exp %a
// CHECK-NEXT: graph.yield [[E]]
// CHECK-NEXT: }
// CHECK-NEXT: %s = graph.reduce_sum %e {axes = array<i64: 1>}
// CHECK-NEXT: %y = graph.div %e, %s
// CHECK-NEXT: func.return %y
func.func @shared(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %a = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %e = graph.exp %a : tensor<4x8xf32>
  %s = graph.reduce_sum %e {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = graph.div %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// -----

// A residual connection: %r is read by the conv and by the add after it.  The add
// post-dominates %r, but the way through the conv is out_elemwise_fusable, so %r
// stays outside and the conv takes the add: %r is an input of the group twice over.
// CHECK-LABEL: func.func @residual(
// CHECK-NEXT: %r = graph.relu %x : tensor<1x4x6x6xf32>
// CHECK-NEXT: %y = graph.fused "fused_conv2d_add" out_elemwise_fusable ([[R:%[a-z0-9_]+]] = %r, [[W:%[a-z0-9_]+]] = %w)
// CHECK-NEXT: %c = graph.conv2d [[R]], [[W]] {pads
// CHECK-NEXT: [[Y:%[a-z0-9_]+]] = graph.add %c, [[R]]
// CHECK-NEXT: graph.yield [[Y]]
// CHECK-NEXT: }
// CHECK-NEXT: func.return %y
func.func @residual(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %r = graph.relu %x : tensor<1x4x6x6xf32>
  %c = graph.conv2d %r, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %y = graph.add %c, %r : tensor<1x4x6x6xf32>
  func.return %y : tensor<1x4x6x6xf32>
}

// -----

// Both users inside: a diamond of elementwise ops post-dominated by the add is one group.
// CHECK-LABEL: func.func @diamond(
// CHECK-NEXT: %y = graph.fused "fused_exp_neg_tanh_add" broadcast
// CHECK-NEXT: %e = graph.exp
// CHECK-NEXT: %n = graph.neg %e
// CHECK-NEXT: %t = graph.tanh %e
// CHECK-NEXT: graph.add %n, %t
func.func @diamond(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = graph.exp %x : tensor<4x8xf32>
  %n = graph.neg %e : tensor<4x8xf32>
  %t = graph.tanh %e : tensor<4x8xf32>
  %y = graph.add %n, %t : tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// -----

// A reduction absorbs its elementwise producer and ends the group: exp stays outside.
// CHECK-LABEL: func.func @reduce_ends(
// CHECK-NEXT: %s = graph.fused "fused_relu_reduce_sum" reduce
// CHECK-NEXT: %r = graph.relu
// CHECK-NEXT: [[S:%[a-z0-9_]+]] = graph.reduce_sum %r
// CHECK-NEXT: graph.yield [[S]]
// CHECK-NEXT: }
// CHECK-NEXT: %y = graph.exp %s : tensor<4x1xf32>
func.func @reduce_ends(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %r = graph.relu %x : tensor<4x8xf32>
  %s = graph.reduce_sum %r {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = graph.exp %s : tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}

// -----

// softmax is opaque: it fuses with nothing, and nothing fuses into it.
// CHECK-LABEL: func.func @opaque(
// CHECK-NOT: graph.fused
// CHECK: %r = graph.relu %x
// CHECK-NEXT: %s = graph.softmax %r
// CHECK-NEXT: %y = graph.exp %s
func.func @opaque(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = graph.relu %x : tensor<4x8xf32>
  %s = graph.softmax %r : tensor<4x8xf32>
  %y = graph.exp %s : tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}

// -----

// A value that is also returned has no post-dominator (the function's exit): it is
// not fused into its user.
// CHECK-LABEL: func.func @escapes(
// CHECK-NOT: graph.fused
// CHECK: func.return %e, %r
func.func @escapes(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = graph.exp %x : tensor<4x8xf32>
  %r = graph.relu %e : tensor<4x8xf32>
  func.return %e, %r : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Injective ops fuse with each other (phase 1) but not into a matmul's input.
// CHECK-LABEL: func.func @injective(
// CHECK-NEXT: %t = graph.fused "fused_reshape_transpose" injective
// CHECK-NEXT: %r = graph.reshape
// CHECK-NEXT: graph.transpose %r
// CHECK: %y = graph.matmul %t, %w
func.func @injective(%x: tensor<2x12xf32>, %w: tensor<3x5xf32>) -> tensor<2x4x5xf32> {
  %r = graph.reshape %x : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
  %t = graph.transpose %r {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %y = graph.matmul %t, %w : (tensor<2x4x3xf32>, tensor<3x5xf32>) -> tensor<2x4x5xf32>
  func.return %y : tensor<2x4x5xf32>
}

// -----

// A group already formed is left alone, and graph.fused parses as written.
// CHECK-LABEL: func.func @given(
// CHECK-NEXT: [[Y0:%[a-z0-9_]+]], [[Y1:%[a-z0-9_]+]] = graph.fused "my_kernel" elemwise (%a = %x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
// CHECK-NEXT: %e = graph.exp %a : tensor<4xf32>
// CHECK-NEXT: %n = graph.neg %e : tensor<4xf32>
// CHECK-NEXT: graph.yield %e, %n : tensor<4xf32>, tensor<4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.return [[Y0]], [[Y1]]
func.func @given(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y:2 = graph.fused "my_kernel" elemwise (%a = %x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    %e = graph.exp %a : tensor<4xf32>
    %n = graph.neg %e : tensor<4xf32>
    graph.yield %e, %n : tensor<4xf32>, tensor<4xf32>
  }
  func.return %y#0, %y#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Shapes left dynamic inside a group are refined by infer-shapes through graph.fused's
// infer_type (its body, then its results).
// CHECK-LABEL: func.func @dynamic(
// CHECK: graph.fused "fused_add_exp" broadcast {{.*}} -> tensor<?x8xf32>
// SHAPES-LABEL: func.func @dynamic(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
// SHAPES-NEXT: %e = graph.fused "fused_add_exp" broadcast ({{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
// SHAPES-NEXT: %a = graph.add {{.*}} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// SHAPES-NEXT: {{.*}} = graph.exp %a : tensor<4x8xf32>
func.func @dynamic(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %a = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %e = graph.exp %a : tensor<?x8xf32>
  func.return %e : tensor<?x8xf32>
}
