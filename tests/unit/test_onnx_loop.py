"""ONNX Loop and Scan imported as graph.loop, and RNN/GRU/LSTM over more than 256 steps
(strati/frontends/onnx_control.py, onnx_rnn.py): against onnxruntime, on the reference
interpreter and the JIT, for several trip counts including 0 and 1."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import UnsupportedModelError, import_model
from strati.frontends.onnx_rnn import MAX_STEPS
from strati.runtime.interpreter import run_function

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def const(name, value, dtype):
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(name, dtype, [], [value]))


def make(nodes, inputs, outputs, opset=17):
    model = helper.make_model(helper.make_graph(nodes, "g", inputs, outputs), opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model


def check(model, feeds, rtol=1e-5, atol=1e-6, module=None):
    """strati's interpreter and JIT against onnxruntime; returns the module."""
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    module = module or import_model(model)
    got_interp = run_function(module, feeds)
    got_jit = strati.compile(model)(**feeds)
    got_jit = list(got_jit) if isinstance(got_jit, (list, tuple)) else [got_jit]
    for got in (got_interp, got_jit):
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert a.shape == b.shape and a.dtype == b.dtype
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    return module


def loop_body():
    """s = s + x (x read from the outer graph); scan = s * i."""
    return helper.make_graph(
        [
            helper.make_node("Add", ["s_in", "x"], ["s_out"]),
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Cast", ["i"], ["fi"], to=F),
            helper.make_node("Mul", ["s_out", "fi"], ["scan"]),
        ],
        "body",
        [vi("i", [], I64), vi("cond_in", [], B), vi("s_in", [3])],
        [vi("cond_out", [], B), vi("s_out", [3]), vi("scan", [3])],
    )


@pytest.mark.parametrize("trip", [0, 1, 5])
def test_loop_with_a_carried_value_and_a_scan_output(trip):
    model = make(
        [const("M", trip, I64), const("T", True, B), helper.make_node("Loop", ["M", "T", "s0"], ["s", "scans"], body=loop_body())],
        [vi("s0", [3]), vi("x", [3])],
        [vi("s", [3]), vi("scans", [trip, 3])],
    )
    feeds = {"s0": np.ones(3, np.float32), "x": np.arange(3, dtype=np.float32)}
    module = check(model, feeds)
    assert sum(op.name == "graph.loop" for op in module.walk()) == 1


@pytest.mark.parametrize("start", [0.5, 3.0, 20.0])
def test_loop_that_ends_on_its_condition(start):
    """while x < 10: x = x * 2 -- no trip count, the condition from the body (0, 2 or 5 iterations)."""
    body = helper.make_graph(
        [
            helper.make_node("Mul", ["x_in", "two"], ["x_out"]),
            helper.make_node("ReduceMax", ["x_out"], ["m"], keepdims=0),
            helper.make_node("Less", ["m", "ten"], ["go"]),
        ],
        "body",
        [vi("i", [], I64), vi("c", [], B), vi("x_in", [2])],
        [vi("go", [], B), vi("x_out", [2])],
        [numpy_helper.from_array(np.array(2, np.float32), "two"), numpy_helper.from_array(np.array(10, np.float32), "ten")],
    )
    model = make(
        [
            helper.make_node("ReduceMax", ["x0"], ["m0"], keepdims=0),
            helper.make_node("Less", ["m0", "limit"], ["c0"]),
            helper.make_node("Loop", ["", "c0", "x0"], ["x"], body=body),
        ],
        [vi("x0", [2]), vi("limit", [])],
        [vi("x", [2])],
    )
    check(model, {"x0": np.array([start, start / 2], np.float32), "limit": np.array(10, np.float32)})


def test_loop_with_a_run_time_trip_count():
    model = make(
        [const("T", True, B), helper.make_node("Loop", ["M", "T", "s0"], ["s"], body=_without_scan(loop_body()))],
        [vi("M", [], I64), vi("s0", [3]), vi("x", [3])],
        [vi("s", [3])],
    )
    module = import_model(model)
    for trip in (0, 1, 4):
        check(model, {"M": np.array(trip, np.int64), "s0": np.ones(3, np.float32), "x": np.arange(3, dtype=np.float32)}, module=module)


def _without_scan(body):
    del body.output[2]
    del body.node[3]
    return body


def test_a_scan_output_needs_a_constant_trip_count():
    model = make(
        [const("T", True, B), helper.make_node("Loop", ["M", "T", "s0"], ["s", "scans"], body=loop_body(), name="loop")],
        [vi("M", [], I64), vi("s0", [3]), vi("x", [3])],
        [vi("s", [3]), vi("scans", None)],
    )
    with pytest.raises(StratiError) as info:
        import_model(model)
    assert str(info.value) == "unsupported: Loop (opset 17) (scan outputs need a trip count M known at import)"


@pytest.mark.parametrize("initial", [True, False])
def test_a_scan_output_of_a_loop_that_may_stop_early_is_refused(initial):
    """A scan output's static length is the trip count: a loop that may end on its condition
    first (a condition computed in the body, or false on entry) would leave rows unwritten."""
    body = loop_body()
    if initial:
        body.node[1].CopyFrom(helper.make_node("Less", ["i", "two"], ["cond_out"]))
        body.node.insert(0, const("two", 2, I64))
    model = make(
        [const("M", 5, I64), const("T", initial, B),
         helper.make_node("Loop", ["M", "T", "s0"], ["s", "scans"], body=body, name="loop")],
        [vi("s0", [3]), vi("x", [3])],
        [vi("s", [3]), vi("scans", None)],
    )  # fmt: skip
    with pytest.raises(StratiError, match="scan outputs need a loop that runs its whole trip count"):
        import_model(model)


