"""Scalar arithmetic for generic bodies: one call per operation, the arith/math op chosen by type.

Call these inside ``with ImplicitBuilder(block)`` (as :meth:`TensorBuilder.generic`
does for its body function): each creates its op at the builder's insertion point
and returns the result value.  Floats use ``arith.*f``/``math.*``, signed integers
``arith.*i``/``*si``, unsigned ``*ui``; ``i1`` is a boolean.
"""

from __future__ import annotations

from xdsl.dialects import arith, cf, math
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    Signedness,
)
from xdsl.ir import Attribute, Operation, SSAValue

from strati.dialects.tensor.ops import ExtractOp, IndexOp


def is_float(t: Attribute) -> bool:
    return isinstance(t, AnyFloat)


def is_unsigned(t: Attribute) -> bool:
    return isinstance(t, IntegerType) and t.signedness.data == Signedness.UNSIGNED


def const(value: float | int | bool, t: Attribute) -> SSAValue:
    """``arith.constant`` of the scalar type ``t`` (index included)."""
    if is_float(t):
        return arith.ConstantOp(FloatAttr(float(value), t)).result
    if isinstance(t, IndexType):
        return arith.ConstantOp(IntegerAttr(int(value), IndexType())).result
    assert isinstance(t, IntegerType)
    width, v = t.width.data, int(value)
    if width == 1:
        return arith.ConstantOp(IntegerAttr(int(bool(v)), t)).result
    if not is_unsigned(t):
        return arith.ConstantOp(IntegerAttr(v, t)).result
    # arith constants are signless: make one with the same bits, then reinterpret it.
    if v >= 1 << (width - 1):
        v -= 1 << width
    return arith.BitcastOp(arith.ConstantOp(IntegerAttr(v, IntegerType(width))).result, t).result


def _pick(a: SSAValue, f, s, u=None):
    if is_float(a.type):
        return f
    return (u or s) if is_unsigned(a.type) else s


def add(a: SSAValue, b: SSAValue) -> SSAValue:
    return _pick(a, arith.AddfOp, arith.AddiOp)(a, b).result


def sub(a: SSAValue, b: SSAValue) -> SSAValue:
    return _pick(a, arith.SubfOp, arith.SubiOp)(a, b).result


def mul(a: SSAValue, b: SSAValue) -> SSAValue:
    return _pick(a, arith.MulfOp, arith.MuliOp)(a, b).result


def div(a: SSAValue, b: SSAValue) -> SSAValue:
    """Float division; integer division truncates toward zero (as C and ONNX)."""
    return _pick(a, arith.DivfOp, arith.DivSIOp, arith.DivUIOp)(a, b).result


def maximum(a: SSAValue, b: SSAValue) -> SSAValue:
    """Float max propagates NaN (``arith.maximumf``), as numpy.maximum."""
    return _pick(a, arith.MaximumfOp, arith.MaxSIOp, arith.MaxUIOp)(a, b).result


def minimum(a: SSAValue, b: SSAValue) -> SSAValue:
    return _pick(a, arith.MinimumfOp, arith.MinSIOp, arith.MinUIOp)(a, b).result


def neg(a: SSAValue) -> SSAValue:
    if is_float(a.type):
        return arith.NegfOp(a).result
    return sub(const(0, a.type), a)


def cmp(predicate: str, a: SSAValue, b: SSAValue) -> SSAValue:
    """``eq``, ``ne``, ``lt``, ``le``, ``gt``, ``ge``: ordered for floats, signed or unsigned for ints."""
    if is_float(a.type):
        return arith.CmpfOp(a, b, {"eq": "oeq", "ne": "une"}.get(predicate, "o" + predicate)).result
    if predicate in ("eq", "ne"):
        return arith.CmpiOp(a, b, predicate).result
    return arith.CmpiOp(a, b, ("u" if is_unsigned(a.type) else "s") + predicate).result


