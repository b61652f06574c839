"""``lower`` for graph.resize with ``mode = "linear"`` or ``"cubic"`` (lowering/shape.py's resize
dispatches here).

One generic over the result: along each resized axis the element computes its input
coordinate in f32 arithmetic as the reference does (``attrs/interpolate.py``), then the
taps (two for linear, four for cubic): their input indices and weights.  The result is
the sum over every combination of taps (2^m or 4^m for m resized axes) of the product of
their weights times the element there, extracted from the input.  An unchanged axis reads
its own index.
"""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, f32, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from strati.dialects.graph.attrs.interpolate import axis_scales, unchanged
from strati.dialects.graph.lowering.reduce import static_types
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type, shape
from strati.dialects.tensor.ops import PARALLEL

INDEX = IndexType()


def _c(v) -> SSAValue:
    return s.const(float(np.float32(v)), f32)


def _coordinate(k: int, n_in: int, n_out: int, scale: np.float32, ctm: str) -> SSAValue:
    """The input coordinate (f32) of output index ``k`` (loop k)."""
    if ctm in ("pytorch_half_pixel", "align_corners") and n_out <= 1:
        return _c(0)
    i = s.cast(s.cast(s.index(k), i64), f32)
    if ctm in ("half_pixel", "pytorch_half_pixel"):
        return s.sub(s.div(s.add(i, _c(0.5)), _c(scale)), _c(0.5))
    if ctm == "align_corners":
        return s.div(s.mul(i, _c(n_in - 1)), _c(n_out - 1))
    return s.div(i, _c(scale))  # asymmetric


def _to_index(v: SSAValue) -> SSAValue:
    return s.cast(s.cast(v, i64), INDEX)


def _linear_taps(x: SSAValue, n_in: int) -> list[tuple[SSAValue, SSAValue]]:
    x = s.minimum(s.maximum(x, _c(0)), _c(max(n_in - 1, 0)))
    lo = s.unary_math("floor", x)
    x0 = _to_index(lo)
    w = s.sub(x, lo)
    return [(x0, s.sub(_c(1), w)), (s.minimum(s.add(x0, s.const(1, INDEX)), s.const(n_in - 1, INDEX)), w)]


def _cubic_taps(op: Operation, x: SSAValue, n_in: int) -> list[tuple[SSAValue, SSAValue]]:
    a = np.float32(op.param("cubic_coeff_a"))
    lo = s.unary_math("floor", x)
    t = s.sub(x, lo)

    def near(d):
        return s.add(s.mul(s.mul(s.sub(s.mul(_c(a + 2), d), _c(a + 3)), d), d), _c(1))

    def far(d):
        return s.sub(s.mul(s.add(s.mul(s.sub(s.mul(_c(a), d), _c(5 * a)), d), _c(8 * a)), d), _c(4 * a))

    one = _c(1)
    weights = [far(s.add(t, one)), near(t), near(s.sub(one, t)), far(s.sub(_c(2), t))]
    base = s.cast(lo, i64)
    raw = [s.add(base, s.const(k, i64)) for k in (-1, 0, 1, 2)]
    if op.param("exclude_outside"):
        zero, last = s.const(0, i64), s.const(n_in - 1, i64)
        inside = [arith.AndIOp(s.cmp("ge", r, zero), s.cmp("le", r, last)).result for r in raw]
        weights = [s.select(ok, w, _c(0)) for ok, w in zip(inside, weights)]
        total = s.add(s.add(weights[0], weights[1]), s.add(weights[2], weights[3]))
        weights = [s.div(w, total) for w in weights]
    clamped = [s.minimum(s.maximum(r, s.const(0, i64)), s.const(n_in - 1, i64)) for r in raw]
    return [(s.cast(r, INDEX), w) for r, w in zip(clamped, weights)]


def lower_resize_interpolated(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    ctm = op.param("coordinate_transformation_mode")
    axes = axis_scales(op.param("scales"), shape(x), tuple(result_type.get_shape()))
    t = element_type(x)
    rank = len(axes)

    def body(_out: SSAValue) -> SSAValue:
        per_axis = []
        for k, (n_in, n_out, scale) in enumerate(axes):
            if unchanged(n_in, n_out, scale) or not n_in:
                per_axis.append([(s.index(k), None)])
                continue
            coordinate = _coordinate(k, n_in, n_out, scale, ctm)
            found = _linear_taps(coordinate, n_in) if op.param("mode") == "linear" else _cubic_taps(op, coordinate, n_in)
            per_axis.append([(index, s.cast(w, t)) for index, w in found])
        total = None
        for combination in itertools.product(*per_axis):
            term = s.extract(x, [index for index, _ in combination])
            for _, weight in combination:
                if weight is not None:
                    term = s.mul(term, weight)
            total = term if total is None else s.add(total, term)
        return total

    (y,) = b.generic([], [b.empty(result_type)], [AffineMap.identity(rank)], [PARALLEL] * rank, body)
    return y
