// A run-time check on a vector condition reports the value of the first lane that failed
// (the left operand of the compare): here lane 5 (77), not lane 6 (99).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; i = np.arange(8) %% 5; i[5] = 77; i[6] = 99; np.save('%t/bad.npy', i.astype(np.int64)); np.save('%t/ok.npy', (np.arange(8) %% 5).astype(np.int64))"
// RUN: not strati-run %s --input i=%t/bad.npy 2>&1 | filecheck %s --check-prefix=BAD
// BAD: strati-run: error: an index is out of range for dimension 0 of size 5 (got 77)
// RUN: strati-run %s --input i=%t/ok.npy | filecheck %s --check-prefix=OK
// OK: output0: int64[8] [0, 1, 2, 3, 4, 0, ... (8 values)]
// RUN: strati-translate %s --to llvm-ir | filecheck %s --check-prefix=LLVM
// LLVM: define void @"f"(ptr noalias %"i", ptr noalias %"out", ptr %"check.record")
// LLVM: cmpxchg ptr %"check.record"
// LLVM: call i8 @"llvm.cttz.i8"

func.func @f(%i: memref<8xi64>, %out: memref<8xi64>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %n = arith.constant dense<5> : vector<8xi64>
  %v = vector.load %i[%c0] : memref<8xi64>, vector<8xi64>
  %ok = arith.cmpi ult, %v, %n : vector<8xi64>
  cf.assert %ok, "an index is out of range for dimension 0 of size 5"
  vector.store %v, %out[%c0] : memref<8xi64>, vector<8xi64>
  func.return
}
