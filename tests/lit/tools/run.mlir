// strati-run: inputs by name from .npy files or at random; outputs summarised and saved.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.array([[1], [2]], np.float32)); np.save('%t/b.npy', np.array([10, 20, 30], np.float32))"
// RUN: strati-run %s --input a=%t/a.npy --input b=%t/b.npy --output-dir %t/out | filecheck %s
// CHECK: output0: float32[2, 3] [11, 21, 31, 12, 22, 32]
// CHECK: wrote 1 outputs to {{.*}}out/
// RUN: %python -c "import numpy as np; r = np.load('%t/out/output0.npy'); assert (r == np.array([[11, 21, 31], [12, 22, 32]], np.float32)).all(), r"
// Random inputs are reproducible from their seed.
// RUN: strati-run %s --random-inputs 7 --backend interp > %t/r1 && strati-run %s --random-inputs 7 --backend interp > %t/r2 && diff %t/r1 %t/r2
// RUN: strati-run %s --input a=%t/a.npy --random-inputs 7 --bench 3 --backend interp | filecheck %s --check-prefix=BENCH
// BENCH: median time per call (interp, 3 runs): {{[0-9.]+}} ms
// Native code by default; --check compares it with the interpreter.
// RUN: strati-run %s --input a=%t/a.npy --random-inputs 7 --bench 3 --check | filecheck %s --check-prefix=JIT
// JIT: compiled @add in {{[0-9.]+}} s
// JIT: output0: float32[2, 3]
// JIT: median time per call (jit, 3 runs): {{[0-9.]+}} ms
// JIT: check output0: max abs error 0, max rel error 0 (rtol 0.0001, atol 1e-05): ok
// RUN: strati-run %s --random-inputs 7 --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIMES
// TIMES: Execution time report
// TIMES: convert-graph-to-tensor
// TIMES: convert-tensor-to-loop
// TIMES: translate
// TIMES: optimize
// TIMES: codegen
// TIMES: Total

// Every bad input is one line naming the input, exit status 1.
// RUN: not strati-run %s 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: strati-run: error: missing input 'a' of type tensor<2x1xf32> (give --input a=FILE.npy or --random-inputs SEED)
// RUN: not strati-run %s --input c=%t/a.npy --random-inputs 0 2>&1 | filecheck %s --check-prefix=EXTRA
// EXTRA: strati-run: error: unknown input 'c' (inputs of @add: a, b)
// RUN: not strati-run %s --input a=%t/b.npy --random-inputs 0 2>&1 | filecheck %s --check-prefix=SHAPE
// SHAPE: strati-run: error: input 'a' has shape [3], expected tensor<2x1xf32>
// RUN: %python -c "import numpy as np; np.save('%t/a64.npy', np.zeros((2, 1)))"
// RUN: not strati-run %s --input a=%t/a64.npy --random-inputs 0 2>&1 | filecheck %s --check-prefix=DTYPE
// DTYPE: strati-run: error: input 'a' has dtype float64, expected float32 (tensor<2x1xf32>)
// RUN: not strati-run %s --input a=%t/none.npy --random-inputs 0 2>&1 | filecheck %s --check-prefix=NOFILE
// NOFILE: strati-run: error: input 'a': cannot read '{{.*}}none.npy': no such file
// RUN: not strati-run %s --input a=%s --random-inputs 0 2>&1 | filecheck %s --check-prefix=NOTNPY
// NOTNPY: strati-run: error: input 'a': '{{.*}}run.mlir' is not a .npy file
// RUN: not strati-run %s --entry nope --random-inputs 0 2>&1 | filecheck %s --check-prefix=ENTRY
// ENTRY: strati-run: error: no function named @nope (functions: @add)
// RUN: not strati-run %s.missing 2>&1 | filecheck %s --check-prefix=NOMODULE
// NOMODULE: strati-run: error: cannot read '{{.*}}run.mlir.missing': no such file
// A module that does not verify is a diagnostic at the op.
// RUN: sed 's/2x3xf32/2x4xf32/g' %s > %t/bad.mlir
// RUN: not strati-run %t/bad.mlir --random-inputs 0 2>&1 | filecheck %s --check-prefix=VERIFY
// VERIFY: bad.mlir:[[# @LINE + 3]]:3: error: 'graph.add' op result type tensor<2x4xf32> does not match the inferred type tensor<2x3xf32>

func.func @add(%a: tensor<2x1xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %s = graph.add %a, %b : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}
