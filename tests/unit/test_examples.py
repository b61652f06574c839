"""The example models end to end: strati's reference interpreter against onnxruntime.

Each example in ``examples/`` is parsed from the repository, verified and run by
the interpreter; the same model is written independently as an ONNX graph with
``onnx.helper`` and run by onnxruntime on the same seeded random inputs.  The
module's ``graph.constant`` values (the CNN's batch-norm parameters, the
attention scale) are read from the parsed module and given to ONNX as
initializers, so both sides compute with identical parameters.

Inputs are standard normal and weights 0.1 * standard normal by default, with a
few per-model scales chosen so that every softmax is neither saturated nor
uniform (either would hide errors in the logits); the tests check this.  The
``graph.constant`` values are shared by both sides, so a wrong constant in an
example is not detected here, only a wrong op, property or computation.
"""

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from helpers import parse
from onnx import helper, numpy_helper

from strati.dense import numpy_from_dense, to_dtype
from strati.dialects.graph.ops import ConstantOp
from strati.dialects.shapes import shape_of
from strati.runtime.interpreter import argument_names, find_function, run_function

EXAMPLES = Path(__file__).parents[2] / "examples"

# float32 through a few layers: both sides accumulate in float32 in different orders.
TOL = dict(rtol=1e-4, atol=1e-5)


def load(name: str):
    return parse((EXAMPLES / name).read_text())


def constants(module) -> dict[str, np.ndarray]:
    """The module's graph.constant values, by their SSA name (``%gamma`` -> "gamma")."""
    return {op.result.name_hint: numpy_from_dense(op.value) for op in module.walk() if isinstance(op, ConstantOp)}


def random_inputs(module, seed: int, scale: dict[str, float], offset: dict[str, float] | None = None):
    """Random arguments of the module's function, by name: ``offset + scale * N(0, 1)``, scale 0.1 by default."""
    rng = np.random.default_rng(seed)
    fn = find_function(module)
    offset = offset or {}
    out = {}
    for name, t in zip(argument_names(fn), fn.function_type.inputs.data):
        x = offset.get(name, 0.0) + scale.get(name, 0.1) * rng.standard_normal(shape_of(t))
        out[name] = x.astype(to_dtype(t.get_element_type()))
    return out


def run_onnx_model(nodes, inputs: dict, initializers: dict, output: str, opset: int) -> np.ndarray:
    """Run an ONNX graph of ``nodes`` on onnxruntime; ``inputs`` are fed, ``initializers`` are baked in."""
    graph = helper.make_graph(
        nodes,
        "example",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape) for n, x in inputs.items()],
        [onnx.ValueInfoProto(name=output)],  # shape and type left to onnxruntime
        initializer=[numpy_helper.from_array(np.asarray(v), n) for n, v in initializers.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 9
    onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)  # a well-formed graph
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    (y,) = session.run(None, inputs)
    return y


def run_strati(module, inputs: dict) -> np.ndarray:
    (y,) = run_function(module, inputs)
    return y


def check_softmax_rows(y: np.ndarray):
    """A probability distribution per row, and not a saturated one."""
    assert np.all(y > 0) and np.all(y < 1)
    np.testing.assert_allclose(y.sum(axis=-1), 1.0, rtol=1e-6, atol=1e-6)
    assert y.max() < 0.9, "softmax saturated: the comparison would be insensitive to the logits"


def check_same(got: np.ndarray, want: np.ndarray):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, **TOL)


# --- MLP: gemm, relu, gemm, softmax --------------------------------------------------------


def test_mlp_matches_onnxruntime():
    module = load("mlp.mlir")
    inputs = random_inputs(module, seed=0, scale={"x": 1.0})
    nodes = [
        helper.make_node("Gemm", ["x", "w1", "b1"], ["h"], transB=1),
        helper.make_node("Relu", ["h"], ["r"]),
        helper.make_node("Gemm", ["r", "w2", "b2"], ["z"], transB=1),
        helper.make_node("Softmax", ["z"], ["y"], axis=-1),
    ]
    want = run_onnx_model(nodes, inputs, constants(module), "y", opset=17)
    got = run_strati(module, inputs)
    assert got.shape == (4, 10)
    check_softmax_rows(got)
    check_same(got, want)


def test_mlp_rows_are_independent():
    """Changing one example of the batch changes its output row only (no op mixes batch rows)."""
    module = load("mlp.mlir")
    inputs = random_inputs(module, seed=1, scale={"x": 1.0})
    x = inputs["x"].copy()
    x[2] = np.random.default_rng(2).standard_normal(x.shape[1])
    y = run_strati(module, inputs)
    y2 = run_strati(module, {**inputs, "x": x})
    others = [0, 1, 3]
    np.testing.assert_allclose(y2[others], y[others], **TOL)
    assert not np.allclose(y2[2], y[2], **TOL)


# --- CNN: conv, batch norm, relu, max pool, conv, relu, global average pool, gemm, softmax ---


