"""``reference`` for the upstream scalar ops (``arith``, ``math``) that appear at the tensor level.

They run inside ``tensor.generic`` bodies, which the interpreter evaluates on whole
numpy arrays at once, so every reference here is elementwise on arrays of any shape
(0-d arrays for scalars) and broadcasts its operands.  MLIR semantics:

- Integers are signless: the op says how to read the bits (``divsi`` signed,
  ``divui`` unsigned), whatever numpy dtype holds them (signless and signed types
  are numpy's signed dtypes, ``ui*`` its unsigned ones).  Arithmetic wraps.
- ``i1`` is numpy bool; read as signed it is 0 or -1.  ``index`` is int64.
- ``divsi``/``remsi`` truncate toward zero (C); ``floordivsi``/``ceildivsi`` round as named.
  Division by zero is undefined in MLIR; here it gives 0 rather than raising.
- ``cmpf`` predicates are ordered (``o*``: false if either is NaN) or unordered
  (``u*``: true if either is NaN); ``maximumf``/``minimumf`` propagate NaN and order
  -0.0 below +0.0; ``maxnumf``/``minnumf`` return the non-NaN operand.
- Results have the dtype of the op's result type.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
)
from xdsl.ir import Attribute, Operation

from strati.dense import numpy_from_dense, to_dtype
from strati.diagnostics import StratiError
from strati.registry import register_op_attr

Array = np.ndarray

_SIGNED = {1: np.int8, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UNSIGNED = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def dtype_of(t: Attribute) -> np.dtype:
    """The numpy dtype of a scalar type or of a shaped type's elements (index is int64)."""
    if isinstance(t, ShapedType):
        t = t.get_element_type()  # type: ignore[attr-defined]
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    return to_dtype(t)


def _result_dtype(op: Operation, i: int = 0) -> np.dtype:
    return dtype_of(op.results[i].type)


def _width(dtype: np.dtype) -> int:
    return 1 if dtype == np.bool_ else dtype.itemsize * 8


