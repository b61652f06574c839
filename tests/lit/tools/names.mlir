// Names from outside (ONNX's "input/ids:0", "0", ...) are the strati.name argument and result
// attributes; they survive lowering (an output's becomes its output argument's) and every tool
// takes them, the SSA names being aliases.
// RUN: strati-opt %s --emit=loop | filecheck %s
// CHECK: func.func @f(%ids: memref<2x3xf32> {strati.name = "input/ids:0"}, %v0: memref<3xf32> {strati.name = "0"}, %out: memref<2x3xf32> {strati.name = "y:0"})
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.array([[1, 2, 3], [4, 5, 6]], np.float32)); np.save('%t/b.npy', np.array([10, 20, 30], np.float32))"
// RUN: strati-run %s --input input/ids:0=%t/a.npy --input 0=%t/b.npy --check | filecheck %s --check-prefix=OUT
// RUN: strati-run %s --input ids=%t/a.npy --input v0=%t/b.npy --backend interp | filecheck %s --check-prefix=OUT
// RUN: strati-opt %s --emit=loop -o %t/loop.mlir && strati-run %t/loop.mlir --input input/ids:0=%t/a.npy --input 0=%t/b.npy | filecheck %s --check-prefix=OUT
// OUT: y:0: float32[2, 3] [11, 22, 33, 14, 25, 36]
// RUN: not strati-run %s --input input/ids:0=%t/a.npy --input ids=%t/a.npy --input 0=%t/b.npy 2>&1 | filecheck %s --check-prefix=TWICE
// TWICE: strati-run: error: input 'input/ids:0' is given twice
// RUN: not strati-run %s --input x=%t/a.npy 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: strati-run: error: unknown input 'x' (inputs of @f: input/ids:0, 0)
func.func @f(%ids: tensor<2x3xf32> {strati.name = "input/ids:0"}, %v0: tensor<3xf32> {strati.name = "0"}) -> (tensor<2x3xf32> {strati.name = "y:0"}) {
  %s = graph.add %ids, %v0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}