def select(c: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
    return arith.SelectOp(c, a, b).result


def and_(a: SSAValue, b: SSAValue) -> SSAValue:
    return arith.AndIOp(a, b).result


def check(ok: SSAValue, message: str) -> None:
    """A run-time check (``cf.assert``): where ``ok`` is false the call fails with ``message``
    and the value it checked (:func:`checked_compare`)."""
    cf.AssertOp(ok, message)


def checked_compare(ok: SSAValue) -> Operation | None:
    """The ``arith.cmpi`` a check's condition is (or the first of an ``arith.andi`` of them):
    its left operand is the value a failed check reports, in compiled code and interpreters alike."""
    op = ok.owner
    while isinstance(op, Operation) and op.name == "arith.andi":
        op = op.operands[0].owner
    return op if isinstance(op, Operation) and op.name == "arith.cmpi" else None


def check_operands(op: Operation) -> list[SSAValue]:
    """What an interpreter passes to an op's ``reference``: its operands, and for a check
    (``cf.assert``) the value it checked too, so that a failure reports it."""
    compare = checked_compare(op.operands[0]) if op.name == "cf.assert" else None
    return [*op.operands, compare.operands[0]] if compare is not None else list(op.operands)


def in_range(k: SSAValue, n: int) -> SSAValue:
    """``0 <= k < n`` for an index, as one unsigned comparison."""
    return arith.CmpiOp(k, const(n, k.type), "ult").result


def cast(a: SSAValue, to: Attribute) -> SSAValue:
    """Numpy's ``astype`` semantics between floats, integers, bool and index."""
    src = a.type
    if src == to:
        return a
    if isinstance(to, IndexType) or isinstance(src, IndexType):
        return arith.IndexCastOp(a, to).result
    if is_float(src) and is_float(to):
        wider = to.bitwidth > src.bitwidth  # type: ignore[attr-defined]
        return (arith.ExtFOp if wider else arith.TruncFOp)(a, to).result
    if isinstance(to, IntegerType) and to.width.data == 1:
        return cmp("ne", a, const(0, src))
    if is_float(src):
        return (arith.FPToUIOp if is_unsigned(to) else arith.FPToSIOp)(a, to).result
    assert isinstance(src, IntegerType)
    if is_float(to):
        unsigned = is_unsigned(src) or src.width.data == 1
        return (arith.UIToFPOp if unsigned else arith.SIToFPOp)(a, to).result
    assert isinstance(to, IntegerType)
    if to.width.data > src.width.data:
        unsigned = is_unsigned(src) or src.width.data == 1
        return (arith.ExtUIOp if unsigned else arith.ExtSIOp)(a, to).result
    if to.width.data < src.width.data:
        return arith.TruncIOp(a, to).result
    return arith.BitcastOp(a, to).result


def unary_math(name: str, a: SSAValue) -> SSAValue:
    """``math.<name>`` (exp, log, sqrt, rsqrt, tanh, erf, absf, floor, ceil, ...)."""
    ops = {
        "exp": math.ExpOp,
        "log": math.LogOp,
        "sqrt": math.SqrtOp,
        "rsqrt": math.RsqrtOp,
        "tanh": math.TanhOp,
        "erf": math.ErfOp,
        "absf": math.AbsFOp,
        "floor": math.FloorOp,
        "ceil": math.CeilOp,
        "round_even": math.RoundEvenOp,
    }
    return ops[name](a).result


def abs_(a: SSAValue) -> SSAValue:
    if is_float(a.type):
        return math.AbsFOp(a).result
    if is_unsigned(a.type):
        return a
    return math.AbsIOp(a).result


def powf(a: SSAValue, b: SSAValue) -> SSAValue:
    return math.PowFOp(a, b).result


def index(dim: int) -> SSAValue:
    """The current index of loop ``dim`` of the enclosing generic."""
    return IndexOp(dim).result


def extract(t: SSAValue, indices: list[SSAValue]) -> SSAValue:
    """The element of the tensor ``t`` at ``indices`` (index values)."""
    return ExtractOp(t, indices).result
