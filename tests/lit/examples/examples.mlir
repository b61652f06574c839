// Every example prints back exactly as written, and runs under strati-run.
// RUN: strati-opt %examples/mlp.mlir | diff - %examples/mlp.mlir
// RUN: strati-opt %examples/cnn.mlir | diff - %examples/cnn.mlir
// RUN: strati-opt %examples/transformer_block.mlir | diff - %examples/transformer_block.mlir
// The generic form reads back to the same module too.
// RUN: strati-opt %examples/cnn.mlir --print-op-generic | strati-opt | diff - %examples/cnn.mlir
// RUN: strati-opt %examples/transformer_block.mlir --print-op-generic | strati-opt | diff - %examples/transformer_block.mlir

// RUN: strati-run %examples/mlp.mlir --random-inputs 0 | filecheck %s --check-prefix=MLP
// MLP: output0: float32[4, 10]
// RUN: strati-run %examples/cnn.mlir --random-inputs 0 | filecheck %s --check-prefix=CNN
// CNN: output0: float32[1, 10]
// RUN: strati-run %examples/transformer_block.mlir --random-inputs 0 | filecheck %s --check-prefix=TRANSFORMER
// TRANSFORMER: output0: float32[1, 8, 16]

// Each example compiles to native code that matches the interpreter (rtol 1e-4, atol 1e-5).
// RUN: strati-run %examples/mlp.mlir --random-inputs 1 --backend jit --check | filecheck %s --check-prefix=JIT
// RUN: strati-run %examples/cnn.mlir --random-inputs 1 --backend jit --check | filecheck %s --check-prefix=JIT
// RUN: strati-run %examples/transformer_block.mlir --random-inputs 1 --backend jit --check | filecheck %s --check-prefix=JIT
// JIT: check output0: max abs error {{.*}}: ok
