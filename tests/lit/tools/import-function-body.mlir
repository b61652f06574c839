// An ONNX operator strati has no converter for but whose schema defines a function body is
// imported as that body; the ops it becomes carry locations under the original node's name.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_function_body_model.py loss %t/loss.onnx
// RUN: strati-import --print-debuginfo %t/loss.onnx | filecheck %s
// CHECK: func.func @loss(%x: tensor<2x3xf32> {strati.name = "x"} loc(unknown), %t: tensor<2xi64> {strati.name = "t"} loc(unknown)) -> (tensor<f32> {strati.name = "y"})
// CHECK: graph.unsqueeze %t {{.*}} loc("nll/Unsqueeze_{{[0-9]+}}"(unknown))
// CHECK: graph.gather_elements %x, {{.*}} loc("nll/GatherElements_{{[0-9]+}}"(unknown))
// CHECK: graph.neg
// CHECK: %y = graph.reduce_mean {{.*}} : (tensor<2xf32>) -> tensor<f32> loc("nll/ReduceMean_{{[0-9]+}}"(unknown))
// CHECK-NOT: NegativeLogLikelihoodLoss
// RUN: strati-import --report %t/loss.onnx | filecheck %s --check-prefix=REPORT
// REPORT: NegativeLogLikelihoodLoss 13 1 supported (through its ONNX function body)
// REPORT-NEXT: 1 op types, 1 nodes: the model imports
// A body that needs what strati lacks leaves the node whole, refused in one line naming it.
// RUN: %python %S/Inputs/make_function_body_model.py bernoulli %t/b.onnx
// RUN: not strati-import %t/b.onnx 2>&1 | filecheck %s --check-prefix=REFUSED
// REFUSED: strati-import: error: unsupported: Bernoulli (opset 15) (its function body needs: RandomUniformLike (opset 15))
// REFUSED-EMPTY:
