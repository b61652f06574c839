"""``lower`` for graph.resize with ``mode = "linear"`` (lowering/shape.py's resize dispatches here).

One generic over the result: along each resized axis the element computes its input
coordinate in f32 arithmetic as the reference does (clamped into the input), the two
neighbouring indices and the weight of the upper one; the result is the sum over the
2^m corners (m resized axes) of the product of their weights times the corner's element,
extracted from the input.  An unchanged axis reads its own index.
"""

from __future__ import annotations

import itertools

import numpy as np
from xdsl.dialects.builtin import IndexType, f32, i64
from xdsl.ir import Operation, SSAValue

from strati.dialects.graph.attrs.interpolate import axis_scales, unchanged
from strati.dialects.graph.lowering.reduce import static_types
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type, shape
from strati.dialects.tensor.ops import PARALLEL
from xdsl.ir.affine import AffineMap

INDEX = IndexType()


def _c(v) -> SSAValue:
    return s.const(float(np.float32(v)), f32)


def _taps(k: int, n_in: int, n_out: int, scale: np.float32, ctm: str) -> tuple[SSAValue, SSAValue, SSAValue]:
    """The lower and upper input indices of output index ``k`` (loop k) and the upper one's weight (f32)."""
    i = s.cast(s.cast(s.index(k), i64), f32)
    if ctm in ("pytorch_half_pixel", "align_corners") and n_out <= 1:
        x = _c(0)
    elif ctm in ("half_pixel", "pytorch_half_pixel"):
        x = s.sub(s.div(s.add(i, _c(0.5)), _c(scale)), _c(0.5))
    elif ctm == "align_corners":
        x = s.div(s.mul(i, _c(n_in - 1)), _c(n_out - 1))
    else:  # asymmetric
        x = s.div(i, _c(scale))
    x = s.minimum(s.maximum(x, _c(0)), _c(max(n_in - 1, 0)))
    lo = s.unary_math("floor", x)
    x0 = s.cast(s.cast(lo, i64), INDEX)
    x1 = s.minimum(s.add(x0, s.const(1, INDEX)), s.const(n_in - 1, INDEX))
    return x0, x1, s.sub(x, lo)


def lower_resize_linear(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, result_type = op.operands[0], op.results[0].type
    ctm = op.param("coordinate_transformation_mode")
    axes = axis_scales(op.param("scales"), shape(x), tuple(result_type.get_shape()))
    t = element_type(x)
    rank = len(axes)

    def body(_out: SSAValue) -> SSAValue:
        taps = {}
        for k, (n_in, n_out, scale) in enumerate(axes):
            if not unchanged(n_in, n_out, scale) and n_in:
                x0, x1, w1 = _taps(k, n_in, n_out, scale, ctm)
                w1 = s.cast(w1, t)
                taps[k] = ((x0, s.sub(s.const(1.0, t), w1)), (x1, w1))
        total = None
        for corner in itertools.product(*(taps[k] if k in taps else ((s.index(k), None),) for k in range(rank))):
            term = s.extract(x, [index for index, _ in corner])
            for _, weight in corner:
                if weight is not None:
                    term = s.mul(term, weight)
            total = term if total is None else s.add(total, term)
        return total

    (y,) = b.generic([], [b.empty(result_type)], [AffineMap.identity(rank)], [PARALLEL] * rank, body)
    return y
