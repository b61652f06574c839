"""Attributes of the data-movement ops: reshape, broadcast_to, flatten, transpose,
squeeze, unsqueeze, slice, pad, concat, split, gather, resize.

Semantics follow ONNX (Slice, Pad, Split, Gather, Flatten, Resize in mode nearest)
and numpy (reshape, broadcast_to, transpose).  ``infer_type`` is the verifier: it
checks every property against the operand types and raises naming what is wrong.
Where the target shape is not in the properties (reshape, broadcast_to, resize),
it is the declared result type's shape.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dense import numpy_from_dense
from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.common import (
    operand_element,
    operand_shape,
    register_all,
    require_same_element,
    result_shape,
)
from strati.dialects.shapes import Shape, fmt, is_float, is_int, make_tensor, num_elements
from strati.registry import OpPattern, register_op_attr

SHAPE_OPS = [
    "reshape", "broadcast_to", "flatten", "transpose", "squeeze", "unsqueeze",
    "slice", "pad", "concat", "split", "gather", "resize",
]  # fmt: skip

PAD_MODES = ("constant", "reflect", "edge")
COORDINATE_MODES = ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn")
NEAREST_MODES = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def _names(ops):
    return [f"graph.{o}" for o in ops]


def _s(shape: Shape) -> str:
    return f"[{fmt(shape)}]"


def _axis(axis: int, rank: int, what: str = "axis") -> int:
    """An axis in [-rank, rank) as a non-negative index (a rank-0 tensor has no axis)."""
    if not -rank <= axis < rank:
        raise VerifyException(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank


def _axes(axes: Sequence[int], rank: int, what: str = "axes") -> tuple[int, ...]:
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise VerifyException(f"{what} {list(axes)}: axis {a} is out of range for rank {rank}")
        out.append(a % rank)
    if len(set(out)) != len(out):
        raise VerifyException(f"{what} {list(axes)} repeat an axis")
    return tuple(out)


def _require(op: Operation, name: str) -> tuple[int, ...]:
    value = op.param(name)
    if value is None:
        raise VerifyException(f"needs the property '{name}'")
    return value


# --- reshape, broadcast_to, flatten, transpose -------------------------------------------


def infer_reshape(op: Operation) -> list[TensorType]:
    src, dst = operand_shape(op, 0), result_shape(op)
    dynamic = [i for i, d in enumerate(dst) if d is None]
    if len(dynamic) > 1:
        raise VerifyException(f"result {_s(dst)} has {len(dynamic)} dynamic dimensions; at most one can be inferred")
    known = math.prod(d for d in dst if d is not None)
    n = num_elements(src)
    if n is None:
        # The input's static dimensions still divide its element count.
        part = math.prod(d for d in src if d is not None)
        if not dynamic and part and known % part:
            raise VerifyException(
                f"cannot reshape {_s(src)} (a multiple of {part} elements) into {known} {_s(dst)}"
            )
        return [make_tensor(dst, operand_element(op, 0))]
    if not dynamic:
        if n != known:
            raise VerifyException(f"cannot reshape {n} elements {_s(src)} into {known} {_s(dst)}")
        return [make_tensor(dst, operand_element(op, 0))]
    if known == 0 or n % known:
        raise VerifyException(
            f"cannot reshape {n} elements {_s(src)} into {_s(dst)}: {n} is not a multiple of {known}"
            if known
            else f"cannot reshape {n} elements {_s(src)} into {_s(dst)}: the dynamic dimension is ambiguous"
        )
    out = list(dst)
    out[dynamic[0]] = n // known
    return [make_tensor(out, operand_element(op, 0))]


def reshape(op: Operation, x: np.ndarray) -> np.ndarray:
    return x.reshape(tuple(-1 if d is None else d for d in result_shape(op)))


def infer_broadcast_to(op: Operation) -> list[TensorType]:
    src, dst = operand_shape(op, 0), result_shape(op)
    if len(src) > len(dst):
        raise VerifyException(f"cannot broadcast {_s(src)} to {_s(dst)} of lower rank")
    lead = len(dst) - len(src)
    out: list[int | None] = []
    for axis, t in enumerate(dst):
        s = src[axis - lead] if axis >= lead else 1
        if t is None:
            if s == 1:
                raise VerifyException(
                    f"result dimension {axis} of {_s(dst)} is dynamic, but the input {_s(src)} does not determine it"
                )
            out.append(s)
        else:
            if s is not None and s not in (1, t):
                raise VerifyException(
                    f"cannot broadcast {_s(src)} to {_s(dst)}: "
                    f"input dimension {axis - lead} of size {s} is neither 1 nor {t}"
                )
            out.append(t)
    return [make_tensor(out, operand_element(op, 0))]


def broadcast_to(op: Operation, x: np.ndarray) -> np.ndarray:
    dst = result_shape(op)
    lead = len(dst) - x.ndim
    target = tuple(x.shape[i - lead] if d is None else d for i, d in enumerate(dst))
    return np.array(np.broadcast_to(x, target))  # a copy: no zero strides escape


def _flatten_axis(op: Operation, rank: int) -> int:
    axis = op.param("axis")
    if not -rank <= axis <= rank:
        raise VerifyException(f"axis {axis} is out of range for flatten of rank {rank} (expected {-rank}..{rank})")
    return axis + rank if axis < 0 else axis


def infer_flatten(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    a = _flatten_axis(op, len(src))
    return [make_tensor((num_elements(src[:a]), num_elements(src[a:])), operand_element(op, 0))]


def flatten(op: Operation, x: np.ndarray) -> np.ndarray:
    a = _flatten_axis(op, x.ndim)
    return x.reshape(math.prod(x.shape[:a]), math.prod(x.shape[a:]))


def _perm(op: Operation, rank: int) -> tuple[int, ...]:
    perm = op.param("perm")
    if perm is None:
        return tuple(reversed(range(rank)))
    if len(perm) != rank:
        raise VerifyException(f"perm {list(perm)} has {len(perm)} entries for rank {rank}")
    if sorted(perm) != list(range(rank)):
        raise VerifyException(f"perm {list(perm)} is not a permutation of 0..{rank - 1}")
    return perm


def infer_transpose(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    return [make_tensor([src[p] for p in _perm(op, len(src))], operand_element(op, 0))]


# --- squeeze, unsqueeze ----------------------------------------------------------------


def _squeeze_axes(op: Operation, src: Shape) -> tuple[int, ...]:
    axes = op.param("axes")
    if axes is None:
        if None in src:
            raise VerifyException(f"squeeze without axes needs static dimensions, got {_s(src)}")
        return tuple(i for i, d in enumerate(src) if d == 1)
    axes = _axes(axes, len(src))
    for a in axes:
        if src[a] not in (1, None):
            raise VerifyException(f"cannot squeeze dimension {a} of size {src[a]} in {_s(src)}")
    return axes


def infer_squeeze(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    axes = _squeeze_axes(op, src)
    return [make_tensor([d for i, d in enumerate(src) if i not in axes], operand_element(op, 0))]


def squeeze(op: Operation, x: np.ndarray) -> np.ndarray:
    return np.squeeze(x, axis=_squeeze_axes(op, x.shape))


def _unsqueeze_axes(op: Operation, rank: int) -> tuple[int, ...]:
    axes = _require(op, "axes")
    return _axes(axes, rank + len(axes))


def infer_unsqueeze(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    axes = _unsqueeze_axes(op, len(src))
    rest = iter(src)
    out = [1 if i in axes else next(rest) for i in range(len(src) + len(axes))]
    return [make_tensor(out, operand_element(op, 0))]


def unsqueeze(op: Operation, x: np.ndarray) -> np.ndarray:
    return np.expand_dims(x, _unsqueeze_axes(op, x.ndim))


# --- slice -----------------------------------------------------------------------------


def _slice_params(op: Operation, rank: int) -> list[tuple[int, int, int, int]]:
    """(axis, start, end, step) per sliced axis, axes normalized, lengths and steps checked."""
    starts, ends = _require(op, "starts"), _require(op, "ends")
    n = len(starts)
    axes, steps = op.param("axes"), op.param("steps")
    if axes is None:
        if n > rank:
            raise VerifyException(f"starts has {n} entries for rank {rank}")
        axes = tuple(range(n))
    steps = (1,) * n if steps is None else steps
    for name, values in (("ends", ends), ("axes", axes), ("steps", steps)):
        if len(values) != n:
            raise VerifyException(f"starts has {n} entries but {name} has {len(values)}")
    if 0 in steps:
        raise VerifyException(f"steps {list(steps)} contain a zero step")
    return list(zip(_axes(axes, rank), starts, ends, steps))


def _clamp(start: int, end: int, step: int, dim: int) -> tuple[int, int]:
    """ONNX Slice: negative indices count from the end, then clamp by the step's direction."""
    start += dim if start < 0 else 0
    end += dim if end < 0 else 0
    if step > 0:
        return min(max(start, 0), dim), min(max(end, 0), dim)
    return min(max(start, 0), dim - 1), min(max(end, -1), dim - 1)


