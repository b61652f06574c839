"""ONNX operators imported through their schema's function bodies (strati.frontends.
onnx_functions): the losses, Attention, RotaryEmbedding, ... against onnxruntime, interpreted
and compiled; names under the original node; a body that needs what strati lacks."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import helper

import strati
from strati.frontends.onnx import UnsupportedModelError, import_model, support_report
from strati.runtime.interpreter import Interpreter, bind_inputs, find_function

RNG = np.random.default_rng(13)


def model_of(op_type, inputs, outputs, opset, **attrs):
    """One node; ``inputs`` and ``outputs`` as (name, array or (dtype, shape))."""
    def vi(name, spec):
        dtype, shape = (spec.dtype, spec.shape) if isinstance(spec, np.ndarray) else spec
        return helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), shape)

    node = helper.make_node(op_type, [n for n, _ in inputs], [n for n, _ in outputs], name="op", **attrs)
    graph = helper.make_graph([node], "g", [vi(n, x) for n, x in inputs], [vi(n, s) for n, s in outputs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return model


def check(model, feeds, rtol=1e-5, atol=1e-6):
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    module = import_model(model)
    fn = find_function(module)
    interpreted = Interpreter(module).call(fn, bind_inputs(fn, feeds))
    compiled = strati.compile(module).run(feeds)
    for got in (interpreted, compiled):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g = np.asarray(g)
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol)
    return module


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_negative_log_likelihood_loss(reduction):
    x = RNG.standard_normal((3, 5, 2)).astype(np.float32)
    t = RNG.integers(0, 5, (3, 2)).astype(np.int64)
    t[0, 0] = 1
    w = RNG.random(5).astype(np.float32)
    out = (np.float32, [] if reduction != "none" else [3, 2])
    model = model_of("NegativeLogLikelihoodLoss", [("x", x), ("t", t), ("w", w)], [("y", out)], 13,
                     reduction=reduction, ignore_index=1)
    check(model, {"x": x, "t": t, "w": w})


def test_softmax_cross_entropy_loss_with_log_prob():
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    t = RNG.integers(0, 6, 4).astype(np.int64)
    model = model_of("SoftmaxCrossEntropyLoss", [("x", x), ("t", t)], [("y", (np.float32, [])), ("lp", (np.float32, [4, 6]))], 13)
    check(model, {"x": x, "t": t})


@pytest.mark.parametrize("causal", [0, 1])
def test_attention_4d(causal):
    q = RNG.standard_normal((2, 3, 4, 8)).astype(np.float32)
    k = RNG.standard_normal((2, 3, 6, 8)).astype(np.float32)
    v = RNG.standard_normal((2, 3, 6, 5)).astype(np.float32)
    model = model_of("Attention", [("q", q), ("k", k), ("v", v)], [("y", (np.float32, [2, 3, 4, 5]))], 23, is_causal=causal)
    module = check(model, {"q": q, "k": k, "v": v})
    assert "graph.matmul" in {op.name for op in module.walk()}


def test_rotary_embedding():
    x = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
    cos = RNG.standard_normal((1, 3, 2)).astype(np.float32)
    sin = RNG.standard_normal((1, 3, 2)).astype(np.float32)
    model = model_of("RotaryEmbedding", [("x", x), ("cos", cos), ("sin", sin)], [("y", (np.float32, [1, 2, 3, 4]))], 23)
    check(model, {"x": x, "cos": cos, "sin": sin})


def test_locations_name_the_original_node():
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    t = np.array([0, 2], np.int64)
    module = import_model(model_of("NegativeLogLikelihoodLoss", [("x", x), ("t", t)], [("y", (np.float32, []))], 13))
    locations = {str(op.location) for op in module.walk() if op.name.startswith("graph.") and op.name != "graph.constant"}
    assert locations and all(loc.startswith('loc("op/') for loc in locations), locations


def test_a_body_strati_cannot_import_keeps_the_node_and_says_why():
    x = RNG.random(4).astype(np.float32)
    model = model_of("Bernoulli", [("x", x)], [("y", (np.float32, [4]))], 15)
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert str(info.value) == "unsupported: Bernoulli (opset 15) (its function body needs: RandomUniformLike (opset 15))"
    assert "unsupported: (its function body needs: RandomUniformLike (opset 15))" in support_report(model)


def test_expansion_counts_against_the_node_limit():
    from strati.limits import LimitError, raised

    x = RNG.standard_normal((2, 3)).astype(np.float32)
    model = model_of("NegativeLogLikelihoodLoss", [("x", x), ("t", np.zeros(2, np.int64))], [("y", (np.float32, []))], 13)
    with raised(ops=3), pytest.raises(LimitError, match="the number of nodes after expanding function bodies"):
        import_model(model)


def test_a_converter_strati_has_is_kept():
    """LayerNormalization has a function body too; strati's own converter is used."""
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    model = model_of("LayerNormalization", [("x", x), ("s", np.ones(4, np.float32))], [("y", (np.float32, [2, 4]))], 17)
    module = import_model(model)
    assert all(str(op.location) == 'loc("op"(unknown))' for op in module.walk() if op.name.startswith("graph.") and op.name != "graph.constant")
