"""ONNX quantisation beyond the symmetric int8 scheme (strati.frontends.onnx_quant): uint8,
int16 and uint16, non-zero zero points, per-axis and blocked scales, float16, any scale
ratio; against onnxruntime bit for bit (blocked: ONNX's reference), interpreted and compiled."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import import_model
from strati.runtime.interpreter import run_function

RNG = np.random.default_rng(29)


def one_node(op_type, x, consts, out_dtype, opset=21, **attrs):
    """A model of one node: input ``x``, the other inputs constants (None: omitted)."""
    names = ["x"] + [f"c{i}" if c is not None else "" for i, c in enumerate(consts)]
    inits = [numpy_helper.from_array(np.asarray(c), f"c{i}") for i, c in enumerate(consts) if c is not None]
    node = helper.make_node(op_type, names, ["y"], **attrs)
    vi = lambda name, dtype: helper.make_tensor_value_info(name, helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), None)  # noqa: E731
    graph = helper.make_graph([node], "q", [helper.make_tensor_value_info("x", helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)],
                              [vi("y", out_dtype)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    return model


def check(model, x, oracle="onnxruntime"):
    if oracle == "onnxruntime":
        (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    else:
        (want,) = ReferenceEvaluator(model).run(None, {"x": x})
    module = import_model(model)
    interpreted = run_function(module, [x])[0]
    compiled = np.asarray(strati.compile(module)(x))
    for got in (interpreted, compiled):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    return module


def floats(*shape, scale=40.0, dtype=np.float32):
    x = (RNG.standard_normal(shape) * scale).astype(dtype)
    flat = x.reshape(-1)
    flat[:3] = [2.5, -3.5, 1e4]  # ties (with scale 1 below) and saturation
    return x


@pytest.mark.parametrize("dtype, zero", [(np.uint8, 128), (np.uint8, 3), (np.int8, -7), (np.int16, 1000), (np.uint16, 30000)])
def test_quantize_per_tensor(dtype, zero):
    x = floats(4, 9)
    check(one_node("QuantizeLinear", x, [np.float32(1.0), dtype(zero)], dtype), x)
    check(one_node("QuantizeLinear", x, [np.float32(0.37), dtype(zero)], dtype), x)


def test_quantize_without_zero_point_is_uint8():
    x = floats(10)
    check(one_node("QuantizeLinear", x, [np.float32(0.5)], np.uint8, opset=13), x)


def test_quantize_per_axis():
    x = floats(2, 3, 5)
    scale = np.array([0.5, 1.0, 0.3], np.float32)
    zero = np.array([0, 10, 250], np.uint8)
    check(one_node("QuantizeLinear", x, [scale, zero], np.uint8, axis=1), x)
    check(one_node("QuantizeLinear", x, [np.array([0.2, 0.9, 1.7, 0.4, 1.0], np.float32), np.arange(-2, 3).astype(np.int8)],
                   np.int8, axis=-1), x)


def test_quantize_float16():
    x = floats(3, 4, scale=20.0, dtype=np.float16)
    check(one_node("QuantizeLinear", x, [np.float16(0.7), np.uint8(9)], np.uint8), x)


def test_quantize_blocked_matches_the_reference():
    x = floats(2, 6)
    scale = np.array([[0.5, 2.0, 1.0], [0.25, 1.5, 0.75]], np.float32)  # blocks of 2 along axis 1
    zero = np.array([[1, 200, 7], [0, 9, 128]], np.uint8)
    check(one_node("QuantizeLinear", x, [scale, zero], np.uint8, axis=1, block_size=2), x, oracle="reference")


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16])
def test_dequantize(dtype):
    info = np.iinfo(dtype)
    q = RNG.integers(info.min, info.max, (3, 4), endpoint=True).astype(dtype)
    zero = RNG.integers(info.min, info.max, 4).astype(dtype)
    check(one_node("DequantizeLinear", q, [np.float32(0.05), zero[0]], np.float32), q)
    check(one_node("DequantizeLinear", q, [np.array([0.1, 0.2, 1.5, 3.0], np.float32), zero], np.float32, axis=1), q)


def test_dequantize_float16_scale():
    q = RNG.integers(0, 255, (5, 2)).astype(np.uint8)
    check(one_node("DequantizeLinear", q, [np.float16(0.013), np.uint8(100)], np.float16), q)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8])
def test_qlinear_matmul_any_scales_and_zero_points(dtype):
    info = np.iinfo(dtype)
    a = RNG.integers(info.min, info.max, (2, 3, 7), endpoint=True).astype(dtype)
    b = RNG.integers(info.min, info.max, (7, 4), endpoint=True).astype(dtype)
    consts = [np.float32(0.021), dtype(info.min + 100), b, np.float32(0.013), dtype(info.min + 131), np.float32(0.05), dtype(info.min + 127)]
    module = check(one_node("QLinearMatMul", a, consts, dtype), a)
    assert "graph.qmatmul" not in {op.name for op in module.walk()}


def test_qlinear_conv_uint8_per_channel_weight_scale():
    x = RNG.integers(0, 256, (1, 2, 6, 6)).astype(np.uint8)
    w = RNG.integers(-128, 128, (3, 2, 3, 3)).astype(np.int8)
    bias = RNG.integers(-2000, 2000, 3).astype(np.int32)
    consts = [np.float32(0.02), np.uint8(120), w, np.array([0.01, 0.003, 0.02], np.float32), np.int8(0),
              np.float32(0.07), np.uint8(131), bias]
    # onnx's reference: onnxruntime's u8 x s8 kernels on AVX2 without VNNI add the products in
    # pairs in saturating int16 (vpmaddubsw): 17 of these 54 came out wrong on an AMD EPYC.
    check(one_node("QLinearConv", x, consts, np.uint8, opset=10, pads=[1, 1, 1, 1], strides=[1, 2]), x, oracle="reference")


def test_bad_per_axis_scale_is_one_line():
    x = floats(2, 3)
    model = one_node("QuantizeLinear", x, [np.array([0.5, 1.0], np.float32), np.array([0, 1], np.uint8)], np.uint8, axis=1)
    with pytest.raises(StratiError, match=r"y_scale must be one value or one per index of axis 1, got shape \[2\]") as info:
        import_model(model)
    assert "\n" not in str(info.value)


def test_dynamic_quantization_pattern():
    """onnxruntime's dynamic quantisation of a MatMul: DynamicQuantizeLinear (scale and zero
    point computed at run time), MatMulInteger with that zero point, the scales multiplied."""
    w = RNG.integers(-128, 128, (6, 4)).astype(np.int8)
    w_scale = np.float32(0.02)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "w", "xz", "wz"], ["acc"]),
             helper.make_node("Cast", ["acc"], ["accf"], to=1),
             helper.make_node("Mul", ["xs", "ws"], ["s"]),
             helper.make_node("Mul", ["accf", "s"], ["y"])]
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.int8(0), "wz"), numpy_helper.from_array(w_scale, "ws")]
    graph = helper.make_graph(nodes, "dq", [helper.make_tensor_value_info("x", 1, [3, 6])], [helper.make_tensor_value_info("y", 1, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    x = RNG.standard_normal((3, 6)).astype(np.float32) * 3
    (want,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    module = import_model(model)
    assert "graph.reduce_min" in {op.name for op in module.walk()}  # the scale is computed at run time
    for got in (run_function(module, [x])[0], np.asarray(strati.compile(module)(x))):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_integer_matmul_and_conv_with_zero_points():
    a = RNG.integers(0, 256, (2, 3, 5)).astype(np.uint8)
    b = RNG.integers(-128, 128, (5, 4)).astype(np.int8)
    # u8 x s8: onnx's reference, as above (onnxruntime saturates on AVX2 without VNNI)
    check(one_node("MatMulInteger", a, [b, np.uint8(130), np.array([1, -2, 0, 5], np.int8)], np.int32, opset=10), a,
          oracle="reference")
    x = RNG.integers(0, 256, (1, 2, 5, 5)).astype(np.uint8)
    w = RNG.integers(0, 256, (3, 2, 3, 3)).astype(np.uint8)
    check(one_node("ConvInteger", x, [w, np.uint8(100), np.uint8(7)], np.int32, opset=10, pads=[1, 0, 1, 0]), x)
