// Inputs at the limits of the parser and the code generator: one line each, or correct code.
// RUN: rm -rf %t && mkdir -p %t
// An integer literal too long for Python's int().
// RUN: %python -c "print('func.func @f() -> i64 {\n  %%c = arith.constant ' + '9' * 5000 + ' : i64\n  func.return %%c : i64\n}')" > %t/bigint.mlir
// RUN: not strati-opt %t/bigint.mlir 2>&1 | filecheck %s --check-prefix=INT
// INT: bigint.mlir:2:23: error: number literal of 5000 characters is too long (at most 1000)
// Nesting deeper than the parser's recursion allows (400 levels).
// RUN: %python -c "print('func.func @f() {\n' + '\"test.op\"() ({\n' * 400 + '}) : () -> ()\n' * 400 + 'func.return\n}')" > %t/deep.mlir
// RUN: not strati-opt %t/deep.mlir --allow-unregistered-dialect 2>&1 | filecheck %s --check-prefix=DEEP
// DEEP: deep.mlir:{{[0-9]+}}:1: error: the input is nested too deeply
// SSA names of 1,100 characters compile and run (LLVM truncated them to 1,024 and found duplicates).
// RUN: %python -c "n = 'a' * 1100; print('func.func @f(%%' + n + ': tensor<4xf32>) -> tensor<4xf32> {\n  %%' + n + '2 = graph.relu %%' + n + ' : tensor<4xf32>\n  func.return %%' + n + '2 : tensor<4xf32>\n}')" > %t/long.mlir
// RUN: strati-run %t/long.mlir --random-inputs 0 --check | filecheck %s --check-prefix=LONG
// LONG: check output0: max abs error 0
