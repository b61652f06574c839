"""Models as users bring them: ONNX input and output names kept and accepted everywhere (the
SSA names as aliases), and dynamic dimensions compiled per input signature into a bounded
cache.  onnxruntime, fed the same dict, is the outside truth."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import import_model, sanitize
from strati.functions import NAME_ATTR, argument_aliases, find_function, result_names
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.specialize import DEFAULT_CACHE_SIZE, SpecializingExecutable
from strati.source import load_module
from helpers import tool

NAMES = ["0", "x_0", "input/ids:0", "input.1"]


def onnxruntime(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def make_model(nodes, inputs, outputs, initializers=(), name="g") -> onnx.ModelProto:
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


@pytest.fixture(scope="module")
def named_model() -> onnx.ModelProto:
    """y:0 = relu(("0" + "x_0") * "input/ids:0" - "input.1"), and its sum "total"."""
    vi = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in NAMES]
    nodes = [
        helper.make_node("Add", ["0", "x_0"], ["s"]),
        helper.make_node("Mul", ["s", "input/ids:0"], ["m"]),
        helper.make_node("Sub", ["m", "input.1"], ["d"]),
        helper.make_node("Relu", ["d"], ["y:0"]),
        helper.make_node("ReduceSum", ["y:0"], ["total"], keepdims=0),
    ]
    outputs = [helper.make_tensor_value_info("y:0", TensorProto.FLOAT, [2, 3]),
               helper.make_tensor_value_info("total", TensorProto.FLOAT, [])]
    return make_model(nodes, vi, outputs)


@pytest.fixture(scope="module")
def feeds() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(13)
    return {n: rng.standard_normal((2, 3)).astype(np.float32) for n in NAMES}


# --- names --------------------------------------------------------------------------------


def test_names_are_argument_and_result_attributes(named_model):
    fn = find_function(import_model(named_model))
    assert [d.data[NAME_ATTR].data for d in fn.arg_attrs.data] == NAMES
    assert [d.data[NAME_ATTR].data for d in fn.res_attrs.data] == ["y:0", "total"]
    ssa = [a.name_hint for a in fn.body.blocks[0].args]
    assert argument_aliases(fn) == [(n, s) if n != s else (n,) for n, s in zip(NAMES, ssa)]
    assert ssa[0] != "0" and ssa[2] != "input/ids:0"  # these two cannot be SSA names
    assert result_names(fn) == ["y:0", "total"]


def test_names_print_and_parse_back(named_model):
    module = import_model(named_model)
    text = str(module)
    assert '{strati.name = "input/ids:0"}' in text and '{strati.name = "y:0"}' in text
    again = find_function(load_module(text, "names.mlir"))
    assert argument_aliases(again) == argument_aliases(find_function(module))


def test_executable_takes_onnx_names(named_model, feeds):
    want = onnxruntime(named_model, feeds)
    exe = strati.compile(named_model)
    assert exe.input_names == NAMES and exe.output_names == ["y:0", "total"]
    for got in (exe(**feeds), tuple(exe.run(feeds)), exe(feeds)):
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_sanitised_names_are_aliases(named_model, feeds):
    exe = strati.compile(named_model)
    aliases = {p.name: p.aliases for p in exe.inputs}
    taken: set[str] = set()
    assert aliases == {n: tuple(a for a in [sanitize(n, taken)] if a != n) for n in NAMES}
    by_alias = {(aliases[n] or (n,))[0]: x for n, x in feeds.items()}
    mixed = {**dict(list(feeds.items())[:2]), **dict(list(by_alias.items())[2:])}
    want = onnxruntime(named_model, feeds)
    for given in (by_alias, mixed):
        np.testing.assert_allclose(exe(**given)[0], want[0], rtol=1e-5, atol=1e-6)


def test_name_errors_are_one_line(named_model, feeds):
    exe = strati.compile(named_model)
    alias = exe.inputs[0].aliases[0]
    with pytest.raises(StratiError, match=r"^input '0' is given twice \(as '0' and '" + alias + "'\\)$"):
        exe(**feeds, **{alias: feeds["0"]})
    with pytest.raises(StratiError, match=r"^unknown input 'x' \(inputs: 0, x_0, input/ids:0, input.1\)$"):
        exe(**{**feeds, "x": feeds["0"]})
    with pytest.raises(StratiError, match=r"^missing input 'input.1' of type memref<2x3xf32>$"):
        exe(**{k: v for k, v in feeds.items() if k != "input.1"})


def test_interpreters_take_onnx_names(named_model, feeds):
    want = onnxruntime(named_model, feeds)
    module = import_model(named_model)
    for g, w in zip(run_function(module, feeds), want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    loop = strati.compiler.lower_to(import_model(named_model), "loop")
    fn = find_function(loop)
    assert [a[0] for a in argument_aliases(fn)] == [*NAMES, "y:0", "total"]  # outputs keep theirs too
    for g, w in zip(run_loop_function(loop, feeds), want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_strati_run_takes_onnx_names(tmp_path, named_model, feeds):
    path = tmp_path / "m.onnx"
    onnx.save(named_model, path)
    specs = []
    for i, (name, x) in enumerate(feeds.items()):
        np.save(tmp_path / f"in{i}.npy", x)
        specs += ["--input", f"{name}={tmp_path / f'in{i}.npy'}"]
    out = tool("strati-run", str(path), *specs, "--output-dir", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    want = onnxruntime(named_model, feeds)
    for file, w in zip(("y_0.npy", "total.npy"), want):  # the ONNX output names, made file names
        np.testing.assert_allclose(np.load(tmp_path / "out" / file), w, rtol=1e-5, atol=1e-6)
    assert "\ny:0: float32[2, 3]" in out.stdout and "\ntotal: float32[]" in out.stdout
    alias = sanitize("input/ids:0")
    specs[5] = f"{alias}={tmp_path / 'in2.npy'}"
    assert tool("strati-run", str(path), *specs, "--backend", "interp").returncode == 0


# --- dynamic dimensions -------------------------------------------------------------------


@pytest.fixture(scope="module")
def batch_model() -> onnx.ModelProto:
    """A dense layer and softmax over a dim_param batch, with a Shape -> Reshape computation on it."""
    rng = np.random.default_rng(5)
    w = numpy_helper.from_array(rng.standard_normal((4, 6)).astype(np.float32), "w")
    shape_tail = numpy_helper.from_array(np.array([-1], np.int64), "minus1")
    nodes = [
        helper.make_node("Shape", ["input.1"], ["shp"], end=1),
        helper.make_node("Concat", ["shp", "minus1"], ["target"], axis=0),
        helper.make_node("Reshape", ["input.1", "target"], ["flat"]),
        helper.make_node("MatMul", ["flat", "w"], ["h"]),
        helper.make_node("Softmax", ["h"], ["probs"], axis=-1),
    ]
    x = helper.make_tensor_value_info("input.1", TensorProto.FLOAT, ["batch", 2, 2])
    y = helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["batch", 6])
    return make_model(nodes, [x], [y], [w, shape_tail])


def test_dynamic_batch_matches_onnxruntime(batch_model):
    exe = strati.compile(batch_model)
    assert isinstance(exe, SpecializingExecutable)
    assert exe.inputs[0].shape == (None, 2, 2) and exe.input_names == ["input.1"] and exe.output_names == ["probs"]
    rng = np.random.default_rng(0)
    for batch in (1, 3, 1):
        feeds = {"input.1": rng.standard_normal((batch, 2, 2)).astype(np.float32)}
        (want,) = onnxruntime(batch_model, feeds)
        got = exe(**feeds)
        assert got.shape == (batch, 6)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    info = exe.cache_info()
    assert (info.hits, info.misses, info.size, info.maxsize) == (1, 2, 2, DEFAULT_CACHE_SIZE)


def test_cache_is_bounded_and_least_recently_used_goes(batch_model):
    exe = strati.compile(batch_model, opt_level=0, cache_size=2)
    x = {b: np.ones((b, 2, 2), np.float32) for b in (1, 2, 3)}
    exe(x[1]), exe(x[2]), exe(x[1]), exe(x[3])  # 2 is the least recently used when 3 comes
    assert exe.cached_shapes == [((1, 2, 2),), ((3, 2, 2),)]
    assert exe.cache_info().size == 2 and exe.cache_info().misses == 3
    with pytest.raises(StratiError, match="cache_size must be a positive integer"):
        strati.compile(batch_model, cache_size=0)


def test_dynamic_inputs_refuse_wrong_rank_and_static_dimensions(batch_model):
    exe = strati.compile(batch_model)
    with pytest.raises(StratiError, match=r"^input 'input.1' has rank 2 \(shape \[2, 4\]\), expected rank 3"):
        exe(np.ones((2, 4), np.float32))
    with pytest.raises(StratiError, match=r"^input 'input.1' has shape \[2, 3, 2\], expected tensor<\?x2x2xf32> \(dimension 1 is 2\)$"):
        exe(np.ones((2, 3, 2), np.float32))
    with pytest.raises(StratiError, match=r"has dtype float64"):
        exe(np.ones((2, 2, 2)))
    assert exe.cache_info().misses == 0


GRAPH = """
func.func @f(%x: tensor<?x3xf32> {strati.name = "x:0"}, %y: tensor<?x3xf32>) -> (tensor<?x3xf32> {strati.name = "out"}) {
  %s = graph.add %x, %y : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %r = graph.tanh %s : tensor<?x3xf32>
  func.return %r : tensor<?x3xf32>
}
"""


def test_graph_function_specialises_with_inference():
    module = load_module(GRAPH, "dyn.mlir")
    exe = strati.compile(module)
    rng = np.random.default_rng(2)
    for n in (4, 7):
        x, y = (rng.standard_normal((n, 3)).astype(np.float32) for _ in range(2))
        np.testing.assert_allclose(exe.run({"x:0": x, "y": y})[0], np.tanh(x + y), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(exe(x=x, y=y), np.tanh(x + y), rtol=1e-5, atol=1e-6)  # the SSA alias
    # Both ? must agree: the specialisation's inference says where they do not.
    with pytest.raises(StratiError, match=r"^with inputs of shapes \[2x3\], \[5x3\]: 'graph.add' op shapes \[2x3\] and \[5x3\] do not broadcast"):
        exe(np.ones((2, 3), np.float32), np.ones((5, 3), np.float32))


def test_lowering_refuses_dynamic_arguments_and_resolves_the_rest():
    with pytest.raises(StratiError, match=r"^cannot lower with the dynamic shape tensor<\?x3xf32>: the tensor level") as err:
        strati.compiler.lower_to(load_module(GRAPH, "dyn.mlir"), "loop")
    assert err.value.op.name == "graph.add"
    readme = """
