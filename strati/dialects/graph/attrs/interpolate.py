"""graph.resize with ``mode = "linear"``: the reference (graph.resize's other attributes,
in ``attrs/shape.py``, dispatch here for that mode).

Along each resized axis, output index ``i`` maps to the input coordinate ``x`` of the
coordinate transformation (float32, as onnxruntime), clamped to ``[0, n_in - 1]``; the
result is ``(1 - w) * in[x0] + w * in[x1]`` with ``x0 = floor(x)``, ``x1 = min(x0 + 1,
n_in - 1)`` and ``w = x - x0``, axis after axis.  An axis whose size and scale are
unchanged is copied.
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
    """The input coordinate of each output index along one axis, clamped into the input (float32)."""
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
    return np.clip(x, f(0), f(max(n_in - 1, 0)))


def resize_linear(op: Operation, x: np.ndarray) -> np.ndarray:
    ctm = op.param("coordinate_transformation_mode")
    y = x
    for axis, (n_in, n_out, scale) in enumerate(axis_scales(op.param("scales"), x.shape, result_shape(op))):
        if unchanged(n_in, n_out, scale) or n_in == 0:
            continue
        c = source_coordinates(n_in, n_out, scale, ctm)
        lo = np.floor(c)
        x0 = lo.astype(np.intp)
        x1 = np.minimum(x0 + 1, n_in - 1)
        w = (c - lo).astype(x.dtype)
        shape = [1] * x.ndim
        shape[axis] = n_out
        w = w.reshape(shape)
        one = np.ones((), x.dtype)
        y = np.take(y, x0, axis=axis) * (one - w) + np.take(y, x1, axis=axis) * w
    return np.asarray(y, dtype=x.dtype)
