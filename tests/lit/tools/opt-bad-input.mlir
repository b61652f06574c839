// Every kind of bad input is one diagnostic line on stderr with file:line:col, exit status 1,
// and never a Python traceback.
// RUN: not strati-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: not strati-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=CLEAN
// CLEAN-NOT: Traceback

// Malformed syntax.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:22: error: Expected ':'
func.func @syntax(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.relu %x tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// An unknown op.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: Operation graph.frobnicate is not registered
func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.frobnicate %x : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// An operand used at a type other than its own.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:19: error: operand is used with type tensor<5xf32>, but has been previously used or defined with type tensor<4xf32>
func.func @operand_type(%x: tensor<4xf32>) -> tensor<5xf32> {
  %y = graph.relu %x : tensor<5xf32>
  func.return %y : tensor<5xf32>
}

// -----

// A property of the wrong kind.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:37: error: graph.leaky_relu property 'alpha' expects a float, got "big"
func.func @bad_property(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.leaky_relu %x {alpha = "big"} : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// A property the op does not have.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:26: error: graph.softmax has no property 'axes' (its properties: axis)
func.func @unknown_property(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.softmax %x {axes = 0} : tensor<4xf32>
  func.return %y : tensor<4xf32>
}

// -----

// A verifier failure names the shapes that do not broadcast.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:3: error: 'graph.add' op shapes [4x2] and [3] do not broadcast
func.func @verifier(%a: tensor<4x2xf32>, %b: tensor<3xf32>) -> tensor<4x3xf32> {
  %s = graph.add %a, %b : (tensor<4x2xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %s : tensor<4x3xf32>
}

// -----

// Too many operand types.
// CHECK: opt-bad-input.mlir:[[# @LINE + 2]]:{{[0-9]+}}: error: graph.relu has 1 operands but 2 operand types
func.func @arity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = graph.relu %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
