// An op defined and registered outside strati (tests/unit/plugins/custom_op.py) joins every tool.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py %s | filecheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: [[Y:%.*]] = demo.softplus %x : tensor<3xf32>
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py %s -p fold-constants | filecheck %s --check-prefix=FOLD
// FOLD-LABEL: func.func @folds(
// FOLD-NEXT: graph.constant dense<"0x{{[0-9A-F]+}}"> : tensor<3xf32>
// FOLD-NOT: demo.softplus
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py --list-op-attrs | filecheck %s --check-prefix=LIST
// LIST: demo.softplus x x elemwise x
// It lowers through its own 'lower' by the same pattern as the graph ops, compiles, and matches the interpreter.
// RUN: strati-opt --load-plugin %S/../../unit/plugins/custom_op.py %s -p convert-graph-to-tensor | filecheck %s --check-prefix=LOWER
// LOWER-LABEL: func.func @runs(
// LOWER: tensor.generic
// LOWER: math.exp
// LOWER: math.log
// LOWER-NOT: demo.softplus
// RUN: strati-run --load-plugin %S/../../unit/plugins/custom_op.py %s --entry runs --random-inputs 0 --check | filecheck %s --check-prefix=EXEC
// EXEC: output0: float32[3]
// EXEC: check output0: {{.*}}: ok
// Without the plug-in the op is unknown.
// RUN: not strati-opt %s 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: Operation demo.softplus is not registered

func.func @runs(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = demo.softplus %x : tensor<3xf32>
  func.return %y : tensor<3xf32>
}

func.func @folds() -> tensor<3xf32> {
  %c = graph.constant dense<[-2.000000e+00, 0.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %y = demo.softplus %c : tensor<3xf32>
  func.return %y : tensor<3xf32>
}
