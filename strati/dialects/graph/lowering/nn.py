"""``lower`` for the linear-algebra and neural-network ops.

- matmul, gemm, conv2d: one ``tensor.generic`` each with parallel loops over the
  result and reduction loops over the contraction, accumulating into a
  zero-filled (conv2d: bias-broadcast) init; transposes, broadcasting, strides,
  dilations and groups are all in the indexing maps.  Padding is a ``tensor.pad``
  first, so the maps never leave their operand.
- max/avg pooling: a reduction over the window (``tensor.pad`` with -inf or 0
  first); the window loops take their extents from a shape-only
  ``tensor.empty`` operand, as linalg's pooling ops do.  avg divides by the ONNX
  divisor, computed at compile time (a scalar when it is the same everywhere,
  else a constant tensor over the output positions).
- batch_norm, layer_norm, softmax, log_softmax, lrn: short chains of reductions
  and elementwise generics, in the order of operations of the numpy reference
  (max-shifted exponentials, centred variance).

As the references, float16 (any float narrower than 32 bits) is computed in
float32 and rounded once at the end.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap

from strati.dense import dense_from_numpy, to_dtype
from strati.dialects.graph.attrs.nn import _window_counts, conv_params, pool_params
from strati.diagnostics import StratiError
from strati.dialects.shapes import normalize_axis, shape_of
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, broadcast_map, dims, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.registry import register_op_attr

# --- shared helpers ----------------------------------------------------------------------


def acc_type(element: Attribute) -> Attribute:
    """The type a computation runs in: floats narrower than 32 bits go through f32."""
    if s.is_float(element) and element.bitwidth < 32:  # type: ignore[attr-defined]
        return f32
    return element


def _up(acc: Attribute):
    return lambda v: s.cast(v, acc)


def _tensor(element: Attribute, shp) -> TensorType:
    return TensorType(element, list(shp))


def _map(n: int, results) -> AffineMap:
    return AffineMap(n, 0, tuple(results))


def _identity_generic(b: TensorBuilder, inputs, in_maps, out_t: TensorType, body) -> SSAValue:
    """A parallel generic over ``out_t``'s shape with the given input maps."""
    rank = len(out_t.get_shape())
    (y,) = b.generic(
        inputs, [b.empty(out_t)], [*in_maps, AffineMap.identity(rank)], [PARALLEL] * rank, lambda *a: body(*a[:-1])
    )
    return y


def _finish(b: TensorBuilder, y: SSAValue, result_type: TensorType) -> SSAValue:
    """``y`` rounded to the result's element type (no op when it already is)."""
    if element_type(y) == result_type.get_element_type():
        return y
    return b.elementwise([y], result_type, lambda v: s.cast(v, result_type.get_element_type()))


def scaled(d: AffineExpr, k: int) -> AffineExpr:
    return d if k == 1 else d * k


def _lowest(element: Attribute) -> float | int:
    if s.is_float(element):
        return float("-inf")
    return int(np.iinfo(to_dtype(element)).min)


def _np_scalar(acc: Attribute, value: float) -> float:
    """``value`` rounded as the reference's dtype would hold it."""
    return float(to_dtype(acc).type(value))


# --- matmul ------------------------------------------------------------------------------


def lower_matmul(op: Operation, b: TensorBuilder) -> SSAValue:
    """numpy.matmul: loops (batch..., m, n, k); 1-D operands reshaped to a row/column first."""
    x, y = op.operands
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    xs, ys = shape(x), shape(y)
    if len(xs) == 1:
        xs = (1, xs[0])
        x = b.reshape(x, xs)
    if len(ys) == 1:
        ys = (ys[0], 1)
        y = b.reshape(y, ys)
    batch = tuple(np.broadcast_shapes(xs[:-2], ys[:-2]))
    nb = len(batch)
    rank = nb + 3
    d = dims(rank)
    m, n, k = d[nb], d[nb + 1], d[nb + 2]
    x_map = _map(rank, [*broadcast_map(xs[:-2], batch).results, m, k])
    y_map = _map(rank, [*broadcast_map(ys[:-2], batch).results, k, n])
    out_map = _map(rank, d[: nb + 2])
    full = (*batch, xs[-2], ys[-1])
    init = b.filled(0, _tensor(acc, full))
    (prod,) = b.generic(
        [x, y],
        [init],
        [x_map, y_map, out_map],
        [PARALLEL] * (nb + 2) + [REDUCTION],
        lambda a, c, o: s.add(o, s.mul(up(a), up(c))),
    )
    prod = _finish(b, prod, _tensor(elem, full))
    if full != tuple(result_type.get_shape()):
        prod = b.reshape(prod, result_type.get_shape())
    return prod


