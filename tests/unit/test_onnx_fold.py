"""Folding at import: nodes whose inputs are all constants are evaluated at import, by the
ops' own references when strati has the operator and by ONNX's reference evaluator when
it does not (strati/frontends/onnx_fold.py; Det stands for an op strati lacks)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.diagnostics import StratiError
from strati.frontends import onnx as onnx_frontend
from strati.frontends.onnx import UnsupportedModelError, check_model, import_model
from strati.runtime.interpreter import find_function, run_function


def model_of(nodes, inputs, outputs, inits, opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def masks_model():
    """BERT's position ids through GatherElements and a Swin-style ScatterND mask, all constant,
    then added to the one real input."""
    rng = np.random.default_rng(0)
    inits = {
        "table": rng.standard_normal((4, 6)).astype(np.float32),
        "ids": rng.integers(-6, 6, (4, 5)).astype(np.int64),
        "where": np.array([[0, 1], [3, 4], [2, 0]], np.int64),
        "updates": np.array([-100.0, 50.0, 7.5], np.float32),
    }
    nodes = [
        helper.make_node("GatherElements", ["table", "ids"], ["g"], axis=1),
        helper.make_node("ScatterND", ["g", "where", "updates"], ["mask"], reduction="none"),
        helper.make_node("Add", ["x", "mask"], ["y"]),
    ]
    return model_of(nodes, [vi("x", [4, 5])], [vi("y", None)], inits)


def test_constant_gather_elements_and_scatter_nd_fold_and_match_onnxruntime():
    model = masks_model()
    assert check_model(model) == []
    module = import_model(model)
    ops = [op.name for op in find_function(module).body.ops]
    assert ops == ["graph.constant", "graph.add", "func.return"], ops
    x = np.random.default_rng(1).standard_normal((4, 5)).astype(np.float32)
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    (interpreted,) = run_function(module, [x])
    np.testing.assert_array_equal(interpreted, want)
    np.testing.assert_array_equal(strati.compile(model)(x), want)


def test_an_unsupported_op_on_a_real_input_is_still_refused():
    nodes = [helper.make_node("Det", ["x"], ["y"])]
    model = model_of(nodes, [vi("x", [2, 3, 3])], [vi("y", None)], {})
    with pytest.raises(UnsupportedModelError, match="Det"):
        import_model(model)
    # The same node over constants folds.
    inits = {"c": np.array([[[2, 0, 0], [0, 2, 0], [0, 0, 1]]] * 2, np.float32)}
    nodes = [helper.make_node("Det", ["c"], ["g"]), helper.make_node("Add", ["x", "g"], ["y"])]
    model = model_of(nodes, [vi("x", [2])], [vi("y", None)], inits)
    (y,) = run_function(import_model(model), [np.zeros(2, np.float32)])
    np.testing.assert_allclose(y, np.full(2, 4.0, np.float32), rtol=1e-6)


def test_random_ops_are_not_folded():
    nodes = [helper.make_node("RandomUniformLike", ["c"], ["r"]), helper.make_node("Add", ["x", "r"], ["y"])]
    model = model_of(nodes, [vi("x", [2])], [vi("y", None)], {"c": np.zeros(2, np.float32)})
    with pytest.raises(UnsupportedModelError, match="RandomUniformLike"):
        import_model(model)


def test_folding_respects_the_budget(monkeypatch):
    monkeypatch.setattr(onnx_frontend, "FOLD_LIMIT", 10)
    nodes = [helper.make_node("Det", ["c"], ["g"], name="det"), helper.make_node("Add", ["x", "g"], ["y"])]
    inits = {"c": np.tile(np.eye(2, dtype=np.float32), (16, 1, 1))}
    model = model_of(nodes, [vi("x", [16])], [vi("y", None)], inits)
    # Known too large from shape inference: reported by the check.
    with pytest.raises(UnsupportedModelError, match="Det"):
        import_model(model)
    # Known too large only once evaluated: one line naming the node.
    monkeypatch.setattr(onnx_frontend, "_shape_inference", lambda m: {})
    with pytest.raises(StratiError) as info:
        import_model(model)
    assert str(info.value) == (
        "node 'det' (Det, opset 17): its constant result has 16 elements, more than the folding budget of 10"
    )


def test_an_evaluator_failure_is_one_line_naming_the_node(monkeypatch):
    inits = {"c": np.zeros((2, 3), np.float32)}  # not square
    nodes = [helper.make_node("Det", ["c"], ["g"], name="bad"), helper.make_node("Add", ["x", "g"], ["y"])]
    model = model_of(nodes, [vi("x", [1])], [vi("y", None)], inits)
    monkeypatch.setattr(onnx_frontend, "_shape_inference", lambda m: {})
    with pytest.raises(StratiError) as info:
        import_model(model)
    message = str(info.value)
    assert message.startswith("node 'bad' (Det, opset 17): evaluating it at import failed: ")
    assert "\n" not in message
