"""Attributes of graph.grid_sample (ONNX GridSample, opsets 16 and 20): its types, its
reference and its cost.

The reference follows onnx's reference implementation step by step, vectorised, with the
same precision at each step (so the lowering, ``lowering/grid_sample.py``, can repeat it):

1. each grid component (last first: it addresses the last spatial axis) is denormalised
   in the grid's type, ``(g + 1) / 2 * (d - 1)`` with ``align_corners``, else
   ``((g + 1) * d - 1) / 2``, then rounded to float32; ``nearest`` rounds it half to even;
2. a coordinate outside ``[lo, hi]`` (``[0, d - 1]`` with ``align_corners``, else
   ``[-0.5, d - 0.5]``) is clamped to ``[0, d - 1]`` (border) or reflected about the
   bounds in float64 (reflection);
3. the taps: nearest one (the coordinate truncated), linear two (floor and floor + 1,
   weights ``1 - t``, ``t``), cubic four (floor - 1 .. floor + 2, Keys' weights with
   a = -0.75), the weights in float32; a tap outside the input reads 0 (zeros), the
   nearest element (border) or its reflection (reflection);
4. the result is the weighted sum, the last axis innermost:
   ``sum_k0 w0[k0] * (sum_k1 w1[k1] * (...))``: each product in the input's element
   type, each axis's sum added in float64 (float32 for 16-bit floats) and rounded to the
   element type, as the float32 BLAS dot that the reference calls does.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.common import operand_element, operand_shape
from strati.dialects.shapes import is_float, make_tensor, num_elements
from strati.registry import OpPattern, register_op_attr

MODES = ("linear", "nearest", "cubic")
PADDING_MODES = ("zeros", "border", "reflection")
TAPS = {"nearest": 1, "linear": 2, "cubic": 4}
CUBIC_A = -0.75


def check_params(op: Operation) -> None:
    mode, padding = op.param("mode"), op.param("padding_mode")
    if mode not in MODES:
        raise VerifyException(f"mode must be one of {', '.join(MODES)}, got \"{mode}\"")
    if padding not in PADDING_MODES:
        raise VerifyException(f"padding_mode must be one of {', '.join(PADDING_MODES)}, got \"{padding}\"")


def infer_grid_sample(op: Operation) -> list[TensorType]:
    check_params(op)
    x, grid = operand_shape(op, 0), operand_shape(op, 1)
    element = operand_element(op, 0)
    if len(x) < 3:
        raise VerifyException(f"input must have rank 3 or more (N, C, spatial...), got {op.operands[0].type}")
    r = len(x) - 2
    if element == i1:
        raise VerifyException(f"expects a numeric input, got {op.operands[0].type}")
    if op.param("mode") != "nearest" and not is_float(element):
        raise VerifyException(f"mode {op.param('mode')} expects a floating-point input, got {op.operands[0].type}")
    if not is_float(operand_element(op, 1)):
        raise VerifyException(f"grid must be a floating-point tensor, got {op.operands[1].type}")
    if len(grid) != r + 2:
        raise VerifyException(f"grid must have rank {r + 2} for a rank-{len(x)} input, got {op.operands[1].type}")
    if grid[-1] is not None and grid[-1] != r:
        raise VerifyException(f"the last dimension of grid must be {r} (one coordinate per spatial axis), got {grid[-1]}")
    if x[0] is not None and grid[0] is not None and x[0] != grid[0]:
        raise VerifyException(f"grid's batch ({grid[0]}) differs from input's ({x[0]})")
    batch = x[0] if x[0] is not None else grid[0]
    return [make_tensor([batch, x[1], *grid[1:-1]], element)]


def bounds(d: int, align_corners: bool) -> tuple[float, float]:
    """The coordinates inside the input along an axis of size d (float64, as the reference)."""
    return (0.0, d - 1.0) if align_corners else (-0.5, d - 0.5)


def reflect(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Reflect float64 coordinates about lo and hi until inside (the reference's _gs_reflect)."""
    x = np.asarray(x, np.float64)
    span = hi - lo
    if span <= 0:
        return np.full_like(x, lo)
    below, above = x < lo, x > hi
    dx = np.where(below, lo - x, np.where(above, x - hi, 0.0))
    n = np.trunc(dx / span)
    r = dx - n * span
    even = np.fmod(n, 2) == 0
    from_below = np.where(even, lo + r, hi - r)
    from_above = np.where(even, hi - r, lo + r)
    return np.where(below, from_below, np.where(above, from_above, x))


def coordinates(grid: np.ndarray, dims, align_corners: bool, mode: str, padding: str) -> list[np.ndarray]:
    """The float32 input coordinate along each spatial axis (steps 1 and 2)."""
    out = []
    for axis, d in enumerate(dims):
        g = grid[..., len(dims) - 1 - axis]
        one, two = g.dtype.type(1), g.dtype.type(2)
        if align_corners:
            x = (g + one) / two * g.dtype.type(d - 1)
        else:
            x = ((g + one) * g.dtype.type(d) - one) / two
        x = x.astype(np.float32)
        if mode == "nearest":
            x = np.rint(x)
        lo, hi = bounds(d, align_corners)
        outside = (x < lo) | (x > hi)
        if padding == "border":
            x = np.where(outside, np.clip(x, np.float32(0), np.float32(d - 1)), x)
        elif padding == "reflection":
            x = np.where(outside, reflect(x, lo, hi).astype(np.float32), x)
        out.append(x.astype(np.float32))
    return out


