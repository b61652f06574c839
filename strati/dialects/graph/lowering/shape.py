"""``lower`` for the data-movement ops.

- reshape, flatten, squeeze, unsqueeze: ``tensor.reshape`` (row-major order is unchanged).
- transpose: a parallel generic whose input map is the permutation.
- broadcast_to: an elementwise copy whose input map broadcasts.
- slice: ``tensor.extract_slice`` with the ONNX clamping done here, at compile time, into
  concrete offsets, sizes and strides (a negative step is a negative stride).
- split: one ``tensor.extract_slice`` per result; concat: ``tensor.concat``.
- pad: negative pads crop first (``tensor.extract_slice``); constant mode is
  ``tensor.pad``; reflect and edge are a generic computing each source index from
  ``tensor.index`` with index arithmetic and reading it with ``tensor.extract``.
- gather: a generic over the result reading the index through its map, adding the
  dimension's size to a negative one, and ``tensor.extract`` from the data; an index
  still out of range fails a run-time check (``cf.assert``) and reads element 0 meanwhile.
- resize (nearest): a generic computing each source index in f32 arithmetic exactly
  as the reference (and onnxruntime) does, then rounding per ``nearest_mode``,
  clamping, and ``tensor.extract``; an axis of scale 1 is copied unchanged.

An op whose result is its operand unchanged (same type, no movement) lowers to its operand.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import IndexType, TensorType, f32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from strati.diagnostics import location_text
from strati.dialects.graph.attrs.shape import (
    _clamp,
    _gather_axis,
    _pad_params,
    _perm,
    _resize_params,
    _slice_params,
    _split_sizes,
)
from strati.dialects.graph.lowering.reduce import static_types
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type, shape
from strati.dialects.tensor.ops import PARALLEL
from strati.registry import register_op_attr

INDEX = IndexType()


def _idx(value: int) -> SSAValue:
    return s.const(value, INDEX)


def _over_result(b: TensorBuilder, inputs, in_maps, result_type: TensorType, body) -> SSAValue:
    """A parallel generic over the result's shape; ``body(*input_elements)`` gives its element."""
    rank = len(result_type.get_shape())
    (y,) = b.generic(
        inputs, [b.empty(result_type)], [*in_maps, AffineMap.identity(rank)], [PARALLEL] * rank, lambda *a: body(*a[:-1])
    )
    return y


# --- reshape, flatten, squeeze, unsqueeze, transpose, broadcast_to -----------------------


