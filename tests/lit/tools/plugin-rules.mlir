// A rule for an outside op (tests/unit/plugins/custom_op.py) from a .rules file alone:
// loaded as a plug-in, it joins graph.sub's canonicalize patterns, after the graph rules.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py --load-plugin %S/../../unit/plugins/softplus.rules %s -p canonicalize | filecheck %s
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py --load-plugin %S/../../unit/plugins/softplus.rules --list-rules | filecheck %s --check-prefix=LIST
// LIST: softplus_difference benefit 1 {{.*}}softplus.rules:5{{.}} graph.sub
// LIST: sub_zero benefit 2 {{.*}}strati/dialects/graph/canonicalize.rules
// Without the dialect's plug-in the rule names an unknown op.
// RUN: not strati-opt --load-plugin %S/../../unit/plugins/softplus.rules %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: softplus.rules:5:37: error: unknown op 'demo.softplus'

// CHECK-LABEL: func.func @difference(
// CHECK-NEXT: func.return %x, %x
func.func @difference(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %a = demo.softplus %x : tensor<3xf32>
  %n = graph.neg %x : tensor<3xf32>
  %b = demo.softplus %n : tensor<3xf32>
  %d = graph.sub %a, %b : tensor<3xf32>
  %z = graph.constant dense<0.000000e+00> : tensor<3xf32>
  %e = graph.sub %x, %z : tensor<3xf32>
  func.return %d, %e : tensor<3xf32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @other_operand(
// CHECK: graph.sub
func.func @other_operand(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %a = demo.softplus %x : tensor<3xf32>
  %n = graph.neg %y : tensor<3xf32>
  %b = demo.softplus %n : tensor<3xf32>
  %d = graph.sub %a, %b : tensor<3xf32>
  func.return %d : tensor<3xf32>
}
