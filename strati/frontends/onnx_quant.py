"""ONNX's quantisation ops onto the graph dialect.

The symmetric int8 scheme an integer accelerator runs maps onto the graph dialect's own
ops (strati.dialects.graph.quant): QuantizeLinear and DequantizeLinear with one float32
scale and an int8 zero point become graph.quantize and graph.dequantize; QLinearMatMul
and QLinearConv with zero points 0 and a power-of-two scale ratio, 2**-shift, become
graph.qmatmul and graph.qconv2d.

Everything else ONNX allows (uint8, int16 and uint16, non-zero zero points, per-axis and
blocked scales, float16 scales, any scale ratio) is composed of generic graph ops, with
the arithmetic of ONNX's reference (and onnxruntime): ``x / scale`` in the operands' float
type, rounded half to even, plus the zero point, saturated to the integer type;
``(q - zero_point) * scale`` in float32; the QLinear products on integers (exact in
float64), then as onnxruntime requantises: times ``s_a * s_b / s_y`` in float32, rounded
half to even, plus the output zero point, saturated (ONNX's reference adds the zero point
before rounding, which differs on ties with an odd zero point; onnx's node test data agree
with onnxruntime).  Scales and zero points must be constants (they are, in quantised
models)."""

from __future__ import annotations

import math

import numpy as np

from strati.frontends.onnx import Node, NodeError, _conv2d, _window_geometry, elem_dtype, op, round_half_even

_RANGES = {np.dtype(t): (np.iinfo(t).min, np.iinfo(t).max) for t in (np.int8, np.uint8, np.int16, np.uint16)}


def _scalar(n: Node, i: int, what: str, default=None):
    if not n.has(i):
        if default is None:
            raise NodeError(f"{what} (input {i}) is required: strati quantizes to int8")
        return default
    value = n.need_const(i, what)
    if value.size != 1:
        raise NodeError(f"{what} must be one value (per-tensor quantization), got shape {list(value.shape)}")
    return value.item()


def _int8_per_tensor(n: Node, x_float: bool) -> bool:
    """Whether graph.quantize / graph.dequantize express the node: one float32 scale, an
    int8 zero point (or, dequantizing int8, none), float32 on the float side."""
    scale, zero = n.const(1), n.const(2)
    if scale is None or scale.size != 1 or scale.dtype != np.float32 or n.a("block_size", 0):
        return False
    if zero is None:
        return not x_float and n.dtype(0) == np.int8
    if zero.size != 1 or zero.dtype != np.int8:
        return False
    return n.dtype(0) == np.float32 if x_float else n.a("output_dtype", 0) in (0, 1)