def lower_reshape(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    if x.type == result_type:
        return x
    return b.reshape(x, result_type.get_shape())


def lower_transpose(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    rank = len(shape(x))
    perm = _perm(op, rank)
    if list(perm) == list(range(rank)):
        return x
    # result[d] = x[e] where e[perm[k]] = d[k]: x's dimension j is loop perm.index(j)
    in_map = AffineMap(rank, 0, tuple(AffineDimExpr(list(perm).index(j)) for j in range(rank)))
    return _over_result(b, [x], [in_map], result_type, lambda e: e)


def lower_broadcast_to(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    if x.type == result_type:
        return x
    return b.elementwise([x], result_type, lambda e: e)


# --- slice, split, concat ----------------------------------------------------------------


def lower_slice(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x = op.operands[0]
    src = shape(x)
    offsets, sizes, strides = [0] * len(src), list(src), [1] * len(src)
    for axis, start, end, step in _slice_params(op, len(src)):
        lo, hi = _clamp(start, end, step, src[axis])
        size = max(0, -((lo - hi) // step))
        offsets[axis], sizes[axis], strides[axis] = (lo if size else 0), size, step
    return b.extract_slice(x, offsets, sizes, strides)


def lower_split(op: Operation, b: TensorBuilder) -> list[SSAValue]:
    static_types(op)
    x = op.operands[0]
    src = shape(x)
    axis, parts = _split_sizes(op, src)
    results, start = [], 0
    for size in parts:
        offsets, sizes = [0] * len(src), list(src)
        offsets[axis], sizes[axis] = (start if size else 0), size
        results.append(b.extract_slice(x, offsets, sizes, [1] * len(src)))
        start += size
    return results


def lower_concat(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    xs = list(op.operands)
    return b.concat(xs, op.param("axis") % len(shape(xs[0])))


# --- pad ---------------------------------------------------------------------------------


def _reflect(t: SSAValue, n: int) -> SSAValue:
    """Reflect ``t`` in [-(n-1), 2(n-1)] into [0, n-1] (without repeating the edge)."""
    a = s.maximum(t, s.sub(_idx(0), t))
    return s.minimum(a, s.sub(_idx(2 * (n - 1)), a))


def _edge(t: SSAValue, n: int) -> SSAValue:
    return s.minimum(s.maximum(t, _idx(0)), _idx(n - 1))


def lower_pad(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    src = shape(x)
    begins, ends, mode = _pad_params(op, len(src))
    if any(p < 0 for p in (*begins, *ends)):
        cut_lo = [max(-p, 0) for p in begins]
        kept = [n - lo - max(-e, 0) for n, lo, e in zip(src, cut_lo, ends)]
        x = b.extract_slice(x, [o if k else 0 for o, k in zip(cut_lo, kept)], kept, [1] * len(src))
        src = shape(x)
    low, high = [max(p, 0) for p in begins], [max(p, 0) for p in ends]
    if not any((*low, *high)):
        return x
    if mode == "constant":
        value = op.param("value")
        return b.pad(x, low, high, value if s.is_float(element_type(x)) else int(value))
    source = _reflect if mode == "reflect" else _edge

    def body() -> SSAValue:
        indices = []
        for k, (n, lo, hi) in enumerate(zip(src, low, high)):
            i = s.index(k)
            if lo or hi:
                i = source(s.sub(i, _idx(lo)) if lo else i, n)
            indices.append(i)
        return s.extract(x, indices)

    return _over_result(b, [], [], result_type, body)


# --- gather ------------------------------------------------------------------------------


def lower_gather(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    data, indices = op.operands
    result_type = op.results[0].type
    r, q = len(shape(data)), len(shape(indices))
    a = _gather_axis(op, r)
    n = shape(data)[a]
    rank = r + q - 1
    in_map = AffineMap(rank, 0, tuple(AffineDimExpr(a + j) for j in range(q)))

    where = location_text(op.location)
    message = f"'graph.gather' op{f' at {where}' if where else ''}: an index is out of range for dimension {a} of size {n}"

    def body(i: SSAValue) -> SSAValue:
        k = s.cast(i, INDEX)
        if s.is_unsigned(i.type):
            ok = s.in_range(k, n)
        else:  # a negative index counts from the end
            ok = s.and_(s.cmp("ge", k, _idx(-n)), s.cmp("lt", k, _idx(n)))
            k = s.select(s.cmp("lt", k, _idx(0)), s.add(k, _idx(n)), k)
        s.check(ok, message)  # checked at run time (compiled code names the index); the read stays in bounds either way
        k = s.select(ok, k, _idx(0))
        before = [s.index(d) for d in range(a)]
        after = [s.index(a + q + d) for d in range(r - a - 1)]
        return s.extract(data, [*before, k, *after])

    return _over_result(b, [indices], [in_map], result_type, body)


# --- resize (nearest) --------------------------------------------------------------------


def _source_index(k: int, n_in: int, n_out: int, scale: np.float32, ctm: str, nearest: str) -> SSAValue:
    """The input index that output index ``k`` copies, as the reference's ``_source_indices``."""
    if scale == np.float32(1):
        return s.index(k)

    def c(v) -> SSAValue:
        return s.const(float(np.float32(v)), f32)

    if ctm in ("pytorch_half_pixel", "align_corners") and n_out <= 1:
        return _idx(0)
    i = s.cast(s.cast(s.index(k), i64), f32)
    if ctm in ("half_pixel", "pytorch_half_pixel"):
        x = s.sub(s.div(s.add(i, c(0.5)), c(scale)), c(0.5))
    elif ctm == "align_corners":
        x = s.div(s.mul(i, c(n_in - 1)), c(n_out - 1))
    elif ctm == "asymmetric":
        x = s.div(i, c(scale))
    else:  # tf_half_pixel_for_nn
        x = s.div(s.add(i, c(0.5)), c(scale))
    if nearest == "ceil":
        idx = s.unary_math("ceil", x)
    else:
        lo = s.unary_math("floor", x)
        if nearest == "floor":
            idx = lo
        else:
            frac = s.sub(x, lo)
            up = s.cmp("gt" if nearest == "round_prefer_floor" else "ge", frac, c(0.5))
            idx = s.select(up, s.add(lo, c(1)), lo)
    idx = s.minimum(s.maximum(idx, c(0)), c(max(n_in - 1, 0)))
    return s.cast(s.cast(idx, i64), INDEX)


def lower_resize(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    if op.param("mode") != "nearest":
        from strati.dialects.graph.lowering.interpolate import lower_resize_interpolated

        return lower_resize_interpolated(op, b)
    x, result_type = op.operands[0], op.results[0].type
    src, dst = shape(x), tuple(result_type.get_shape())
    scales, ctm, nearest = _resize_params(op, len(src))
    axes = []
    for k, (n_in, n_out) in enumerate(zip(src, dst)):
        if scales is not None:
            scale = np.float32(scales[k])  # infer_type checked that n_out is floor(n_in * scale)
        else:
            scale = np.float32(n_out) / np.float32(n_in) if n_in else np.float32(1)
        axes.append((n_in, n_out, scale))
    if all(scale == np.float32(1) for _, _, scale in axes) and x.type == result_type:
        return x
    return _over_result(
        b, [], [], result_type, lambda: s.extract(x, [_source_index(k, *axis, ctm, nearest) for k, axis in enumerate(axes)])
    )


# --- registration ------------------------------------------------------------------------

for _name in ("reshape", "flatten", "squeeze", "unsqueeze"):
    register_op_attr(f"graph.{_name}", "lower", lower_reshape)
register_op_attr("graph.transpose", "lower", lower_transpose)
register_op_attr("graph.broadcast_to", "lower", lower_broadcast_to)
register_op_attr("graph.slice", "lower", lower_slice)
register_op_attr("graph.split", "lower", lower_split)
register_op_attr("graph.concat", "lower", lower_concat)
register_op_attr("graph.pad", "lower", lower_pad)
register_op_attr("graph.gather", "lower", lower_gather)
register_op_attr("graph.resize", "lower", lower_resize)