# --- gemm --------------------------------------------------------------------------------


def lower_gemm(op: Operation, b: TensorBuilder) -> SSAValue:
    """Loops (m, n, k); a transpose swaps the operand's map.  alpha and beta * c follow
    in one elementwise generic, as the reference orders them (c is not read when beta = 0)."""
    a, w = op.operands[0], op.operands[1]
    c = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    elem = element_type(a)
    acc, up = acc_type(elem), _up(acc_type(elem))
    m, n, k = dims(3)
    a_map = _map(3, (k, m) if op.param("trans_a") else (m, k))
    w_map = _map(3, (n, k) if op.param("trans_b") else (k, n))
    init = b.filled(0, _tensor(acc, result_type.get_shape()))
    (prod,) = b.generic(
        [a, w],
        [init],
        [a_map, w_map, _map(3, (m, n))],
        [PARALLEL, PARALLEL, REDUCTION],
        lambda x, y, o: s.add(o, s.mul(up(x), up(y))),
    )
    alpha, beta = op.param("alpha"), op.param("beta")
    use_c = c is not None and beta != 0.0
    if alpha == 1.0 and not use_c:
        return _finish(b, prod, result_type)

    def epilogue(p: SSAValue, *rest: SSAValue) -> SSAValue:
        if alpha != 1.0:
            p = s.mul(p, s.const(alpha, acc))
        if use_c:
            cv = up(rest[0])
            if beta != 1.0:
                cv = s.mul(cv, s.const(beta, acc))
            p = s.add(p, cv)
        return s.cast(p, elem)

    return b.elementwise([prod, c] if use_c else [prod], result_type, epilogue)


# --- conv2d ------------------------------------------------------------------------------


def high_pad(size: int, low: int, out: int, stride: int, kernel: int, dilation: int) -> int:
    """How far past the input the windows reach (no more than they read)."""
    reach = (out - 1) * stride + dilation * (kernel - 1) + 1
    return max(0, reach - size - low)


def conv_patches(op: Operation, b: TensorBuilder) -> SSAValue:
    """The patch matrix of a convolution, ``cols[n, r, p]`` with ``r`` over (ic, kh, kw) and
    ``p`` over the output pixels: the image itself for a pointwise one, else gathered from the
    padded input (im2col); with one group the convolution is ``w[oc, r] @ cols[n]``, with
    several the rows of each group follow one another (channel-major)."""
    x, w = op.operands[0], op.operands[1]
    (sh, sw), pads, (dh, dw), _ = conv_params(op)
    n, c, h, wd = shape(x)
    _, _, kh, kw = shape(w)
    _, _, oh, ow = op.results[0].type.get_shape()
    if (kh, kw) == (1, 1) and (sh, sw) == (1, 1) and not any(pads):
        return b.reshape(x, (n, c, oh * ow))
    high = (high_pad(h, pads[0], oh, sh, kh, dh), high_pad(wd, pads[1], ow, sw, kw, dw))
    if any(pads[:2]) or any(high):
        x = b.pad(x, (0, 0, pads[0], pads[1]), (0, 0, *high), 0)
    d = dims(6)  # (n, ic, kh, kw, oh, ow)
    rows, columns = scaled(d[4], sh) + scaled(d[2], dh), scaled(d[5], sw) + scaled(d[3], dw)
    patches_t = TensorType(element_type(x), [n, c, kh, kw, oh, ow])
    (patches,) = b.generic(
        [x], [b.empty(patches_t)], [AffineMap(6, 0, (d[0], d[1], rows, columns)), AffineMap.identity(6)],
        [PARALLEL] * 6, lambda v, _: v,
    )
    return b.reshape(patches, (n, c * kh * kw, oh * ow))


