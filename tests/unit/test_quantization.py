"""int8 quantisation: graph.quantize/dequantize/qmatmul/qconv2d against onnxruntime (the
outside truth) bit for bit, interpreted and compiled; the ONNX importer's QuantizeLinear,
DequantizeLinear, QLinearMatMul and QLinearConv; the post-training calibration helper."""

from __future__ import annotations


import numpy as np
import onnx
import onnxruntime as ort
import pytest
from helpers import parse, run_onnx
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.frontends.onnx import import_model
from strati.quantization import accuracy, calibrate, fraction_bits
from strati.runtime.interpreter import run_function

RNG = np.random.default_rng(11)


def both(text, *inputs):
    """The interpreter's and the compiled code's results, which must be equal."""
    module = parse(text)
    interpreted = run_function(module, list(inputs))[0]
    np.testing.assert_array_equal(strati.compile(module)(*inputs), interpreted)
    return interpreted


@pytest.mark.parametrize("scale, zero", [(0.0625, 0), (0.3, -5), (2.0, 17)])
def test_quantize_and_dequantize_match_onnxruntime(scale, zero):
    x = (RNG.standard_normal(40) * 30).astype(np.float32)
    x[:4] = [0.5 * scale, 1.5 * scale, -2.5 * scale, 1000.0]  # ties round to even; saturation
    q = both(f"""func.func @f(%x: tensor<40xf32>) -> tensor<40xi8> {{
  %q = graph.quantize %x {{scale = {scale!r}, zero_point = {zero}}} : (tensor<40xf32>) -> tensor<40xi8>
  func.return %q : tensor<40xi8>
}}""", x)
    (want,) = run_onnx("QuantizeLinear", [x, np.array(scale, np.float32), np.array(zero, np.int8)])
    np.testing.assert_array_equal(q, want)
    y = both(f"""func.func @f(%q: tensor<40xi8>) -> tensor<40xf32> {{
  %y = graph.dequantize %q {{scale = {scale!r}, zero_point = {zero}}} : (tensor<40xi8>) -> tensor<40xf32>
  func.return %y : tensor<40xf32>
}}""", q)
    np.testing.assert_array_equal(y, run_onnx("DequantizeLinear", [q, np.array(scale, np.float32), np.array(zero, np.int8)])[0])


def ints(*shape, low=-128, high=128, dtype=np.int8):
    return RNG.integers(low, high, shape).astype(dtype)


@pytest.mark.parametrize("shift", [0, 3, 9])
def test_qmatmul_matches_qlinearmatmul(shift):
    a, b = ints(6, 20), ints(20, 9)
    got = both(f"""func.func @f(%a: tensor<6x20xi8>, %b: tensor<20x9xi8>) -> tensor<6x9xi8> {{
  %y = graph.qmatmul %a, %b {{shift = {shift}}} : (tensor<6x20xi8>, tensor<20x9xi8>) -> tensor<6x9xi8>
  func.return %y : tensor<6x9xi8>
}}""", a, b)
    zero, one = np.array(0, np.int8), np.array(1.0, np.float32)
    (want,) = run_onnx("QLinearMatMul", [a, one, zero, b, np.array(2.0**-shift, np.float32), zero, one, zero], opset=13)
    np.testing.assert_array_equal(got, want)


def test_qconv2d_matches_qlinearconv():
    x, w, bias = ints(1, 3, 9, 9), ints(5, 3, 3, 3), ints(5, low=-3000, high=3000, dtype=np.int32)
    got = both("""func.func @f(%x: tensor<1x3x9x9xi8>, %w: tensor<5x3x3x3xi8>, %b: tensor<5xi32>) -> tensor<1x5x5x5xi8> {
  %y = graph.qconv2d %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, shift = 7} : (tensor<1x3x9x9xi8>, tensor<5x3x3x3xi8>, tensor<5xi32>) -> tensor<1x5x5x5xi8>
  func.return %y : tensor<1x5x5x5xi8>
}""", x, w, bias)
    zero, s = np.array(0, np.int8), np.array(0.5, np.float32)
    (want,) = run_onnx("QLinearConv", [x, s, zero, w, np.array(2.0**-6, np.float32), zero, np.array(1.0, np.float32), zero, bias],
                       opset=13, pads=[1, 1, 1, 1], strides=[2, 2])
    np.testing.assert_array_equal(got, want)


