"""bf16 and the float8 types (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz): graph.cast to and from them on the
interpreter and compiled, bit for bit against onnx's reference Cast (ml_dtypes, round to nearest
even; saturate clamps to the finite range, else an overflow is infinity or NaN as the type has),
over every float8 code, the IEEE corners, ties and random values across the exponent range;
arithmetic on bf16 (float32, rounded once per op); dense literals round-trip exactly."""

from __future__ import annotations

import warnings

import ml_dtypes
import numpy as np
import pytest
from helpers import one_op, parse, tensor_type
from onnx import TensorProto
from onnx.reference.ops.op_cast import cast_to

import strati
from strati.runtime.interpreter import run_function

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # overflow and NaN casts: what is tested

NARROW = {
    "bf16": (ml_dtypes.bfloat16, TensorProto.BFLOAT16),
    "e4m3fn": (ml_dtypes.float8_e4m3fn, TensorProto.FLOAT8E4M3FN),
    "e4m3fnuz": (ml_dtypes.float8_e4m3fnuz, TensorProto.FLOAT8E4M3FNUZ),
    "e5m2": (ml_dtypes.float8_e5m2, TensorProto.FLOAT8E5M2),
    "e5m2fnuz": (ml_dtypes.float8_e5m2fnuz, TensorProto.FLOAT8E5M2FNUZ),
}


def samples(dtype, n: int = 301) -> np.ndarray:
    """Float32 values: the corners, every value of the type and the midpoints between neighbours
    (ties), the type's extremes and beyond, random values from 2**-30 to 2**20."""
    rng = np.random.default_rng(3)
    corners = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 3e38, -3e38, 1e-45]
    info = ml_dtypes.finfo(dtype)
    edges = [float(info.max), float(info.min), float(info.max) * 1.03, float(info.max) * 2, float(info.smallest_subnormal) / 2]
    if np.dtype(dtype).itemsize == 1:
        values = np.arange(256, dtype=np.uint8).view(dtype).astype(np.float32)
    else:
        values = rng.integers(0, 1 << 16, 200).astype(np.uint16).view(dtype).astype(np.float32)
    finite = np.sort(values[np.isfinite(values)])
    ties = (finite[:-1] + finite[1:]) / 2
    randoms = rng.standard_normal(n).astype(np.float32) * np.float32(2.0) ** rng.integers(-30, 20, n).astype(np.float32)
    return np.concatenate([np.array(corners + edges, np.float32), values, ties.astype(np.float32), randoms]).astype(np.float32)


def cast_module(x: np.ndarray, to, saturate: bool):
    props = "" if saturate else "saturate = false"
    return parse(one_op("cast", [x], [x.shape], [np.dtype(to)], props))


def bits(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint8 if a.dtype.itemsize == 1 else np.uint16)


def want_cast(x, to, onnx_type, saturate):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(cast_to(x, onnx_type, saturate))


def nan_agnostic(a: np.ndarray) -> np.ndarray:
    """bf16 bits with every NaN as one code: the payload of a NaN is not specified."""
    b = bits(a).copy()
    b[np.isnan(a.astype(np.float32))] = 0x7FC0
    return b


@pytest.mark.parametrize("name", sorted(NARROW))
@pytest.mark.parametrize("saturate", [True, False])
@pytest.mark.parametrize("backend", ["interp", "jit"])
def test_cast_from_float32_matches_onnx(name, saturate, backend):
    dtype, onnx_type = NARROW[name]
    if name == "bf16" and not saturate:
        pytest.skip("saturate concerns float8 targets only")
    x = samples(dtype)
    module = cast_module(x, dtype, saturate)
    with np.errstate(all="ignore"):
        got = run_function(module, [x])[0] if backend == "interp" else strati.compile(module)(x)
    want = want_cast(x, dtype, onnx_type, saturate)
    assert got.dtype == want.dtype
    if name == "bf16":
        np.testing.assert_array_equal(nan_agnostic(got), nan_agnostic(want))
    else:
        np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("name", sorted(NARROW))
def test_cast_from_float16_matches_onnx(name):
    dtype, onnx_type = NARROW[name]
    x = samples(dtype).astype(np.float16)
    module = cast_module(x, dtype, True)
    want = want_cast(x, dtype, onnx_type, True)
    for got in (run_function(module, [x])[0], strati.compile(module)(x)):
        np.testing.assert_array_equal(nan_agnostic(got) if name == "bf16" else bits(got), nan_agnostic(want) if name == "bf16" else bits(want))


@pytest.mark.parametrize("name", sorted(NARROW))
def test_cast_from_float64_rounds_once(name):
    """f64 values just beside a float32 value that is a tie of the narrow type: through float32
    rounded to nearest they would round twice; strati rounds the f64 value once, as ml_dtypes."""
    dtype, _ = NARROW[name]
    with np.errstate(all="ignore"):
        x = samples(dtype).astype(np.float64)
    x = np.concatenate([x, x * (1 + 2.0**-40), x * (1 - 2.0**-40)])
    x = x[np.isfinite(x) & (np.abs(x) < float(ml_dtypes.finfo(dtype).max))]
    module = cast_module(x, dtype, True)
    want = x.astype(dtype)
    for got in (run_function(module, [x])[0], strati.compile(module)(x)):
        np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("name", sorted(NARROW))
@pytest.mark.parametrize("to", [np.float32, np.float16, np.float64])
def test_cast_to_wider_floats_is_exact(name, to):
    dtype, _ = NARROW[name]
    codes = np.arange(256, dtype=np.uint8) if np.dtype(dtype).itemsize == 1 else np.arange(0, 1 << 16, 97, dtype=np.uint16)
    x = codes.view(dtype)
    module = parse(one_op("cast", [x], [x.shape], [np.dtype(to)]))
    with np.errstate(all="ignore"):
        want = x.astype(to)
    for got in (run_function(module, [x])[0], strati.compile(module)(x)):
        np.testing.assert_array_equal(got, want)


def test_bf16_arithmetic_is_float32_rounded_once():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((3, 7)).astype(ml_dtypes.bfloat16)
    b = rng.standard_normal((3, 7)).astype(ml_dtypes.bfloat16)
    want = (a.astype(np.float32) * b.astype(np.float32)).astype(ml_dtypes.bfloat16)
    module = parse(one_op("mul", [a, b], [(3, 7)]))
    for got in (run_function(module, [a, b])[0], strati.compile(module)(a, b)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(bits(got), bits(want))


@pytest.mark.parametrize("name", sorted(NARROW))
def test_constants_print_and_parse_back_exactly(name):
    dtype, _ = NARROW[name]
    with np.errstate(all="ignore"):
        value = samples(dtype)[:40].astype(dtype)
    t = tensor_type(value.shape, value.dtype)
    text = f"""func.func @main() -> {t} {{
  %c = graph.constant dense<"0x{value.tobytes().hex().upper()}"> : {t}
  func.return %c : {t}
}}"""
    again = parse(str(parse(text)))
    np.testing.assert_array_equal(bits(run_function(again, [])[0]), bits(value))
