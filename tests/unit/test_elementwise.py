"""Numerics of the elementwise ops' references, against onnxruntime running the same ONNX node."""

import math

import numpy as np
import pytest
from helpers import run_onnx, run_op

RNG = np.random.default_rng(0)
SHAPES = [(7,), (3, 1, 5), (2, 4, 9)]  # odd sizes, a size-1 dimension
BROADCASTS = [((4, 1), (3,)), ((2, 1, 5), (1, 3, 1)), ((1,), (6, 7)), ((), (3, 2)), ((5, 0), (1,))]

UNARY_ONNX = {
    "neg": "Neg", "abs": "Abs", "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "tanh": "Tanh",
    "sigmoid": "Sigmoid", "erf": "Erf", "relu": "Relu", "identity": "Identity",
}
POSITIVE = {"log", "sqrt", "rsqrt"}


def sample(shape, op=None, dtype=np.float32):
    x = np.asarray(RNG.standard_normal(shape) * 3, dtype)
    return np.abs(x) + 0.1 if op in POSITIVE else x


@pytest.mark.parametrize("op", sorted(UNARY_ONNX))
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_matches_onnxruntime(op, shape):
    x = sample(shape, op)
    (got,) = run_op(op, [x], [shape])
    (want,) = run_onnx(UNARY_ONNX[op], [x])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_rsqrt_matches_formula(shape):
    x = sample(shape, "rsqrt")
    (got,) = run_op("rsqrt", [x], [shape])
    want = [1 / math.sqrt(v) for v in x.astype(np.float64).ravel()]
    np.testing.assert_allclose(got.ravel(), want, rtol=1e-6)


@pytest.mark.parametrize("shape", SHAPES)
def test_leaky_relu_and_clip(shape):
    x = sample(shape)
    (got,) = run_op("leaky_relu", [x], [shape], props="alpha = 0.2")
    np.testing.assert_allclose(got, run_onnx("LeakyRelu", [x], alpha=0.2)[0], rtol=1e-6)
    (got,) = run_op("clip", [x], [shape], props="min = -1.0, max = 2.5")
    lo, hi = np.array(-1.0, np.float32), np.array(2.5, np.float32)
    np.testing.assert_array_equal(got, run_onnx("Clip", [x, lo, hi])[0])
    (got,) = run_op("clip", [x], [shape], props="max = 0.5")
    np.testing.assert_array_equal(got, run_onnx("Clip", [x, None, np.array(0.5, np.float32)])[0])


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("shape", SHAPES)
def test_gelu_matches_onnxruntime(shape, approximate):
    x = sample(shape)
    (got,) = run_op("gelu", [x], [shape], props=f'approximate = "{approximate}"')
    (want,) = run_onnx("Gelu", [x], opset=20, approximate=approximate)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


BINARY_ONNX = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "pow": "Pow", "maximum": "Max", "minimum": "Min"}


@pytest.mark.parametrize("op", sorted(BINARY_ONNX))
@pytest.mark.parametrize("shapes", BROADCASTS)
def test_binary_broadcast_matches_onnxruntime(op, shapes):
    a, b = sample(shapes[0]), sample(shapes[1])
    if op == "pow":
        a = np.asarray(np.abs(a) + 0.5, np.float32)
    out_shape = np.broadcast_shapes(*shapes)
    (got,) = run_op(op, [a, b], [out_shape])
    (want,) = run_onnx(BINARY_ONNX[op], [a, b])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_integer_division_truncates_like_onnxruntime(dtype):
    a = np.array([7, -7, 7, -7, 6, 0], dtype)
    b = np.array([2, 2, -2, -2, 3, 5], dtype)
    (got,) = run_op("div", [a, b], [a.shape])
    np.testing.assert_array_equal(got, run_onnx("Div", [a, b])[0])


@pytest.mark.parametrize("op,onnx_op", [("equal", "Equal"), ("less", "Less"), ("greater", "Greater")])
@pytest.mark.parametrize("shapes", BROADCASTS[:3])
def test_compare_matches_onnxruntime(op, onnx_op, shapes):
    a = RNG.integers(-2, 3, shapes[0]).astype(np.float32)
    b = RNG.integers(-2, 3, shapes[1]).astype(np.float32)
    (got,) = run_op(op, [a, b], [np.broadcast_shapes(*shapes)], out_dtypes=[np.bool_])
    np.testing.assert_array_equal(got, run_onnx(onnx_op, [a, b])[0])


def test_where_broadcasts_three_ways():
    c = RNG.integers(0, 2, (3, 1)).astype(np.bool_)
    x, y = sample((1, 4)), sample((4,))
    (got,) = run_op("where", [c, x, y], [(3, 4)], out_dtypes=[np.float32])
    np.testing.assert_array_equal(got, run_onnx("Where", [c, x, y])[0])


@pytest.mark.parametrize("to", [np.int32, np.float64, np.bool_])
def test_cast_matches_onnxruntime(to):
    from onnx import helper

    x = sample((3, 5))
    (got,) = run_op("cast", [x], [x.shape], out_dtypes=[to])
    (want,) = run_onnx("Cast", [x], to=helper.np_dtype_to_tensor_dtype(np.dtype(to)))
    np.testing.assert_array_equal(got, want)


def test_dropout_is_identity_at_inference():
    x = sample((4, 6))
    (got,) = run_op("dropout", [x], [x.shape], props="ratio = 0.3")
    np.testing.assert_array_equal(got, run_onnx("Dropout", [x])[0])


@pytest.mark.parametrize("op", ["erf", "gelu", "exp"])
def test_rank0_tensors_stay_arrays(op):
    x = np.asarray(0.75, np.float32)
    (got,) = run_op(op, [x], [()])
    assert isinstance(got, np.ndarray) and got.shape == () and got.dtype == np.float32
    (want,) = run_onnx({"erf": "Erf", "gelu": "Gelu", "exp": "Exp"}[op], [x], opset=20)
    np.testing.assert_allclose(got, want, rtol=1e-6)
