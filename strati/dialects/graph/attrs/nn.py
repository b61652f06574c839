"""Attributes of the linear-algebra and neural-network ops.

matmul, gemm, conv2d, max/avg/global-avg pooling, batch_norm, layer_norm,
softmax, log_softmax and lrn.  ``infer_type`` is each op's verifier: it checks
ranks, property lengths and ranges, element types and the operand shapes
against each other, and names what is wrong.  A dynamic dimension (``None``)
is compatible with anything and makes the dimensions computed from it dynamic.

The references follow ONNX (and numpy for matmul) exactly; float16 is computed in
float32 and rounded once at the end, as onnxruntime does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.common import (
    operand_shape,
    require_float,
    require_same_element,
    result_dtype,
    result_shape,
)
from strati.dialects.shapes import (
    Shape,
    broadcast_shapes,
    fmt,
    is_float,
    is_int,
    make_tensor,
    normalize_axis,
    num_elements,
)
from strati.registry import OpPattern, register_op_attr

# --- shared checks ---------------------------------------------------------------------


def _shape_text(shape: Shape) -> str:
    return f"[{fmt(shape)}]"


def require_numeric(op: Operation, indices: Sequence[int]) -> Attribute:
    """Operands of one integer or floating-point element type (not i1)."""
    element = require_same_element(op, indices)
    if not (is_float(element) or is_int(element)):
        raise VerifyException(f"expects integer or floating-point tensors, got {op.operands[indices[0]].type}")
    return element


def require_float_same(op: Operation, indices: Sequence[int]) -> Attribute:
    element = require_same_element(op, indices)
    require_float(op, indices[0])
    return element


def require_min_rank(op: Operation, index: int, rank: int, what: str) -> Shape:
    shape = operand_shape(op, index)
    if len(shape) < rank:
        raise VerifyException(f"{what} must have rank at least {rank}, got {op.operands[index].type}")
    return shape


def int_list(op: Operation, name: str, count: int, minimum: int) -> tuple[int, ...]:
    """A list property with ``count`` values, each at least ``minimum`` (0 or 1)."""
    values = op.param(name)
    if values is None:
        raise VerifyException(f"{name} must be given ({count} values)")
    if len(values) != count:
        raise VerifyException(f"{name} must have {count} values, got {len(values)}")
    if any(v < minimum for v in values):
        kind = "positive" if minimum == 1 else "non-negative"
        raise VerifyException(f"{name} must be {kind}, got {list(values)}")
    return tuple(values)


def epsilon_of(op: Operation) -> float:
    eps = op.param("epsilon")
    if not eps >= 0:  # also rejects NaN
        raise VerifyException(f"epsilon must be non-negative, got {eps}")
    return eps


def require_unidirectional(shape: Shape, target: Shape, what: str, target_what: str) -> None:
    """``shape`` broadcasts to ``target`` without changing it (ONNX unidirectional broadcasting)."""
    ok = len(shape) <= len(target) and all(
        d == 1 or d is None or t is None or d == t for d, t in zip(reversed(shape), reversed(target))
    )
    if not ok:
        raise VerifyException(
            f"{what} of shape {_shape_text(shape)} does not broadcast to {target_what} {_shape_text(target)}"
        )


def require_vector(op: Operation, index: int, size: int | None, what: str) -> None:
    """Operand ``index`` is 1-D with ``size`` elements (per-channel parameters)."""
    shape = operand_shape(op, index)
    if len(shape) != 1 or (size is not None and shape[0] is not None and shape[0] != size):
        want = "?" if size is None else str(size)
        raise VerifyException(f"{what} must have shape [{want}], got {op.operands[index].type}")


def acc_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype a reference computes in: float16 goes through float32."""
    return np.dtype(np.float32) if dtype.kind == "f" and dtype.itemsize < 4 else dtype


def finish(op: Operation, y) -> np.ndarray:
    """The result as an array (never a numpy scalar) of exactly the result's dtype."""
    y = np.asarray(y).astype(result_dtype(op), copy=False)
    return y if y.flags.c_contiguous else y.copy(order="C")