def lower_conv2d(op: Operation, b: TensorBuilder) -> SSAValue:
    """Loops (n, oc, oh, ow, ic, kh, kw) over the padded input: input channel
    ``(oc floordiv out_per_group) * in_per_group + ic``, rows ``oh * sh + kh * dh``."""
    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    (sh, sw), pads, (dh, dw), groups = conv_params(op)
    _, _, h, wd = shape(x)
    o, cg, kh, kw = shape(w)
    _, _, oh, ow = result_type.get_shape()
    low = (pads[0], pads[1])
    high = (high_pad(h, pads[0], oh, sh, kh, dh), high_pad(wd, pads[1], ow, sw, kw, dw))
    if any(low) or any(high):
        x = b.pad(x, (0, 0, *low), (0, 0, *high), 0)
    d = dims(7)
    per_group = o // groups
    if groups == 1:
        channel = d[4]
    else:
        group = d[1] if per_group == 1 else d[1] // per_group
        channel = scaled(group, cg) + d[4]
    x_map = _map(7, (d[0], channel, scaled(d[2], sh) + scaled(d[5], dh), scaled(d[3], sw) + scaled(d[6], dw)))
    w_map = _map(7, (d[1], d[4], d[5], d[6]))
    out_map = _map(7, d[:4])
    acc_t = _tensor(acc, result_type.get_shape())
    if bias is None:
        init = b.filled(0, acc_t)
    else:  # the accumulation starts from the bias, broadcast over (n, oh, ow)
        init = _identity_generic(b, [bias], [_map(4, (d[1],))], acc_t, up)
    (y,) = b.generic(
        [x, w],
        [init],
        [x_map, w_map, out_map],
        [PARALLEL] * 4 + [REDUCTION] * 3,
        lambda xv, wv, a: s.add(a, s.mul(up(xv), up(wv))),
    )
    return _finish(b, y, result_type)


# --- pooling -----------------------------------------------------------------------------


def _pool_window(op: Operation, b: TensorBuilder, fill: float | int, body, init: SSAValue) -> SSAValue:
    """The reduction over every window: loops (n, c, oh, ow, kh, kw) over the input padded
    with ``fill`` (as far as ceil-mode windows reach); a (kh, kw) ``tensor.empty`` gives
    the window loops their extents."""
    x = op.operands[0]
    kernel, (sh, sw), pads, (dh, dw), _ = pool_params(op)
    h, w = shape(x)[2:4]
    oh, ow = op.results[0].type.get_shape()[2:4]
    blocked = len(shape(x)) == 5  # NCHW{c}c (graph.*_pool2d_blocked): the lanes last, a loop of their own
    tail = (0,) if blocked else ()
    low = (pads[0], pads[1])
    high = (high_pad(h, pads[0], oh, sh, kernel[0], dh), high_pad(w, pads[1], ow, sw, kernel[1], dw))
    if any(low) or any(high):
        x = b.pad(x, (0, 0, *low, *tail), (0, 0, *high, *tail), fill)
    window = b.empty(_tensor(element_type(x), kernel))
    rank = 7 if blocked else 6
    d = dims(rank)
    lanes = (d[6],) if blocked else ()
    x_map = _map(rank, (d[0], d[1], scaled(d[2], sh) + scaled(d[4], dh), scaled(d[3], sw) + scaled(d[5], dw), *lanes))
    (y,) = b.generic(
        [x, window],
        [init],
        [x_map, _map(rank, (d[4], d[5])), _map(rank, (*d[:4], *lanes))],
        [PARALLEL] * 4 + [REDUCTION] * 2 + [PARALLEL] * len(lanes),
        lambda v, _, a: body(a, v),
    )
    return y


def lower_max_pool2d(op: Operation, b: TensorBuilder) -> SSAValue:
    result_type = op.results[0].type
    lowest = _lowest(element_type(result_type))
    return _pool_window(op, b, lowest, s.maximum, b.filled(lowest, result_type))


def lower_avg_pool2d(op: Operation, b: TensorBuilder) -> SSAValue:
    """Window sums, then a division by the ONNX divisor: the taps inside the input (and
    the explicit padding with count_include_pad; never past it in ceil mode)."""
    x = op.operands[0]
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    out_shape = tuple(result_type.get_shape())
    sums = _pool_window(op, b, 0, lambda a, v: s.add(a, up(v)), b.filled(0, _tensor(acc, out_shape)))
    kernel, strides, pads, dilations, _ = pool_params(op)
    h, w = shape(x)[2:4]
    include = bool(op.param("count_include_pad"))
    ch = _window_counts(out_shape[2], h, kernel[0], strides[0], (pads[0], pads[2]), dilations[0], include)
    cw = _window_counts(out_shape[3], w, kernel[1], strides[1], (pads[1], pads[3]), dilations[1], include)
    counts = (ch[:, None] * cw[None, :]).astype(to_dtype(acc))
    if counts.size and (counts == counts.flat[0]).all():
        divisor = float(counts.flat[0])
        return b.elementwise([sums], result_type, lambda v: s.cast(s.div(v, s.const(divisor, acc)), elem))
    if len(out_shape) == 5:  # blocked: (oh, ow, 1) broadcast over (n, cb) and the lanes
        counts = counts[:, :, None]
    table = b.dense(dense_from_numpy(np.ascontiguousarray(counts)))  # (oh, ow), broadcast over (n, c)
    return b.elementwise([sums, table], result_type, lambda v, c: s.cast(s.div(v, c), elem))


