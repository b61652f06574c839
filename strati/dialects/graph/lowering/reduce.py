"""``lower`` for the reduce ops and argmax.

- reduce_{sum,prod,max,min}: one generic, reduction loops over the reduced axes,
  accumulating into a filled init (0, 1, the lowest or highest value of the type);
  keepdims puts a constant 0 in the output map.  On i1, max is ``ori`` and min ``andi``.
- reduce_mean: the sum, then one elementwise division by the count.  Integers are
  summed in 64 bits and divided truncating toward zero (``divsi``/``divui``), as the
  reference does; an empty integer mean is 0.
- argmax: one generic with two outputs, the best value so far and its index
  (``tensor.index`` of the reduced loop), visiting the axis in order: a strict
  comparison keeps the first maximum, a non-strict one the last.  NaN wins, as in numpy.
- Floats narrower than 32 bits are summed/multiplied in f32 and rounded once at the end.
- The identity (no axes with ``noop_with_empty_axes``, or a rank-0 input) lowers to its operand.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerType, Signedness, TensorType, f32, i1, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from strati.dense import to_dtype
from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.reduce import reduction_axes
from strati.dialects.shapes import normalize_axis
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.registry import register_op_attr


def static_types(op: Operation) -> None:
    """Shapes are static at the tensor level: name the op whose shapes are not."""
    for v in [*op.operands, *op.results]:
        if isinstance(v.type, TensorType) and not v.type.has_static_shape():
            raise StratiError(f"cannot lower {v.type}: shapes must be static at the tensor level (run infer-shapes)", op)


def lowest(element: Attribute) -> float | int | bool:
    if s.is_float(element):
        return float("-inf")
    if element == i1:
        return False
    return int(np.iinfo(to_dtype(element)).min)


def highest(element: Attribute) -> float | int | bool:
    if s.is_float(element):
        return float("inf")
    if element == i1:
        return True
    return int(np.iinfo(to_dtype(element)).max)


def acc_type(element: Attribute) -> Attribute:
    """Floats narrower than 32 bits accumulate in f32."""
    if s.is_float(element) and element.bitwidth < 32:  # type: ignore[attr-defined]
        return f32
    return element


def _round(b: TensorBuilder, y: SSAValue, result_type: TensorType) -> SSAValue:
    element = result_type.get_element_type()
    if element_type(y) == element:
        return y
    return b.elementwise([y], result_type, lambda v: s.cast(v, element))


def _maximum(a: SSAValue, e: SSAValue) -> SSAValue:
    return arith.OrIOp(a, e).result if a.type == i1 else s.maximum(a, e)


def _minimum(a: SSAValue, e: SSAValue) -> SSAValue:
    return arith.AndIOp(a, e).result if a.type == i1 else s.minimum(a, e)


def lower_reduce(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x = op.operands[0]
    result_type = op.results[0].type
    element = element_type(x)
    axes = reduction_axes(op, len(shape(x)))
    if axes is None or not shape(x):
        return x
    keepdims = bool(op.param("keepdims"))
    name = op.name.removeprefix("graph.")
    if name in ("reduce_max", "reduce_min"):
        init, combine = (lowest(element), _maximum) if name == "reduce_max" else (highest(element), _minimum)
        return b.reduce(x, axes, keepdims, init, combine, result_type)
    out_shape = result_type.get_shape()
    if name == "reduce_mean" and not s.is_float(element):
        return _int_mean(op, b, x, axes, keepdims, result_type)
    acc = acc_type(element)
    up = (lambda e: s.cast(e, acc)) if acc != element else (lambda e: e)
    if name == "reduce_prod":
        init, combine = 1, lambda a, e: s.mul(a, up(e))
    else:
        init, combine = 0, lambda a, e: s.add(a, up(e))
    total = b.reduce(x, axes, keepdims, init, combine, TensorType(acc, out_shape))
    if name == "reduce_mean":
        count = int(np.prod([shape(x)[a] for a in axes]))
        total = b.elementwise([total], TensorType(acc, out_shape), lambda v: s.div(v, s.const(count, acc)))
    return _round(b, total, result_type)


def _int_mean(op, b: TensorBuilder, x: SSAValue, axes, keepdims: bool, result_type: TensorType) -> SSAValue:
    element = element_type(x)
    count = int(np.prod([shape(x)[a] for a in axes]))
    if count == 0:
        return b.filled(0, result_type)
    wide = IntegerType(64, Signedness.UNSIGNED) if s.is_unsigned(element) else i64
    out_shape = result_type.get_shape()
    total = b.reduce(x, axes, keepdims, 0, lambda a, e: s.add(a, s.cast(e, wide)), TensorType(wide, out_shape))
    # divsi/divui truncate toward zero, as the reference's mean of integers
    return b.elementwise([total], result_type, lambda v: s.cast(s.div(v, s.const(count, wide)), element))


def _greater(strict: bool, a: SSAValue, best: SSAValue) -> SSAValue:
    """Whether ``a`` replaces ``best``: greater (or equal unless strict); a NaN beats any number."""
    if s.is_float(a.type):
        take = arith.CmpfOp(a, best, "ogt" if strict else "oge").result
        nan = arith.CmpfOp(a, a, "uno").result
        if strict:  # the first NaN stays
            nan = arith.AndIOp(nan, arith.CmpfOp(best, best, "ord").result).result
        return arith.OrIOp(take, nan).result
    if a.type == i1 or s.is_unsigned(a.type):
        return arith.CmpiOp(a, best, "ugt" if strict else "uge").result
    return arith.CmpiOp(a, best, "sgt" if strict else "sge").result


def lower_argmax(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x = op.operands[0]
    result_type = op.results[0].type
    element = element_type(x)
    in_shape = shape(x)
    rank = len(in_shape)
    axis = normalize_axis(op.param("axis"), rank)
    keepdims = bool(op.param("keepdims"))
    strict = not op.param("select_last_index")
    out_exprs = [
        AffineConstantExpr(0) if i == axis else AffineDimExpr(i) for i in range(rank) if keepdims or i != axis
    ]
    out_map = AffineMap(rank, 0, tuple(out_exprs))
    out_shape = result_type.get_shape()
    best = b.filled(lowest(element), TensorType(element, out_shape))
    at = b.filled(0, TensorType(i64, out_shape))
    kinds = [REDUCTION if i == axis else PARALLEL for i in range(rank)]

    def body(e: SSAValue, best_so_far: SSAValue, index_so_far: SSAValue):
        j = s.cast(s.index(axis), i64)
        take = _greater(strict, e, best_so_far)
        return s.select(take, e, best_so_far), s.select(take, j, index_so_far)

    _, index = b.generic([x], [best, at], [AffineMap.identity(rank), out_map, out_map], kinds, body)
    return index


for _name in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"):
    register_op_attr(f"graph.{_name}", "lower", lower_reduce)
register_op_attr("graph.argmax", "lower", lower_argmax)
