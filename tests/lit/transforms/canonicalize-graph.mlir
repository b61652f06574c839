// The graph ops' canonicalization patterns, registered under the op attribute
// "canonicalize" (strati/dialects/graph/attrs/canonicalize.py) and applied by xDSL's
// own canonicalize pass.  Every pattern is exact, the sign of zero included.
// RUN: strati-opt %s -p canonicalize | filecheck %s
// RUN: strati-opt --list-op-attrs | filecheck %s --check-prefix=ATTRS
// ATTRS: op {{.*}} canonicalize

// x + (-0.0) and (-0.0) + x are x for every x, -0.0 included.
// CHECK-LABEL: func.func @add_neg_zero(
// CHECK-NEXT: func.return %x, %x
func.func @add_neg_zero(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %z = graph.constant dense<-0.000000e+00> : tensor<2x3xf32>
  %a = graph.add %x, %z : tensor<2x3xf32>
  %b = graph.add %z, %x : tensor<2x3xf32>
  func.return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// Not x + (+0.0): for x = -0.0 it is +0.0 (LLVM folds it only under nsz).
// CHECK-LABEL: func.func @add_pos_zero_kept(
// CHECK-NEXT: graph.constant dense<0.000000e+00>
// CHECK-NEXT: graph.add %x,
func.func @add_pos_zero_kept(%x: tensor<3xf32>) -> tensor<3xf32> {
  %z = graph.constant dense<0.000000e+00> : tensor<3xf32>
  %a = graph.add %x, %z : tensor<3xf32>
  func.return %a : tensor<3xf32>
}

// Integer zero is neutral on both sides of add and on the right of sub; 0 - x stays.
// CHECK-LABEL: func.func @add_int_zero(
// CHECK-NEXT: [[Z:%.*]] = graph.constant dense<0> : tensor<3xi32>
// CHECK-NEXT: [[C:%.*]] = graph.sub [[Z]], %x
// CHECK-NEXT: func.return %x, [[C]]
func.func @add_int_zero(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %z = graph.constant dense<0> : tensor<3xi32>
  %a = graph.add %x, %z : tensor<3xi32>
  %b = graph.sub %a, %z : tensor<3xi32>
  %c = graph.sub %z, %x : tensor<3xi32>
  func.return %b, %c : tensor<3xi32>, tensor<3xi32>
}

// x - (+0.0) is x; x - (-0.0) is x + 0.0, kept.
// CHECK-LABEL: func.func @sub_zero(
// CHECK-NEXT: [[NZ:%.*]] = graph.constant dense<-0.000000e+00>
// CHECK-NEXT: [[B:%.*]] = graph.sub %x, [[NZ]]
// CHECK-NEXT: func.return %x, [[B]]
func.func @sub_zero(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %z = graph.constant dense<0.000000e+00> : tensor<3xf32>
  %nz = graph.constant dense<-0.000000e+00> : tensor<3xf32>
  %a = graph.sub %x, %z : tensor<3xf32>
  %b = graph.sub %x, %nz : tensor<3xf32>
  func.return %a, %b : tensor<3xf32>, tensor<3xf32>
}

// x * 1, 1 * x (a rank-0 one, broadcast), x / 1 go; 1 / x stays.
// CHECK-LABEL: func.func @mul_div_one(
// CHECK-NEXT: [[ONE:%.*]] = graph.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT: [[D:%.*]] = graph.div [[ONE]], %x
// CHECK-NEXT: func.return %x, [[D]]
func.func @mul_div_one(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %one = graph.constant dense<[1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<3xf32>
  %s = graph.constant dense<1.000000e+00> : tensor<f32>
  %a = graph.mul %x, %one : tensor<3xf32>
  %b = graph.mul %s, %a : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %c = graph.div %b, %one : tensor<3xf32>
  %d = graph.div %one, %c : tensor<3xf32>
  func.return %c, %d : tensor<3xf32>, tensor<3xf32>
}

// The neutral constant may be a broadcast splat.
// CHECK-LABEL: func.func @broadcast_splat(
// CHECK-NEXT: func.return %x
func.func @broadcast_splat(%x: tensor<3xf32>) -> tensor<3xf32> {
  %s = graph.constant dense<1.000000e+00> : tensor<1xf32>
  %b = graph.broadcast_to %s : (tensor<1xf32>) -> tensor<3xf32>
  %m = graph.mul %x, %b : tensor<3xf32>
  func.return %m : tensor<3xf32>
}

// When the constant broadcasts x to a larger type, x is broadcast instead of returned.
// CHECK-LABEL: func.func @neutral_broadcasts(
// CHECK-NEXT: [[B:%.*]] = graph.broadcast_to %x : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: func.return [[B]]
func.func @neutral_broadcasts(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %one = graph.constant dense<1.000000e+00> : tensor<2x3xf32>
  %m = graph.mul %x, %one : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %m : tensor<2x3xf32>
}

// Not when broadcast_to cannot express the result type (a dynamic dimension x does not
// determine), nor when the constant is not neutral everywhere.
// CHECK-LABEL: func.func @neutral_kept(
// CHECK: graph.add %x, {{%.*}} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
// CHECK: graph.mul %x,
func.func @neutral_kept(%x: tensor<1x3xf32>) -> (tensor<?x3xf32>, tensor<1x3xf32>) {
  %z = graph.constant dense<-0.000000e+00> : tensor<2x3xf32>
  %a = graph.add %x, %z : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<?x3xf32>
  %c = graph.constant dense<[[1.000000e+00, 2.000000e+00, 1.000000e+00]]> : tensor<1x3xf32>
  %m = graph.mul %x, %c : tensor<1x3xf32>
  func.return %a, %m : tensor<?x3xf32>, tensor<1x3xf32>
}

// Transposes compose: the identity goes, another permutation stays as one transpose.
// CHECK-LABEL: func.func @transposes(
// CHECK-NEXT: [[D:%.*]] = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: func.return %x, [[D]], %x, %x
func.func @transposes(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %a = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %b = graph.transpose %a {perm = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %c = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %d = graph.transpose %c {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  %e = graph.transpose %x {perm = array<i64: 0, 1, 2>} : tensor<2x3x4xf32>
  %f = graph.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %g = graph.transpose %f : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  func.return %b, %d, %e, %g : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// A transpose or reshape of a constant is a constant; a splat stays a splat.
// CHECK-LABEL: func.func @shape_of_constant(
// CHECK-NEXT: graph.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
// CHECK-NEXT: graph.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>
// CHECK-NEXT: graph.constant dense<7> : tensor<2x2xi32>
// CHECK-NEXT: func.return
func.func @shape_of_constant() -> (tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xi32>) {
  %c = graph.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
  %t = graph.transpose %c : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = graph.reshape %c : (tensor<2x3xf32>) -> tensor<6xf32>
  %s = graph.constant dense<7> : tensor<4xi32>
  %u = graph.reshape %s : (tensor<4xi32>) -> tensor<2x2xi32>
  func.return %t, %r, %u : tensor<3x2xf32>, tensor<6xf32>, tensor<2x2xi32>
}

// Reshape (flatten, squeeze, unsqueeze) chains become one reshape, or nothing.
// CHECK-LABEL: func.func @reshapes(
// CHECK-NEXT: [[B:%.*]] = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: [[F:%.*]] = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
// CHECK-NEXT: func.return [[B]], %x, [[F]]
func.func @reshapes(%x: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<24x1xf32>) {
  %a = graph.reshape %x : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %b = graph.reshape %a : (tensor<24xf32>) -> tensor<6x4xf32>
  %c = graph.reshape %a : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %d = graph.flatten %x {axis = 0} : (tensor<2x3x4xf32>) -> tensor<1x24xf32>
  %e = graph.squeeze %d {axes = array<i64: 0>} : (tensor<1x24xf32>) -> tensor<24xf32>
  %f = graph.unsqueeze %e {axes = array<i64: 1>} : (tensor<24xf32>) -> tensor<24x1xf32>
  func.return %b, %c, %f : tensor<6x4xf32>, tensor<2x3x4xf32>, tensor<24x1xf32>
}

// Shape ops and casts to the same type, identity and inference-mode dropout go;
// a cast that changes the element type stays.
// CHECK-LABEL: func.func @same_type(
// CHECK-NEXT: [[H:%.*]] = graph.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT: func.return %x, [[H]]
func.func @same_type(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %a = graph.reshape %x : tensor<2x3xf32>
  %b = graph.flatten %a : tensor<2x3xf32>
  %c = graph.squeeze %b : tensor<2x3xf32>
  %d = graph.broadcast_to %c : tensor<2x3xf32>
  %e = graph.identity %d : tensor<2x3xf32>
  %f = graph.dropout %e {ratio = 0.25} : tensor<2x3xf32>
  %g = graph.cast %f : tensor<2x3xf32>
  %h = graph.cast %g : (tensor<2x3xf32>) -> tensor<2x3xi32>
  func.return %g, %h : tensor<2x3xf32>, tensor<2x3xi32>
}

// Shape ops of other ops stay.
// CHECK-LABEL: func.func @kept(
// CHECK-NEXT: [[R:%.*]] = graph.relu %x
// CHECK-NEXT: graph.reshape [[R]]
// CHECK-NEXT: graph.transpose [[R]] {perm = array<i64: 1, 0>}
func.func @kept(%x: tensor<2x3xf32>) -> (tensor<6xf32>, tensor<3x2xf32>) {
  %r = graph.relu %x : tensor<2x3xf32>
  %a = graph.reshape %r : (tensor<2x3xf32>) -> tensor<6xf32>
  %t = graph.transpose %r {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %a, %t : tensor<6xf32>, tensor<3x2xf32>
}