func.func @f(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  %c = graph.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
  %s = graph.add %x, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x?xf32>
  %r = graph.relu %s : tensor<2x?xf32>
  func.return %r : tensor<2x?xf32>
}"""
    exe = strati.compile(load_module(readme, "f.mlir"))
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_array_equal(exe(x), np.maximum(x + np.array([1, -2, 3], np.float32), 0))


@pytest.mark.slow  # three strati-run processes, each compiling (10 s); the Python API's batches are tested above
def test_strati_run_takes_any_batch(tmp_path, batch_model):
    path = tmp_path / "batch.onnx"
    onnx.save(batch_model, path)
    rng = np.random.default_rng(4)
    for batch in (2, 5):
        x = rng.standard_normal((batch, 2, 2)).astype(np.float32)
        np.save(tmp_path / "x.npy", x)
        for backend in ("jit", "interp"):
            out = tool("strati-run", str(path), "--input", f"input.1={tmp_path / 'x.npy'}", "--backend", backend,
                       "--output-dir", str(tmp_path / backend))
            assert out.returncode == 0, out.stderr
            (want,) = onnxruntime(batch_model, {"input.1": x})
            np.testing.assert_allclose(np.load(tmp_path / backend / "probs.npy"), want, rtol=1e-5, atol=1e-6)
    np.save(tmp_path / "bad.npy", np.ones((2, 4), np.float32))
    bad = tool("strati-run", str(path), "--input", f"input.1={tmp_path / 'bad.npy'}")
    assert bad.returncode == 1
    assert bad.stderr == (
        "strati-run: error: input 'input.1' has rank 2 (shape [2, 4]), expected rank 3 (tensor<?x2x2xf32>)\n"
    )


def bert_layer() -> onnx.ModelProto:
    """A BERT-style encoder layer on input_ids [batch, sequence]: embeddings and positions
    (Shape -> Gather -> Range), layer norm, two-head self-attention whose reshapes are built
    from Shape, an erf GELU; every dimension follows the dynamic batch and sequence."""
    rng = np.random.default_rng(21)
    vocab, d, heads, max_len = 11, 8, 2, 32
    consts = {
        "word": rng.standard_normal((vocab, d)), "pos_table": rng.standard_normal((max_len, d)),
        "gamma": 1 + 0.1 * rng.standard_normal(d), "beta": 0.1 * rng.standard_normal(d),
        "wq": rng.standard_normal((d, d)) / 3, "wk": rng.standard_normal((d, d)) / 3,
        "wv": rng.standard_normal((d, d)) / 3, "wo": rng.standard_normal((d, d)) / 3,
        "scale": np.array(1 / np.sqrt(d // heads)), "half": np.array(0.5), "one": np.array(1.0),
        "rsqrt2": np.array(1 / np.sqrt(2)),
    }
    inits = [numpy_helper.from_array(np.asarray(v, np.float32), k) for k, v in consts.items()]
    ints = {"zero": 0, "one_i": 1, "axis1": [1], "split_heads": [heads, d // heads], "model_dim": [d]}
    inits += [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in ints.items()]
    N = helper.make_node
    nodes = [
        N("Gather", ["word", "input_ids"], ["emb"]),
        N("Shape", ["input_ids"], ["ids_shape"]),
        N("Gather", ["ids_shape", "one_i"], ["seq_len"], axis=0),
        N("Range", ["zero", "seq_len", "one_i"], ["positions"]),
        N("Gather", ["pos_table", "positions"], ["pos"]),
        N("Add", ["emb", "pos"], ["x"]),
        N("LayerNormalization", ["x", "gamma", "beta"], ["ln"], axis=-1, epsilon=1e-5),
        N("Concat", ["ids_shape", "split_heads"], ["head_shape"], axis=0),
        N("Concat", ["ids_shape", "model_dim"], ["merged_shape"], axis=0),
    ]
    for name in "qkv":
        nodes += [N("MatMul", ["ln", f"w{name}"], [name]),
                  N("Reshape", [name, "head_shape"], [f"{name}4"]),
                  N("Transpose", [f"{name}4"], [f"{name}h"], perm=[0, 2, 3, 1] if name == "k" else [0, 2, 1, 3])]
    nodes += [
        N("MatMul", ["qh", "kh"], ["scores"]),
        N("Mul", ["scores", "scale"], ["scaled"]),
        N("Softmax", ["scaled"], ["attn"], axis=-1),
        N("MatMul", ["attn", "vh"], ["ctx"]),
        N("Transpose", ["ctx"], ["ctx_t"], perm=[0, 2, 1, 3]),
        N("Reshape", ["ctx_t", "merged_shape"], ["merged"]),
        N("MatMul", ["merged", "wo"], ["proj"]),
        N("Add", ["proj", "x"], ["res"]),
        N("Mul", ["res", "rsqrt2"], ["r2"]),
        N("Erf", ["r2"], ["erf"]),
        N("Add", ["erf", "one"], ["erf1"]),
        N("Mul", ["res", "erf1"], ["g"]),
        N("Mul", ["g", "half"], ["hidden"]),
    ]
    ids = helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"])
    out = helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "sequence", d])
    return make_model(nodes, [ids], [out], inits, name="bert_layer")


def test_bert_style_model_runs_at_two_sequence_lengths():
    model = bert_layer()
    exe = strati.compile(model)
    rng = np.random.default_rng(8)
    for batch, length in ((2, 5), (1, 12)):
        feeds = {"input_ids": rng.integers(0, 11, (batch, length)).astype(np.int64)}
        (want,) = onnxruntime(model, feeds)
        got = exe(**feeds)
        assert got.shape == (batch, length, 8)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert exe.cache_info().size == 2
