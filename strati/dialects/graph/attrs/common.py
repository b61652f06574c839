"""Small helpers shared by the attribute modules."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import VerifyException

from strati.dense import to_dtype
from strati.dialects.shapes import Shape, element_of, is_float, num_elements, shape_of
from strati.registry import register_op_attr


def register_all(op_names: Iterable[str], attr_name: str, value) -> None:
    for name in op_names:
        register_op_attr(name, attr_name, value)


def operand_shape(op: Operation, index: int) -> Shape:
    return shape_of(op.operands[index].type)


def operand_element(op: Operation, index: int) -> Attribute:
    return element_of(op.operands[index].type)


def result_shape(op: Operation, index: int = 0) -> Shape:
    return shape_of(op.results[index].type)


def result_dtype(op: Operation, index: int = 0) -> np.dtype:
    return to_dtype(element_of(op.results[index].type))


def require_float(op: Operation, index: int = 0) -> Attribute:
    element = operand_element(op, index)
    if not is_float(element):
        raise VerifyException(f"expects a floating-point tensor, got {op.operands[index].type}")
    return element


def require_same_element(op: Operation, indices: Iterable[int]) -> Attribute:
    indices = list(indices)
    elements = [operand_element(op, i) for i in indices]
    if any(e != elements[0] for e in elements):
        listed = ", ".join(str(op.operands[i].type) for i in indices)
        raise VerifyException(f"operands must have the same element type, got {listed}")
    return elements[0]


def require_rank(op: Operation, index: int, rank: int, what: str) -> Shape:
    shape = operand_shape(op, index)
    if len(shape) != rank:
        raise VerifyException(f"{what} must have rank {rank}, got {op.operands[index].type}")
    return shape


def elements_of_result(op: Operation, index: int = 0) -> int:
    """The number of result elements (0 when a dimension is dynamic: cost is unknown)."""
    return num_elements(result_shape(op, index)) or 0


def flops_per_result_element(k: int) -> Callable[[Operation], int]:
    return lambda op: k * sum(num_elements(shape_of(r.type)) or 0 for r in op.results)