def quantized_onnx(y_zero=0, w_scale=0.0625):
    """QuantizeLinear, QLinearConv (bias), Flatten, QLinearMatMul, DequantizeLinear."""
    rng = np.random.default_rng(0)
    c = lambda name, v: numpy_helper.from_array(np.array(v), name)  # noqa: E731
    inits = [c("xs", np.float32(0.125)), c("z", np.int8(0)), c("yz", np.int8(y_zero)),
             numpy_helper.from_array(rng.integers(-100, 100, (6, 3, 3, 3)).astype(np.int8), "w"), c("ws", np.float32(w_scale)),
             c("ys", np.float32(0.5)), numpy_helper.from_array(rng.integers(-500, 500, 6).astype(np.int32), "b"),
             numpy_helper.from_array(rng.integers(-100, 100, (96, 10)).astype(np.int8), "m"), c("ms", np.float32(0.25)),
             c("zs", np.float32(4.0))]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "z"], ["xq"]),
             helper.make_node("QLinearConv", ["xq", "xs", "z", "w", "ws", "z", "ys", "yz", "b"], ["cq"], pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("Flatten", ["cq"], ["fq"]),
             helper.make_node("QLinearMatMul", ["fq", "ys", "z", "m", "ms", "z", "zs", "z"], ["mq"]),
             helper.make_node("DequantizeLinear", ["mq", "zs", "z"], ["y"])]
    graph = helper.make_graph(nodes, "q", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_imported_quantized_model_matches_onnxruntime():
    model = quantized_onnx()
    onnx.checker.check_model(model)
    x = (RNG.standard_normal((1, 3, 8, 8)) * 2).astype(np.float32)
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    module = import_model(model)
    assert {"graph.quantize", "graph.qconv2d", "graph.qmatmul", "graph.dequantize"} <= {op.name for op in module.walk()}
    np.testing.assert_array_equal(strati.compile(module)(x), want)


@pytest.mark.parametrize("change", [{"y_zero": 3}, {"w_scale": 0.1}])
def test_asymmetric_quantization_is_composed_and_matches_onnxruntime(change):
    """A zero point or scale ratio graph.qconv2d does not express: generic ops, bit for bit."""
    model = quantized_onnx(**change)
    x = (RNG.standard_normal((1, 3, 8, 8)) * 2).astype(np.float32)
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    module = import_model(model)
    assert "graph.qconv2d" not in {op.name for op in module.walk()}
    np.testing.assert_array_equal(strati.compile(module)(x), want)


def test_fraction_bits():
    assert [fraction_bits(v) for v in (127.0, 1.0, 0.3, 200.0, 0.0)] == [0, 6, 8, -1, 0]
    assert round(0.3 * 2**8) <= 127 < round(0.3 * 2**9)


def test_calibration_quantizes_convolutions():
    rng = np.random.default_rng(2)
    k = (rng.standard_normal(72) * 0.5).astype(np.float32).tobytes().hex().upper()
    model = parse(f"""
func.func @cnn(%x: tensor<1x2x6x6xf32>) -> tensor<1x36xf32> {{
  %k = graph.constant dense<"0x{k}"> : tensor<4x2x3x3xf32>
  %b = graph.constant dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>
  %c = graph.conv2d %x, %k, %b {{pads = array<i64: 1, 1, 1, 1>}} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32>
  %p = graph.max_pool2d %r {{kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
  %f = graph.flatten %p : (tensor<1x4x3x3xf32>) -> tensor<1x36xf32>
  func.return %f : tensor<1x36xf32>
}}""")
    samples = [rng.standard_normal((1, 2, 6, 6)).astype(np.float32) for _ in range(6)]
    quantized = calibrate(model, samples)
    names = [op.name for op in quantized.walk()]
    assert names.count("graph.qconv2d") == 1 and "graph.conv2d" not in names
    report = accuracy(model, quantized, samples)
    assert report.startswith("int8 vs f32 over 6 samples: max abs error")
    want, got = run_function(model, [samples[0]])[0], run_function(quantized, [samples[0]])[0]
    assert np.abs(want - got).max() <= 0.1 * np.abs(want).max()  # int8 keeps the result within 10%
    np.testing.assert_array_equal(strati.compile(quantized)(samples[0]), got)
