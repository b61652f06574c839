"""Default attributes of the tensor-level ops: ``infer_type`` (their verifier) and ``reference``."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.shapes import make_tensor, normalize_axis, num_elements, shape_of
from strati.registry import register_op_attr


def _shape(op: Operation, i: int):
    return shape_of(op.operands[i].type)


def _element(op: Operation, i: int):
    t = op.operands[i].type
    return t.get_element_type() if isinstance(t, TensorType) else t


def infer_fill(op: Operation) -> list[TensorType]:
    if _element(op, 1) != op.operands[0].type:
        raise VerifyException(f"fill value of type {op.operands[0].type} for a tensor of {_element(op, 1)}")
    return [op.operands[1].type]


def infer_reshape(op: Operation) -> list[TensorType]:
    declared = op.results[0].type
    a, b = num_elements(_shape(op, 0)), num_elements(shape_of(declared))
    if a != b:
        raise VerifyException(f"cannot reshape {op.operands[0].type} ({a} elements) to {declared} ({b} elements)")
    if _element(op, 0) != declared.get_element_type():
        raise VerifyException("reshape cannot change the element type")
    return [declared]


def infer_concat(op: Operation) -> list[TensorType]:
    if not op.operands:
        raise VerifyException("needs at least one operand")
    shapes = [_shape(op, i) for i in range(len(op.operands))]
    rank = len(shapes[0])
    dim = normalize_axis(op.param("dim"), rank, "dim")
    for i, s in enumerate(shapes):
        if len(s) != rank or any(a != b for k, (a, b) in enumerate(zip(s, shapes[0])) if k != dim):
            raise VerifyException(f"operand #{i} {op.operands[i].type} does not match operand #0 {op.operands[0].type} off dimension {dim}")
        if _element(op, i) != _element(op, 0):
            raise VerifyException("operands must share the element type")
    out = list(shapes[0])
    out[dim] = sum(s[dim] for s in shapes)
    return [make_tensor(out, _element(op, 0))]


def _check_slice(shape, offsets, sizes, strides, what: str) -> None:
    if not (len(offsets) == len(sizes) == len(strides) == len(shape)):
        raise VerifyException(f"offsets, sizes and strides must each have {len(shape)} values")
    for d, (n, o, s, st) in enumerate(zip(shape, offsets, sizes, strides)):
        if st == 0 or s < 0:
            raise VerifyException(f"dimension {d}: stride must be nonzero and size non-negative")
        if s and not (0 <= o < n and 0 <= o + (s - 1) * st < n):
            raise VerifyException(f"dimension {d}: {what} [{o}, {o + (s - 1) * st}] step {st} is outside 0..{n - 1}")


def infer_extract_slice(op: Operation) -> list[TensorType]:
    offsets, sizes, strides = op.param("offsets"), op.param("sizes"), op.param("strides")
    _check_slice(_shape(op, 0), offsets, sizes, strides, "slice")
    return [make_tensor(sizes, _element(op, 0))]


def infer_insert_slice(op: Operation) -> list[TensorType]:
    offsets, strides = op.param("offsets"), op.param("strides")
    if _element(op, 0) != _element(op, 1):
        raise VerifyException("source and dest must share the element type")
    _check_slice(_shape(op, 1), offsets, _shape(op, 0), strides, "insertion")
    return [op.operands[1].type]


def infer_pad(op: Operation) -> list[TensorType]:
    shape, low, high = _shape(op, 0), op.param("low"), op.param("high")
    if len(low) != len(shape) or len(high) != len(shape) or min((*low, *high), default=0) < 0:
        raise VerifyException(f"low and high must each have {len(shape)} non-negative values")
    if op.operands[1].type != _element(op, 0):
        raise VerifyException(f"padding value of type {op.operands[1].type} for a tensor of {_element(op, 0)}")
    return [make_tensor([n + a + b for n, a, b in zip(shape, low, high)], _element(op, 0))]


def _slices(offsets, sizes, strides):
    out = []
    for o, s, st in zip(offsets, sizes, strides):
        stop = o + s * st
        out.append(slice(o, None if stop < 0 else stop, st))
    return tuple(out)


def insert_slice(op: Operation, source: np.ndarray, dest: np.ndarray) -> np.ndarray:
    out = dest.copy()
    out[_slices(op.param("offsets"), source.shape, op.param("strides"))] = source
    return out


register_op_attr("tensor.fill", "infer_type", infer_fill)
register_op_attr("tensor.reshape", "infer_type", infer_reshape)
register_op_attr("tensor.concat", "infer_type", infer_concat)
register_op_attr("tensor.extract_slice", "infer_type", infer_extract_slice)
register_op_attr("tensor.insert_slice", "infer_type", infer_insert_slice)
register_op_attr("tensor.pad", "infer_type", infer_pad)

register_op_attr("tensor.empty", "reference", lambda op: np.zeros(shape_of(op.result.type), _dtype(op)))
register_op_attr("tensor.fill", "reference", lambda op, v, init: np.full(init.shape, v, init.dtype))
register_op_attr("tensor.reshape", "reference", lambda op, x: x.reshape(shape_of(op.results[0].type)))
register_op_attr("tensor.concat", "reference", lambda op, *xs: np.concatenate(xs, axis=op.param("dim")))
register_op_attr(
    "tensor.extract_slice",
    "reference",
    lambda op, x: x[_slices(op.param("offsets"), op.param("sizes"), op.param("strides"))],
)
register_op_attr("tensor.insert_slice", "reference", insert_slice)
register_op_attr(
    "tensor.pad",
    "reference",
    lambda op, x, v: np.pad(x, list(zip(op.param("low"), op.param("high"))), constant_values=v),
)


def _dtype(op: Operation):
    from strati.dense import to_dtype

    return to_dtype(op.results[0].type.get_element_type())
