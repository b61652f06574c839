"""ONNX If whose condition is known at import: the taken branch replaces it
(strati/frontends/onnx_control.py); a condition known only at run time is a graph.if.
Loop and Scan: tests/unit/test_onnx_loop.py."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import import_model
from strati.runtime.interpreter import find_function, run_function


def vi(name, shape, dtype=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, dtype, shape)


def branches(inner_else=None):
    then_g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["t"]), helper.make_node("Sin", ["t"], ["out_t"])], "then", [], [vi("out_t", None)]
    )
    else_nodes = [inner_else] if inner_else is not None else [helper.make_node("Neg", ["x"], ["out_e"])]
    else_g = helper.make_graph(else_nodes, "else", [], [vi("out_e", None)])
    return then_g, else_g


def shape_test_model(x_shape, cond_input=False, inner_else=None):
    """z = (x.shape[0] > 1 ? sin(relu(x)) : -x) + x; the condition from a Shape (or a graph input)."""
    then_g, else_g = branches(inner_else)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Greater", ["n", "one"], ["c"]),
        helper.make_node("If", ["flag" if cond_input else "c"], ["y"], then_branch=then_g, else_branch=else_g, name="branch"),
        helper.make_node("Add", ["y", "x"], ["z"]),
    ]
    inputs = [vi("x", list(x_shape))] + ([vi("flag", [], TensorProto.BOOL)] if cond_input else [])
    inits = [numpy_helper.from_array(np.array(0, np.int64), "zero"), numpy_helper.from_array(np.array(1, np.int64), "one")]
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, [vi("z", None)], inits),
                              opset_imports=[helper.make_opsetid("", 17)])  # fmt: skip
    model.ir_version = 8
    return model


@pytest.mark.parametrize("x_shape", [(2, 3), (1, 3)], ids=["then", "else"])
def test_a_condition_known_at_import_takes_its_branch(x_shape):
    model = shape_test_model(x_shape)
    module = import_model(model)
    ops = [op.name for op in find_function(module).body.ops]
    assert ops == (["graph.relu", "graph.sin"] if x_shape[0] > 1 else ["graph.neg"]) + ["graph.add", "func.return"]
    x = np.random.default_rng(0).standard_normal(x_shape).astype(np.float32)
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    (got,) = run_function(module, [x])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(strati.compile(model)(x), want, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("flag", [True, False])
def test_a_condition_known_only_at_run_time_is_a_graph_if(flag):
    model = shape_test_model((2, 3), cond_input=True)
    module = import_model(model)
    assert [op.name for op in find_function(module).body.ops] == ["graph.if", "graph.add", "func.return"]
    x = np.random.default_rng(1).standard_normal((2, 3)).astype(np.float32)
    feeds = {"x": x, "flag": np.array(flag)}
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    np.testing.assert_allclose(run_function(module, feeds)[0], want, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(strati.compile(model)(**feeds), want, rtol=1e-6, atol=1e-7)
    # Bound at import, the condition is a constant again and the taken branch is inlined.
    module = import_model(model, constant_inputs={"flag": np.array(False)})
    assert [op.name for op in find_function(module).body.ops] == ["graph.neg", "graph.add", "func.return"]


def test_an_unsupported_op_in_the_taken_branch_names_its_node():
    inner = helper.make_node("NonZero", ["x"], ["out_e"], name="nz")
    with pytest.raises(StratiError) as info:
        import_model(shape_test_model((1, 3), inner_else=inner))
    assert str(info.value) == "node 'branch' (If, opset 17): node 'nz' (NonZero) of the taken branch is not supported"
    # The untaken branch is never looked at.
    import_model(shape_test_model((2, 3), inner_else=inner))
