"""graph.dynamic_slice (ONNX Slice with run-time starts and ends) against numpy's slicing:
the module on the reference interpreter and the JIT, with negative and out-of-range starts
and ends (clamped as ONNX and Python clamp them), the run-time check of the extent, and the
ONNX import (inside a Loop, as test_loop11) and its refusal."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import import_model
from strati.runtime.interpreter import run_function
from strati.source import load_module

# Axis 1 backward by 2 (4 elements), axis 0 forward (3 elements), of a 7x13 input.
MODULE = """
func.func @f(%x: tensor<7x13xf32>, %s: tensor<2xi64>, %e: tensor<2xi64>) -> tensor<3x4xf32> {
  %y = graph.dynamic_slice %x, %s, %e {axes = array<i64: 1, 0>, steps = array<i64: -2, 1>} : (tensor<7x13xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x4xf32>
  func.return %y : tensor<3x4xf32>
}
"""

# (start, end) along axis 1, then axis 0: in range, negative, beyond either end.
BOUNDS = [
    ((12, 4), (0, 3)),
    ((-1, -9), (-7, -4)),
    ((100, 4), (4, 100)),
    ((7, -100), (-100, 3)),
    ((9, 1), (2, -2)),
]


def _run(module, backend: str, args):
    if backend == "interp":
        return run_function(module, args)[0]
    return strati.compile(module, opt_level=3)(*args)


@pytest.fixture(scope="module")
def module():
    return load_module(MODULE, "dynamic_slice.mlir")


@pytest.mark.parametrize("backend", ["interp", "jit"])
def test_matches_numpy_slicing(module, backend):
    x = np.random.default_rng(3).standard_normal((7, 13)).astype(np.float32)
    exe = strati.compile(module, opt_level=3) if backend == "jit" else None
    for (s1, e1), (s0, e0) in BOUNDS:
        args = [x, np.array([s1, s0], np.int64), np.array([e1, e0], np.int64)]
        got = exe(*args) if exe is not None else _run(module, backend, args)
        np.testing.assert_array_equal(got, x[s0:e0, s1:e1:-2], err_msg=f"bounds {(s1, e1)}, {(s0, e0)}")


@pytest.mark.parametrize("backend", ["interp", "jit"])
@pytest.mark.parametrize("bounds", [((12, 6), (0, 3)), ((12, 4), (5, 100)), ((-1, -9), (-1, 0))])
def test_another_extent_is_a_run_time_error(module, backend, bounds):
    """numpy would give another shape: strati fails rather than answer with the declared one."""
    (s1, e1), (s0, e0) = bounds
    x = np.zeros((7, 13), np.float32)
    assert x[s0:e0, s1:e1:-2].shape != (3, 4)
    with pytest.raises(StratiError, match="along axis [01]"):
        _run(module, backend, [x, np.array([s1, s0], np.int64), np.array([e1, e0], np.int64)])


def _model(nodes, inputs, outputs, opset=17):
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs), opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def test_onnx_slice_with_a_run_time_start():
    """Slice(x, s, s + 2) along axis 1: graph.dynamic_slice with an extent of 2."""
    two = helper.make_tensor("two", TensorProto.INT64, [1], [2])
    axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
    model = _model(
        [helper.make_node("Add", ["s", "two"], ["e"]), helper.make_node("Slice", ["x", "s", "e", "axes"], ["y"])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 9]), helper.make_tensor_value_info("s", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model.graph.initializer.extend([two, axes])
    assert "graph.dynamic_slice" in str(import_model(model))
    exe = strati.compile(model)
    x = np.random.default_rng(5).standard_normal((5, 9)).astype(np.float32)
    for s in (-9, -3, 0, 4, 7):
        np.testing.assert_array_equal(exe(x=x, s=np.array([s])), x[:, s : s + 2])
    with pytest.raises(StratiError, match="along axis 1"):
        exe(x=x, s=np.array([-1]))  # [-1:1] is empty in ONNX: not the declared 2 elements


@pytest.mark.parametrize("to_the_end", [False, True])
def test_onnx_slice_with_a_run_time_extent_is_refused(to_the_end):
    """A constant end, or the start plus more than the dimension holds (sliced to the end)."""
    nodes = [helper.make_node("Slice", ["x", "s", "e"], ["y"])]
    if to_the_end:
        nodes.insert(0, helper.make_node("Add", ["s", "c"], ["e"]))
    model = _model(
        nodes,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6]), helper.make_tensor_value_info("s", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    model.graph.initializer.append(helper.make_tensor("c" if to_the_end else "e", TensorProto.INT64, [1], [2**62 if to_the_end else 6]))
    with pytest.raises(StratiError, match="extent along axis 0 depends on run-time starts and ends") as err:
        strati.compile(model)
    assert "\n" not in str(err.value)


def test_loop_slicing_by_its_iteration_number():
    """test_loop11's body with odd sizes: y += x[i : i + 1] each trip, the running sums scanned;
    against numpy's cumulative sum and onnxruntime."""
    trips = 7
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Constant", [], ["one"], value=helper.make_tensor("one", TensorProto.INT64, [], [1])),
            helper.make_node("Add", ["i", "one"], ["end"]),
            helper.make_node("Unsqueeze", ["i", "zero"], ["start1"]),
            helper.make_node("Unsqueeze", ["end", "zero"], ["end1"]),
            helper.make_node("Slice", ["x", "start1", "end1"], ["part"]),
            helper.make_node("Add", ["y_in", "part"], ["y_out"]),
            helper.make_node("Identity", ["y_out"], ["scan"]),
        ],
        "body",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in
         [("i", TensorProto.INT64, []), ("cond_in", TensorProto.BOOL, []), ("y_in", TensorProto.FLOAT, [1])]],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in
         [("cond_out", TensorProto.BOOL, []), ("y_out", TensorProto.FLOAT, [1]), ("scan", TensorProto.FLOAT, [1])]],
    )  # fmt: skip
    model = _model(
        [helper.make_node("Loop", ["trips", "cond", "y"], ["y_final", "sums"], body=body)],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [9]), helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
        [helper.make_tensor_value_info("y_final", TensorProto.FLOAT, [1]), helper.make_tensor_value_info("sums", TensorProto.FLOAT, [trips, 1])],
    )
    model.graph.initializer.extend([
        helper.make_tensor("trips", TensorProto.INT64, [], [trips]),
        helper.make_tensor("cond", TensorProto.BOOL, [], [True]),
        helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
    ])  # fmt: skip
    rng = np.random.default_rng(11)
    feeds = {"x": rng.standard_normal(9).astype(np.float32), "y": rng.standard_normal(1).astype(np.float32)}
    sums = feeds["y"][0] + np.cumsum(feeds["x"][:trips].astype(np.float64))
    want_ort = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    module = import_model(model)
    assert "graph.dynamic_slice" in str(module)
    for got in (run_function(module, feeds), list(strati.compile(model)(**feeds))):
        np.testing.assert_allclose(got[1].reshape(-1), sums, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(got[0], sums[-1:], rtol=1e-5, atol=1e-6)
        for a, b in zip(got, want_ort):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
