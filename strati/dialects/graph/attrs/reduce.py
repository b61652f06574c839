"""Attributes of the reduce ops: reduce_{sum,mean,max,min,prod} (ONNX ReduceX, opset 18) and argmax.

Semantics, where ONNX leaves a choice:

- ``axes`` absent or empty reduces every axis, unless ``noop_with_empty_axes``, which
  makes the op the identity.  A repeated axis (``[1, -1]`` on rank 2) is an error.
- A rank-0 tensor accepts ``axes = [0]`` (as ``normalize_axis`` does) and is returned as is.
- Empty reductions: sum 0, prod 1, max the lowest value of the type (-inf for floats),
  min the highest (+inf), mean NaN for floats (as numpy; onnxruntime gives 0) and 0
  for integers.
- The mean of integers is the sum (accumulated in 64 bits) divided by the count,
  truncating toward zero, as onnxruntime does.
- NaN propagates through max and min, and argmax finds the first NaN (the last with
  ``select_last_index``), as numpy does; onnxruntime's result depends on where the NaN is.
- Booleans are accepted by max, min and argmax only.
"""

from __future__ import annotations

import warnings

import numpy as np
from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.common import operand_element, operand_shape, register_all
from strati.dialects.shapes import is_float, is_int, make_tensor, normalize_axis, num_elements
from strati.registry import OpPattern, register_op_attr

NUMERIC_REDUCTIONS = ["graph.reduce_sum", "graph.reduce_mean", "graph.reduce_prod"]
ORDER_REDUCTIONS = ["graph.reduce_max", "graph.reduce_min"]
REDUCTIONS = NUMERIC_REDUCTIONS + ORDER_REDUCTIONS
ALL = REDUCTIONS + ["graph.argmax"]


def reduction_axes(op: Operation, rank: int) -> tuple[int, ...] | None:
    """The reduced axes, non-negative and sorted; None when the op is the identity."""
    axes = op.param("axes")
    if not axes:
        return None if op.param("noop_with_empty_axes") else tuple(range(rank))
    # (not types.normalize_axes, whose messages say "axe 2")
    normalized = tuple(normalize_axis(a, rank, "axis") for a in axes)
    if len(set(normalized)) != len(normalized):
        raise VerifyException(f"axes {list(axes)} repeat an axis")
    return tuple(sorted(normalized))


def check_element(op: Operation, allow_bool: bool) -> Attribute:
    element = operand_element(op, 0)
    if is_float(element) or is_int(element) or (allow_bool and element == i1):
        return element
    kinds = "an integer, floating-point or i1" if allow_bool else "an integer or floating-point"
    raise VerifyException(f"expects {kinds} tensor, got {op.operands[0].type}")


# --- infer_type ------------------------------------------------------------------------


def infer_reduce(op: Operation) -> list[TensorType]:
    element = check_element(op, allow_bool=op.name in ORDER_REDUCTIONS)
    shape = operand_shape(op, 0)
    axes = reduction_axes(op, len(shape))
    if axes is None:
        return [make_tensor(shape, element)]
    if op.param("keepdims"):
        out = tuple(1 if i in axes else d for i, d in enumerate(shape))
    else:
        out = tuple(d for i, d in enumerate(shape) if i not in axes)
    return [make_tensor(out, element)]


def infer_argmax(op: Operation) -> list[TensorType]:
    check_element(op, allow_bool=True)
    shape = operand_shape(op, 0)
    axis = op.param("axis")
    if not shape:
        raise VerifyException(f"axis {axis} is out of range for rank 0 (argmax needs rank 1 or more)")
    axis = normalize_axis(axis, len(shape))
    if shape[axis] == 0:
        raise VerifyException(f"axis {op.param('axis')} has size 0: argmax of an empty axis is undefined")
    if op.param("keepdims"):
        out = tuple(1 if i == axis else d for i, d in enumerate(shape))
    else:
        out = shape[:axis] + shape[axis + 1 :]
    return [make_tensor(out, i64)]


register_all(REDUCTIONS, "infer_type", infer_reduce)
register_op_attr("graph.argmax", "infer_type", infer_argmax)

# --- reference -------------------------------------------------------------------------


def _sum(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    return np.sum(x, axis=axes, keepdims=True, dtype=x.dtype)


def _prod(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    return np.prod(x, axis=axes, keepdims=True, dtype=x.dtype)


def _max(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    lowest = -np.inf if x.dtype.kind == "f" else False if x.dtype == np.bool_ else np.iinfo(x.dtype).min
    return np.maximum.reduce(x, axis=axes, keepdims=True, initial=lowest)


def _min(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    highest = np.inf if x.dtype.kind == "f" else True if x.dtype == np.bool_ else np.iinfo(x.dtype).max
    return np.minimum.reduce(x, axis=axes, keepdims=True, initial=highest)


def _mean(x: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    if x.dtype.kind == "f":
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # "Mean of empty slice": NaN, as numpy
            return np.mean(x, axis=axes, keepdims=True)
    wide = np.uint64 if x.dtype.kind == "u" else np.int64
    total = np.sum(x, axis=axes, keepdims=True, dtype=wide)
    if count == 0:
        return np.zeros_like(total)
    q = total // wide(count)
    return q + ((q < 0) & (q * wide(count) != total)).astype(wide)  # truncate toward zero


REDUCERS = {
    "graph.reduce_sum": _sum,
    "graph.reduce_mean": _mean,
    "graph.reduce_max": _max,
    "graph.reduce_min": _min,
    "graph.reduce_prod": _prod,
}


def reduce_reference(op: Operation, x: np.ndarray) -> np.ndarray:
    axes = reduction_axes(op, x.ndim)
    if axes is None or x.ndim == 0:
        return np.array(x, copy=True)
    y = REDUCERS[op.name](x, axes)
    if not op.param("keepdims"):
        y = np.squeeze(y, axis=axes)
    return np.asarray(y).astype(x.dtype, copy=False)


def argmax_reference(op: Operation, x: np.ndarray) -> np.ndarray:
    axis = normalize_axis(op.param("axis"), x.ndim)
    n = x.shape[axis]
    if n == 0:
        raise StratiError(f"argmax over axis {op.param('axis')} of size 0 (input shape {list(x.shape)})", op)
    if op.param("select_last_index"):
        index = (n - 1) - np.argmax(np.flip(x, axis), axis=axis)
    else:
        index = np.argmax(x, axis=axis)
    if op.param("keepdims"):
        index = np.expand_dims(index, axis)
    return np.asarray(index, dtype=np.int64)


for _name in REDUCTIONS:
    register_op_attr(_name, "reference", reduce_reference)
register_op_attr("graph.argmax", "reference", argmax_reference)

# --- pattern and flops -----------------------------------------------------------------

# TVM registers argmax as a commutative reduction (kCommReduce) too.
register_all(ALL, "pattern", OpPattern.REDUCE)


def reduce_flops(op: Operation) -> int:
    """One operation per input element reduced (0 for the identity or a dynamic shape)."""
    shape = operand_shape(op, 0)
    if op.name != "graph.argmax" and reduction_axes(op, len(shape)) is None:
        return 0
    return num_elements(shape) or 0


register_all(ALL, "flops", reduce_flops)
