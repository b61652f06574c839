// An unterminated string literal is an error in linear time (xDSL's own regex backtracked
// exponentially: 40 characters did not finish).  100,000 characters after the quote here.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.stdout.write('func.func @f() attributes {a = \"' + 'a' * 100000 + '\n')" > %t/long.mlir
// RUN: not strati-opt %t/long.mlir 2>&1 | filecheck %s
// RUN: %python -c "import sys; sys.stdout.write('func.func @f() attributes {a = \"' + 'ab\\\\\\\\' * 20000 + '\n')" > %t/escapes.mlir
// RUN: not strati-opt %t/escapes.mlir 2>&1 | filecheck %s
// CHECK: {{.*}}.mlir:1:32: error: End of file reached before closing string literal.
// Strings with escapes still lex as before.
// RUN: strati-opt %s --split-input-file | filecheck %s --check-prefix=OK
// OK: func.func @g() attributes {a = "x\22y\0A\\41"}
func.func @g() attributes {a = "x\"y\n\\41"} {
  func.return
}
