"""Elementwise graph ops added for ONNX coverage: the trigonometric and hyperbolic functions,
the remainder and bit shifts.  Definitions only; attributes in
``strati.dialects.graph.attrs.elementwise_math`` and
``strati.dialects.graph.lowering.elementwise_math``."""

from __future__ import annotations

from xdsl.irdl import irdl_op_definition

from strati.dialects.graph.base import bool_prop, str_prop
from strati.dialects.graph.ops import BinaryOp, UnaryOp

TRIGONOMETRIC = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh")


def _trig(op_name: str) -> type[UnaryOp]:
    cls = type(op_name.title() + "Op", (UnaryOp,), {"name": f"graph.{op_name}", "__doc__": f"{op_name}(x), as numpy"})
    return irdl_op_definition(cls)


SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, AsinhOp, AcoshOp, AtanhOp = map(_trig, TRIGONOMETRIC)


@irdl_op_definition
class ModOp(BinaryOp):
    """Remainder with numpy broadcasting: the sign of ``rhs`` (numpy.mod) or, with ``fmod``, the
    sign of ``lhs`` (C's fmod)."""

    name = "graph.mod"
    fmod = bool_prop(False)


@irdl_op_definition
class BitShiftOp(BinaryOp):
    """``lhs << rhs`` or ``lhs >> rhs`` (``direction`` "left" or "right") on integers, as ONNX
    BitShift: left shifts wrap, right shifts of signed integers are arithmetic, and a shift
    by a negative amount or by the bit width or more gives the sign fill (-1 for a right
    shift of a negative number, else 0)."""

    name = "graph.bit_shift"
    direction = str_prop()


__all__ = [
    "AcosOp", "AcoshOp", "AsinOp", "AsinhOp", "AtanOp", "AtanhOp", "BitShiftOp", "CosOp", "CoshOp", "ModOp",
    "SinOp", "SinhOp", "TanOp", "TRIGONOMETRIC",
]  # fmt: skip
