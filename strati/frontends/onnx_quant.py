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
with onnxruntime).  MatMulInteger and ConvInteger are the integer products alone.

The scales and zero points of QuantizeLinear and DequantizeLinear (per tensor, per axis,
or per block) and the zero points of MatMulInteger and ConvInteger may be computed at run
time, as DynamicQuantizeLinear's are; QLinearMatMul's and QLinearConv's must be constants
(the requantisation multiplier is computed at import)."""

from __future__ import annotations

import math

import numpy as np

from strati.dense import is_float8

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
        return not x_float and n.dtype(0) == np.int8 and n.a("output_dtype", 0) in (0, 1)
    if zero.size != 1 or zero.dtype != np.int8:
        return False
    return n.dtype(0) == np.float32 if x_float else n.a("output_dtype", 0) in (0, 1)


def _along_axis(n: Node, i: int, shape: tuple, what: str, dtype: np.dtype):
    """Input ``i`` (a scale or zero point, constant or computed) as ``dtype``, shaped to
    broadcast against ``shape`` as ONNX's reference reshapes it: one value, one per index of
    ``axis``, or one per block of ``block_size`` along it (gathered to the full shape)."""
    s = n.static_shape(i)
    v = n.x(i) if n.dtype(i) == dtype else n.b.cast(n.x(i), dtype)
    if math.prod(s) == 1:
        return n.b.reshape(v, ())
    rank = len(shape)
    axis = n.a("axis", 1)
    if not -rank <= axis < rank:
        raise NodeError(f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    block = n.a("block_size", 0)
    if block:
        want = tuple(-(-shape[d] // block) if d == axis else shape[d] for d in range(rank))
        if block < 0 or tuple(s) != want:
            raise NodeError(f"{what} of shape {list(s)} does not block the input's {list(shape)} by {block} along axis {axis}")
        index = np.arange(shape[axis], dtype=np.int64) // block
        return n.b.op("graph.gather", [v, n.b.constant(index)], {"axis": axis})
    if len(s) != 1 or s[0] != shape[axis]:
        raise NodeError(f"{what} must be one value or one per index of axis {axis}, got shape {list(s)}")
    return n.b.reshape(v, [shape[axis] if d == axis else 1 for d in range(rank)])


def _saturated(n: Node, r, dtype: np.dtype, zero, target: np.dtype):
    """clip(r + zero, the range of ``target``), cast to ``target`` (``r`` is integral)."""
    if zero is not None:
        r = n.b.binary("add", r, zero)
    low, high = _RANGES[target]
    r = n.b.binary("minimum", n.b.binary("maximum", r, n.b.scalar(low, dtype)), n.b.scalar(high, dtype))
    return n.b.cast(r, target)


@op("QuantizeLinear")
def _quantize(n: Node):
    if _int8_per_tensor(n, True) and not n.a("precision", 0):
        props = {"scale": float(_scalar(n, 1, "y_scale")), "zero_point": int(_scalar(n, 2, "y zero point"))}
        return n.b.op("graph.quantize", [n.x(0)], props)
    shape = n.static_shape(0)
    target = n.dtype(2) if n.has(2) else elem_dtype(n.a("output_dtype", 0) or 2)  # default uint8
    if target is not None and is_float8(target):
        return _quantize_float8(n, shape, target)
    if target not in _RANGES:
        raise NodeError(f"quantizes to int8, uint8, int16 or uint16, not {target}")
    dtype = np.result_type(n.dtype(0), n.dtype(1))
    if n.a("precision", 0):
        dtype = elem_dtype(n.a("precision"))
    if dtype is None or dtype.kind != "f":
        raise NodeError(f"quantizes a floating-point tensor, got {n.dtype(0)}")
    x = n.x(0) if n.dtype(0) == dtype else n.b.cast(n.x(0), dtype)
    scale = _along_axis(n, 1, shape, "y_scale", dtype)
    r = round_half_even(n, n.b.binary("div", x, scale), dtype)
    if dtype.itemsize < 4:  # float16: the zero point and the range are exact in float32
        r, dtype = n.b.cast(r, np.dtype(np.float32)), np.dtype(np.float32)
    zero = _along_axis(n, 2, shape, "y zero point", dtype) if n.has(2) else None
    return _saturated(n, r, dtype, zero, target)


@op("DequantizeLinear")
def _dequantize(n: Node):
    if _int8_per_tensor(n, False):
        props = {"scale": float(_scalar(n, 1, "x_scale")), "zero_point": int(_scalar(n, 2, "x zero point", 0))}
        return n.b.op("graph.dequantize", [n.x(0)], props)
    shape = n.static_shape(0)
    if is_float8(n.dtype(0)):
        return _dequantize_float8(n, shape)
    if n.dtype(0).kind not in "iu":
        raise NodeError(f"dequantizes an integer tensor, got {n.dtype(0)}")
    out = elem_dtype(n.a("output_dtype", 0)) if n.a("output_dtype", 0) else n.dtype(1)
    if out is None or out.kind != "f":
        raise NodeError(f"dequantizes to a floating-point type, not {n.a('output_dtype')}")
    # The zero point is subtracted on integers, so that one float op remains (compiled code
    # may reassociate float arithmetic): exact, as the reference's float32 (float64 for int32).
    small = n.dtype(0).itemsize < 4
    wide = np.dtype(np.int32 if small else np.int64)
    q = n.b.cast(n.x(0), wide)
    if n.has(2):
        q = n.b.binary("sub", q, _along_axis(n, 2, shape, "x zero point", wide))
    dtype = np.result_type(np.float32 if small else np.float64, n.dtype(1))
    y = n.b.binary("mul", n.b.cast(q, dtype), _along_axis(n, 1, shape, "x_scale", dtype))
    return y if dtype == out else n.b.cast(y, out)


def _zero_point_is_zero(n: Node) -> None:
    """A float8 zero point must be 0 (ONNX): it is not added (a constant one is checked)."""
    zero = n.const(2) if n.has(2) else None
    if zero is not None:
        if np.any(zero.astype(np.float32) != 0):
            raise NodeError(f"a float8 zero point must be 0, got {zero.astype(np.float32).reshape(-1)[:4].tolist()}")


def _quantize_float8(n: Node, shape: tuple, target: np.dtype):
    """``x / scale`` in the operands' float type, cast to float8 (round to nearest even),
    saturated unless ``saturate = 0``: ONNX's reference."""
    _zero_point_is_zero(n)
    dtype = np.result_type(n.dtype(0), n.dtype(1))
    if n.a("precision", 0):
        dtype = elem_dtype(n.a("precision"))
    x = n.x(0) if n.dtype(0) == dtype else n.b.cast(n.x(0), dtype)
    y = n.b.binary("div", x, _along_axis(n, 1, shape, "y_scale", dtype))
    return n.b.cast(y, target, saturate=bool(n.a("saturate", 1)))