def _known(shape: Shape) -> int:
    """Elements of a shape, 0 when a dimension is dynamic (cost unknown)."""
    return num_elements(shape) or 0


# --- matmul ----------------------------------------------------------------------------


def infer_matmul(op: Operation) -> list[TensorType]:
    element = require_numeric(op, [0, 1])
    a, b = operand_shape(op, 0), operand_shape(op, 1)
    for index, (shape, name) in enumerate(((a, "lhs"), (b, "rhs"))):
        if not shape:
            raise VerifyException(f"{name} must have rank at least 1, got {op.operands[index].type}")
    k_a = a[-1]
    k_b = b[0] if len(b) == 1 else b[-2]
    if k_a is not None and k_b is not None and k_a != k_b:
        raise VerifyException(f"matmul contraction dimensions differ: {_shape_text(a)} and {_shape_text(b)}")
    batch_a, batch_b = a[:-2], b[:-2]
    try:
        batch = broadcast_shapes(batch_a, batch_b)
    except VerifyException:
        raise VerifyException(
            f"matmul batch dimensions do not broadcast: {_shape_text(a)} and {_shape_text(b)}"
        ) from None
    rows = a[-2:-1]  # empty for a 1-D lhs
    cols = b[-1:] if len(b) >= 2 else ()
    return [make_tensor(batch + rows + cols, element)]


