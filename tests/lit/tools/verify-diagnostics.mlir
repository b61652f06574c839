// Expected diagnostics are checked like MLIR's -verify-diagnostics: matched ones pass...
// RUN: strati-opt %s --split-input-file --verify-diagnostics
// ...and an expectation that nothing meets, or a diagnostic nobody expected, fails with exit 1.
// RUN: sed 's/do not broadcast/DO NOT BROADCAST/' %s | not strati-opt --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=MISS

func.func @bad_broadcast(%a: tensor<4x2xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error@+1 {{'graph.add' op shapes [4x2] and [3] do not broadcast}}
  %s = graph.add %a, %b : (tensor<4x2xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %s : tensor<4x3xf32>
}
// MISS: <stdin>:8:3: error: unexpected error: 'graph.add' op shapes [4x2] and [3] do not broadcast
// MISS: <stdin>:8: error: expected error "'graph.add' op shapes [4x2] and [3] DO NOT BROADCAST" was not produced

// -----

func.func @wrong_result(%a: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{result type tensor<5xf32> does not match the inferred type tensor<4xf32>}}
  %r = graph.relu %a : (tensor<4xf32>) -> tensor<5xf32>
  func.return %r : tensor<5xf32>
}

// -----

func.func @parse_error(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{Expected ':'}}
  %r = graph.relu %a tensor<4xf32>
  func.return %r : tensor<4xf32>
}
