"""``lower`` for graph.grid_sample: one tensor.generic over the result.

Each element (n, c, o1..or) repeats the reference's steps (``attrs/grid_sample.py``) in
scalar arithmetic with the same precision: it extracts its grid components, denormalises
them in the grid's type, rounds to f32 (and to even for nearest), applies the padding to
the coordinate (clamp, or reflection in f64), then computes its taps (indices as i64,
weights in f32), pads each tap's index (zeros: a flag that selects 0; border: clamp;
reflection: reflect in f64 and truncate), extracts the input at every combination of taps
and sums them axis by axis, the last innermost, each sum in f64 (f32 for 16-bit floats)
rounded to the element type.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, f32, f64, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from strati.dialects.graph.attrs.grid_sample import CUBIC_A, bounds
from strati.dialects.graph.lowering.reduce import static_types
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type, shape
from strati.dialects.tensor.ops import PARALLEL
from strati.registry import register_op_attr

INDEX = IndexType()


def _f(v: float, t=f32) -> SSAValue:
    return s.const(float(v), t)


def _i(v: int) -> SSAValue:
    return s.const(v, i64)


def _reflect(x: SSAValue, lo: float, hi: float) -> SSAValue:
    """The reference's _gs_reflect of an f64 coordinate."""
    span = hi - lo
    if span <= 0:
        return _f(lo, f64)
    below, above = s.cmp("lt", x, _f(lo, f64)), s.cmp("gt", x, _f(hi, f64))
    dx = s.select(below, s.sub(_f(lo, f64), x), s.sub(x, _f(hi, f64)))
    n = s.cast(s.div(dx, _f(span, f64)), i64)  # truncates, as int()
    r = s.sub(dx, s.mul(s.cast(n, f64), _f(span, f64)))
    even = s.cmp("eq", n, s.mul(s.div(n, _i(2)), _i(2)))
    near_lo, near_hi = s.add(_f(lo, f64), r), s.sub(_f(hi, f64), r)
    from_below = s.select(even, near_lo, near_hi)
    from_above = s.select(even, near_hi, near_lo)
    return s.select(below, from_below, s.select(above, from_above, x))


def _coordinate(g: SSAValue, d: int, align: bool, mode: str, padding: str) -> SSAValue:
    """Steps 1 and 2: the f32 input coordinate of a grid component along an axis of size d."""
    gt = g.type
    one, two = _f(1, gt), _f(2, gt)
    if align:
        x = s.mul(s.div(s.add(g, one), two), _f(d - 1, gt))
    else:
        x = s.div(s.sub(s.mul(s.add(g, one), _f(d, gt)), one), two)
    x = s.cast(x, f32)
    if mode == "nearest":
        x = s.unary_math("round_even", x)
    if padding == "zeros":
        return x
    lo, hi = bounds(d, align)
    outside = arith.OrIOp(s.cmp("lt", x, _f(lo)), s.cmp("gt", x, _f(hi))).result
    if padding == "border":
        moved = s.minimum(s.maximum(x, _f(0)), _f(d - 1))
    else:
        moved = s.cast(_reflect(s.cast(x, f64), lo, hi), f32)
    return s.select(outside, moved, x)


def _cubic_weights(t: SSAValue) -> list[SSAValue]:
    a = _f(CUBIC_A)
    x = s.abs_(t)
    x1, y, y2 = s.add(x, _f(1)), s.sub(_f(1), x), s.sub(_f(2), x)
    a2, a3 = s.add(a, _f(2)), s.add(a, _f(3))

    def far(u):
        return s.sub(s.mul(s.add(s.mul(s.sub(s.mul(a, u), _f(5 * CUBIC_A)), u), _f(8 * CUBIC_A)), u), _f(4 * CUBIC_A))

    def near(u):
        return s.add(s.mul(s.mul(s.sub(s.mul(a2, u), a3), u), u), _f(1))

    return [far(x1), near(x), near(y), far(y2)]


def _taps(x: SSAValue, mode: str) -> list[tuple[SSAValue, SSAValue | None]]:
    """Step 3: (i64 index, f32 weight) of each tap."""
    if mode == "nearest":
        return [(s.cast(x, i64), None)]
    lo = s.unary_math("floor", x)
    base = s.cast(lo, i64)
    t = s.sub(x, lo)
    if mode == "linear":
        w = s.abs_(t)
        return [(base, s.sub(_f(1), w)), (s.add(base, _i(1)), w)]
    return [(s.add(base, _i(k)), w) for k, w in zip((-1, 0, 1, 2), _cubic_weights(t))]


def _padded(i: SSAValue, d: int, align: bool, padding: str) -> tuple[SSAValue, SSAValue | None]:
    """The index (as ``index``) a tap reads and, for zeros padding, whether it is inside."""
    inside = s.and_(s.cmp("ge", i, _i(0)), s.cmp("lt", i, _i(d)))
    if padding == "reflection":
        lo, hi = bounds(d, align)
        i = s.select(inside, i, s.cast(_reflect(s.cast(i, f64), lo, hi), i64))
    clamped = s.minimum(s.maximum(i, _i(0)), _i(d - 1))
    return s.cast(clamped, INDEX), (inside if padding == "zeros" else None)


def lower_grid_sample(op: Operation, b: TensorBuilder) -> SSAValue:
    static_types(op)
    x, grid = op.operands
    mode, padding, align = op.param("mode"), op.param("padding_mode"), bool(op.param("align_corners"))
    dims = shape(x)[2:]
    r = len(dims)
    result_type = op.results[0].type
    if 0 in dims:  # nothing to sample from: zeros, as the reference gives
        return b.filled(0, result_type)
    t = element_type(x)
    wide = f64 if isinstance(t, Float32Type | Float64Type) else f32

    def body(_out: SSAValue) -> SSAValue:
        lead = [s.index(d) for d in range(2 + r)]
        per_axis = []
        for axis, d in enumerate(dims):
            g = s.extract(grid, [lead[0], *lead[2:], s.const(r - 1 - axis, INDEX)])
            found = []
            for index, weight in _taps(_coordinate(g, d, align, mode, padding), mode):
                where, inside = _padded(index, d, align, padding)
                found.append((where, inside, None if weight is None else s.cast(weight, t)))
            per_axis.append(found)

        def combine(axis: int, picked: list[SSAValue], inside: SSAValue | None) -> SSAValue:
            if axis == r:
                v = s.extract(x, [lead[0], lead[1], *picked])
                return v if inside is None else s.select(inside, v, s.const(0, t))
            total = None
            for where, ok, weight in per_axis[axis]:
                both = ok if inside is None else (inside if ok is None else s.and_(inside, ok))
                term = combine(axis + 1, [*picked, where], both)
                if weight is None:
                    return term
                term = s.cast(s.mul(weight, term), wide)
                total = term if total is None else s.add(total, term)
            return s.cast(total, t)

        return combine(0, [], None)

    rank = r + 2
    (y,) = b.generic([], [b.empty(result_type)], [AffineMap.identity(rank)], [PARALLEL] * rank, body)
    return y


register_op_attr("graph.grid_sample", "lower", lower_grid_sample)