def as_signed(x: Array) -> Array:
    """The bits of an integer array read as signed (i1: 0 or -1)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return -x.astype(np.int8)
    if x.dtype.kind == "u":
        return x.view(_SIGNED[_width(x.dtype)])
    return x


def as_unsigned(x: Array) -> Array:
    """The bits of an integer array read as unsigned (i1: 0 or 1)."""
    x = np.asarray(x)
    if x.dtype == np.bool_:
        return x.astype(np.uint8)
    if x.dtype.kind == "i":
        return x.view(_UNSIGNED[_width(x.dtype)])
    return x


def to_bits(x: Array, dtype: np.dtype) -> Array:
    """An integer array in ``dtype``, keeping the low bits (two's complement wrap-around)."""
    x = np.asarray(x)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (x & 1) != 0 if x.dtype != np.bool_ else x
    with np.errstate(all="ignore"):
        wrapped = x.astype(_UNSIGNED[_width(dtype)]) if x.dtype.kind in "iub" else x.astype(dtype)
    return wrapped.view(dtype) if wrapped.dtype != dtype else wrapped


# --- arith.constant ----------------------------------------------------------------------


def constant(op: Operation) -> Array:
    value = op.properties.get("value")
    if value is None:
        value = op.attributes.get("value")
    if isinstance(value, DenseIntOrFPElementsAttr):
        return numpy_from_dense(value)
    dtype = _result_dtype(op)
    if isinstance(value, FloatAttr):
        return np.array(value.value.data, dtype)
    if isinstance(value, IntegerAttr):
        v = value.value.data
        if dtype == np.bool_:
            return np.array(bool(v & 1))
        return to_bits(np.array(v % (1 << _width(dtype)), np.uint64), dtype)
    raise TypeError(f"arith.constant with value {value} has no numpy equivalent")


# --- integer arithmetic ----------------------------------------------------------------


def _int_binary(fn: Callable[[Array, Array], Array], view: Callable[[Array], Array]):
    """``fn`` on both operands read through ``view``, wrapped back into the result's dtype."""

    def reference(op: Operation, a: Array, b: Array) -> Array:
        with np.errstate(all="ignore"):
            return to_bits(np.asarray(fn(view(a), view(b))), _result_dtype(op))

    return reference


def _same(x: Array) -> Array:
    x = np.asarray(x)
    return x.astype(np.uint8) if x.dtype == np.bool_ else x


def _safe(b: Array) -> Array:
    return np.where(b == 0, np.ones_like(b), b)


def div_trunc(a: Array, b: Array) -> Array:
    """Signed division rounding toward zero; 0 where ``b`` is 0."""
    bs = _safe(b)
    q = a // bs
    q = q + ((a - q * bs != 0) & ((a < 0) != (bs < 0))).astype(q.dtype)
    return np.where(b == 0, np.zeros_like(q), q)


def rem_trunc(a: Array, b: Array) -> Array:
    """The remainder of :func:`div_trunc`: the sign of ``a``; 0 where ``b`` is 0."""
    r = np.fmod(a, _safe(b))
    return np.where(b == 0, np.zeros_like(r), r)


def _div_floor(a: Array, b: Array) -> Array:
    q = a // _safe(b)
    return np.where(b == 0, np.zeros_like(q), q)


def _div_ceil(a: Array, b: Array) -> Array:
    bs = _safe(b)
    q = a // bs
    q = q + (a - q * bs != 0).astype(q.dtype)  # floor, plus one where it was inexact
    return np.where(b == 0, np.zeros_like(q), q)


def _rem_unsigned(a: Array, b: Array) -> Array:
    r = a % _safe(b)
    return np.where(b == 0, np.zeros_like(r), r)


def _shift(kind: str):
    def reference(op: Operation, a: Array, b: Array) -> Array:
        dtype = _result_dtype(op)
        width = _width(dtype)
        amount = as_unsigned(b).astype(np.uint64)
        big = amount >= width  # poison in MLIR: 0 here
        amount = np.where(big, 0, amount)
        with np.errstate(all="ignore"):
            if kind == "shli":
                r = np.left_shift(as_unsigned(a).astype(np.uint64), amount)
            elif kind == "shrui":
                r = np.right_shift(as_unsigned(a).astype(np.uint64), amount)
            else:
                r = np.right_shift(as_signed(a).astype(np.int64), amount.astype(np.int64))
        return to_bits(np.where(big, 0, r), dtype)

    return reference


INT_BINARY = {
    "arith.addi": _int_binary(np.add, _same),
    "arith.subi": _int_binary(np.subtract, _same),
    "arith.muli": _int_binary(np.multiply, _same),
    "arith.andi": _int_binary(np.bitwise_and, _same),
    "arith.ori": _int_binary(np.bitwise_or, _same),
    "arith.xori": _int_binary(np.bitwise_xor, _same),
    "arith.divsi": _int_binary(div_trunc, as_signed),
    "arith.remsi": _int_binary(rem_trunc, as_signed),
    "arith.floordivsi": _int_binary(_div_floor, as_signed),
    "arith.ceildivsi": _int_binary(_div_ceil, as_signed),
    "arith.divui": _int_binary(_div_floor, as_unsigned),
    "arith.remui": _int_binary(_rem_unsigned, as_unsigned),
    "arith.ceildivui": _int_binary(_div_ceil, as_unsigned),
    "arith.maxsi": _int_binary(np.maximum, as_signed),
    "arith.minsi": _int_binary(np.minimum, as_signed),
    "arith.maxui": _int_binary(np.maximum, as_unsigned),
    "arith.minui": _int_binary(np.minimum, as_unsigned),
    "arith.shli": _shift("shli"),
    "arith.shrui": _shift("shrui"),
    "arith.shrsi": _shift("shrsi"),
}


# --- float arithmetic ------------------------------------------------------------------


def _float(fn: Callable[..., Array]):
    def reference(op: Operation, *xs: Array) -> Array:
        with np.errstate(all="ignore"):
            return np.asarray(fn(*xs)).astype(_result_dtype(op), copy=False)

    return reference


def maximumf(a: Array, b: Array) -> Array:
    """IEEE maximum: NaN propagates, -0.0 < +0.0."""
    a, b = np.asarray(a), np.asarray(b)
    tie = np.where(np.signbit(a), b, a)
    return np.where(a == b, tie, np.maximum(a, b))


def minimumf(a: Array, b: Array) -> Array:
    a, b = np.asarray(a), np.asarray(b)
    tie = np.where(np.signbit(a), a, b)
    return np.where(a == b, tie, np.minimum(a, b))


_erf = np.frompyfunc(pymath.erf, 1, 1)


def erf(x: Array) -> Array:
    """The error function to double precision (numpy has none; math.erf per element)."""
    x = np.asarray(x)
    return np.asarray(_erf(x.astype(np.float64)), np.float64).astype(x.dtype)


def round_half_away(x: Array) -> Array:
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)


def fma(a: Array, b: Array, c: Array) -> Array:
    """``a * b + c``; f16/f32 are computed in f64, whose product of two such values is exact."""
    a = np.asarray(a)
    if a.dtype.itemsize < 8:
        return (a.astype(np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)).astype(a.dtype)
    return a * b + c


FLOAT = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.remf": np.fmod,
    "arith.negf": np.negative,
    "arith.maximumf": maximumf,
    "arith.minimumf": minimumf,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda x: np.reciprocal(np.sqrt(x)),
    "math.cbrt": np.cbrt,
    "math.tanh": np.tanh,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.atan": np.arctan,
    "math.atan2": np.arctan2,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": erf,
    "math.absf": np.abs,
    "math.copysign": np.copysign,
    "math.powf": np.power,
    "math.floor": np.floor,
    "math.ceil": np.ceil,
    "math.trunc": np.trunc,
    "math.round": round_half_away,
    "math.roundeven": np.rint,
    "math.fma": fma,
}


