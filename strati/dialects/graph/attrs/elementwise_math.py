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
from strati.dialects.shapes import is_float, is_int
from strati.dialects.tensor.scalar import is_unsigned
from strati.registry import OpPattern, register_op_attr

NUMPY_NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}
DIRECTIONS = ("left", "right")


def infer_mod(op: Operation) -> list[TensorType]:
    element = operand_element(op, 0)
    if is_float(element) and not op.param("fmod"):
        raise VerifyException("mod of floating-point tensors needs fmod = true (the sign of the dividend)")
    return infer_broadcast(op)


def mod(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.fmod if op.param("fmod") else np.mod)(a, b)


def infer_bit_shift(op: Operation) -> list[TensorType]:
    element = operand_element(op, 0)
    if not (is_int(element) and is_unsigned(element)):
        raise VerifyException(f"expects an unsigned integer tensor, got {op.operands[0].type}")
    if op.param("direction") not in DIRECTIONS:
        raise VerifyException(f"direction must be \"left\" or \"right\", got \"{op.param('direction')}\"")
    return infer_broadcast(op)


def bit_shift(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    shifted = (np.left_shift if op.param("direction") == "left" else np.right_shift)(a, b)
    return np.where(b >= a.dtype.itemsize * 8, np.zeros((), a.dtype), shifted).astype(a.dtype)


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
