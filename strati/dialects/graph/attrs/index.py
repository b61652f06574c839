"""Attributes of the ops that index by values: gather_elements, gather_nd, scatter_nd, cumsum, cumprod, topk,
dynamic_slice.

``infer_type`` checks what can be checked from types (ranks, sizes, index element types);
an index out of range is found by ``reference`` (a one-line StratiError naming it), as
for graph.gather.  Cost: data movement is free; cumsum is one add per element; scatter_nd
with a reduction one operation per update element; topk counts its comparisons
(n per element along the axis, as its lowering does).  dynamic_slice takes its result's
extents along the sliced axes from its declared type (they are not in its operands' types);
its reference fails, naming the values, when the clamped starts and ends give another extent.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.common import operand_element, operand_shape, register_all, result_shape
from strati.dialects.graph.attrs.shape import _axes, _clamp
from strati.dialects.shapes import fmt, is_int, make_tensor, normalize_axis, num_elements
from strati.registry import OpPattern, register_op_attr

REDUCTIONS = ("none", "add", "mul", "max", "min")


def _require_indices(op: Operation, index: int) -> None:
    if not is_int(operand_element(op, index)):
        raise VerifyException(f"indices must be an integer tensor, got {op.operands[index].type}")


def _require_numeric(op: Operation) -> None:
    if operand_element(op, 0) == i1:
        raise VerifyException(f"expects a numeric tensor, got {op.operands[0].type}")


def _axis(op: Operation, rank: int) -> int:
    if rank == 0:
        raise VerifyException(f"expects a tensor of rank 1 or more, got {op.operands[0].type}")
    return normalize_axis(op.param("axis"), rank)


def _le(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a <= b


def _eq(a: int | None, b: int | None) -> bool:
    return a is None or b is None or a == b


def _normalized(op: Operation, idx: np.ndarray, dims, what: str = "dimension") -> np.ndarray:
    """Indices with negative ones counted from the end of their dimension (``dims`` broadcasts
    against ``idx``); an index out of range is an error naming it."""
    idx = idx.astype(np.int64)
    dims = np.asarray(dims, np.int64)
    bad = (idx < -dims) | (idx >= dims)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        size = int(np.broadcast_to(dims, idx.shape)[where])
        raise StratiError(f"index {int(idx[where])} at {list(where)} is out of range for a {what} of size {size}", op)
    return np.where(idx < 0, idx + dims, idx)


# --- gather_elements -------------------------------------------------------------------------


def infer_gather_elements(op: Operation) -> list[TensorType]:
    data, indices = operand_shape(op, 0), operand_shape(op, 1)
    _require_indices(op, 1)
    a = _axis(op, len(data))
    if len(indices) != len(data):
        raise VerifyException(f"indices must have the rank of data ({len(data)}), got {op.operands[1].type}")
    for d, (n, m) in enumerate(zip(data, indices)):
        if d != a and not _le(m, n):
            raise VerifyException(f"indices dimension {d} ({m}) is larger than data's ({n})")
    return [make_tensor(indices, operand_element(op, 0))]


def gather_elements(op: Operation, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    a = _axis(op, data.ndim)
    grid = list(np.indices(indices.shape, sparse=True))
    grid[a] = _normalized(op, indices, data.shape[a], f"dimension {a}")
    return np.asarray(data[tuple(grid)])


# --- gather_nd -----------------------------------------------------------------------------------


def _nd_params(op: Operation, batch: int) -> int:
    """The length of the index tuples (the last dimension of indices), checked against data."""
    data, indices = operand_shape(op, 0), operand_shape(op, 1)
    if not indices:
        raise VerifyException(f"indices must have rank 1 or more, got {op.operands[1].type}")
    k = indices[-1]
    if k is None:
        raise VerifyException(f"the last dimension of indices must be static, got {op.operands[1].type}")
    if not 0 <= batch < min(len(data), len(indices)):
        raise VerifyException(f"batch_dims {batch} must be below the ranks of data and indices ({len(data)}, {len(indices)})")
    if not 1 <= k <= len(data) - batch:
        raise VerifyException(f"index tuples of length {k} do not address a rank-{len(data)} data after {batch} batch dimensions")
    for d in range(batch):
        if not _eq(data[d], indices[d]):
            raise VerifyException(f"batch dimension {d} differs: data [{fmt(data)}], indices [{fmt(indices)}]")
    return k


def infer_gather_nd(op: Operation) -> list[TensorType]:
    _require_indices(op, 1)
    batch = op.param("batch_dims")
    k = _nd_params(op, batch)
    data, indices = operand_shape(op, 0), operand_shape(op, 1)
    return [make_tensor(indices[:-1] + data[batch + k :], operand_element(op, 0))]


def gather_nd(op: Operation, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    b = op.param("batch_dims")
    k = indices.shape[-1]
    idx = _normalized(op, indices, data.shape[b : b + k])
    batches = math.prod(data.shape[:b])  # not -1: numpy cannot infer it when a dimension is 0
    flat_data = data.reshape((batches,) + data.shape[b:])
    flat_idx = idx.reshape((batches,) + idx.shape[b:])
    out = np.empty(result_shape(op), data.dtype)
    parts = [d[tuple(np.moveaxis(i, -1, 0))] for d, i in zip(flat_data, flat_idx)]
    if out.size:
        out[...] = np.stack(parts).reshape(out.shape)
    return out


# --- scatter_nd ----------------------------------------------------------------------------------


def infer_scatter_nd(op: Operation) -> list[TensorType]:
    data, indices, updates = (operand_shape(op, i) for i in range(3))
    _require_indices(op, 1)
    if op.param("reduction") not in REDUCTIONS:
        raise VerifyException(f"reduction must be one of {', '.join(REDUCTIONS)}, got \"{op.param('reduction')}\"")
    if operand_element(op, 2) != operand_element(op, 0):
        raise VerifyException(f"updates must have data's element type, got {op.operands[2].type}")
    if not indices or indices[-1] is None:
        raise VerifyException(f"indices must have a static last dimension, got {op.operands[1].type}")
    k = indices[-1]
    if not 1 <= k <= len(data):
        raise VerifyException(f"index tuples of length {k} do not address a rank-{len(data)} data")
    want = indices[:-1] + data[k:]
    if len(updates) != len(want) or not all(_eq(a, b) for a, b in zip(updates, want)):
        raise VerifyException(f"updates must have shape [{fmt(want)}], got [{fmt(updates)}]")
    return [make_tensor(data, operand_element(op, 0))]


_COMBINE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


def scatter_nd(op: Operation, data: np.ndarray, indices: np.ndarray, updates: np.ndarray) -> np.ndarray:
    k = indices.shape[-1]
    idx = _normalized(op, indices, data.shape[:k])
    out = data.copy()
    combine = _COMBINE.get(op.param("reduction"))
    for u in np.ndindex(*indices.shape[:-1]):
        at = tuple(int(i) for i in idx[u])
        out[at] = updates[u] if combine is None else combine(out[at], updates[u])
    return out


# --- cumsum ------------------------------------------------------------------------------------------


def infer_cumsum(op: Operation) -> list[TensorType]:
    _require_numeric(op)
    _axis(op, len(operand_shape(op, 0)))
    return [op.operands[0].type]


def cumsum(op: Operation, x: np.ndarray) -> np.ndarray:
    a = _axis(op, x.ndim)
    y = np.flip(x, a) if op.param("reverse") else x
    running = np.cumprod if op.name == "graph.cumprod" else np.cumsum
    c = running(y, axis=a, dtype=x.dtype)
    if op.param("exclusive"):  # shifted by one along the axis, the identity (0, or 1) first
        shifted = np.zeros_like(c) if running is np.cumsum else np.ones_like(c)
        dst, src = [slice(None)] * c.ndim, [slice(None)] * c.ndim
        dst[a], src[a] = slice(1, None), slice(None, -1)
        shifted[tuple(dst)] = c[tuple(src)]
        c = shifted
    return np.ascontiguousarray(np.flip(c, a) if op.param("reverse") else c)


# --- topk ----------------------------------------------------------------------------------------------


def infer_topk(op: Operation) -> list[TensorType]:
    _require_numeric(op)
    shape = operand_shape(op, 0)
    a = _axis(op, len(shape))
    k = op.param("k")
    if k < 0 or not _le(k, shape[a]):
        raise VerifyException(f"k = {k} is not in [0, {shape[a]}] (dimension {a})")
    out = list(shape)
    out[a] = k
    return [make_tensor(out, operand_element(op, 0)), make_tensor(out, i64)]


def topk(op: Operation, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = _axis(op, x.ndim)
    n = x.shape[a]
    if op.param("largest"):
        # Descending values, equal ones by ascending index: a stable ascending sort of the
        # reversed axis, read backwards.
        order = n - 1 - np.flip(np.argsort(np.flip(x, a), axis=a, kind="stable"), a)
    else:
        order = np.argsort(x, axis=a, kind="stable")
    order = np.take(order, range(op.param("k")), axis=a).astype(np.int64)
    return np.take_along_axis(x, order, axis=a), order


# --- dynamic_slice -----------------------------------------------------------------------------


def dynamic_slice_params(op: Operation, rank: int) -> list[tuple[int, int]]:
    """(axis, step) per entry of starts and ends: axes normalized, lengths and steps checked."""
    lengths = []
    for i, what in ((1, "starts"), (2, "ends")):
        t = operand_shape(op, i)
        if not is_int(operand_element(op, i)) or len(t) != 1:
            raise VerifyException(f"{what} must be a rank-1 integer tensor, got {op.operands[i].type}")
        if t[0] is None:
            raise VerifyException(f"{what} must have a static length, got {op.operands[i].type}")
        lengths.append(t[0])
    n = lengths[0]
    if lengths[1] != n:
        raise VerifyException(f"starts has {n} entries but ends has {lengths[1]}")
    axes, steps = op.param("axes"), op.param("steps")
    if axes is None:
        if n > rank:
            raise VerifyException(f"starts has {n} entries for rank {rank}")
        axes = tuple(range(n))
    steps = (1,) * n if steps is None else steps
    for name, values in (("axes", axes), ("steps", steps)):
        if len(values) != n:
            raise VerifyException(f"starts has {n} entries but {name} has {len(values)}")
    if 0 in steps:
        raise VerifyException(f"steps {list(steps)} contain a zero step")
    return list(zip(_axes(axes, rank), steps))


def infer_dynamic_slice(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    declared = result_shape(op)
    params = dynamic_slice_params(op, len(src))
    if len(declared) != len(src):
        raise VerifyException(f"the result must have the rank of the input ({len(src)}), got {op.results[0].type}")
    out = list(src)
    for axis, step in params:
        m, dim = declared[axis], src[axis]
        if m is None:
            raise VerifyException(f"the result's extent along sliced axis {axis} must be static, got {op.results[0].type}")
        if dim is not None and m > -(-dim // abs(step)):
            raise VerifyException(f"a slice of {m} elements along axis {axis} does not fit a dimension of {dim} with step {step}")
        out[axis] = m
    return [make_tensor(out, operand_element(op, 0))]


def dynamic_slice(op: Operation, x: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    declared = result_shape(op)
    index = [slice(None)] * x.ndim
    for (axis, step), start, end in zip(dynamic_slice_params(op, x.ndim), starts.tolist(), ends.tolist()):
        lo, hi = _clamp(int(start), int(end), step, x.shape[axis])
        got = max(0, -((lo - hi) // step))
        if got != declared[axis]:
            raise StratiError(
                f"start {start} and end {end} give {got} elements along axis {axis}, the result type has {declared[axis]}", op
            )
        index[axis] = slice(lo, hi if hi >= 0 else None, step)  # -1 is "before 0" going backward
    return np.ascontiguousarray(x[tuple(index)])


# --- registration ---------------------------------------------------------------------------------------

INDEX_OPS = {
    "gather_elements": (infer_gather_elements, gather_elements, OpPattern.INJECTIVE),
    "gather_nd": (infer_gather_nd, gather_nd, OpPattern.INJECTIVE),
    "scatter_nd": (infer_scatter_nd, scatter_nd, OpPattern.OPAQUE),
    "cumsum": (infer_cumsum, cumsum, OpPattern.OPAQUE),
    "cumprod": (infer_cumsum, cumsum, OpPattern.OPAQUE),
    "topk": (infer_topk, topk, OpPattern.OPAQUE),
    "dynamic_slice": (infer_dynamic_slice, dynamic_slice, OpPattern.INJECTIVE),
}
for _name, (_infer, _reference, _pattern) in INDEX_OPS.items():
    register_op_attr(f"graph.{_name}", "infer_type", _infer)
    register_op_attr(f"graph.{_name}", "reference", _reference)
    register_op_attr(f"graph.{_name}", "pattern", _pattern)

register_all(["graph.gather_elements", "graph.gather_nd", "graph.dynamic_slice"], "flops", lambda op: 0)
register_op_attr(
    "graph.scatter_nd",
    "flops",
    lambda op: 0 if op.param("reduction") == "none" else num_elements(operand_shape(op, 2)) or 0,
)
register_all(["graph.cumsum", "graph.cumprod"], "flops", lambda op: num_elements(result_shape(op)) or 0)
register_op_attr(
    "graph.topk",
    "flops",
    lambda op: (num_elements(operand_shape(op, 0)) or 0) * (operand_shape(op, 0)[_axis(op, len(operand_shape(op, 0)))] or 0),
)
