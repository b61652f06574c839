// strati-translate --to dot draws a graph.fused group as a dashed cluster labelled with its kernel
// name and fusion kind: edges from outside go straight to the ops inside that read them, the group's
// result leaves from the op inside that computes it, and graph.yield is not drawn.
// RUN: strati-opt %s -p fuse-ops | strati-translate --to dot | filecheck %s
// RUN: strati-opt -q %s -p fuse-ops | strati-translate --quiet --to dot | filecheck %s
// CHECK: subgraph cluster_f0 {
// CHECK: [[X:f0_arg0]] [shape=ellipse
// CHECK: [[W:f0_arg1]] [shape=ellipse
// CHECK: subgraph cluster_f0_op0 {
// CHECK-NEXT: label="fused_conv2d_relu_sigmoid (out_elemwise_fusable)"; style=dashed;
// CHECK-NEXT: [[CONV:f0_op0_op0]] [shape=box, label="graph.conv2d\ntensor<1x4x6x6xf32>"];
// CHECK-NEXT: [[X]] -> [[CONV]] [label="0"];
// CHECK-NEXT: [[W]] -> [[CONV]] [label="1"];
// CHECK-NEXT: [[RELU:f0_op0_op1]] [shape=box, label="graph.relu
// CHECK-NEXT: [[CONV]] -> [[RELU]];
// CHECK-NEXT: [[SIG:f0_op0_op2]] [shape=box, label="graph.sigmoid
// CHECK-NEXT: [[RELU]] -> [[SIG]];
// CHECK-NEXT: }
// CHECK-NOT: graph.yield
// CHECK: [[RET:f0_op1]] [shape=oval, label="func.return"];
// CHECK-NEXT: [[SIG]] -> [[RET]];

func.func @f(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %c = graph.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32>
  %s = graph.sigmoid %r : tensor<1x4x6x6xf32>
  func.return %s : tensor<1x4x6x6xf32>
}