def matmul(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    dtype = acc_dtype(a.dtype)
    return finish(op, np.matmul(a.astype(dtype, copy=False), b.astype(dtype, copy=False)))


def matmul_flops(op: Operation) -> int:
    a = operand_shape(op, 0)
    k = a[-1]
    return 0 if k is None else 2 * k * _known(result_shape(op))


# --- gemm ------------------------------------------------------------------------------


def gemm_dims(op: Operation) -> tuple[int | None, int | None, int | None]:
    """(M, K, N) after the transpositions."""
    a, b = operand_shape(op, 0), operand_shape(op, 1)
    m, k_a = (a[1], a[0]) if op.param("trans_a") else (a[0], a[1])
    k_b, n = (b[1], b[0]) if op.param("trans_b") else (b[0], b[1])
    return m, (k_a if k_a is not None else k_b), n


def infer_gemm(op: Operation) -> list[TensorType]:
    has_c = len(op.operands) == 3
    element = require_float_same(op, [0, 1, 2] if has_c else [0, 1])
    a = operand_shape(op, 0)
    b = operand_shape(op, 1)
    if len(a) != 2:
        raise VerifyException(f"operand a must have rank 2, got {op.operands[0].type}")
    if len(b) != 2:
        raise VerifyException(f"operand b must have rank 2, got {op.operands[1].type}")
    k_a = a[0] if op.param("trans_a") else a[1]
    k_b = b[1] if op.param("trans_b") else b[0]
    if k_a is not None and k_b is not None and k_a != k_b:
        ta = "transposed " if op.param("trans_a") else ""
        tb = "transposed " if op.param("trans_b") else ""
        raise VerifyException(
            f"gemm contraction dimensions differ: {ta}a {_shape_text(a)} has K = {k_a}, "
            f"{tb}b {_shape_text(b)} has K = {k_b}"
        )
    for name in ("alpha", "beta"):
        if not math.isfinite(op.param(name)):
            raise VerifyException(f"{name} must be finite, got {op.param(name)}")
    m, _, n = gemm_dims(op)
    if has_c:
        require_unidirectional(operand_shape(op, 2), (m, n), "c", "the result shape (M, N) =")
    return [make_tensor((m, n), element)]


def gemm(op: Operation, a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None) -> np.ndarray:
    dtype = acc_dtype(a.dtype)
    a = a.astype(dtype, copy=False)
    b = b.astype(dtype, copy=False)
    if op.param("trans_a"):
        a = a.T
    if op.param("trans_b"):
        b = b.T
    y = a @ b
    alpha, beta = op.param("alpha"), op.param("beta")
    if alpha != 1.0:
        y = y * dtype.type(alpha)
    # As BLAS and onnxruntime: with beta = 0, c is not read (so inf/NaN in c do not leak in).
    if c is not None and beta != 0.0:
        c = c.astype(dtype, copy=False)
        y = y + (c if beta == 1.0 else c * dtype.type(beta))
    return finish(op, y)


def gemm_flops(op: Operation) -> int:
    m, k, n = gemm_dims(op)
    if None in (m, k, n):
        return 0
    mn = m * n
    flops = 2 * m * k * n + (mn if op.param("alpha") != 1.0 else 0)
    if len(op.operands) == 3 and op.param("beta") != 0.0:
        flops += mn * (1 if op.param("beta") == 1.0 else 2)
    return flops


# --- conv2d and pooling: window geometry -----------------------------------------------


def window_out(
    size: int | None,
    kernel: int | None,
    stride: int,
    pad_begin: int,
    pad_end: int,
    dilation: int,
    ceil_mode: bool,
    what: str,
) -> int | None:
    """Output size along one spatial axis (ONNX rule), None when the input size is dynamic.

    With ``ceil_mode`` a partial last window counts, but only if it starts inside
    the input or the left padding (never in the right padding).
    """
    if size is None or kernel is None:
        return None
    effective = dilation * (kernel - 1) + 1
    padded = size + pad_begin + pad_end
    if effective > padded:
        raise VerifyException(
            f"dilated kernel {what} {effective} exceeds padded input {what} {padded}"
        )
    span = padded - effective
    if not ceil_mode:
        return span // stride + 1
    out = -(-span // stride) + 1
    if (out - 1) * stride >= size + pad_begin:
        out -= 1
    return out


def windows(x: np.ndarray, out: tuple[int, int], kernel, strides, dilations) -> np.ndarray:
    """The view (..., OH, OW, kh, kw) of the sliding windows over the last two axes of ``x``."""
    (kh, kw), (sh, sw), (dh, dw) = kernel, strides, dilations
    eh, ew = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    view = np.lib.stride_tricks.sliding_window_view(x, (eh, ew), axis=(-2, -1))
    return view[..., ::sh, ::sw, ::dh, ::dw][..., : out[0], : out[1], :, :]


# --- conv2d ----------------------------------------------------------------------------


def conv_params(op: Operation):
    strides = int_list(op, "strides", 2, 1)
    pads = int_list(op, "pads", 4, 0)
    dilations = int_list(op, "dilations", 2, 1)
    groups = op.param("groups")
    if groups < 1:
        raise VerifyException(f"groups must be positive, got {groups}")
    return strides, pads, dilations, groups


def infer_conv2d(op: Operation) -> list[TensorType]:
    has_bias = len(op.operands) == 3
    element = require_float_same(op, [0, 1, 2] if has_bias else [0, 1])
    strides, pads, dilations, groups = conv_params(op)
    n, c, h, w = _rank4(op, 0, "input")
    o, c_w, kh, kw = _rank4(op, 1, "weight")
    if kh == 0 or kw == 0:
        raise VerifyException(f"weight kernel must be non-empty, got {fmt((kh, kw))}")
    if c is not None and c_w is not None and c != c_w * groups:
        raise VerifyException(f"input channels {c} do not match weight channels {c_w} x groups {groups}")
    if o is not None and o % groups:
        raise VerifyException(f"output channels {o} are not divisible by groups {groups}")
    if has_bias:
        require_vector(op, 2, o, "bias")
    oh = window_out(h, kh, strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(w, kw, strides[1], pads[1], pads[3], dilations[1], False, "width")
    return [make_tensor((n, o, oh, ow), element)]


def _rank4(op: Operation, index: int, what: str) -> Shape:
    shape = operand_shape(op, index)
    if len(shape) != 4:
        raise VerifyException(f"{what} must have rank 4, got {op.operands[index].type}")
    return shape


def conv2d(op: Operation, x: np.ndarray, weight: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    """im2col: one batched matrix product per group over a strided view of the padded input."""
    strides, pads, dilations, groups = conv_params(op)
    dtype = acc_dtype(x.dtype)
    x = x.astype(dtype, copy=False)
    weight = weight.astype(dtype, copy=False)
    n, c, h, w = x.shape
    o, cg, kh, kw = weight.shape
    oh = window_out(h, kh, strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(w, kw, strides[1], pads[1], pads[3], dilations[1], False, "width")
    xp = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    cols = windows(xp, (oh, ow), (kh, kw), strides, dilations)  # n, c, oh, ow, kh, kw
    cols = cols.reshape(n, groups, cg, oh, ow, kh, kw).transpose(1, 0, 3, 4, 2, 5, 6)
    cols = cols.reshape(groups, n * oh * ow, cg * kh * kw)
    og = o // groups
    wmat = weight.reshape(groups, og, cg * kh * kw).transpose(0, 2, 1)
    y = np.matmul(cols, wmat)  # groups, n*oh*ow, og
    y = y.reshape(groups, n, oh, ow, og).transpose(1, 0, 4, 2, 3).reshape(n, o, oh, ow)
    if bias is not None:
        y = y + bias.astype(dtype, copy=False)[:, None, None]
    return finish(op, y)


def conv2d_flops(op: Operation) -> int:
    _, cg, kh, kw = operand_shape(op, 1)
    if None in (cg, kh, kw):
        return 0
    out = _known(result_shape(op))
    return 2 * out * cg * kh * kw + (out if len(op.operands) == 3 else 0)


# --- max_pool2d, avg_pool2d --------------------------------------------------------------


def pool_params(op: Operation):
    kernel = int_list(op, "kernel", 2, 1)
    strides = int_list(op, "strides", 2, 1)
    pads = int_list(op, "pads", 4, 0)
    dilations = int_list(op, "dilations", 2, 1)
    # As onnxruntime (and PyTorch, more strictly): a pad at least as wide as the kernel
    # would allow windows made only of padding, whose max or average means nothing.
    for i, side in enumerate(("top", "left", "bottom", "right")):
        if pads[i] >= kernel[i % 2]:
            raise VerifyException(
                f"pads must be smaller than the kernel, got {side} pad {pads[i]} for kernel {list(kernel)}"
            )
    return kernel, strides, pads, dilations, bool(op.param("ceil_mode"))


def pool_out_shape(op: Operation, shape: Shape) -> Shape:
    kernel, strides, pads, dilations, ceil_mode = pool_params(op)
    n, c, h, w = shape
    oh = window_out(h, kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil_mode, "height")
    ow = window_out(w, kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil_mode, "width")
    return (n, c, oh, ow)


def infer_max_pool(op: Operation) -> list[TensorType]:
    element = require_numeric(op, [0])
    shape = _rank4(op, 0, "input")
    return [make_tensor(pool_out_shape(op, shape), element)]


def infer_avg_pool(op: Operation) -> list[TensorType]:
    element = require_float(op)
    shape = _rank4(op, 0, "input")
    return [make_tensor(pool_out_shape(op, shape), element)]


def _padded_for_pool(op: Operation, x: np.ndarray, fill) -> tuple[np.ndarray, tuple[int, int]]:
    """``x`` padded with ``fill`` far enough for every window (ceil mode may reach past the pads)."""
    kernel, strides, pads, dilations, _ = pool_params(op)
    _, _, oh, ow = pool_out_shape(op, x.shape)
    extra = []
    for axis, (size, out) in enumerate(((x.shape[2], oh), (x.shape[3], ow))):
        reach = (out - 1) * strides[axis] + dilations[axis] * (kernel[axis] - 1) + 1
        extra.append(max(pads[axis + 2], reach - size - pads[axis]))
    widths = ((0, 0), (0, 0), (pads[0], extra[0]), (pads[1], extra[1]))
    return np.pad(x, widths, constant_values=fill), (oh, ow)


def max_pool2d(op: Operation, x: np.ndarray) -> np.ndarray:
    kernel, strides, _, dilations, _ = pool_params(op)
    dtype = acc_dtype(x.dtype)
    x = x.astype(dtype, copy=False)
    lowest = -np.inf if dtype.kind == "f" else np.iinfo(dtype).min
    xp, out = _padded_for_pool(op, x, lowest)
    return finish(op, windows(xp, out, kernel, strides, dilations).max(axis=(-2, -1)))


def _window_counts(
    out: int, size: int, kernel: int, stride: int, pads: tuple[int, int], dilation: int, include_pad: bool
) -> np.ndarray:
    """How many taps of each window fall in the counted range: the input, plus the
    padding with ``include_pad`` (never the part of a ceil-mode window past the padding)."""
    pad_begin, pad_end = pads
    taps = np.arange(out)[:, None] * stride - pad_begin + np.arange(kernel)[None, :] * dilation
    lo, hi = (-pad_begin, size + pad_end) if include_pad else (0, size)
    return ((taps >= lo) & (taps < hi)).sum(axis=1)


def avg_pool2d(op: Operation, x: np.ndarray) -> np.ndarray:
    kernel, strides, pads, dilations, _ = pool_params(op)
    dtype = acc_dtype(x.dtype)
    x = x.astype(dtype, copy=False)
    xp, (oh, ow) = _padded_for_pool(op, x, 0)
    total = windows(xp, (oh, ow), kernel, strides, dilations).sum(axis=(-2, -1))
    include = bool(op.param("count_include_pad"))
    ch = _window_counts(oh, x.shape[2], kernel[0], strides[0], (pads[0], pads[2]), dilations[0], include)
    cw = _window_counts(ow, x.shape[3], kernel[1], strides[1], (pads[1], pads[3]), dilations[1], include)
    return finish(op, total / (ch[:, None] * cw[None, :]).astype(dtype))


def pool_flops(op: Operation) -> int:
    kernel = op.param("kernel") or (0, 0)
    per = kernel[0] * kernel[1] + (1 if op.name == "graph.avg_pool2d" else 0)  # compares or adds, + divide
    return per * _known(result_shape(op))


# --- global_avg_pool2d ------------------------------------------------------------------


def infer_global_avg_pool(op: Operation) -> list[TensorType]:
    element = require_float(op)
    n, c, h, w = _rank4(op, 0, "input")
    if h == 0 or w == 0:
        raise VerifyException(f"spatial dimensions must be non-empty, got {fmt((h, w))}")
    return [make_tensor((n, c, 1, 1), element)]


def global_avg_pool2d(op: Operation, x: np.ndarray) -> np.ndarray:
    return finish(op, x.mean(axis=(2, 3), keepdims=True, dtype=acc_dtype(x.dtype)))


def global_pool_flops(op: Operation) -> int:
    return _known(operand_shape(op, 0)) + _known(result_shape(op))


# --- batch_norm --------------------------------------------------------------------------


def infer_batch_norm(op: Operation) -> list[TensorType]:
    element = require_float_same(op, range(5))
    shape = require_min_rank(op, 0, 2, "input")
    epsilon_of(op)
    for index, what in enumerate(("scale", "bias", "mean", "var"), start=1):
        require_vector(op, index, shape[1], what)
    return [make_tensor(shape, element)]


def batch_norm(op: Operation, x, scale, bias, mean, var) -> np.ndarray:
    dtype = acc_dtype(x.dtype)
    extra = (1,) * (x.ndim - 2)  # per channel, broadcast over the dimensions after it
    scale, bias, mean, var = (p.astype(dtype, copy=False).reshape(p.shape + extra) for p in (scale, bias, mean, var))
    eps = dtype.type(epsilon_of(op))
    return finish(op, (x.astype(dtype, copy=False) - mean) / np.sqrt(var + eps) * scale + bias)


def batch_norm_flops(op: Operation) -> int:
    # At inference a per-channel multiply-add: x * (scale / sqrt(var + eps)) + (bias - mean * ...).
    shape = operand_shape(op, 0)
    return 2 * _known(shape) + 5 * (shape[1] or 0)


# --- layer_norm --------------------------------------------------------------------------


def infer_layer_norm(op: Operation) -> list[TensorType]:
    has_bias = len(op.operands) == 3
    element = require_float_same(op, [0, 1, 2] if has_bias else [0, 1])
    shape = require_min_rank(op, 0, 1, "input")
    normalize_axis(op.param("axis"), len(shape))
    epsilon_of(op)
    # ONNX: scale and bias broadcast unidirectionally to the input.
    require_unidirectional(operand_shape(op, 1), shape, "scale", "the input shape")
    if has_bias:
        require_unidirectional(operand_shape(op, 2), shape, "bias", "the input shape")
    return [make_tensor(shape, element)]


def layer_norm(op: Operation, x: np.ndarray, scale: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    dtype = acc_dtype(x.dtype)
    x = x.astype(dtype, copy=False)
    axes = tuple(range(normalize_axis(op.param("axis"), x.ndim), x.ndim))
    centered = x - x.mean(axis=axes, keepdims=True)
    var = np.mean(centered * centered, axis=axes, keepdims=True)
    y = centered / np.sqrt(var + dtype.type(epsilon_of(op))) * scale.astype(dtype, copy=False)
    if bias is not None:
        y = y + bias.astype(dtype, copy=False)
    return finish(op, y)


def layer_norm_flops(op: Operation) -> int:
    # mean (1), centre and square-accumulate (3), normalize (2), scale and bias (2) per element.
    return 8 * _known(operand_shape(op, 0))


# --- softmax, log_softmax ----------------------------------------------------------------


def infer_softmax(op: Operation) -> list[TensorType]:
    element = require_float(op)
    shape = require_min_rank(op, 0, 1, "input")
    normalize_axis(op.param("axis"), len(shape))
    return [make_tensor(shape, element)]


def _shifted(op: Operation, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """x - max along the axis (so exp cannot overflow), and exp of it."""
    axis = normalize_axis(op.param("axis"), x.ndim)
    x = x.astype(acc_dtype(x.dtype), copy=False)
    if x.shape[axis] == 0:
        return x, x, axis
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted, np.exp(shifted), axis


def softmax(op: Operation, x: np.ndarray) -> np.ndarray:
    _, e, axis = _shifted(op, x)
    return finish(op, e / e.sum(axis=axis, keepdims=True))


def log_softmax(op: Operation, x: np.ndarray) -> np.ndarray:
    shifted, e, axis = _shifted(op, x)
    return finish(op, shifted - np.log(e.sum(axis=axis, keepdims=True)))


def softmax_flops(op: Operation) -> int:
    # max, subtract, exp, sum, divide (or log and subtract) per element.
    return 5 * _known(operand_shape(op, 0))


# --- lrn ---------------------------------------------------------------------------------


def infer_lrn(op: Operation) -> list[TensorType]:
    element = require_float(op)
    shape = require_min_rank(op, 0, 2, "input")
    size = op.param("size")
    if size is None:
        raise VerifyException("size must be given")
    if size < 1:
        raise VerifyException(f"size must be positive, got {size}")
    for name in ("alpha", "beta", "bias"):
        if not math.isfinite(op.param(name)):
            raise VerifyException(f"{name} must be finite, got {op.param(name)}")
    return [make_tensor(shape, element)]


def lrn(op: Operation, x: np.ndarray) -> np.ndarray:
    """ONNX LRN: x / (bias + alpha / size * sum of squares over the channels
    [c - floor((size-1)/2), c + ceil((size-1)/2)]) ** beta."""
    size = op.param("size")
    dtype = acc_dtype(x.dtype)
    x = x.astype(dtype, copy=False)
    if x.size == 0:  # no channel (or no element) to sum over: sliding_window_view refuses an empty axis
        return finish(op, x)
    before, after = (size - 1) // 2, size - 1 - (size - 1) // 2
    widths = [(0, 0)] * x.ndim
    widths[1] = (before, after)
    squares = np.pad(x * x, widths)
    sums = np.lib.stride_tricks.sliding_window_view(squares, size, axis=1).sum(axis=-1)
    alpha, beta, bias = (dtype.type(op.param(k)) for k in ("alpha", "beta", "bias"))
    return finish(op, x / (bias + alpha / dtype.type(size) * sums) ** beta)


def lrn_flops(op: Operation) -> int:
    return (op.param("size") + 5) * _known(operand_shape(op, 0))


# --- registration ----------------------------------------------------------------------

_ATTRS = {
    "graph.matmul": (infer_matmul, matmul, matmul_flops),
    "graph.gemm": (infer_gemm, gemm, gemm_flops),
    "graph.conv2d": (infer_conv2d, conv2d, conv2d_flops),
    "graph.max_pool2d": (infer_max_pool, max_pool2d, pool_flops),
    "graph.avg_pool2d": (infer_avg_pool, avg_pool2d, pool_flops),
    "graph.global_avg_pool2d": (infer_global_avg_pool, global_avg_pool2d, global_pool_flops),
    "graph.batch_norm": (infer_batch_norm, batch_norm, batch_norm_flops),
    "graph.layer_norm": (infer_layer_norm, layer_norm, layer_norm_flops),
    "graph.softmax": (infer_softmax, softmax, softmax_flops),
    "graph.log_softmax": (infer_softmax, log_softmax, softmax_flops),
    "graph.lrn": (infer_lrn, lrn, lrn_flops),
}

# Fusion kinds, as TVM registers them:
# - matmul, gemm, conv2d: OUT_ELEMWISE_FUSABLE (elementwise consumers such as bias add
#   or relu fuse into their output loop).
# - max/avg pooling: OUT_ELEMWISE_FUSABLE, as TVM (a sliding window is not a plain reduction).
# - global_avg_pool2d: REDUCE. It is exactly reduce_mean over H and W (keepdims), so it
#   gets the reduction's kind: elementwise producers (the relu before a classifier's
#   global pool) fuse into it.  TVM files it with the pools as OUT_ELEMWISE_FUSABLE.
# - softmax, log_softmax: OPAQUE, as TVM: a reduction whose result is broadcast back over
#   the reduced axis, which no single fusion group pattern describes.
# - layer_norm: OPAQUE for the same reason (two reductions broadcast back); TVM has no
#   kind for it since it decomposes it before fusion.
# - lrn: OPAQUE, as TVM (a windowed sum across channels, then elementwise).
# - batch_norm: BROADCAST; at inference it is a per-channel scale and shift.
_PATTERNS = {
    "graph.matmul": OpPattern.OUT_ELEMWISE_FUSABLE,
    "graph.gemm": OpPattern.OUT_ELEMWISE_FUSABLE,
    "graph.conv2d": OpPattern.OUT_ELEMWISE_FUSABLE,
    "graph.max_pool2d": OpPattern.OUT_ELEMWISE_FUSABLE,
    "graph.avg_pool2d": OpPattern.OUT_ELEMWISE_FUSABLE,
    "graph.global_avg_pool2d": OpPattern.REDUCE,
    "graph.batch_norm": OpPattern.BROADCAST,
    "graph.layer_norm": OpPattern.OPAQUE,
    "graph.softmax": OpPattern.OPAQUE,
    "graph.log_softmax": OpPattern.OPAQUE,
    "graph.lrn": OpPattern.OPAQUE,
}

for _name, (_infer, _reference, _flops) in _ATTRS.items():
    register_op_attr(_name, "infer_type", _infer)
    register_op_attr(_name, "reference", _reference)
    register_op_attr(_name, "pattern", _PATTERNS[_name])
    register_op_attr(_name, "flops", _flops)
