// Integer division by zero and INT_MIN / -1: no SIGFPE; x / 0 is 0 (the interpreter warns),
// INT_MIN / -1 wraps to INT_MIN, and ONNX's x mod 0 (x - (x / y) * y) is x: both backends agree
// at every -O level.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.array([-2**31, 7, -7, 5, 0, -2**31], np.int32)); np.save('%t/y.npy', np.array([-1, 0, 2, 0, 0, 1], np.int32))"
// RUN: strati-run %S/Inputs/div-int.mlir --input x=%t/x.npy --input y=%t/y.npy --backend interp 2>&1 | filecheck %s --check-prefix=INTERP
// INTERP-DAG: output0: int32[6] [-2147483648, 0, -3, 0, 0, -2147483648]
// INTERP-DAG: output1: int32[6] [0, 7, -1, 5, 0, 0]
// INTERP-DAG: strati-run: warning: 'graph.div': integer division by zero gives 0
// RUN: strati-run %S/Inputs/div-int.mlir --input x=%t/x.npy --input y=%t/y.npy --check -O0 | filecheck %s --check-prefix=JIT
// RUN: strati-run %S/Inputs/div-int.mlir --input x=%t/x.npy --input y=%t/y.npy --check -O1 | filecheck %s --check-prefix=JIT
// RUN: strati-run %S/Inputs/div-int.mlir --input x=%t/x.npy --input y=%t/y.npy --check -O2 | filecheck %s --check-prefix=JIT
// RUN: strati-run %S/Inputs/div-int.mlir --input x=%t/x.npy --input y=%t/y.npy --check -O3 | filecheck %s --check-prefix=JIT
// JIT: output0: int32[6] [-2147483648, 0, -3, 0, 0, -2147483648]
// JIT: output1: int32[6] [0, 7, -1, 5, 0, 0]
// JIT: check output0: max abs error 0
// JIT: check output1: max abs error 0
// The guard is a select around the division in the LLVM IR.
// RUN: strati-translate %S/Inputs/div-int.mlir --to llvm-ir | filecheck %s --check-prefix=IR
// IR: icmp eq i32 %{{.*}}, 0
// IR: sdiv i32
// IR: select i1
