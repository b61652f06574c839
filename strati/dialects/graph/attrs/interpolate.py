"""graph.resize with ``mode = "linear"`` or ``"cubic"``: the reference (graph.resize's other
attributes, in ``attrs/shape.py``, dispatch here for those modes) and the taps that the
lowering computes the same way.

Along each resized axis, output index ``i`` maps to the input coordinate ``x`` of the
coordinate transformation (float32, as onnxruntime), and the result is a weighted sum of
input elements along the axis, axis after axis:

- linear: ``x`` clamped to ``[0, n_in - 1]``; ``(1 - w) * in[x0] + w * in[x1]`` with
  ``x0 = floor(x)``, ``x1 = min(x0 + 1, n_in - 1)``, ``w = x - x0``;
- cubic: the four elements ``floor(x) - 1 .. floor(x) + 2`` (indices clamped to the edge)
  with Keys' cubic convolution weights for ``cubic_coeff_a``; with ``exclude_outside`` the
  weights of elements outside the input are 0 and the others renormalised.

An axis whose size and scale are unchanged is copied.
"""

from __future__ import annotations

import numpy as np
from xdsl.ir import Operation

from strati.dialects.graph.attrs.common import result_shape

LINEAR_COORDINATE_MODES = ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel")


def axis_scales(scales, src, dst) -> list[tuple[int, int, np.float32]]:
    """(n_in, n_out, scale) per axis: the given scales, else the ratio of the sizes (float32)."""
    out = []
    for k, n_in in enumerate(src):
        if scales is not None:
            scale = np.float32(scales[k])
            n_out = int(np.floor(np.float32(n_in) * scale))
        else:
            n_out = dst[k]
            scale = np.float32(n_out) / np.float32(n_in) if n_in else np.float32(1)
        out.append((n_in, n_out, scale))
    return out


def unchanged(n_in: int, n_out: int, scale: np.float32) -> bool:
    return n_in == n_out and scale == np.float32(1)


def source_coordinates(n_in: int, n_out: int, scale: np.float32, ctm: str) -> np.ndarray:
    """The input coordinate of each output index along one axis (float32, not clamped)."""
    f = np.float32
    i = np.arange(n_out, dtype=f)
    half = f(0.5)
    if ctm in ("half_pixel", "pytorch_half_pixel"):
        x = (i + half) / scale - half
        if ctm == "pytorch_half_pixel" and n_out <= 1:
            x = np.zeros_like(i)
    elif ctm == "align_corners":
        x = i * f(n_in - 1) / f(n_out - 1) if n_out > 1 else np.zeros_like(i)
    else:  # asymmetric
        x = i / scale
    return x


def cubic_weights(t, a):
    """Keys' weights of the elements at offsets -1, 0, 1, 2 from floor(x), for t = x - floor(x)."""
    def near(d):  # |d| <= 1
        return ((a + 2) * d - (a + 3)) * d * d + 1

    def far(d):  # 1 < |d| < 2
        return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a

    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def taps(op: Operation, n_in: int, n_out: int, scale: np.float32) -> list[tuple[np.ndarray, np.ndarray]]:
    """(input indices, weights) of each tap along one axis, one entry per output index."""
    x = source_coordinates(n_in, n_out, scale, op.param("coordinate_transformation_mode"))
    f = np.float32
    if op.param("mode") == "linear":
        x = np.clip(x, f(0), f(max(n_in - 1, 0)))
        lo = np.floor(x)
        x0 = lo.astype(np.intp)
        w = x - lo
        return [(x0, f(1) - w), (np.minimum(x0 + 1, n_in - 1), w)]
    lo = np.floor(x)
    t = x - lo
    weights = cubic_weights(t, f(op.param("cubic_coeff_a")))
    raw = [lo.astype(np.intp) + k for k in (-1, 0, 1, 2)]
    if op.param("exclude_outside"):
        weights = [np.where((r >= 0) & (r < n_in), w, f(0)) for r, w in zip(raw, weights)]
        total = weights[0] + weights[1] + weights[2] + weights[3]
        weights = [w / total for w in weights]
    return [(np.clip(r, 0, n_in - 1), w) for r, w in zip(raw, weights)]


def resize_interpolated(op: Operation, x: np.ndarray) -> np.ndarray:
    y = x
    for axis, (n_in, n_out, scale) in enumerate(axis_scales(op.param("scales"), x.shape, result_shape(op))):
        if unchanged(n_in, n_out, scale) or n_in == 0:
            continue
        shape = [1] * x.ndim
        shape[axis] = n_out
        total = None
        for index, weight in taps(op, n_in, n_out, scale):
            term = np.take(y, index, axis=axis) * weight.astype(x.dtype).reshape(shape)
            total = term if total is None else total + term
        y = total
    return np.asarray(y, dtype=x.dtype)