def lower_global_avg_pool2d(op: Operation, b: TensorBuilder) -> SSAValue:
    x = op.operands[0]
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    n, c, h, w = shape(x)
    sums = b.reduce(x, [2, 3], True, 0, lambda a, v: s.add(a, up(v)), _tensor(acc, (n, c, 1, 1)))
    count = float(h * w)
    return b.elementwise([sums], result_type, lambda v: s.cast(s.div(v, s.const(count, acc)), elem))


# --- batch_norm --------------------------------------------------------------------------


def lower_batch_norm(op: Operation, b: TensorBuilder) -> SSAValue:
    """``(x - mean) / std * scale + bias`` per channel (dimension 1), with
    ``std = sqrt(var + eps)`` computed once per channel by a small generic."""
    x, scale, bias, mean, var = op.operands
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    eps = op.param("epsilon")
    (channels,) = shape(var)
    std = b.elementwise(
        [var], _tensor(acc, (channels,)), lambda v: s.unary_math("sqrt", s.add(up(v), s.const(eps, acc)))
    )
    rank = len(shape(x))
    per_channel = _map(rank, dims(rank)[1:2])

    def body(xv, sc, bi, mu, sd):
        y = s.div(s.sub(up(xv), up(mu)), sd)
        return s.cast(s.add(s.mul(y, up(sc)), up(bi)), elem)

    return _identity_generic(b, [x, scale, bias, mean, std], [AffineMap.identity(rank)] + [per_channel] * 4, result_type, body)


# --- layer_norm --------------------------------------------------------------------------


def _reduced(rank: int, axes) -> AffineMap:
    """Iteration space -> the keepdims reduction result (0 on the reduced axes)."""
    return _map(rank, [AffineConstantExpr(0) if i in axes else e for i, e in enumerate(dims(rank))])


def lower_layer_norm(op: Operation, b: TensorBuilder) -> SSAValue:
    """mean = sum / n; var = sum((x - mean)^2) / n; (x - mean) / sqrt(var + eps) * scale + bias."""
    x, scale = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    xs = shape(x)
    rank = len(xs)
    axes = list(range(normalize_axis(op.param("axis"), rank), rank))
    count = float(np.prod([xs[i] for i in axes]))
    red_t = _tensor(acc, [1 if i in axes else n for i, n in enumerate(xs)])
    sums = b.reduce(x, axes, True, 0, lambda a, v: s.add(a, up(v)), red_t)
    mean = b.elementwise([sums], red_t, lambda v: s.div(v, s.const(count, acc)))
    kinds = [REDUCTION if i in axes else PARALLEL for i in range(rank)]

    def square(xv, mu, a):
        centered = s.sub(up(xv), mu)
        return s.add(a, s.mul(centered, centered))

    (squares,) = b.generic(
        [x, mean], [b.filled(0, red_t)], [AffineMap.identity(rank), _reduced(rank, axes), _reduced(rank, axes)], kinds, square
    )
    eps = op.param("epsilon")
    std = b.elementwise(
        [squares], red_t, lambda v: s.unary_math("sqrt", s.add(s.div(v, s.const(count, acc)), s.const(eps, acc)))
    )

    def body(xv, mu, sd, sc, *bi):
        y = s.mul(s.div(s.sub(up(xv), mu), sd), up(sc))
        if bi:
            y = s.add(y, up(bi[0]))
        return s.cast(y, elem)

    return b.elementwise([x, mean, std, scale, *([bias] if bias is not None else [])], result_type, body)


# --- softmax, log_softmax ----------------------------------------------------------------