def test_a_carried_value_that_changes_shape_is_refused():
    body = helper.make_graph(
        [helper.make_node("Concat", ["s_in", "s_in"], ["s_out"], axis=0), helper.make_node("Identity", ["c"], ["c_out"])],
        "body",
        [vi("i", [], I64), vi("c", [], B), vi("s_in", [None])],
        [vi("c_out", [], B), vi("s_out", [None])],
    )
    model = make(
        [const("M", 2, I64), const("T", True, B), helper.make_node("Loop", ["M", "T", "s0"], ["s"], body=body, name="grow")],
        [vi("s0", [3])],
        [vi("s", None)],
    )
    with pytest.raises(StratiError) as info:
        import_model(model)
    assert str(info.value) == (
        "node 'grow' (Loop, opset 17): the loop-carried value 's_out' changes type from tensor<3xf32> to tensor<6xf32> "
        "(strati needs static types)"
    )


def test_an_unsupported_op_in_a_body_is_reported_before_import():
    body = loop_body()
    body.node[0].op_type = "NonZero"
    model = make(
        [const("M", 2, I64), const("T", True, B), helper.make_node("Loop", ["M", "T", "s0"], ["s", "scans"], body=body)],
        [vi("s0", [3]), vi("x", [3])],
        [vi("s", [3]), vi("scans", None)],
    )
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert "NonZero in the body" in str(info.value)


def scan_model(length, reverse_in=0, reverse_out=0, out_axis=0):
    """Running sums of the rows of xs (a state), the partial sums as the scan output."""
    body = helper.make_graph(
        [helper.make_node("Add", ["acc", "e"], ["acc2"]), helper.make_node("Identity", ["acc2"], ["o"])],
        "scan_body",
        [vi("acc", [2]), vi("e", [2])],
        [vi("acc2", [2]), vi("o", [2])],
    )
    node = helper.make_node(
        "Scan", ["a0", "xs"], ["a", "ys"], body=body, num_scan_inputs=1,
        scan_input_directions=[reverse_in], scan_output_directions=[reverse_out], scan_output_axes=[out_axis],
    )  # fmt: skip
    ys_shape = [length, 2] if out_axis == 0 else [2, length]
    return make([node], [vi("a0", [2]), vi("xs", [length, 2])], [vi("a", [2]), vi("ys", ys_shape)])


@pytest.mark.parametrize("length", [1, 4])
@pytest.mark.parametrize("reverse_in,reverse_out,out_axis", [(0, 0, 0), (1, 0, 1), (0, 1, -1)])
def test_scan(length, reverse_in, reverse_out, out_axis):
    model = scan_model(length, reverse_in, reverse_out, out_axis)
    xs = np.random.default_rng(length).standard_normal((length, 2)).astype(np.float32)
    check(model, {"a0": np.zeros(2, np.float32), "xs": xs})


@pytest.mark.parametrize("batch", [1, 2])
def test_scan8_runs_one_scan_per_batch_entry(batch):
    body = helper.make_graph(
        [helper.make_node("Add", ["acc", "e"], ["acc2"]), helper.make_node("Identity", ["acc2"], ["o"])],
        "scan_body",
        [vi("acc", [2]), vi("e", [2])],
        [vi("acc2", [2]), vi("o", [2])],
    )
    node = helper.make_node("Scan", ["", "a0", "xs"], ["a", "ys"], body=body, num_scan_inputs=1, directions=[1])
    model = make([node], [vi("a0", [batch, 2]), vi("xs", [batch, 3, 2])], [vi("a", [batch, 2]), vi("ys", [batch, 3, 2])], opset=8)
    rng = np.random.default_rng(batch)
    check(model, {"a0": rng.standard_normal((batch, 2)).astype(np.float32), "xs": rng.standard_normal((batch, 3, 2)).astype(np.float32)})


def rnn_model(kind, seq, direction="forward", batch=2, inputs=3, hidden=4):
    g = {"RNN": 1, "GRU": 3, "LSTM": 4}[kind]
    d = 2 if direction == "bidirectional" else 1
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array((rng.standard_normal((d, g * hidden, inputs)) * 0.5).astype(np.float32), "W")
    r = numpy_helper.from_array((rng.standard_normal((d, g * hidden, hidden)) * 0.5).astype(np.float32), "R")
    b = numpy_helper.from_array((rng.standard_normal((d, 2 * g * hidden)) * 0.5).astype(np.float32), "B")
    outs = ["Y", "Y_h"] + (["Y_c"] if kind == "LSTM" else [])
    node = helper.make_node(kind, ["X", "W", "R", "B"], outs, hidden_size=hidden, direction=direction)
    graph = helper.make_graph([node], "g", [vi("X", [seq, batch, inputs])], [vi(o, None) for o in outs], [w, r, b])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    return model


@pytest.mark.parametrize(
    "kind,seq,direction",
    [("LSTM", 300, "forward"), ("GRU", MAX_STEPS + 4, "reverse"), ("RNN", MAX_STEPS + 1, "bidirectional"), ("LSTM", 6, "forward")],
)
def test_long_sequences_are_a_loop(kind, seq, direction):
    model = rnn_model(kind, seq, direction)
    module = import_model(model)
    loops = sum(op.name == "graph.loop" for op in module.walk())
    assert loops == (0 if seq <= MAX_STEPS else (2 if direction == "bidirectional" else 1))
    x = np.random.default_rng(1).standard_normal((seq, 2, 3)).astype(np.float32)
    check(model, {"X": x}, rtol=1e-4, atol=1e-5, module=module)
