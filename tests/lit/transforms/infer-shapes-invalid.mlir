// RUN: strati-opt %s --split-input-file --verify-diagnostics -p infer-shapes

func.func @contradiction(%a: tensor<4x1xf32>, %b: tensor<3xf32>) -> tensor<4x4xf32> {
  // expected-error@+1 {{result type tensor<4x4xf32> does not match the inferred type tensor<4x3xf32>}}
  %s = graph.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x4xf32>
  func.return %s : tensor<4x4xf32>
}
