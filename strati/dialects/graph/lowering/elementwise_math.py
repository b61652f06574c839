"""``lower`` for the trigonometric functions, mod and bit_shift: one parallel generic each.

The functions are ``math`` ops (libm, or libmvec when vectorized).  Integer mod and
shifts guard the cases LLVM leaves undefined and numpy defines: a zero (or, signed,
-1) divisor gives 0, a shift by the bit width or more gives 0.
"""

from __future__ import annotations

from xdsl.dialects import arith, math
from xdsl.ir import Operation, SSAValue

from strati.dialects.arith_remf import RemfOp
from strati.dialects.graph.ops_math import TRIGONOMETRIC
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder
from strati.registry import register_op_attr

_MATH = {name: getattr(math, name.title() + "Op") for name in TRIGONOMETRIC}


def _unary(cls):
    def lower(op: Operation, b: TensorBuilder) -> SSAValue:
        return b.elementwise([op.operands[0]], op.results[0].type, lambda x: cls(x).result)

    return lower


def _or(a: SSAValue, b: SSAValue) -> SSAValue:
    return arith.OrIOp(a, b).result


def mod(op: Operation, a: SSAValue, b: SSAValue) -> SSAValue:
    zero = s.const(0, a.type)
    if s.is_float(a.type):
        r = RemfOp(a, b).result
        return r if op.param("fmod") else _to_sign_of(r, b, zero)
    if s.is_unsigned(a.type):
        undefined = s.cmp("eq", b, zero)
        r = arith.RemUIOp(a, s.select(undefined, s.const(1, b.type), b)).result
        return s.select(undefined, zero, r)
    undefined = _or(s.cmp("eq", b, zero), s.cmp("eq", b, s.const(-1, b.type)))
    r = arith.RemSIOp(a, s.select(undefined, s.const(1, b.type), b)).result
    r = s.select(undefined, zero, r)
    return r if op.param("fmod") else _to_sign_of(r, b, zero)


def _to_sign_of(r: SSAValue, b: SSAValue, zero: SSAValue) -> SSAValue:
    """numpy.mod from a truncated remainder: a nonzero one takes the sign of the divisor."""
    differ = arith.XOrIOp(s.cmp("lt", r, zero), s.cmp("lt", b, zero)).result
    fix = arith.AndIOp(s.cmp("ne", r, zero), differ).result
    return s.select(fix, s.add(r, b), r)


def bit_shift(op: Operation, a: SSAValue, b: SSAValue) -> SSAValue:
    width, zero = a.type.width.data, s.const(0, a.type)
    valid = arith.AndIOp(s.cmp("ge", b, zero), s.cmp("lt", b, s.const(width, b.type))).result
    amount = s.select(valid, b, zero)  # a shift LLVM defines, its result discarded when not valid
    if op.param("direction") == "left":
        return s.select(valid, arith.ShLIOp(a, amount).result, zero)
    if s.is_unsigned(a.type):
        return s.select(valid, arith.ShRUIOp(a, amount).result, zero)
    fill = s.select(s.cmp("lt", a, zero), s.const(-1, a.type), zero)
    return s.select(valid, arith.ShRSIOp(a, amount).result, fill)


def _binary(body):
    def lower(op: Operation, b: TensorBuilder) -> SSAValue:
        return b.elementwise(list(op.operands), op.results[0].type, lambda x, y: body(op, x, y))

    return lower


for _name, _cls in _MATH.items():
    register_op_attr(f"graph.{_name}", "lower", _unary(_cls))
register_op_attr("graph.mod", "lower", _binary(mod))
register_op_attr("graph.bit_shift", "lower", _binary(bit_shift))
