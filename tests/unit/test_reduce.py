"""The reduce ops and argmax: numerics against onnxruntime, type inference, verifier messages, cost.

Every expected shape and value comes from onnxruntime running the same ONNX node
(ReduceX at opset 18, where ``axes`` is an int64 input; ArgMax at opset 13), so
the declared result types also check ``infer_type``.  Where we decide differently
from onnxruntime (the float mean of an empty set; NaN), the expectation is
computed from its definition instead.
"""

import math

import numpy as np
import pytest
from helpers import one_op, parse, run_ir, run_onnx, run_op
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.context import make_context
from strati.diagnostics import StratiError
from strati.source import parse_module

RNG = np.random.default_rng(1)
REDUCE_ONNX = {
    "reduce_sum": "ReduceSum",
    "reduce_mean": "ReduceMean",
    "reduce_max": "ReduceMax",
    "reduce_min": "ReduceMin",
    "reduce_prod": "ReduceProd",
}
# (shape, axes): axes None is absent; odd sizes, size-1 dims, negative and unsorted axes, rank 0.
CASES = [
    ((7,), None),
    ((7,), (0,)),
    ((3, 5), (1,)),
    ((3, 5), (-1,)),
    ((3, 5), (0, 1)),
    ((2, 1, 5), (1,)),
    ((2, 3, 4), (-1, 0)),
    ((2, 3, 4), (1, -3)),
    ((2, 3, 4), None),
    ((4, 1, 3, 2), (3, 1)),
    ((), None),
    ((), (0,)),
]


def sample(shape, dtype, op="reduce_sum"):
    if dtype == np.int64:
        low, high = (-2, 3) if op == "reduce_prod" else (-50, 50)
        return RNG.integers(low, high, shape).astype(np.int64)
    x = RNG.standard_normal(shape).astype(np.float32)
    if op == "reduce_prod":  # factors near 1: no overflow, no underflow
        x = np.asarray(np.sign(x) * (0.5 + np.abs(x) / 4), np.float32)
    return x


def props(axes=None, keepdims=True, noop=False):
    items = []
    if axes is not None:
        items.append("axes = array<i64" + (": " + ", ".join(map(str, axes)) if axes else "") + ">")
    if not keepdims:
        items.append("keepdims = false")
    if noop:
        items.append("noop_with_empty_axes = true")
    return ", ".join(items)


def onnx_reduce(op, x, axes=None, keepdims=True, noop=False):
    inputs = [x] if axes is None else [x, np.array(axes, np.int64)]
    (y,) = run_onnx(REDUCE_ONNX[op], inputs, opset=18, keepdims=int(keepdims), noop_with_empty_axes=int(noop))
    return y


def run_reduce(op, x, axes=None, keepdims=True, noop=False, out_shape=None):
    (got,) = run_op(op, [x], [out_shape], props=props(axes, keepdims, noop))
    return got


def assert_same(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    if dtype == np.int64:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=["f32", "i64"])
@pytest.mark.parametrize("keepdims", [True, False], ids=["keep", "drop"])
@pytest.mark.parametrize("shape,axes", CASES, ids=[f"{s}-{a}" for s, a in CASES])
@pytest.mark.parametrize("op", sorted(REDUCE_ONNX))
def test_reduce_matches_onnxruntime(op, shape, axes, keepdims, dtype):
    x = sample(shape, dtype, op)
    want = onnx_reduce(op, x, axes, keepdims)
    got = run_reduce(op, x, axes, keepdims, out_shape=want.shape)
    assert_same(got, want, dtype)


@pytest.mark.parametrize("axes", [None, ()], ids=["absent", "empty"])
@pytest.mark.parametrize("op", sorted(REDUCE_ONNX))
def test_empty_axes(op, axes):
    x = sample((3, 4), np.float32, op)
    for noop in (False, True):
        want = onnx_reduce(op, x, axes, noop=noop)
        got = run_reduce(op, x, axes, noop=noop, out_shape=want.shape)
        assert_same(got, want, np.float32)
    # noop is the identity whatever keepdims says
    got = run_reduce(op, x, axes, keepdims=False, noop=True, out_shape=x.shape)
    np.testing.assert_array_equal(got, x)


