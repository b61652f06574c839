"""ONNX's int8 quantisation ops onto the graph dialect's (strati.dialects.graph.quant).

QuantizeLinear and DequantizeLinear become graph.quantize and graph.dequantize (per-tensor
scale, int8 zero point).  QLinearMatMul and QLinearConv become graph.qmatmul and
graph.qconv2d when their quantisation is what those express exactly: zero points 0 and an
input-times-weight over output scale ratio that is a power of two, 2**-shift.  Anything
else is a one-line error that says what differs."""

from __future__ import annotations

import math

import numpy as np

from strati.frontends.onnx import Node, NodeError, _window_geometry, op


def _scalar(n: Node, i: int, what: str, default=None):
    if not n.has(i):
        if default is None:
            raise NodeError(f"{what} (input {i}) is required: strati quantizes to int8")
        return default
    value = n.need_const(i, what)
    if value.size != 1:
        raise NodeError(f"{what} must be one value (per-tensor quantization), got shape {list(value.shape)}")
    if "zero point" in what and value.dtype != np.int8:
        raise NodeError(f"{what} must be int8, got {value.dtype}")
    return value.item()


@op("QuantizeLinear", static=(1, 2))
def _quantize(n: Node):
    props = {"scale": float(_scalar(n, 1, "y_scale")), "zero_point": int(_scalar(n, 2, "y zero point"))}
    return n.b.op("graph.quantize", [n.x(0)], props)


@op("DequantizeLinear", static=(1, 2))
def _dequantize(n: Node):
    if n.dtype(0) != np.int8:
        raise NodeError(f"dequantizes int8, got {n.dtype(0)}")
    props = {"scale": float(_scalar(n, 1, "x_scale")), "zero_point": int(_scalar(n, 2, "x zero point", 0))}
    return n.b.op("graph.dequantize", [n.x(0)], props)


def _shift(n: Node, scales: tuple[int, int, int], zeros: tuple[int, int, int]) -> int:
    """The power of two of ``s_x * s_w / s_y`` when the zero points are 0, else an error."""
    names = ("x", "w", "y") if n.op_type == "QLinearConv" else ("a", "b", "y")
    for i, name in zip(zeros, names):
        if _scalar(n, i, f"{name} zero point") != 0:
            raise NodeError(f"{name} zero point must be 0 (symmetric quantization)")
    sx, sw, sy = (float(_scalar(n, i, f"{name}_scale")) for i, name in zip(scales, names))
    ratio = sx * sw / sy
    shift = -round(math.log2(ratio)) if ratio > 0 else -1
    if shift < 0 or ratio != 2.0**-shift:
        raise NodeError(f"the scale ratio {names[0]}_scale * {names[1]}_scale / y_scale = {ratio:g} must be 2**-k, k >= 0")
    return shift


@op("QLinearMatMul", static=(1, 2, 4, 5, 6, 7))
def _qlinear_matmul(n: Node):
    return n.b.op("graph.qmatmul", [n.x(0), n.x(3)], {"shift": _shift(n, (1, 4, 6), (2, 5, 7))})


@op("QLinearConv", static=(1, 2, 4, 5, 6, 7))
def _qlinear_conv(n: Node):
    shift = _shift(n, (1, 4, 6), (2, 5, 7))
    kernel = n.static_shape(3)[2:]
    if len(kernel) != 2:
        raise NodeError(f"convolution with {len(kernel)} spatial dimensions is not supported quantized")
    strides, dilations, begins, ends = _window_geometry(n, n.shape(0)[2:], kernel)
    operands = [n.x(0), n.x(3)] + ([n.x(8)] if n.has(8) else [])
    props = {"strides": tuple(strides), "pads": tuple(begins + ends), "dilations": tuple(dilations),
             "groups": n.a("group", 1), "shift": shift}
    return n.b.op("graph.qconv2d", operands, props)
