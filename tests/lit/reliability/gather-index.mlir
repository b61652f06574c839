// Gather indices out of range: constant ones are a compile-time error at the op, run-time ones a
// checked error of the call naming the index (one line, exit 1, no signal, no garbage), at every -O level; negative
// indices count from the end (ONNX), and the interpreter agrees.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not strati-opt %S/Inputs/gather-const.mlir 2>&1 | filecheck %s --check-prefix=CONST
// CONST: gather-const.mlir:3:3: error: 'graph.gather' op index 1000000000000 is out of range for dimension 0 of size 5
// RUN: not strati-run %S/Inputs/gather-const.mlir --random-inputs 0 -O0 2>&1 | filecheck %s --check-prefix=CONST
// RUN: not strati-opt %S/Inputs/gather-const99.mlir 2>&1 | filecheck %s --check-prefix=CONST99
// CONST99: gather-const99.mlir:3:3: error: 'graph.gather' op index -6 is out of range for dimension 0 of size 5
// The lowering carries the check into the loop level, and reads element 0 meanwhile.
// RUN: strati-opt %S/Inputs/gather-dyn.mlir --emit=loop | filecheck %s --check-prefix=LOOP
// LOOP: %[[GE:.*]] = arith.cmpi sge, %[[K:.*]], %{{.*}} : index
// LOOP: %[[LT:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : index
// LOOP: %[[OK:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// LOOP: cf.assert %[[OK]], "'graph.gather' op at {{.*}}gather-dyn.mlir:2:3: an index is out of range for dimension 0 of size 5"
// LOOP: arith.select %[[OK]]
// RUN: %python -c "import numpy as np; np.save('%t/bad.npy', np.array([0, 99], np.int64)); np.save('%t/neg.npy', np.array([-1, -5], np.int64)); np.save('%t/x.npy', np.arange(20, dtype=np.float32).reshape(5, 4))"
// RUN: not strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/bad.npy -O 0 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/bad.npy -O 1 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/bad.npy -O 2 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/bad.npy -O 3 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/bad.npy --backend interp 2>&1 | filecheck %s --check-prefix=INTERP
// The interpreters of the lower levels report the index too, as compiled code does.
// RUN: strati-opt %S/Inputs/gather-dyn.mlir --emit=tensor -o %t/g-tensor.mlir
// RUN: strati-opt %S/Inputs/gather-dyn.mlir --emit=loop -o %t/g-loop.mlir
// RUN: not strati-run %t/g-tensor.mlir --input x=%t/x.npy --input i=%t/bad.npy --backend interp 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUN: not strati-run %t/g-loop.mlir --input x=%t/x.npy --input i=%t/bad.npy --backend interp 2>&1 | filecheck %s --check-prefix=RUNTIME
// RUNTIME: strati-run: error: 'graph.gather' op at {{.*}}gather-dyn.mlir:2:3: an index is out of range for dimension 0 of size 5 (got 99)
// RUNTIME-NOT: output0
// INTERP: gather-dyn.mlir:2:3: error: 'graph.gather' op index 99 is out of range for dimension 0 of size 5
// RUN: strati-run %S/Inputs/gather-dyn.mlir --input x=%t/x.npy --input i=%t/neg.npy --check | filecheck %s --check-prefix=NEG
// NEG: output0: float32[2, 4] [16, 17, 18, 19, 0, 1, ... (8 values)]  min 0  max 19
// NEG: check output0: max abs error 0