# Size-0 dimensions, reduced (an empty reduction) or kept.
EMPTY_CASES = [((2, 0, 3), (1,)), ((0, 3), None), ((0, 3), (1,)), ((2, 0, 3), (0,)), ((4, 0), (-1, 0))]


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=["f32", "i64"])
@pytest.mark.parametrize("keepdims", [True, False], ids=["keep", "drop"])
@pytest.mark.parametrize("shape,axes", EMPTY_CASES, ids=[f"{s}-{a}" for s, a in EMPTY_CASES])
@pytest.mark.parametrize("op", ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min"])
def test_size_zero_dims_match_onnxruntime(op, shape, axes, keepdims, dtype):
    x = np.zeros(shape, dtype)
    want = onnx_reduce(op, x, axes, keepdims)
    got = run_reduce(op, x, axes, keepdims, out_shape=want.shape)
    assert_same(got, want, dtype)


def test_empty_reductions_give_identities():
    """Sum 0, prod 1, max the lowest value (-inf), min the highest (+inf), independently of onnxruntime."""
    for dtype, lo, hi in [(np.float32, -math.inf, math.inf), (np.int64, -(2**63), 2**63 - 1)]:
        x = np.zeros((3, 0), dtype)
        expected = {"reduce_sum": 0, "reduce_prod": 1, "reduce_max": lo, "reduce_min": hi}
        for op, value in expected.items():
            got = run_reduce(op, x, (1,), keepdims=False, out_shape=(3,))
            assert got.dtype == dtype and got.tolist() == [value] * 3, (op, got)


def test_mean_of_empty_is_nan_for_floats_and_zero_for_ints():
    # numpy's choice for floats (0/0); onnxruntime gives 0, the ONNX spec says "undefined".
    got = run_reduce("reduce_mean", np.zeros((2, 0), np.float32), (1,), out_shape=(2, 1))
    assert got.dtype == np.float32 and got.shape == (2, 1) and all(math.isnan(v) for v in got.ravel())
    x = np.zeros((2, 0), np.int64)
    assert_same(run_reduce("reduce_mean", x, (1,), out_shape=(2, 1)), onnx_reduce("reduce_mean", x, (1,)), np.int64)


def test_integer_mean_truncates_toward_zero():
    x = np.array([[-1, -2], [-3, -4], [5, -2], [7, 0], [-7, 0], [2**40 + 1, 2**40]], np.int64)
    got = run_reduce("reduce_mean", x, (1,), keepdims=False, out_shape=(6,))
    sums = [a + b for a, b in x.tolist()]  # Python ints: exact
    assert got.tolist() == [s // 2 if s >= 0 else -(-s // 2) for s in sums]
    np.testing.assert_array_equal(got, onnx_reduce("reduce_mean", x, (1,), keepdims=False))


def test_int32_mean_accumulates_wide():
    x = np.full((4,), 2**31 - 1, np.int32)
    got = run_reduce("reduce_mean", x, keepdims=False, out_shape=())
    assert got.dtype == np.int32 and int(got) == 2**31 - 1


def test_nan_propagates_through_max_and_min():
    x = np.array([[1.0, np.nan, 3.0], [np.nan, 1.0, 3.0], [1.0, 2.0, 3.0]], np.float32)
    for op in ("reduce_max", "reduce_min"):
        got = run_reduce(op, x, (1,), keepdims=False, out_shape=(3,))
        assert math.isnan(got[0]) and math.isnan(got[1]) and not math.isnan(got[2]), (op, got)


def test_float16_and_float64_keep_their_type():
    for dtype in (np.float16, np.float64):
        x = RNG.standard_normal((3, 5)).astype(dtype)
        for op in REDUCE_ONNX:
            want = onnx_reduce(op, x, (1,))
            got = run_reduce(op, x, (1,), out_shape=want.shape)
            assert got.dtype == dtype
            np.testing.assert_allclose(got, want, rtol=2e-3 if dtype == np.float16 else 1e-12)


# --- argmax --------------------------------------------------------------------------------

ARGMAX_CASES = [((7,), 0), ((3, 5), 1), ((3, 5), -2), ((2, 1, 5), 1), ((2, 3, 4), -1), ((4, 1, 3, 2), 2), ((0, 3), 1)]


@pytest.mark.parametrize("dtype", [np.float32, np.int64], ids=["f32", "i64"])
@pytest.mark.parametrize("last", [False, True], ids=["first", "last"])
@pytest.mark.parametrize("keepdims", [True, False], ids=["keep", "drop"])
@pytest.mark.parametrize("shape,axis", ARGMAX_CASES, ids=[f"{s}-{a}" for s, a in ARGMAX_CASES])
def test_argmax_matches_onnxruntime(shape, axis, keepdims, last, dtype):
    # few distinct values, so that ties are common and select_last_index matters
    x = RNG.integers(0, 3, shape).astype(dtype)
    (want,) = run_onnx("ArgMax", [x], opset=13, axis=axis, keepdims=int(keepdims), select_last_index=int(last))
    p = f"axis = {axis}" + (", keepdims = false" if not keepdims else "") + (", select_last_index = true" if last else "")
    (got,) = run_op("argmax", [x], [want.shape], out_dtypes=[np.int64], props=p)
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_argmax_ties_pick_first_or_last():
    x = np.array([[3, 1, 3, 2], [0, 0, 0, 0], [1, 2, 3, 4]], np.int64)
    (first,) = run_op("argmax", [x], [(3,)], out_dtypes=[np.int64], props="axis = 1, keepdims = false")
    (last,) = run_op("argmax", [x], [(3,)], [np.int64], props="axis = 1, keepdims = false, select_last_index = true")
    rows = x.tolist()
    assert first.tolist() == [r.index(max(r)) for r in rows]
    assert last.tolist() == [len(r) - 1 - r[::-1].index(max(r)) for r in rows]


def test_argmax_default_axis_is_zero_and_keeps_dims():
    x = sample((3, 4), np.float32)
    (got,) = run_op("argmax", [x], [(1, 4)], out_dtypes=[np.int64])
    np.testing.assert_array_equal(got, run_onnx("ArgMax", [x], opset=13)[0])


# --- type inference, dynamic dimensions, verifier messages -------------------------------------


def func_text(op, in_type, out_type, p=""):
    p = f" {{{p}}}" if p else ""
    return (
        f"func.func @main(%x: {in_type}) -> {out_type} {{\n"
        f"  %r = graph.{op} %x{p} : ({in_type}) -> {out_type}\n"
        f"  func.return %r : {out_type}\n}}\n"
    )


def inferred(op, in_type, p=""):
    """The types infer_type gives, from an op parsed but not verified (its declared type is a dummy)."""
    module = parse_module(make_context(), func_text(op, in_type, "tensor<1xf32>", p), "t.mlir")
    (the_op,) = [o for o in module.walk() if o.name == f"graph.{op}"]
    return [str(t) for t in registry.get_op_attr(the_op.name, "infer_type")(the_op)]


@pytest.mark.parametrize(
    "op,in_type,p,want",
    [
        ("reduce_sum", "tensor<?x4x?xf32>", "axes = array<i64: 1>", "tensor<?x1x?xf32>"),
        ("reduce_sum", "tensor<?x4x?xf32>", "axes = array<i64: 0, 1>, keepdims = false", "tensor<?xf32>"),
        ("reduce_max", "tensor<?x4xi64>", "", "tensor<1x1xi64>"),
        ("reduce_min", "tensor<?x4xi1>", "keepdims = false", "tensor<i1>"),
        ("reduce_prod", "tensor<?x4xf32>", "noop_with_empty_axes = true", "tensor<?x4xf32>"),
        ("reduce_mean", "tensor<2x?xi32>", "axes = array<i64>, noop_with_empty_axes = true", "tensor<2x?xi32>"),
        ("reduce_mean", "tensor<2x?xi32>", "axes = array<i64>", "tensor<1x1xi32>"),
        ("reduce_sum", "tensor<f32>", "axes = array<i64: 0>, keepdims = false", "tensor<f32>"),
        ("argmax", "tensor<?x?xf32>", "axis = 1", "tensor<?x1xi64>"),
        ("argmax", "tensor<?x5x?xi1>", "axis = -2, keepdims = false", "tensor<?x?xi64>"),
        ("argmax", "tensor<?x5xf32>", "axis = 0, keepdims = false", "tensor<5xi64>"),
    ],
)
def test_infer_type(op, in_type, p, want):
    assert inferred(op, in_type, p) == [want]


def test_dynamic_dims_run_with_concrete_inputs():
    x = sample((3, 4), np.float32)
    text = func_text("reduce_sum", "tensor<?x4xf32>", "tensor<?xf32>", "axes = array<i64: 1>, keepdims = false")
    (got,) = run_ir(text, x)
    np.testing.assert_allclose(got, onnx_reduce("reduce_sum", x, (1,), keepdims=False), rtol=1e-6)
    text = func_text("argmax", "tensor<?x?xf32>", "tensor<?xi64>", "axis = -1, keepdims = false")
    (got,) = run_ir(text, x)
    np.testing.assert_array_equal(got, run_onnx("ArgMax", [x], opset=13, axis=-1, keepdims=0)[0])


@pytest.mark.parametrize(
    "op,in_type,out_type,p,message",
    [
        ("reduce_sum", "tensor<3x4xf32>", "tensor<3xf32>", "axes = array<i64: 2>, keepdims = false",
         "axis 2 is out of range for rank 2"),
        ("reduce_mean", "tensor<3x4xf32>", "tensor<3xf32>", "axes = array<i64: -3>, keepdims = false",
         "axis -3 is out of range for rank 2"),
        ("reduce_max", "tensor<3x4xf32>", "tensor<3x1xf32>", "axes = array<i64: 1, -1>",
         "axes [1, -1] repeat an axis"),
        ("reduce_sum", "tensor<3x4xi1>", "tensor<1x1xi1>", "", "expects an integer or floating-point tensor"),
        ("reduce_prod", "tensor<3x4xf32>", "tensor<3xf32>", "axes = array<i64: 1>",
         "result type tensor<3xf32> does not match the inferred type tensor<3x1xf32>"),
        ("reduce_min", "tensor<3x4xf32>", "tensor<3xf64>", "axes = array<i64: 1>, keepdims = false",
         "does not match the inferred type tensor<3xf32>"),
        ("argmax", "tensor<3x0xf32>", "tensor<3xi64>", "axis = 1, keepdims = false",
         "axis 1 has size 0: argmax of an empty axis is undefined"),
        ("argmax", "tensor<3x4xf32>", "tensor<3xi64>", "axis = 2, keepdims = false",
         "axis 2 is out of range for rank 2"),
        ("argmax", "tensor<f32>", "tensor<i64>", "", "axis 0 is out of range for rank 0"),
        ("argmax", "tensor<3x4xf32>", "tensor<3x1xi32>", "axis = 1",
         "result type tensor<3x1xi32> does not match the inferred type tensor<3x1xi64>"),
    ],
)
def test_verifier_rejects(op, in_type, out_type, p, message):
    with pytest.raises(VerifyException, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse(func_text(op, in_type, out_type, p))


def test_argmax_over_a_dynamic_axis_of_size_zero_fails_at_run_time():
    text = func_text("argmax", "tensor<3x?xf32>", "tensor<3xi64>", "axis = 1, keepdims = false")
    with pytest.raises(StratiError, match="argmax over axis 1 of size 0"):
        run_ir(text, np.zeros((3, 0), np.float32))


# --- pattern and flops ------------------------------------------------------------------------


@pytest.mark.parametrize("op", sorted(REDUCE_ONNX) + ["argmax"])
def test_pattern_and_flops(op):
    x = np.zeros((3, 5, 2), np.float32)
    out_shape, out_dtype = ((3, 1, 2), np.int64) if op == "argmax" else ((1, 5, 1), np.float32)
    p = "axis = 1" if op == "argmax" else "axes = array<i64: 0, 2>"
    module = parse(one_op(op, [x], [out_shape], [out_dtype], props=p))
    (the_op,) = [o for o in module.walk() if o.name == f"graph.{op}"]
    assert registry.get_op_attr(the_op.name, "pattern") == registry.OpPattern.REDUCE
    assert registry.get_op_attr(the_op.name, "flops")(the_op) == x.size
    if op != "argmax":
        noop = parse(one_op(op, [x], [x.shape], props="noop_with_empty_axes = true"))
        (the_op,) = [o for o in noop.walk() if o.name == f"graph.{op}"]
        assert registry.get_op_attr(the_op.name, "flops")(the_op) == 0