def _softmax_parts(op: Operation, b: TensorBuilder):
    """The max along the axis, exp(x - max), and the sum of those (keepdims)."""
    x = op.operands[0]
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    xs = shape(x)
    axis = normalize_axis(op.param("axis"), len(xs))
    top = b.reduce(x, [axis], True, float("-inf"), s.maximum)
    e = b.elementwise([x, top], _tensor(acc, xs), lambda v, m: s.unary_math("exp", s.sub(up(v), up(m))))
    total = b.reduce(e, [axis], True, 0, s.add)
    return x, top, e, total, elem, up


def lower_softmax(op: Operation, b: TensorBuilder) -> SSAValue:
    _, _, e, total, elem, _ = _softmax_parts(op, b)
    return b.elementwise([e, total], op.results[0].type, lambda v, t: s.cast(s.div(v, t), elem))


def lower_log_softmax(op: Operation, b: TensorBuilder) -> SSAValue:
    x, top, _, total, elem, up = _softmax_parts(op, b)
    return b.elementwise(
        [x, top, total],
        op.results[0].type,
        lambda v, m, t: s.cast(s.sub(s.sub(up(v), up(m)), s.unary_math("log", t)), elem),
    )


# --- lrn ---------------------------------------------------------------------------------


def lower_lrn(op: Operation, b: TensorBuilder) -> SSAValue:
    """Sums of squares over the channel window [c - (size-1)//2, c + size-1 - (size-1)//2]
    of the zero-padded input (loops (n, c, spatial..., j), a (size,) ``tensor.empty``
    gives j its extent), then ``x / (bias + alpha / size * sum) ** beta``."""
    x = op.operands[0]
    result_type = op.results[0].type
    elem = element_type(x)
    acc, up = acc_type(elem), _up(acc_type(elem))
    xs = shape(x)
    rank = len(xs)
    size = op.param("size")
    before, after = (size - 1) // 2, size - 1 - (size - 1) // 2
    low, high = [0] * rank, [0] * rank
    low[1], high[1] = before, after
    padded = b.pad(x, low, high, 0) if size > 1 else x
    window = b.empty(_tensor(elem, (size,)))
    d = dims(rank + 1)
    x_map = _map(rank + 1, [d[0], d[1] + d[rank], *d[2:rank]])

    def square(v, _, a):
        v = up(v)
        return s.add(a, s.mul(v, v))

    (sums,) = b.generic(
        [padded, window],
        [b.filled(0, _tensor(acc, xs))],
        [x_map, _map(rank + 1, [d[rank]]), _map(rank + 1, d[:rank])],
        [PARALLEL] * rank + [REDUCTION],
        square,
    )
    dtype = to_dtype(acc).type
    scale = float(dtype(op.param("alpha")) / dtype(size))
    bias, beta = _np_scalar(acc, op.param("bias")), _np_scalar(acc, op.param("beta"))

    def body(v, t):
        denominator = s.powf(s.add(s.const(bias, acc), s.mul(s.const(scale, acc), t)), s.const(beta, acc))
        return s.cast(s.div(up(v), denominator), elem)

    return b.elementwise([x, sums], result_type, body)


_LOWER = {
    "graph.matmul": lower_matmul,
    "graph.gemm": lower_gemm,
    "graph.conv2d": lower_conv2d,
    "graph.max_pool2d": lower_max_pool2d,
    "graph.avg_pool2d": lower_avg_pool2d,
    "graph.max_pool2d_blocked": lower_max_pool2d,
    "graph.avg_pool2d_blocked": lower_avg_pool2d,
    "graph.global_avg_pool2d": lower_global_avg_pool2d,
    "graph.batch_norm": lower_batch_norm,
    "graph.layer_norm": lower_layer_norm,
    "graph.softmax": lower_softmax,
    "graph.log_softmax": lower_log_softmax,
    "graph.lrn": lower_lrn,
}



def _static_only(lower):
    """The tensor level has static shapes: a dynamic dimension left here is a diagnostic, not a crash."""

    def checked(op: Operation, b: TensorBuilder):
        for value in (*op.operands, *op.results):
            if isinstance(value.type, TensorType) and None in shape_of(value.type):
                raise StratiError(
                    f"cannot lower with the dynamic shape {value.type}: the tensor level needs static shapes "
                    "(run infer-shapes with known input shapes first)",
                    op,
                )
        return lower(op, b)

    checked.__name__ = checked.__qualname__ = lower.__name__
    checked.__module__ = lower.__module__
    checked.__doc__ = lower.__doc__
    return checked


for _name, _lower in _LOWER.items():
    register_op_attr(_name, "lower", _static_only(_lower))
