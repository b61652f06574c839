"""Attributes of the trigonometric and hyperbolic functions, mod and bit_shift.

The functions are elementwise on floats (numpy's semantics: NaN outside the domain);
mod and bit_shift broadcast as the other binary ops.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.common import flops_per_result_element, operand_element, register_all
from strati.dialects.graph.attrs.elementwise import infer_broadcast, infer_float_same
from strati.dialects.graph.ops_math import TRIGONOMETRIC
from strati.dialects.shapes import is_int
from strati.registry import OpPattern, register_op_attr

NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}
DIRECTIONS = ("left", "right")


def infer_mod(op: Operation) -> list[TensorType]:
    return infer_broadcast(op)


def mod(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.fmod if op.param("fmod") else np.mod)(a, b)


def infer_bit_shift(op: Operation) -> list[TensorType]:
    if not is_int(operand_element(op, 0)):
        raise VerifyException(f"expects an integer tensor, got {op.operands[0].type}")
    if op.param("direction") not in DIRECTIONS:
        raise VerifyException(f"direction must be \"left\" or \"right\", got \"{op.param('direction')}\"")
    return infer_broadcast(op)


def bit_shift(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Left shifts wrap (bits past the sign bit are lost); right shifts of signed integers
    are arithmetic.  A shift by a negative amount or by the bit width or more leaves what
    the sign extension alone gives: -1 for a right shift of a negative number, else 0."""
    a, b = np.broadcast_arrays(a, b)
    bits = a.dtype.itemsize * 8
    valid = (b >= 0) & (b < bits)
    amount = np.where(valid, b, 0).astype(np.uint64 if a.dtype.kind == "u" else np.int64)
    if op.param("direction") == "left":
        unsigned = a.view(f"u{a.dtype.itemsize}")
        shifted = np.left_shift(unsigned, amount.astype(unsigned.dtype)).view(a.dtype)
        fill = np.zeros((), a.dtype)
    else:
        shifted = np.right_shift(a, amount.astype(a.dtype))
        fill = np.where(a < 0, a.dtype.type(-1) if a.dtype.kind == "i" else 0, 0).astype(a.dtype)
    return np.where(valid, shifted, fill).astype(a.dtype)


_TRIG = [f"graph.{n}" for n in TRIGONOMETRIC]
register_all(_TRIG, "infer_type", infer_float_same)
for _name in TRIGONOMETRIC:
    _fn = getattr(np, NUMPY_NAMES.get(_name, _name))
    register_op_attr(f"graph.{_name}", "reference", lambda op, x, fn=_fn: fn(x))
register_all(_TRIG, "pattern", OpPattern.ELEMWISE)
register_all(_TRIG, "flops", flops_per_result_element(1))

register_op_attr("graph.mod", "infer_type", infer_mod)
register_op_attr("graph.mod", "reference", mod)
register_op_attr("graph.bit_shift", "infer_type", infer_bit_shift)
register_op_attr("graph.bit_shift", "reference", bit_shift)
register_all(["graph.mod", "graph.bit_shift"], "pattern", OpPattern.BROADCAST)
register_all(["graph.mod", "graph.bit_shift"], "flops", flops_per_result_element(1))