def infer_slice(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    out = list(src)
    for axis, start, end, step in _slice_params(op, len(src)):
        dim = src[axis]
        if dim is not None:
            lo, hi = _clamp(start, end, step, dim)
            out[axis] = max(0, -((lo - hi) // step))
    return [make_tensor(out, operand_element(op, 0))]


def slice_(op: Operation, x: np.ndarray) -> np.ndarray:
    index = [slice(None)] * x.ndim
    for axis, start, end, step in _slice_params(op, x.ndim):
        lo, hi = _clamp(start, end, step, x.shape[axis])
        index[axis] = slice(lo, hi if hi >= 0 else None, step)  # -1 is "before 0" going backward
    return x[tuple(index)]


# --- pad -------------------------------------------------------------------------------


def _pad_params(op: Operation, rank: int) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    pads = _require(op, "pads")
    if len(pads) != 2 * rank:
        raise VerifyException(f"pads has {len(pads)} entries, expected {2 * rank} (begins then ends for rank {rank})")
    mode = op.param("mode")
    if mode not in PAD_MODES:
        raise VerifyException(f'mode must be "constant", "reflect" or "edge", got "{mode}"')
    return pads[:rank], pads[rank:], mode


def infer_pad(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    begins, ends, mode = _pad_params(op, len(src))
    value = op.param("value")
    element = operand_element(op, 0)
    if mode == "constant" and not is_float(element) and not float(value).is_integer():
        raise VerifyException(f"pad value {value} is not an integer, but the tensor is {op.operands[0].type}")
    out: list[int | None] = []
    for axis, (dim, b, e) in enumerate(zip(src, begins, ends)):
        if dim is None:
            out.append(None)
            continue
        kept = dim + min(b, 0) + min(e, 0)  # negative pads crop first
        if kept < 0:
            raise VerifyException(
                f"pads {list(begins + ends)} crop dimension {axis} of size {dim} to {kept} elements"
            )
        for p in (b, e):
            if mode == "reflect" and p > 0 and p >= kept:
                raise VerifyException(
                    f"reflect pad {p} of dimension {axis} must be smaller than its size {kept} (after cropping)"
                )
            if mode == "edge" and p > 0 and kept == 0:
                raise VerifyException(f"edge pad of dimension {axis} needs a nonempty dimension")
        out.append(dim + b + e)
    return [make_tensor(out, element)]


def pad(op: Operation, x: np.ndarray) -> np.ndarray:
    begins, ends, mode = _pad_params(op, x.ndim)
    crop = tuple(slice(max(-b, 0), d - max(-e, 0)) for d, b, e in zip(x.shape, begins, ends))
    x = x[crop]
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begins, ends)]
    if not any(b or e for b, e in widths):
        return x.copy()
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=np.array(op.param("value")).astype(x.dtype))
    return np.pad(x, widths, mode=mode)


# --- concat, split ---------------------------------------------------------------------


def infer_concat(op: Operation) -> list[TensorType]:
    n = len(op.operands)
    if n == 0:
        raise VerifyException("needs at least one operand")
    axis = op.param("axis")
    if axis is None:
        raise VerifyException("needs the property 'axis'")
    element = require_same_element(op, range(n))
    shapes = [operand_shape(op, i) for i in range(n)]
    rank = len(shapes[0])
    if rank == 0:
        raise VerifyException("cannot concatenate rank-0 tensors")
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise VerifyException(f"operand #{i} {_s(s)} has rank {len(s)}, but operand #0 {_s(shapes[0])} has {rank}")
    a = _axis(axis, rank)
    out: list[int | None] = []
    for dim in range(rank):
        sizes = [s[dim] for s in shapes]
        if dim == a:
            out.append(None if None in sizes else sum(sizes))
            continue
        known = next((d for d in sizes if d is not None), None)
        for i, d in enumerate(sizes):
            if d is not None and d != known:
                first = sizes.index(known)
                raise VerifyException(
                    f"operand #{i} {_s(shapes[i])} and operand #{first} {_s(shapes[first])} differ "
                    f"in dimension {dim}, off the concatenation axis {a}"
                )
        out.append(known)
    return [make_tensor(out, element)]


def concat(op: Operation, *xs: np.ndarray) -> np.ndarray:
    return np.concatenate(xs, axis=op.param("axis"))


def _split_sizes(op: Operation, src: Shape) -> tuple[int, list[int | None]]:
    """The split axis and the size of each part along it (None where dynamic)."""
    n = len(op.results)
    if n == 0:
        raise VerifyException("needs at least one result")
    if not src:
        raise VerifyException("cannot split a rank-0 tensor")
    a = _axis(op.param("axis"), len(src))
    dim = src[a]
    sizes = op.param("sizes")
    if sizes is None:
        if dim is not None and dim % n:
            raise VerifyException(f"dimension {a} of size {dim} does not split into {n} equal parts")
        return a, [None if dim is None else dim // n] * n
    if len(sizes) != n:
        raise VerifyException(f"sizes {list(sizes)} has {len(sizes)} entries for {n} results")
    if any(s < 0 for s in sizes):
        raise VerifyException(f"sizes {list(sizes)} contain a negative size")
    if dim is not None and sum(sizes) != dim:
        raise VerifyException(f"split sizes {list(sizes)} do not sum to dimension {a} of size {dim}")
    return a, list(sizes)


def infer_split(op: Operation) -> list[TensorType]:
    src = operand_shape(op, 0)
    a, sizes = _split_sizes(op, src)
    element = operand_element(op, 0)
    return [make_tensor(src[:a] + (s,) + src[a + 1 :], element) for s in sizes]


def split(op: Operation, x: np.ndarray) -> tuple[np.ndarray, ...]:
    a, sizes = _split_sizes(op, x.shape)
    if sum(sizes) != x.shape[a]:
        raise StratiError(f"split sizes {sizes} do not sum to dimension {a} of size {x.shape[a]}", op)
    return tuple(np.split(x, np.cumsum(sizes)[:-1], axis=a))


# --- gather ----------------------------------------------------------------------------


def _gather_axis(op: Operation, rank: int) -> int:
    if rank == 0:
        raise VerifyException("cannot gather from a rank-0 tensor")
    return _axis(op.param("axis"), rank)


def infer_gather(op: Operation) -> list[TensorType]:
    data, indices = operand_shape(op, 0), operand_shape(op, 1)
    if not is_int(operand_element(op, 1)):
        raise VerifyException(f"indices must be an integer tensor, got {op.operands[1].type}")
    a = _gather_axis(op, len(data))
    _check_constant_indices(op, data[a], a)
    return [make_tensor(data[:a] + indices + data[a + 1 :], operand_element(op, 0))]


def _check_constant_indices(op: Operation, dim: int | None, axis: int) -> None:
    """Constant indices out of range are an error now, not at run time."""
    owner = op.operands[1].owner
    if dim is None or not isinstance(owner, Operation) or owner.name != "graph.constant":
        return
    try:
        idx = numpy_from_dense(owner.properties["value"])
    except (TypeError, ValueError):
        return  # the constant's own verifier says what is wrong with it
    if idx.size == 0:
        return
    low, high = int(idx.min()), int(idx.max())
    for k in (low, high):
        if not -dim <= k < dim:
            raise VerifyException(f"index {k} is out of range for dimension {axis} of size {dim}")


def gather(op: Operation, data: np.ndarray, indices: np.ndarray) -> np.ndarray:
    a = _gather_axis(op, data.ndim)
    dim = data.shape[a]
    idx = indices.astype(np.int64)
    bad = (idx < -dim) | (idx >= dim)
    if bad.any():
        raise StratiError(f"index {int(idx[bad][0])} is out of range for dimension {a} of size {dim}", op)
    return np.asarray(np.take(data, np.where(idx < 0, idx + dim, idx), axis=a))


# --- resize ----------------------------------------------------------------------------


def _resize_params(op: Operation, rank: int) -> tuple[tuple[float, ...] | None, str, str]:
    ctm, nearest = op.param("coordinate_transformation_mode"), op.param("nearest_mode")
    mode = op.param("mode")
    if mode in ("linear", "cubic"):
        from strati.dialects.graph.attrs.interpolate import LINEAR_COORDINATE_MODES

        if ctm not in LINEAR_COORDINATE_MODES:
            raise VerifyException(f"coordinate_transformation_mode \"{ctm}\" is not one of mode {mode}'s: {', '.join(LINEAR_COORDINATE_MODES)}")
        if not is_float(operand_element(op, 0)):
            raise VerifyException(f"mode {mode} expects a floating-point tensor, got {op.operands[0].type}")
    elif mode != "nearest":
        raise VerifyException(f"mode must be \"nearest\", \"linear\" or \"cubic\", got \"{mode}\"")
    if ctm not in COORDINATE_MODES:
        raise VerifyException(f"coordinate_transformation_mode must be one of {', '.join(COORDINATE_MODES)}, got \"{ctm}\"")
    if nearest not in NEAREST_MODES:
        raise VerifyException(f"nearest_mode must be one of {', '.join(NEAREST_MODES)}, got \"{nearest}\"")
    scales = op.param("scales")
    if scales is not None:
        if len(scales) != rank:
            raise VerifyException(f"scales has {len(scales)} entries for rank {rank}")
        for i, s in enumerate(scales):
            if not s > 0 or not math.isfinite(s):
                raise VerifyException(f"scale {s:g} of dimension {i} is not a positive number")
    return scales, ctm, nearest


def _scaled(dim: int, scale: float) -> int:
    """floor(dim * scale), in float32 as onnxruntime computes it."""
    return int(np.floor(np.float32(dim) * np.float32(scale)))


def infer_resize(op: Operation) -> list[TensorType]:
    src, dst = operand_shape(op, 0), result_shape(op)
    if len(dst) != len(src):
        raise VerifyException(f"result rank {len(dst)} differs from input rank {len(src)}")
    scales, _, _ = _resize_params(op, len(src))
    out: list[int | None] = []
    for i, (s, t) in enumerate(zip(src, dst)):
        if scales is not None and s is not None:
            want = _scaled(s, scales[i])
            if t is not None and t != want:
                raise VerifyException(
                    f"scale {scales[i]:g} of dimension {i} gives floor({s} x {scales[i]:g}) = {want}, "
                    f"but the result has {t}"
                )
            t = want
        if t is None and scales is None:
            raise VerifyException(f"result dimension {i} of {_s(dst)} is dynamic and no scales determine it")
        if s == 0 and t not in (0, None):
            raise VerifyException(f"cannot resize the empty dimension {i} to {t}")
        out.append(t)
    return [make_tensor(out, operand_element(op, 0))]


def _source_indices(n_in: int, n_out: int, scale: np.float32, ctm: str, nearest: str) -> np.ndarray:
    """For each output index along one axis, the input index it copies (float32, as onnxruntime).

    An axis with scale 1 is copied unchanged, as onnxruntime does (the ONNX formulas
    would shift it by one under tf_half_pixel_for_nn with the ceil modes).
    """
    f = np.float32
    if scale == f(1):
        return np.arange(n_out, dtype=np.intp)
    i = np.arange(n_out, dtype=f)
    half = f(0.5)
    if ctm == "half_pixel":
        x = (i + half) / scale - half
    elif ctm == "pytorch_half_pixel":
        x = (i + half) / scale - half if n_out > 1 else np.zeros_like(i)
    elif ctm == "align_corners":
        x = i * f(n_in - 1) / f(n_out - 1) if n_out > 1 else np.zeros_like(i)
    elif ctm == "asymmetric":
        x = i / scale
    else:  # tf_half_pixel_for_nn
        x = (i + half) / scale
    lo = np.floor(x)
    frac = x - lo
    if nearest == "round_prefer_floor":
        idx = np.where(frac > half, lo + 1, lo)
    elif nearest == "round_prefer_ceil":
        idx = np.where(frac >= half, lo + 1, lo)
    elif nearest == "floor":
        idx = lo
    else:
        idx = np.ceil(x)
    return np.clip(idx, 0, max(n_in - 1, 0)).astype(np.intp)


def resize(op: Operation, x: np.ndarray) -> np.ndarray:
    scales, ctm, nearest = _resize_params(op, x.ndim)
    if op.param("mode") != "nearest":
        from strati.dialects.graph.attrs.interpolate import resize_interpolated

        return resize_interpolated(op, x)
    dst = result_shape(op)
    indices = []
    for axis, n_in in enumerate(x.shape):
        if scales is not None:
            scale = np.float32(scales[axis])
            n_out = _scaled(n_in, scale)
        else:
            n_out = dst[axis]
            scale = np.float32(n_out) / np.float32(n_in) if n_in else np.float32(1)
        indices.append(_source_indices(n_in, n_out, scale, ctm, nearest))
    return np.asarray(x[np.ix_(*indices)])


# --- registration ----------------------------------------------------------------------

INFER = {
    "reshape": infer_reshape,
    "broadcast_to": infer_broadcast_to,
    "flatten": infer_flatten,
    "transpose": infer_transpose,
    "squeeze": infer_squeeze,
    "unsqueeze": infer_unsqueeze,
    "slice": infer_slice,
    "pad": infer_pad,
    "concat": infer_concat,
    "split": infer_split,
    "gather": infer_gather,
    "resize": infer_resize,
}
REFERENCE = {
    "reshape": reshape,
    "broadcast_to": broadcast_to,
    "flatten": flatten,
    "transpose": lambda op, x: np.transpose(x, _perm(op, x.ndim)),
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "slice": slice_,
    "pad": pad,
    "concat": concat,
    "split": split,
    "gather": gather,
    "resize": resize,
}

for _name in SHAPE_OPS:
    register_op_attr(f"graph.{_name}", "infer_type", INFER[_name])
    register_op_attr(f"graph.{_name}", "reference", REFERENCE[_name])

register_all(_names(op for op in SHAPE_OPS if op != "broadcast_to"), "pattern", OpPattern.INJECTIVE)
register_op_attr("graph.broadcast_to", "pattern", OpPattern.BROADCAST)
register_all(_names(SHAPE_OPS), "flops", lambda op: 0)
