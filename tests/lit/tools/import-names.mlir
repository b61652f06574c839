// strati-import keeps each ONNX input's and output's name as its strati.name attribute (the
// SSA name is a sanitised spelling of it), and a dim_param dimension is `?`.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/make_named_model.py %t/m.onnx
// RUN: strati-import %t/m.onnx | filecheck %s
// CHECK: func.func @named(%input.1: tensor<?x3xf32> {strati.name = "input.1"}, %v0: tensor<3xf32> {strati.name = "0"}, %input_ids_0_: tensor<?x3xf32> {strati.name = "input/ids:0"}) -> (tensor<?x3xf32> {strati.name = "y:0"})
// CHECK: graph.add %input.1, %v0
// strati-run takes the ONNX names, and any batch (the model is imported with the given shapes).
// RUN: %python -c "import numpy as np; r = np.random.default_rng(0); [np.save(f'%t/{n}.npy', r.standard_normal(s).astype(np.float32)) for n, s in [('x2', (2, 3)), ('ids2', (2, 3)), ('x5', (5, 3)), ('ids5', (5, 3)), ('b', (3,))]]"
// RUN: strati-run %t/m.onnx --input input.1=%t/x2.npy --input 0=%t/b.npy --input input/ids:0=%t/ids2.npy --output-dir %t/o2 | filecheck %s --check-prefix=B2
// B2: y:0: float32[2, 3]
// RUN: strati-run %t/m.onnx --input input.1=%t/x5.npy --input v0=%t/b.npy --input input/ids:0=%t/ids5.npy --output-dir %t/o5 | filecheck %s --check-prefix=B5
// B5: y:0: float32[5, 3]
// RUN: %python -c "import numpy as np; l = lambda n: np.load(f'%t/{n}.npy'); [np.testing.assert_allclose(l(f'o{k}/y_0'), (l(f'x{k}') + l('b')) * np.float32([1, 2, 3]) - l(f'ids{k}'), rtol=1e-6) for k in (2, 5)]"
// RUN: not strati-run %t/m.onnx --input input.1=%t/b.npy --input 0=%t/b.npy --input input/ids:0=%t/ids5.npy 2>&1 | filecheck %s --check-prefix=RANK
// RANK: strati-run: error: input 'input.1' has rank 1 (shape [3]), expected rank 2 (tensor<?x3xf32>)