def test_cnn_matches_onnxruntime():
    module = load("cnn.mlir")
    params = constants(module)
    assert sorted(params) == ["beta", "gamma", "mean", "var"]
    # Larger input and classifier scale, so that the 10 class probabilities differ visibly.
    inputs = random_inputs(module, seed=0, scale={"x": 1.0, "w": 1.0})
    nodes = [
        helper.make_node("Conv", ["x", "k1"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "gamma", "beta", "mean", "var"], ["n"], epsilon=1e-5),
        helper.make_node("Relu", ["n"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p", "k2", "c2"], ["c2_1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2_1"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"], axis=1),
        helper.make_node("Gemm", ["f", "w", "b"], ["z"], transB=1),
        helper.make_node("Softmax", ["z"], ["y"], axis=-1),
    ]
    want = run_onnx_model(nodes, inputs, params, "y", opset=17)
    got = run_strati(module, inputs)
    assert got.shape == (1, 10)
    check_softmax_rows(got)
    assert np.ptp(got) > 0.05, "class probabilities nearly uniform: the comparison would be weak"
    check_same(got, want)


# --- transformer encoder block: pre-norm self-attention (2 heads) and a GELU MLP -----------


def transformer_onnx_nodes():
    def shape(name, dims):
        return helper.make_node(
            "Constant", [], [name], value=numpy_helper.from_array(np.array(dims, np.int64), name)
        )

    nodes = [
        helper.make_node("LayerNormalization", ["x", "ln1_g", "ln1_b"], ["ln1"], axis=-1, epsilon=1e-5),
        shape("heads_shape", [1, 8, 2, 8]),
        shape("model_shape", [1, 8, 16]),
    ]
    for p in "qkv":
        nodes += [
            helper.make_node("MatMul", ["ln1", f"w{p}"], [p]),
            helper.make_node("Reshape", [p, "heads_shape"], [f"{p}4"]),
        ]
    nodes += [
        helper.make_node("Transpose", ["q4"], ["qh"], perm=[0, 2, 1, 3]),
        helper.make_node("Transpose", ["k4"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("Transpose", ["v4"], ["vh"], perm=[0, 2, 1, 3]),
        helper.make_node("MatMul", ["qh", "kt"], ["s"]),
        helper.make_node("Mul", ["s", "scale"], ["ss"]),
        helper.make_node("Softmax", ["ss"], ["a"], axis=-1),
        helper.make_node("MatMul", ["a", "vh"], ["ctx"]),
        helper.make_node("Transpose", ["ctx"], ["ct"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ct", "model_shape"], ["c3"]),
        helper.make_node("MatMul", ["c3", "wo"], ["o"]),
        helper.make_node("Add", ["o", "bo"], ["ob"]),
        helper.make_node("Add", ["x", "ob"], ["x1"]),
        helper.make_node("LayerNormalization", ["x1", "ln2_g", "ln2_b"], ["ln2"], axis=-1, epsilon=1e-5),
        helper.make_node("MatMul", ["ln2", "w1"], ["h"]),
        helper.make_node("Add", ["h", "b1"], ["hb"]),
        helper.make_node("Gelu", ["hb"], ["g"], approximate="none"),  # opset 20
        helper.make_node("MatMul", ["g", "w2"], ["f"]),
        helper.make_node("Add", ["f", "b2"], ["fb"]),
        helper.make_node("Add", ["x1", "fb"], ["y"]),
    ]
    return nodes


# Layer-norm gains around 1; query and key projections at 0.25 so that the attention is
# neither uniform nor saturated; value and MLP projections at 0.5 so that they matter next to the residual.
TRANSFORMER_SCALE = {"x": 1.0, "wq": 0.25, "wk": 0.25, "wv": 0.5, "w1": 0.5}
TRANSFORMER_OFFSET = {"ln1_g": 1.0, "ln2_g": 1.0}


def test_transformer_block_matches_onnxruntime():
    module = load("transformer_block.mlir")
    params = constants(module)
    np.testing.assert_allclose(params["scale"], 1 / np.sqrt(8), rtol=1e-7)  # 1/sqrt(head dim)
    inputs = random_inputs(module, seed=0, scale=TRANSFORMER_SCALE, offset=TRANSFORMER_OFFSET)
    want = run_onnx_model(transformer_onnx_nodes(), inputs, params, "y", opset=20)
    got = run_strati(module, inputs)
    assert got.shape == (1, 8, 16)
    check_same(got, want)


def test_transformer_block_attention_is_not_saturated_or_uniform():
    """The ONNX graph's attention weights, for the inputs above: a meaningful softmax to compare through."""
    module = load("transformer_block.mlir")
    inputs = random_inputs(module, seed=0, scale=TRANSFORMER_SCALE, offset=TRANSFORMER_OFFSET)
    a = run_onnx_model(transformer_onnx_nodes(), inputs, constants(module), "a", opset=20)
    assert a.shape == (1, 2, 8, 8)
    check_softmax_rows(a)
    assert a.max() > 0.3, "attention nearly uniform (1/8): the comparison would be insensitive to q and k"


def test_transformer_block_is_permutation_equivariant():
    """No positional encoding and no mask: permuting the tokens permutes the output tokens."""
    module = load("transformer_block.mlir")
    inputs = random_inputs(module, seed=1, scale=TRANSFORMER_SCALE, offset=TRANSFORMER_OFFSET)
    perm = np.array([3, 7, 0, 5, 1, 6, 2, 4])
    y = run_strati(module, inputs)
    y_perm = run_strati(module, {**inputs, "x": inputs["x"][:, perm]})
    np.testing.assert_allclose(y_perm, y[:, perm], **TOL)
