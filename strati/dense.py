"""Numpy arrays <-> builtin dense attributes and element types, without per-element Python loops;
and printing dense float attributes so that they read back exactly."""

from __future__ import annotations

import functools
import sys

import numpy as np
from xdsl.dialects.builtin import (
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    f16,
    f32,
    f64,
    i1,
)
from xdsl.ir import Attribute
from xdsl.printer import Printer

NARROW_TYPES = (BFloat16Type, Float8E4M3FNType, Float8E4M3FNUZType, Float8E5M2Type, Float8E5M2FNUZType)
"""bf16 and the float8 types: numpy dtypes from ml_dtypes (:func:`narrow_floats`), kind 'V'."""


@functools.cache
def narrow_floats() -> dict[type, np.dtype]:
    """The numpy dtype of each of :data:`NARROW_TYPES`; ml_dtypes is imported on first use (0.7
    takes a second to import: a tool run on IR without these types does not pay it)."""
    import ml_dtypes

    names = ("bfloat16", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
    return {cls: np.dtype(getattr(ml_dtypes, name)) for cls, name in zip(NARROW_TYPES, names)}


@functools.cache
def _narrow_by_dtype() -> dict[np.dtype, Attribute]:
    return {dtype: cls() for cls, dtype in narrow_floats().items()}


def is_narrow_float(dtype: np.dtype) -> bool:
    """A bf16 or float8 dtype (ml_dtypes): numpy does arithmetic on them, but its kind is not 'f'."""
    # Such a dtype exists only once ml_dtypes is imported (its kind is 'V', or 'f' for e5m2).
    return "ml_dtypes" in sys.modules and np.dtype(dtype) in _narrow_by_dtype()


def call_reference(reference, op, *values, **kwargs):
    """Call an op's ``reference``; with bf16 or float8 operands, on their float32 values and with
    each bf16 or float8 result rounded once (to nearest even) from float32: those types store
    values, arithmetic is float32's (as compiled code does it, and onnx's node tests expect)."""
    if not any(is_narrow_float(getattr(v, "dtype", np.dtype(np.float32))) for v in values):
        return reference(op, *values, **kwargs)
    wide = [v.astype(np.float32) if is_narrow_float(getattr(v, "dtype", np.dtype(np.float32))) else v for v in values]
    out = reference(op, *wide, **kwargs)
    single = not isinstance(out, (tuple, list))
    outs = [out] if single else list(out)
    for i, r in enumerate(op.results[: len(outs)]):
        element = getattr(r.type, "get_element_type", None)
        dtype = narrow_floats().get(type(element())) if element is not None else None
        if dtype is not None and np.asarray(outs[i]).dtype != dtype:
            outs[i] = np.asarray(outs[i]).astype(dtype)
    return outs[0] if single else type(out)(outs) if isinstance(out, tuple) else outs


def is_float8(dtype: np.dtype) -> bool:
    return is_narrow_float(dtype) and np.dtype(dtype).itemsize == 1


_SIGNED = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}
_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def to_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype of a builtin element type (i1 is bool; signless ints are signed)."""
    match element_type:
        case Float32Type():
            return np.dtype(np.float32)
        case Float64Type():
            return np.dtype(np.float64)
        case Float16Type():
            return np.dtype(np.float16)
        case BFloat16Type() | Float8E4M3FNType() | Float8E4M3FNUZType() | Float8E5M2Type() | Float8E5M2FNUZType():
            return narrow_floats()[type(element_type)]
        case IntegerType():
            width = element_type.width.data
            if width == 1:
                return np.dtype(np.bool_)
            table = _UNSIGNED if element_type.signedness.data == Signedness.UNSIGNED else _SIGNED
            if width in table:
                return np.dtype(table[width])
    raise TypeError(f"element type {element_type} has no numpy equivalent")


def from_dtype(dtype: np.dtype | type) -> Attribute:
    """The builtin element type of a numpy dtype."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return i1
    if is_narrow_float(dtype):
        return _narrow_by_dtype()[dtype]
    if dtype.kind == "f":
        table = {2: f16, 4: f32, 8: f64}
        if dtype.itemsize in table:
            return table[dtype.itemsize]
    if dtype.kind in "iu":
        signedness = Signedness.UNSIGNED if dtype.kind == "u" else Signedness.SIGNLESS
        return IntegerType(dtype.itemsize * 8, signedness)
    raise TypeError(f"numpy dtype {dtype} has no builtin element type")


