// strati-reduce shrinks a file while a test command succeeds on it ({} is the candidate file).
// A pass that crashes leaves a reproducer (the IR it was given, headed by its pipeline) that feeds
// straight into strati-reduce; the result keeps that header.  (The test here only looks for the op;
// `--test "strati-opt {} -p PASS 2>&1 | grep -q 'internal error'"` reproduces the crash itself.)
// RUN: rm -rf %t && mkdir %t
// RUN: not strati-opt %s --load-plugin %S/../../unit/plugins/wrong_passes.py -p canonicalize,test-crash-on-relu --crash-reproducer %t/repro.mlir 2>&1 | filecheck %s --check-prefix=CRASH
// CRASH: internal error in pass 'test-crash-on-relu': RuntimeError: relu is not supported by this pass (reproducer written to {{.*}}repro.mlir)
// RUN: cp %t/repro.mlir %t/original.mlir
// RUN: strati-reduce %t/repro.mlir --test "grep -q graph.relu {}" -q
// RUN: filecheck %s --check-prefix=REDUCED < %t/repro.reduced.mlir
// REDUCED: // strati-opt -p 'test-crash-on-relu'
// REDUCED-NEXT: builtin.module {
// REDUCED-NEXT: func.func @main(%[[ARG:.*]]: tensor<1x1xf32>) -> tensor<1x1xf32> {
// REDUCED-NEXT: graph.relu %[[ARG]] : tensor<1x1xf32>
// REDUCED-NEXT: func.return
// REDUCED-NEXT: }
// REDUCED-NEXT: }
// The input is never overwritten: not by default, not by -o, and an existing output needs -o.
// RUN: cmp %t/repro.mlir %t/original.mlir
// RUN: not strati-reduce %t/repro.mlir --test "grep -q graph.relu {}" 2>&1 | filecheck %s --check-prefix=EXISTS
// EXISTS: strati-reduce: error: '{{.*}}repro.reduced.mlir' exists; give -o OUT to overwrite a file
// RUN: not strati-reduce %t/repro.mlir -o %t/repro.mlir --test "grep -q graph.relu {}" 2>&1 | filecheck %s --check-prefix=SELF
// SELF: strati-reduce: error: -o '{{.*}}repro.mlir' is the input; give --in-place to overwrite it
// A test that does not succeed on the input is one line.
// RUN: not strati-reduce %s -o %t/none.mlir --test "grep -q graph.softmax" 2>&1 | filecheck %s --check-prefix=NOTHING
// NOTHING: strati-reduce: error: the test command does not succeed on the input: nothing to reduce (it must exit 0 while the bug is present)
// Values become arguments or constants, unused results and arguments go, and shapes shrink, until
// nothing more can go: here the multiply must stay, with one operand computed by an exp.
// RUN: strati-reduce %s -o %t/mul.mlir -q --test "grep -q graph.mul {} && grep -q graph.exp {}"
// RUN: filecheck %s --check-prefix=MUL < %t/mul.mlir
// MUL: func.func @main(%[[X:.*]]: tensor<1x1xf32>, %[[D:.*]]: tensor<1x1xf32>, {{.*}}) -> tensor<1x1xf32> {
// MUL-NEXT: %[[A:.*]] = graph.exp %[[X]] : tensor<1x1xf32>
// MUL-NEXT: graph.mul %[[D]], %[[A]] : tensor<1x1xf32>
// MUL-NEXT: func.return
// A file that does not parse is reduced line by line.
// RUN: strati-reduce %S/Inputs/garbage.mlir -o %t/garbage.mlir -q --test "grep -q 'dense<\"' {}"
// RUN: filecheck %s --check-prefix=LINES < %t/garbage.mlir
// LINES: %c = graph.constant dense<"0x
// LINES-EMPTY:

func.func @main(%x: tensor<4x8xf32>, %y: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %a = graph.exp %x : tensor<4x8xf32>
  %b = graph.add %a, %y : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %c = graph.relu %b : tensor<4x8xf32>
  %d = graph.tanh %c : tensor<4x8xf32>
  %e = graph.mul %d, %a : tensor<4x8xf32>
  func.return %e, %b : tensor<4x8xf32>, tensor<4x8xf32>
}