def _dequantize_float8(n: Node, shape: tuple):
    """``float32(x) * scale``, then the output type: ONNX's reference (the zero point must be 0)."""
    _zero_point_is_zero(n)
    out = elem_dtype(n.a("output_dtype", 0)) if n.a("output_dtype", 0) else n.dtype(1)
    dtype = np.result_type(np.float32, n.dtype(1))
    y = n.b.binary("mul", n.b.cast(n.x(0), dtype), _along_axis(n, 1, shape, "x_scale", dtype))
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


def _centred(n: Node, i: int, zero: int | None, per_row: bool = False):
    """Input ``i`` minus the zero point at input ``zero`` (constant or computed; one value,
    or one per row with ``per_row``, else per column), in float64: exact for integers."""
    f64 = np.dtype(np.float64)
    x = n.b.cast(n.x(i), f64)
    if zero is None or not n.has(zero):
        return x
    z = n.b.cast(n.x(zero), f64)
    zs = n.static_shape(zero)
    if math.prod(zs) == 1:
        z = n.b.reshape(z, ())
    elif per_row:
        z = n.b.reshape(z, (math.prod(zs), 1))
    return n.b.binary("sub", x, z)


def _requantized(n: Node, acc, multiplier: np.ndarray, zero: np.ndarray, target: np.dtype):
    """``round_half_even(acc * multiplier) + zero``, saturated, in float32 as onnxruntime
    (the multiplier ``s_a * s_b / s_y`` in float32; the int32 accumulator exact in float32
    below 2**24)."""
    if target not in _RANGES:
        raise NodeError(f"produces int8, uint8, int16 or uint16, not {target}")
    f32 = np.dtype(np.float32)
    y = n.b.binary("mul", n.b.cast(acc, f32), n.b.constant(np.asarray(multiplier, dtype=f32)))
    return _saturated(n, round_half_even(n, y, f32), f32, n.b.constant(zero.astype(f32)), target)