def tensor_type(shape, dtype) -> TensorType:
    return TensorType(from_dtype(dtype), list(shape))


def dense_from_numpy(array: np.ndarray) -> DenseIntOrFPElementsAttr:
    """A dense attribute holding the array's bytes (little-endian, C order)."""
    array = np.asarray(array)
    element = from_dtype(array.dtype)
    data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False)
    return DenseIntOrFPElementsAttr(TensorType(element, list(array.shape)), BytesAttr(data.tobytes()))


def numpy_from_dense(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A read-only numpy view of a dense attribute (bool for i1).  Every reader of a constant's
    values comes here: a ``dense_resource`` the parser could not resolve (an elided constant)
    is a StratiError saying so."""
    if isinstance(attr, DenseResourceAttr):
        from strati.resources import unresolved_values

        raise unresolved_values(attr)
    dtype = to_dtype(attr.get_element_type())
    shape = tuple(attr.get_shape())
    raw = attr.data.data
    count = int(np.prod(shape, dtype=np.int64))
    values = np.frombuffer(raw, np.uint8) != 0 if dtype == np.bool_ else np.frombuffer(raw, dtype.newbyteorder("<"))
    if values.size == 1 and count != 1:  # a splat stored once
        return np.broadcast_to(values, shape)
    if values.size != count:
        raise ValueError(f"dense attribute holds {values.size} elements, its type {attr.type} needs {count}")
    return values.reshape(shape)


def print_dense(printer: Printer, value: DenseIntOrFPElementsAttr) -> None:
    """Floats print in decimal (7 significant digits) when every value reads back exactly,
    otherwise as hex bytes; xDSL's own printer keeps only 6 digits and so can change values.
    A printer with a ``print_as_resource`` method may print a large one as a ``dense_resource``."""
    if isinstance(value, DenseResourceAttr):  # an elided constant
        Printer.print_attribute(printer, value)
        return
    if (as_resource := getattr(printer, "print_as_resource", None)) is not None and as_resource(value):
        return
    try:
        array = numpy_from_dense(value)
    except TypeError:  # an element type numpy lacks (bf16): xDSL prints it
        Printer.print_attribute(printer, value)
        return
    if array.size > 1 and array.strides == (0,) * array.ndim:  # a splat stored once: one element, in O(1)
        printer.print_string(f"dense<{_splat_text(array.flat[0])}> : ")
        printer.print_attribute(value.type)
        return
    if is_narrow_float(array.dtype) and array.size:  # bf16, float8: their bytes, exactly
        data = np.ascontiguousarray(array).tobytes()
        printer.print_string(f'dense<"0x{data.hex().upper()}"> : ')
        printer.print_attribute(value.type)
        return
    if array.dtype.kind != "f" or array.size == 0:
        Printer.print_attribute(printer, value)
        return
    text = np.char.mod("%.6e", array.astype(np.float64)) if array.size <= 100 else None
    exact = text is not None and np.all(np.isfinite(array)) and np.array_equal(text.astype(np.float64).astype(array.dtype), array)
    if not exact:
        data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes()
        printer.print_string(f'dense<"0x{data.hex().upper()}"> : ')
    elif np.all(array == array.flat[0]):
        printer.print_string(f"dense<{text.flat[0]}> : ")
    else:
        printer.print_string(f"dense<{_nested(text)}> : ")
    printer.print_attribute(value.type)


def _splat_text(x: np.generic) -> str:
    """One element, exactly: decimal where it reads back, else its little-endian hex bytes."""
    if x.dtype == np.bool_:
        return "true" if x else "false"
    if x.dtype.kind in "iu":
        return str(int(x))
    text = "%.6e" % float(x)
    if np.isfinite(x) and x.dtype.type(float(text)) == x:
        return text
    return '"0x' + np.array([x]).astype(x.dtype.newbyteorder("<")).tobytes().hex().upper() + '"'


def _nested(text: np.ndarray) -> str:
    if text.ndim == 0:
        return str(text)
    return "[" + ", ".join(_nested(t) for t in text) + "]"
