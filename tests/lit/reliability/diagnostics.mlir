// Input that used to give an internal error (or be accepted) is one diagnostic line at its location.
// RUN: not strati-opt %s --split-input-file 2>&1 | filecheck %s

// Use before definition (SSA dominance).
// CHECK: diagnostics.mlir:[[# @LINE + 2]]:3: error: 'graph.relu' op operand %b does not dominate this use
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = graph.relu %b : tensor<4xf32>
  %b = graph.neg %x : tensor<4xf32>
  func.return %a : tensor<4xf32>
}

// -----
// A use of a value defined only in a region below it (the parser leaves it a forward reference;
// it was "internal error while verifying: Forward declared values do not have an owner").
// CHECK: diagnostics.mlir:[[# @LINE + 5]]:3: error: 'loop.for' op operand #2 does not dominate this use
func.func @nested(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  loop.for %i = %c0 to %c4 step %j {
    loop.for %j = %c0 to %c4 step %c1 {
    }
  }
  func.return
}

// -----
// A symbol defined twice: at the second definition, naming the first.
// CHECK: diagnostics.mlir:[[# @LINE + 4]]:1: error: 'func.func' op redefinition of symbol '@g' (first defined at {{.*}}diagnostics.mlir:[[# @LINE + 1]]:1)
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}

// -----
// A dimension too large for 64-bit arithmetic.
// CHECK: diagnostics.mlir:[[# @LINE + 1]]:1: error: 'func.func' op dimension 99999999999999999999 of tensor<99999999999999999999xf32> is too large (at most 2**62 - 1)
func.func @h(%x: tensor<99999999999999999999xf32>) -> tensor<99999999999999999999xf32> {
  func.return %x : tensor<99999999999999999999xf32>
}

// -----
// A type error that xDSL raises while parsing.
// CHECK: diagnostics.mlir:[[# @LINE + 2]]:3: error: Unexpected attribute index
func.func @n(%x: index) -> index {
  %y = arith.negf %x : index
  func.return %y : index
}

// -----
// An unranked tensor where the op needs a ranked one: the whole reason on the line.
// CHECK: diagnostics.mlir:[[# @LINE + 2]]:3: error: 'graph.relu' op operand 'x' at position 0 does not verify: tensor<*xf32> should be of base attribute tensor
func.func @u(%x: tensor<*xf32>) -> tensor<*xf32> {
  %y = graph.relu %x : tensor<*xf32>
  func.return %y : tensor<*xf32>
}
