// Every limit exceeded is one line naming the limit and the flag that raises it.
// RUN: not strati-opt %s 2>&1 | filecheck %s
// RUN: strati-opt %s --max-constant-elements 3000000000 --max-constant-bytes 20000000000 | filecheck %s --check-prefix=RAISED
// RUN: not strati-opt %s --max-ops 3 --max-constant-elements 3000000000 --max-constant-bytes 20000000000 2>&1 | filecheck %s --check-prefix=OPS
// RUN: not strati-run %s --max-constant-elements 100 --random-inputs 0 2>&1 | filecheck %s --check-prefix=EXEC
// EXEC: error: 'graph.constant' op a constant's number of elements 2147483648 exceeds the limit of 100 (--max-constant-elements=N raises it)

// CHECK: limits.mlir:[[# @LINE + 2]]:3: error: 'graph.constant' op a constant's number of elements 2147483648 exceeds the limit of 268435456 (--max-constant-elements=N raises it)
func.func @f() -> tensor<2147483648xf32> {
  %c = graph.constant dense<1.0> : tensor<2147483648xf32>
  func.return %c : tensor<2147483648xf32>
}
// RAISED: graph.constant dense<1.000000e+00> : tensor<2147483648xf32>
// OPS: error: the number of operations 4 exceeds the limit of 3 (--max-ops=N raises it)