def _per_axis(n: Node, value: np.ndarray, shape: tuple, what: str) -> np.ndarray:
    """A scale or zero point shaped to broadcast against ``shape`` (as ONNX's reference
    reshapes them: one value, one per index of ``axis``, or one per block along it)."""
    if value.size == 1:
        return value.reshape(())
    rank = len(shape)
    axis = n.a("axis", 1)
    if not -rank <= axis < rank:
        raise NodeError(f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    block = n.a("block_size", 0)
    if block:
        if value.ndim != rank:
            raise NodeError(f"{what} of blocked quantization must have rank {rank}, got shape {list(value.shape)}")
        value = np.repeat(value, block, axis=axis).take(range(shape[axis]), axis=axis)
        if value.shape != tuple(shape):
            raise NodeError(f"{what} of shape {list(value.shape)} does not block the input's {list(shape)}")
        return value
    if value.ndim != 1 or value.size != shape[axis]:
        raise NodeError(f"{what} must be one value or one per index of axis {axis}, got shape {list(value.shape)}")
    return value.reshape([-1 if d == axis else 1 for d in range(rank)])


def _saturated(n: Node, r, dtype: np.dtype, zero: np.ndarray | None, target: np.dtype):
    """clip(r + zero, the range of ``target``), cast to ``target`` (``r`` is integral)."""
    if zero is not None:
        r = n.b.binary("add", r, n.b.constant(zero.astype(dtype)))
    low, high = _RANGES[target]
    r = n.b.binary("minimum", n.b.binary("maximum", r, n.b.scalar(low, dtype)), n.b.scalar(high, dtype))
    return n.b.cast(r, target)


@op("QuantizeLinear", static=(1, 2))
def _quantize(n: Node):
    if _int8_per_tensor(n, True) and not n.a("precision", 0):
        props = {"scale": float(_scalar(n, 1, "y_scale")), "zero_point": int(_scalar(n, 2, "y zero point"))}
        return n.b.op("graph.quantize", [n.x(0)], props)
    shape = n.static_shape(0)
    scale = _per_axis(n, n.need_const(1, "y_scale"), shape, "y_scale")
    zero = _per_axis(n, n.const(2), shape, "y zero point") if n.has(2) else None
    target = zero.dtype if zero is not None else elem_dtype(n.a("output_dtype", 0) or 2)  # default uint8
    if target not in _RANGES:
        raise NodeError(f"quantizes to int8, uint8, int16 or uint16, not {target}")
    x = n.x(0)
    dtype = np.result_type(n.dtype(0), scale.dtype)
    if n.a("precision", 0):
        dtype = elem_dtype(n.a("precision"))
    if dtype is None or dtype.kind != "f":
        raise NodeError(f"quantizes a floating-point tensor, got {n.dtype(0)}")
    if n.dtype(0) != dtype:
        x = n.b.cast(x, dtype)
    r = round_half_even(n, n.b.binary("div", x, n.b.constant(scale.astype(dtype))), dtype)
    if dtype.itemsize < 4:  # float16: the zero point and the range are exact in float32
        r, dtype = n.b.cast(r, np.dtype(np.float32)), np.dtype(np.float32)
    return _saturated(n, r, dtype, zero, target)


@op("DequantizeLinear", static=(1, 2))
def _dequantize(n: Node):
    if _int8_per_tensor(n, False):
        props = {"scale": float(_scalar(n, 1, "x_scale")), "zero_point": int(_scalar(n, 2, "x zero point", 0))}
        return n.b.op("graph.dequantize", [n.x(0)], props)
    shape = n.static_shape(0)
    if n.dtype(0).kind not in "iu":
        raise NodeError(f"dequantizes an integer tensor, got {n.dtype(0)}")
    scale = _per_axis(n, n.need_const(1, "x_scale"), shape, "x_scale")
    out = elem_dtype(n.a("output_dtype", 0)) if n.a("output_dtype", 0) else scale.dtype
    if out is None or out.kind != "f":
        raise NodeError(f"dequantizes to a floating-point type, not {n.a('output_dtype')}")
    # The zero point is subtracted on integers, so that one float op remains (compiled code
    # may reassociate float arithmetic): exact, as the reference's float32 (float64 for int32).
    small = n.dtype(0).itemsize < 4
    wide = np.dtype(np.int32 if small else np.int64)
    q = n.b.cast(n.x(0), wide)
    if n.has(2):
        zero = _per_axis(n, n.need_const(2, "x zero point"), shape, "x zero point")
        q = n.b.binary("sub", q, n.b.constant(zero.astype(wide)))
    dtype = np.result_type(np.float32 if small else np.float64, scale.dtype)
    y = n.b.binary("mul", n.b.cast(q, dtype), n.b.constant(scale.astype(dtype)))
    return y if dtype == out else n.b.cast(y, out)


def _shift(n: Node, scales: tuple[int, int, int], zeros: tuple[int, int, int]) -> int | None:
    """The power of two of ``s_x * s_w / s_y`` when the zero points are int8 0 and the
    scales float32 scalars, else None (the generic composition)."""
    for i in zeros:
        z = n.const(i)
        if z is None or z.size != 1 or z.dtype != np.int8 or z.item() != 0:
            return None
    values = [n.const(i) for i in scales]
    if any(v is None or v.size != 1 or v.dtype != np.float32 for v in values):
        return None
    sx, sw, sy = (float(v.item()) for v in values)
    ratio = sx * sw / sy
    shift = -round(math.log2(ratio)) if ratio > 0 else -1
    return shift if shift >= 0 and ratio == 2.0**-shift else None


def _centred(n: Node, i: int, zero: np.ndarray | None):
    """Input ``i`` minus its zero point, in float64 (exact for the integer types)."""
    x = n.b.cast(n.x(i), np.dtype(np.float64))
    return x if zero is None else n.b.binary("sub", x, n.b.constant(zero.astype(np.float64)))


def _requantized(n: Node, acc, multiplier: np.ndarray, zero: np.ndarray | None, target: np.dtype):
    """``round_half_even(acc * multiplier) + zero``, saturated, in float32 as onnxruntime
    (the multiplier ``s_a * s_b / s_y`` in float32; the int32 accumulator exact in float32
    below 2**24)."""
    if target not in _RANGES:
        raise NodeError(f"produces int8, uint8, int16 or uint16, not {target}")
    f32 = np.dtype(np.float32)
    y = n.b.binary("mul", n.b.cast(acc, f32), n.b.constant(np.asarray(multiplier, dtype=f32)))
    return _saturated(n, round_half_even(n, y, f32), f32, zero, target)


@op("QLinearMatMul", static=(1, 2, 4, 5, 6, 7))
def _qlinear_matmul(n: Node):
    shift = _shift(n, (1, 4, 6), (2, 5, 7))
    if shift is not None and n.rank(0) == 2 and n.rank(3) == 2:
        return n.b.op("graph.qmatmul", [n.x(0), n.x(3)], {"shift": shift})
    sa, za, sb, zb, sy, zy = (n.need_const(i, what) for i, what in
                              ((1, "a_scale"), (2, "a zero point"), (4, "b_scale"), (5, "b zero point"), (6, "y_scale"), (7, "y zero point")))
    acc = n.b.op("graph.matmul", [_centred(n, 0, za), _centred(n, 3, zb)])
    return _requantized(n, acc, sa * sb / sy, zy, zy.dtype)


@op("QLinearConv", static=(1, 2, 4, 5, 6, 7))
def _qlinear_conv(n: Node):
    kernel = n.static_shape(3)[2:]
    if len(kernel) != 2:
        raise NodeError(f"convolution with {len(kernel)} spatial dimensions is not supported quantized")
    strides, dilations, begins, ends = _window_geometry(n, n.shape(0)[2:], kernel)
    groups = n.a("group", 1)
    shift = _shift(n, (1, 4, 6), (2, 5, 7))
    if shift is not None and groups == 1:
        operands = [n.x(0), n.x(3)] + ([n.x(8)] if n.has(8) else [])
        props = {"strides": tuple(strides), "pads": tuple(begins + ends), "dilations": tuple(dilations),
                 "groups": groups, "shift": shift}
        return n.b.op("graph.qconv2d", operands, props)
    sx, zx, sw, zw, sy, zy = (n.need_const(i, what) for i, what in
                              ((1, "x_scale"), (2, "x zero point"), (4, "w_scale"), (5, "w zero point"), (6, "y_scale"), (7, "y zero point")))
    out_channels = n.static_shape(3)[0]
    if zw.size > 1:
        zw = zw.reshape(out_channels, 1, 1, 1)
    if sw.size > 1:
        sw = sw.reshape(1, out_channels, 1, 1)
    bias = n.b.cast(n.x(8), np.dtype(np.float64)) if n.has(8) else None
    acc = _conv2d(n, _centred(n, 0, zx), _centred(n, 3, zw), bias, strides, begins + ends, dilations, groups)
    return _requantized(n, acc, sx * sw / sy, zy, zy.dtype)
