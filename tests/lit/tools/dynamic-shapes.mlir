// The README's f.mlir: a `?` in a result that shape inference resolves does not stop lowering
// (the JIT, --emit=llvm); a dynamic argument compiles per call in strati-run and is refused,
// in one line, where a static lowering is asked for.
// RUN: strati-opt %s --emit=llvm | filecheck %s --check-prefix=LLVM
// LLVM: define void @"f"(ptr noalias %"x", ptr noalias %"out")
// RUN: not strati-opt %S/Inputs/dynamic-argument.mlir --emit=loop 2>&1 | filecheck %s --check-prefix=REFUSED
// REFUSED: dynamic-argument.mlir:2:3: error: 'graph.add' op cannot lower with the dynamic shape tensor<?x3xf32>: the tensor level needs static shapes (strati.compile specialises a function with dynamic arguments on the shapes of each call)
// RUN: strati-run %s --random-inputs 0 --check | filecheck %s --check-prefix=README
// README: compiled @f in
// README: output0: float32[2, 3] [0, 1.8679, 0, 0, 1.46433, 0]
// README: check output0: max abs error 0
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(-6, 6, dtype=np.float32).reshape(4, 3)); np.save('%t/b.npy', np.float32([1, 2, 3]))"
// RUN: strati-run %S/Inputs/dynamic-argument.mlir --input x=%t/x.npy --input b=%t/b.npy --check | filecheck %s --check-prefix=DYN
// DYN: compiled @g for inputs of shapes 4x3, 3 in
// DYN: output0: float32[4, 3] [0, 0, 0, 0, 0, 2, ... (12 values)]
// DYN: check output0: max abs error 0
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %c = graph.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %n = graph.neg %c : tensor<3xf32>
  %s = graph.add %x, %n : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x?xf32>
  %r = graph.relu %s : tensor<2x?xf32>
  func.return %r : tensor<2x?xf32>
}

