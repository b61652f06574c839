"""``lower`` for the ops that index by values, as tensor.generic ops reading with ``tensor.extract``.

- gather_elements: a generic over the result; its element reads the index through the
  identity map and extracts from data (a negative index has the dimension added).
- gather_nd: a generic over the result extracting each index tuple from indices, then the
  element of data.
- scatter_nd: a generic over data's shape times the update positions (a reduction over
  those, in order), initialised with data; an update whose index tuple is the current
  element's replaces (or combines with) it.  Quadratic, but with no scatter in the loop
  level: every element is written by the one loop nest that owns it.
- cumsum: a generic over the shape times the axis again (a reduction), adding the
  elements at or before (after, with ``reverse``; strictly, with ``exclusive``) the
  current index; cumprod the same, multiplying (from 1).
- topk: two generics: each element's rank along the axis (how many elements come
  before it: larger, or equal with a lower index), then for each of the ``k`` output
  positions the element whose rank it is, and its index.
- dynamic_slice: a generic over the result whose element reads starts and ends with
  ``tensor.extract``, clamps them as ONNX Slice does (index arithmetic), and extracts the
  element ``start + i * step`` of the input along each sliced axis.  A clamped extent
  other than the result's fails a run-time check (``cf.assert``, in the loop nest: a result
  with no elements checks nothing) and reads element 0 meanwhile.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from strati.diagnostics import location_text
from strati.dialects.graph.attrs.index import dynamic_slice_params
from strati.dialects.graph.lowering.reduce import static_types
from strati.dialects.shapes import normalize_axis
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.registry import register_op_attr

INDEX = IndexType()


def _idx(value: int) -> SSAValue:
    return s.const(value, INDEX)


def _as_index(i: SSAValue, n: int) -> SSAValue:
    """An index element as an ``index``, a negative one counted from the end of a dimension of size n."""
    k = s.cast(i, INDEX)
    if s.is_unsigned(i.type):
        return k
    return s.select(s.cmp("lt", k, _idx(0)), s.add(k, _idx(n)), k)


def _and(a: SSAValue, b: SSAValue) -> SSAValue:
    return arith.AndIOp(a, b).result


def _map(n_dims: int, dims) -> AffineMap:
    return AffineMap(n_dims, 0, tuple(AffineDimExpr(d) for d in dims))


def _over_result(b: TensorBuilder, inputs, in_maps, result_type: TensorType, body) -> SSAValue:
    rank = len(result_type.get_shape())
    (y,) = b.generic(
        inputs, [b.empty(result_type)], [*in_maps, AffineMap.identity(rank)], [PARALLEL] * rank, lambda *a: body(*a[:-1])
    )
    return y


# --- gather_elements, gather_nd ------------------------------------------------------------------


def lower_gather_elements(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    data, indices = op.operands
    r = len(shape(data))
    a = normalize_axis(op.param("axis"), r)
    n = shape(data)[a]

    def body(i: SSAValue) -> SSAValue:
        return s.extract(data, [_as_index(i, n) if d == a else s.index(d) for d in range(r)])

    return _over_result(b, [indices], [AffineMap.identity(r)], op.results[0].type, body)


def lower_gather_nd(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    data, indices = op.operands
    batch = op.param("batch_dims")
    q, k = len(shape(indices)), shape(indices)[-1]
    rest = len(shape(data)) - batch - k

    def body() -> SSAValue:
        lead = [s.index(d) for d in range(q - 1)]
        tuple_ = [_as_index(s.extract(indices, [*lead, _idx(t)]), shape(data)[batch + t]) for t in range(k)]
        return s.extract(data, [*lead[:batch], *tuple_, *(s.index(q - 1 + d) for d in range(rest))])

    return _over_result(b, [], [], op.results[0].type, body)


# --- scatter_nd ------------------------------------------------------------------------------------------


def _combine(reduction: str, old: SSAValue, new: SSAValue) -> SSAValue:
    if reduction == "add":
        return s.add(old, new)
    if reduction == "mul":
        return s.mul(old, new)
    if reduction == "max":
        return s.maximum(old, new)
    if reduction == "min":
        return s.minimum(old, new)
    return new


def lower_scatter_nd(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    data, indices, updates = op.operands
    r, k = len(shape(data)), shape(indices)[-1]
    u = len(shape(indices)) - 1  # the update positions: loops r .. r + u - 1
    n_dims = r + u
    reduction = op.param("reduction")
    updates_map = _map(n_dims, [*range(r, r + u), *range(k, r)])

    def body(update: SSAValue, acc: SSAValue) -> SSAValue:
        position = [s.index(r + d) for d in range(u)]
        hit = None
        for t in range(k):
            target = _as_index(s.extract(indices, [*position, _idx(t)]), shape(data)[t])
            same = s.cmp("eq", target, s.index(t))
            hit = same if hit is None else _and(hit, same)
        return s.select(hit, _combine(reduction, acc, update), acc)

    (y,) = b.generic(
        [updates], [data], [updates_map, _map(n_dims, range(r))], [PARALLEL] * r + [REDUCTION] * u, body
    )
    return y


# --- cumsum ------------------------------------------------------------------------------------------------


def lower_cumsum(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x = op.operands[0]
    result_type = op.results[0].type
    r = len(shape(x))
    a = normalize_axis(op.param("axis"), r)
    # j (loop r) is summed into i (loop a): j <= i, or j < i when exclusive; reversed, j >= i or j > i.
    predicate = ("g" if op.param("reverse") else "l") + ("t" if op.param("exclusive") else "e")
    x_map = _map(r + 1, [r if d == a else d for d in range(r)])

    product = op.name == "graph.cumprod"

    def body(e: SSAValue, acc: SSAValue) -> SSAValue:
        take = s.cmp(predicate, s.index(r), s.index(a))
        return s.select(take, s.mul(acc, e) if product else s.add(acc, e), acc)

    (y,) = b.generic(
        [x], [b.filled(1 if product else 0, result_type)], [x_map, _map(r + 1, range(r))], [PARALLEL] * r + [REDUCTION], body
    )
    return y


# --- topk -----------------------------------------------------------------------------------------------------


def lower_topk(op: Operation, b: TensorBuilder) -> tuple[SSAValue, SSAValue]:
    static_types(op)
    x = op.operands[0]
    values_type, indices_type = (res.type for res in op.results)
    r = len(shape(x))
    a = normalize_axis(op.param("axis"), r)
    better = "gt" if op.param("largest") else "lt"
    same_map = _map(r + 1, range(r))
    along_map = _map(r + 1, [r if d == a else d for d in range(r)])

    # rank[i] = how many j come before i: x[j] better than x[i], or equal with j < i.
    def rank_body(xi: SSAValue, xj: SSAValue, acc: SSAValue) -> SSAValue:
        earlier = s.cmp("lt", s.index(r), s.index(a))
        before = arith.OrIOp(s.cmp(better, xj, xi), _and(s.cmp("eq", xj, xi), earlier)).result
        return s.select(before, s.add(acc, s.const(1, i64)), acc)

    rank_type = TensorType(i64, list(shape(x)))
    (rank,) = b.generic(
        [x, x], [b.filled(0, rank_type)], [same_map, along_map, same_map], [PARALLEL] * r + [REDUCTION], rank_body
    )

    # out[p] = x[i] (and i) for the i whose rank is p.
    def pick_body(xi: SSAValue, rank_i: SSAValue, value: SSAValue, index: SSAValue):
        hit = s.cmp("eq", rank_i, s.cast(s.index(a), i64))
        return s.select(hit, xi, value), s.select(hit, s.cast(s.index(r), i64), index)

    values, indices = b.generic(
        [x, rank],
        [b.filled(0, values_type), b.filled(0, indices_type)],
        [along_map, along_map, same_map, same_map],
        [PARALLEL] * r + [REDUCTION],
        pick_body,
    )
    return values, indices


# --- dynamic_slice --------------------------------------------------------------------------------------------


def _clamped(v: SSAValue, dim: int, step: int, end: bool) -> SSAValue:
    """A run-time start (or end) as ONNX Slice clamps it: negative from the end, then into
    [0, dim] going forward, [0, dim - 1] (an end: [-1, dim - 1]) going backward."""
    k = _as_index(v, dim)
    low, high = (-1 if end and step < 0 else 0), (dim if step > 0 else dim - 1)
    return s.minimum(s.maximum(k, _idx(low)), _idx(high))


def lower_dynamic_slice(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    data, starts, ends = op.operands
    src, out = shape(data), op.results[0].type.get_shape()
    params = dynamic_slice_params(op, len(src))
    where = location_text(op.location)

    def body() -> SSAValue:
        position = [s.index(d) for d in range(len(src))]
        for k, (axis, step) in enumerate(params):
            dim, m = src[axis], out[axis]
            lo = _clamped(s.extract(starts, [_idx(k)]), dim, step, end=False)
            hi = _clamped(s.extract(ends, [_idx(k)]), dim, step, end=True)
            span = s.sub(hi, lo) if step > 0 else s.sub(lo, hi)
            stride = abs(step)
            extent = s.select(s.cmp("gt", span, _idx(0)), s.div(s.add(span, _idx(stride - 1)), _idx(stride)), _idx(0))
            ok = s.cmp("eq", extent, _idx(m))
            s.check(ok, f"'graph.dynamic_slice' op{f' at {where}' if where else ''}: the starts and ends give "
                        f"another number of elements along axis {axis} than the result's {m}")  # fmt: skip
            offset = s.add(lo, s.mul(position[axis], _idx(step)))
            position[axis] = s.select(ok, offset, _idx(0))  # the read stays in bounds either way
        return s.extract(data, position)

    return _over_result(b, [], [], op.results[0].type, body)


register_op_attr("graph.dynamic_slice", "lower", lower_dynamic_slice)
register_op_attr("graph.gather_elements", "lower", lower_gather_elements)
register_op_attr("graph.gather_nd", "lower", lower_gather_nd)
register_op_attr("graph.scatter_nd", "lower", lower_scatter_nd)
register_op_attr("graph.cumsum", "lower", lower_cumsum)
register_op_attr("graph.cumprod", "lower", lower_cumsum)
register_op_attr("graph.topk", "lower", lower_topk)