def cubic_weights(t: np.ndarray) -> list[np.ndarray]:
    """Keys' weights (a = -0.75) of the taps floor - 1 .. floor + 2 for t = x - floor(x), in float32."""
    f = np.float32
    a = f(CUBIC_A)
    x = np.abs(t)
    x1, y, y2 = x + f(1), f(1) - x, f(2) - x
    return [
        ((a * x1 - f(5 * CUBIC_A)) * x1 + f(8 * CUBIC_A)) * x1 - f(4 * CUBIC_A),
        ((a + f(2)) * x - (a + f(3))) * x * x + f(1),
        ((a + f(2)) * y - (a + f(3))) * y * y + f(1),
        ((a * y2 - f(5 * CUBIC_A)) * y2 + f(8 * CUBIC_A)) * y2 - f(4 * CUBIC_A),
    ]


def taps(x: np.ndarray, mode: str) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """(integer index, float32 weight or None) of each tap along one axis (step 3, before padding)."""
    if mode == "nearest":
        return [(np.trunc(x).astype(np.int64), None)]
    lo = np.floor(x)
    base = lo.astype(np.int64)
    t = (x - lo).astype(np.float32)
    if mode == "linear":
        w = np.abs(t)
        return [(base, np.float32(1) - w), (base + 1, w)]
    return [(base + k, w) for k, w in zip((-1, 0, 1, 2), cubic_weights(t))]


def padded_index(i: np.ndarray, d: int, align_corners: bool, padding: str) -> tuple[np.ndarray, np.ndarray | None]:
    """The index a tap reads and, for zeros padding, whether it is inside."""
    if padding == "zeros":
        return np.clip(i, 0, d - 1), (i >= 0) & (i < d)
    if padding == "border":
        return np.clip(i, 0, d - 1), None
    lo, hi = bounds(d, align_corners)
    inside = (i >= 0) & (i < d)
    return np.where(inside, i, np.trunc(reflect(i, lo, hi)).astype(np.int64)).clip(0, d - 1), None


def accumulator(dtype: np.dtype) -> np.dtype:
    """What each axis's weighted sum adds in before rounding to the element type: float64 for
    float32 and float64 (as the BLAS dot of onnx's reference), float32 for 16-bit floats."""
    return np.dtype(np.float64) if np.dtype(dtype).itemsize >= 4 else np.dtype(np.float32)


def grid_sample(op: Operation, x: np.ndarray, grid: np.ndarray) -> np.ndarray:
    check_params(op)
    mode, padding, align = op.param("mode"), op.param("padding_mode"), bool(op.param("align_corners"))
    n, c, dims = x.shape[0], x.shape[1], x.shape[2:]
    out_shape = (n, c, *grid.shape[1:-1])
    if 0 in out_shape or 0 in dims:
        return np.zeros(out_shape, x.dtype)
    coords = coordinates(grid, dims, align, mode, padding)
    per_axis = []
    for axis, (xa, d) in enumerate(zip(coords, dims)):
        found = []
        for index, weight in taps(xa, mode):
            where, inside = padded_index(index, d, align, padding)
            found.append((where, inside, None if weight is None else weight.astype(x.dtype)))
        per_axis.append(found)
    wide = accumulator(x.dtype)
    batch = np.arange(n).reshape((n,) + (1,) * (grid.ndim - 2))

    def combine(axis: int, picked: list, inside) -> np.ndarray:
        if axis == len(dims):
            v = x[(batch, slice(None), *picked)]  # (N, o..., C)
            v = np.moveaxis(v, -1, 1)
            if inside is not None:
                v = np.where(inside[:, None], v, x.dtype.type(0))
            return v
        if mode == "nearest":
            where, ok, _ = per_axis[axis][0]
            return combine(axis + 1, picked + [where], ok if inside is None else (inside if ok is None else inside & ok))
        total = None
        for where, ok, weight in per_axis[axis]:
            both = ok if inside is None else (inside if ok is None else inside & ok)
            term = (weight[:, None] * combine(axis + 1, picked + [where], both)).astype(wide)
            total = term if total is None else total + term
        return total.astype(x.dtype)

    return np.asarray(combine(0, [], None), dtype=x.dtype).reshape(out_shape)


def flops(op: Operation) -> int:
    """A multiply and an add per tap combination and output element."""
    r = len(operand_shape(op, 0)) - 2
    taps_per_element = TAPS.get(op.param("mode"), 1) ** r
    elements = num_elements(operand_shape(op, 0)[:2] + operand_shape(op, 1)[1:-1]) or 0
    return 0 if op.param("mode") == "nearest" else 2 * taps_per_element * elements


register_op_attr("graph.grid_sample", "infer_type", infer_grid_sample)
register_op_attr("graph.grid_sample", "reference", grid_sample)
register_op_attr("graph.grid_sample", "pattern", OpPattern.INJECTIVE)
register_op_attr("graph.grid_sample", "flops", flops)