def absi(op: Operation, x: Array) -> Array:
    with np.errstate(all="ignore"):
        return to_bits(np.abs(as_signed(x)), _result_dtype(op))


# --- comparisons and select ------------------------------------------------------------

CMPF = [
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
]  # fmt: skip
CMPI = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]

_RELATIONS = {
    "eq": np.equal,
    "ne": np.not_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
    "lt": np.less,
    "le": np.less_equal,
}


def _predicate(op: Operation, names: list[str]) -> str:
    return names[op.properties["predicate"].value.data]  # type: ignore[attr-defined]


def cmpf(op: Operation, a: Array, b: Array) -> Array:
    a, b = np.asarray(a), np.asarray(b)
    pred = _predicate(op, CMPF)
    shape = np.broadcast_shapes(a.shape, b.shape)
    unordered = np.isnan(a) | np.isnan(b)
    if pred in ("false", "true"):
        return np.full(shape, pred == "true")
    if pred == "ord":
        return ~unordered
    if pred == "uno":
        return unordered
    with np.errstate(all="ignore"):
        rel = _RELATIONS["ne" if pred in ("one", "une") else pred[1:]](a, b)
    if pred[0] == "o":
        return rel & ~unordered
    return rel | unordered


def cmpi(op: Operation, a: Array, b: Array) -> Array:
    pred = _predicate(op, CMPI)
    view = as_unsigned if pred[0] == "u" else as_signed
    rel = _RELATIONS[pred if pred in ("eq", "ne") else pred[1:]]
    return np.asarray(rel(view(a), view(b)))


def select(op: Operation, c: Array, a: Array, b: Array) -> Array:
    return np.where(c, a, b).astype(_result_dtype(op), copy=False)


# --- casts -----------------------------------------------------------------------------


def _cast(read: Callable[[Array], Array] | None, write: str):
    """Read the operand (as signed, unsigned or as is), convert, and store in the result dtype."""

    def reference(op: Operation, x: Array) -> Array:
        dtype = _result_dtype(op)
        x = np.asarray(x)
        if read is not None:
            x = read(x)
        with np.errstate(all="ignore"):
            if write == "float":
                return x.astype(dtype)
            if write in ("signed", "unsigned"):  # float -> int: truncate toward zero
                table = _SIGNED if write == "signed" else _UNSIGNED
                if x.dtype.kind == "f":
                    x = np.trunc(x)
                    if dtype == np.bool_:
                        return x != 0
                    return to_bits(x.astype(table[_width(dtype)]), dtype)
                return to_bits(x.astype(np.int64 if write == "signed" else np.uint64), dtype)
            raise AssertionError(write)

    return reference


def bitcast(op: Operation, x: Array) -> Array:
    dtype = _result_dtype(op)
    x = np.asarray(x)
    if dtype == x.dtype:
        return x
    if x.dtype == np.bool_ or dtype == np.bool_:
        return to_bits(as_unsigned(x), dtype)
    return np.array(x, order="C").view(dtype)  # (ascontiguousarray would make a 0-d array 1-d)


CASTS = {
    "arith.extf": _cast(None, "float"),
    "arith.truncf": _cast(None, "float"),
    "arith.sitofp": _cast(as_signed, "float"),
    "arith.uitofp": _cast(as_unsigned, "float"),
    "arith.fptosi": _cast(None, "signed"),
    "arith.fptoui": _cast(None, "unsigned"),
    "arith.extsi": _cast(as_signed, "signed"),
    "arith.extui": _cast(as_unsigned, "unsigned"),
    "arith.trunci": _cast(as_unsigned, "unsigned"),
    "arith.index_cast": _cast(as_signed, "signed"),
    "arith.bitcast": bitcast,
}


# --- registration ----------------------------------------------------------------------

register_op_attr("arith.constant", "reference", constant)
for _name, _fn in INT_BINARY.items():
    register_op_attr(_name, "reference", _fn)
for _name, _fn in FLOAT.items():
    register_op_attr(_name, "reference", _float(_fn))
for _name, _fn in CASTS.items():
    register_op_attr(_name, "reference", _fn)
register_op_attr("math.absi", "reference", absi)
register_op_attr("arith.cmpf", "reference", cmpf)
register_op_attr("arith.cmpi", "reference", cmpi)
register_op_attr("arith.select", "reference", select)


def assert_(op: Operation, ok: Array, checked: Array | None = None) -> None:
    """``cf.assert``: a failed run-time check is an error naming it and, when the interpreter
    passes it (:func:`strati.dialects.tensor.scalar.check_operands`), the value it checked at
    the first failing element, as compiled code reports it (strati.codegen.checks)."""
    ok = np.asarray(ok)
    if ok.all():
        return
    message = op.properties["msg"].data
    if checked is None:
        raise StratiError(message)
    first = int(np.argmin(ok.reshape(-1)))
    value = np.broadcast_to(np.asarray(checked), ok.shape).reshape(-1)[first]
    raise StratiError(f"{message} (got {int(value)})")


register_op_attr("cf.assert", "reference", assert_)