@op("QLinearMatMul", static=(1, 2, 4, 5, 6, 7))
def _qlinear_matmul(n: Node):
    shift = _shift(n, (1, 4, 6), (2, 5, 7))
    if shift is not None and n.rank(0) == 2 and n.rank(3) == 2:
        return n.b.op("graph.qmatmul", [n.x(0), n.x(3)], {"shift": shift})
    sa, sb, sy, zy = (n.need_const(i, what) for i, what in ((1, "a_scale"), (4, "b_scale"), (6, "y_scale"), (7, "y zero point")))
    if sa.size > 1:  # per row of a
        sa = sa.reshape(-1, 1)
    acc = n.b.op("graph.matmul", [_centred(n, 0, 2, per_row=True), _centred(n, 3, 5)])
    return _requantized(n, acc, sa * sb / sy, zy, zy.dtype)


@op("QLinearConv", static=(1, 2, 4, 5, 6, 7))
def _qlinear_conv(n: Node):
    shift = _shift(n, (1, 4, 6), (2, 5, 7))
    if shift is not None and n.a("group", 1) == 1:
        strides, dilations, pads = _conv_geometry(n)
        operands = [n.x(0), n.x(3)] + ([n.x(8)] if n.has(8) else [])
        props = {"strides": tuple(strides), "pads": tuple(pads), "dilations": tuple(dilations), "groups": 1, "shift": shift}
        return n.b.op("graph.qconv2d", operands, props)
    sx, sw, sy, zy = (n.need_const(i, what) for i, what in ((1, "x_scale"), (4, "w_scale"), (6, "y_scale"), (7, "y zero point")))
    if sw.size > 1:  # per output channel
        sw = sw.reshape(1, -1, 1, 1)
    bias = n.b.cast(n.x(8), np.dtype(np.float64)) if n.has(8) else None
    return _requantized(n, _int_conv(n, 0, 2, 3, 5, bias), sx * sw / sy, zy, zy.dtype)


def _conv_geometry(n: Node) -> tuple[list[int], list[int], list[int]]:
    kernel = n.static_shape(3 if n.op_type == "QLinearConv" else 1)[2:]
    if len(kernel) != 2:
        raise NodeError(f"convolution with {len(kernel)} spatial dimensions is not supported quantized")
    strides, dilations, begins, ends = _window_geometry(n, n.shape(0)[2:], kernel)
    return strides, dilations, begins + ends


def _int_conv(n: Node, x: int, x_zero: int | None, w: int, w_zero: int | None, bias=None):
    """The convolution of the centred integer inputs, in float64 (exact)."""
    strides, dilations, pads = _conv_geometry(n)
    weight = n.b.cast(n.x(w), np.dtype(np.float64))
    if w_zero is not None and n.has(w_zero):
        z = n.b.cast(n.x(w_zero), np.dtype(np.float64))
        zs = n.static_shape(w_zero)
        z = n.b.reshape(z, () if math.prod(zs) == 1 else (math.prod(zs), 1, 1, 1))  # per output channel
        weight = n.b.binary("sub", weight, z)
    return _conv2d(n, _centred(n, x, x_zero), weight, bias, strides, pads, dilations, n.a("group", 1))


@op("MatMulInteger")
def _matmul_integer(n: Node):
    """int32 ``(a - a_zero_point) @ (b - b_zero_point)``; the zero points may be computed
    (DynamicQuantizeLinear's), per tensor, per row of a or per column of b."""
    acc = n.b.op("graph.matmul", [_centred(n, 0, 2, per_row=True), _centred(n, 1, 3)])
    return n.b.cast(acc, np.dtype(np.int32))


@op("ConvInteger")
def _conv_integer(n: Node):
    """int32 convolution of ``x - x_zero_point`` by ``w - w_zero_point`` (per output channel)."""
    return n.b.cast(_int_conv(n, 0, 2, 1, 3), np.dtype(np.int32))
