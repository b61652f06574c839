"""One readable op syntax for strati's dialects, property helpers, and verification
against the registered ``infer_type``.

Syntax (MLIR conventions: operands, then properties, then types)::

    %y = graph.relu %x : tensor<4x8xf32>
    %z = graph.add %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %c = graph.conv2d %x, %w {strides = array<i64: 2, 2>, groups = 2} : (...) -> tensor<...>

The single type is the short form when every operand and the one result have that
type.  Properties that hold their default value are not printed.  Keys with a dot
(``strati.note = 1``) are discardable attributes; any other unknown key is an error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    VerificationContext,
    IRDLOperation,
    OptOperandDef,
    OptPropertyDef,
    OptResultDef,
    VarOperandDef,
    VarResultDef,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from strati import registry
from strati.dialects.shapes import types_compatible

I64Array = DenseArrayBase.constr(i64)
F32Array = DenseArrayBase.constr(f32)
BoolAttr = IntegerAttr.constr(type=i1)


# --- property declarations -------------------------------------------------------------


def _prop(constraint, default: Attribute | None, optional: bool):
    if default is not None:
        return prop_def(constraint, default)
    return opt_prop_def(constraint) if optional else prop_def(constraint)


def int_prop(default: int | None = None, *, optional: bool = False):
    """An i64 property, written ``name = 3``; required unless it has a default or is optional."""
    return _prop(IntegerAttr.constr(type=i64), None if default is None else IntegerAttr(default, i64), optional)


def float_prop(default: float | None = None, *, optional: bool = False):
    """A float property, written ``name = 1.0e-05`` (stored as f64)."""
    return _prop(FloatAttr, None if default is None else FloatAttr(default, f64), optional)


def bool_prop(default: bool = False):
    """A flag, written ``name = true``."""
    return prop_def(BoolAttr, IntegerAttr(int(default), i1))


def ints_prop(default: Sequence[int] | None = None, *, optional: bool = False):
    """A list of i64, written ``name = array<i64: 1, 2>``."""
    value = None if default is None else DenseArrayBase.from_list(i64, list(default))
    return _prop(I64Array, value, optional)


def floats_prop(*, optional: bool = False):
    """A list of f32, written ``name = array<f32: 2.0, 2.0>``."""
    return _prop(F32Array, None, optional)


def str_prop(default: str | None = None, *, optional: bool = False):
    """A string property, written ``name = "reflect"``."""
    return _prop(StringAttr, None if default is None else StringAttr(default), optional)


def py_value(attr: Attribute | None) -> Any:
    """The plain Python value of a property (None when absent)."""
    match attr:
        case None:
            return None
        case IntegerAttr():
            value = attr.value.data
            return bool(value) if attr.type == i1 else value
        case FloatAttr():
            return attr.value.data
        case DenseArrayBase():
            return tuple(attr.get_values())
        case StringAttr():
            return attr.data
        case ArrayAttr():
            return tuple(py_value(a) for a in attr.data)
    return attr


def param(op: Operation, name: str) -> Any:
    """The plain Python value of the op's property (or attribute) ``name``."""
    attr = op.properties.get(name)
    if attr is None:
        attr = op.attributes.get(name)
    if attr is None and isinstance(op, IRDLOperation):
        prop = type(op).get_irdl_definition().properties.get(name)
        attr = None if prop is None else prop.default_value
    return py_value(attr)


# --- the op base ---------------------------------------------------------------------


class UniformOp(IRDLOperation):
    """An op written in the uniform syntax, verified against its registered ``infer_type``."""

    def verify_(self) -> None:
        verify_inferred_types(self)

    def param(self, name: str) -> Any:
        return param(self, name)

    # -- parsing

    @classmethod
    def parse(cls, parser: Parser) -> UniformOp:
        operands: list[UnresolvedOperand] = []
        if parser._current_token.kind == MLIRTokenKind.PERCENT_IDENT:
            operands = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
        properties, attributes = parse_properties(cls, parser)
        types_pos = parser.pos
        for name, prop in cls.get_irdl_definition().properties.items():
            if name not in properties and prop.default_value is None and not isinstance(prop, OptPropertyDef):
                parser.raise_error(f"'{cls.name}' op needs the property '{name}'", at_position=types_pos)
        parser.parse_punctuation(":")
        if parser._current_token.kind == MLIRTokenKind.L_PAREN:
            operand_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            parser.parse_punctuation("->")
            if parser._current_token.kind == MLIRTokenKind.L_PAREN:
                result_types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
            else:
                result_types = [parser.parse_type()]
        else:
            single = parser.parse_type()
            operand_types = [single] * len(operands)
            result_types = [single]
        if len(operand_types) != len(operands):
            parser.raise_error(
                f"{cls.name} has {len(operands)} operands but {len(operand_types)} operand types",
                at_position=types_pos,
            )
        values = [parser.resolve_operand(u, t) for u, t in zip(operands, operand_types)]
        op_def = cls.get_irdl_definition()
        try:
            grouped_operands = group_by_defs(op_def.operands, values, "operand")
            grouped_results = group_by_defs(op_def.results, result_types, "result")
        except VerifyException as err:
            parser.raise_error(f"{cls.name}: {err}", at_position=types_pos)
        return cls.build(
            operands=grouped_operands,
            result_types=grouped_results,
            properties=properties,
            attributes=attributes,
        )

    # -- printing

    def print(self, printer: Printer) -> None:
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
        print_properties(self, printer)
        printer.print_string(" : ")
        operand_types = [o.type for o in self.operands]
        result_types = [r.type for r in self.results]
        if len(result_types) == 1 and all(t == result_types[0] for t in operand_types):
            printer.print_attribute(result_types[0])
            return
        printer.print_string("(")
        printer.print_list(operand_types, printer.print_attribute)
        printer.print_string(") -> ")
        if len(result_types) == 1:
            printer.print_attribute(result_types[0])
        else:
            printer.print_string("(")
            printer.print_list(result_types, printer.print_attribute)
            printer.print_string(")")


def group_by_defs(defs: Sequence[tuple[str, Any]], items: Sequence[Any], what: str) -> list:
    """Split a flat list of operands (or result types) over the op's definitions.

    At most one definition may be optional or variadic; it takes what the single
    ones leave.
    """
    flexible = [i for i, (_, d) in enumerate(defs) if isinstance(d, (VarOperandDef, VarResultDef))]
    n_single = len(defs) - len(flexible)
    expected = (
        f"{n_single}"
        if not flexible
        else f"{n_single} or {n_single + 1}"
        if all(isinstance(defs[i][1], (OptOperandDef, OptResultDef)) for i in flexible)
        else f"at least {n_single}"
    )
    if len(items) < n_single or (not flexible and len(items) != n_single):
        raise VerifyException(f"expected {expected} {what}s, got {len(items)}")
    if len(flexible) > 1:
        raise VerifyException(f"cannot split {what}s over {len(flexible)} variadic definitions")
    grouped: list = []
    rest = list(items)
    for i, (_, d) in enumerate(defs):
        if i in flexible:
            take = len(rest) - (len(defs) - i - 1)
            if isinstance(d, (OptOperandDef, OptResultDef)) and take > 1:
                raise VerifyException(f"expected {expected} {what}s, got {len(items)}")
            grouped.append(rest[:take])
            rest = rest[take:]
        else:
            grouped.append(rest.pop(0))
    return grouped


def parse_properties(cls: type[IRDLOperation], parser: Parser) -> tuple[dict, dict]:
    """Parse ``{key = value, ...}``: the op's properties, and dotted discardable attributes."""
    properties: dict[str, Attribute] = {}
    attributes: dict[str, Attribute] = {}
    if parser.parse_optional_punctuation("{") is None:
        return properties, attributes
    prop_defs = cls.get_irdl_definition().properties

    def parse_entry() -> None:
        key_pos = parser.pos
        key = parser.parse_identifier_or_str_literal()
        parser.parse_punctuation("=")
        value_pos = parser.pos
        value = parser.parse_attribute()
        if key in properties or key in attributes:
            parser.raise_error(f"'{key}' is given twice", at_position=key_pos, end_position=parser.pos)
        if key in prop_defs:
            value = coerce_property(prop_defs[key], value)
            if not satisfies(prop_defs[key].constr, value):
                parser.raise_error(
                    f"{cls.name} property '{key}' expects {describe(prop_defs[key].constr)}, got {value}",
                    at_position=value_pos,
                    end_position=parser.pos,
                )
            properties[key] = value
        elif "." in key:
            attributes[key] = value
        else:
            known = ", ".join(prop_defs) or "none"
            parser.raise_error(
                f"{cls.name} has no property '{key}' (its properties: {known})",
                at_position=key_pos,
                end_position=parser.pos,
            )

    if parser.parse_optional_punctuation("}") is None:
        parser.parse_comma_separated_list(parser.Delimiter.NONE, parse_entry)
        parser.parse_punctuation("}")
    return properties, attributes


def coerce_property(prop_def_: Any, value: Attribute) -> Attribute:
    """Accept an integer literal where a float property is expected (``alpha = 1``)."""
    if isinstance(value, IntegerAttr) and value.type == i64:
        as_float = FloatAttr(float(value.value.data), f64)
        if satisfies(prop_def_.constr, as_float) and not satisfies(prop_def_.constr, value):
            return as_float
    return value


_EXAMPLES = [
    (FloatAttr(0.0, f64), "a float"),
    (IntegerAttr(0, i64), "an integer"),
    (IntegerAttr(0, i1), "true or false"),
    (DenseArrayBase.from_list(i64, [0]), "array<i64: ...>"),
    (DenseArrayBase.from_list(f32, [0.0]), "array<f32: ...>"),
    (StringAttr(""), "a string"),
]


def describe(constraint: Any) -> str:
    """What a property constraint accepts, in the words of its syntax."""
    kinds = [text for example, text in _EXAMPLES if satisfies(constraint, example)]
    return " or ".join(kinds) if kinds else str(constraint)


def satisfies(constraint: Any, value: Attribute) -> bool:
    try:
        constraint.verify(value, VerificationContext())
    except VerifyException:
        return False
    return True


def print_properties(op: IRDLOperation, printer: Printer) -> None:
    prop_defs = type(op).get_irdl_definition().properties
    entries: list[tuple[str, Attribute]] = []
    for name, d in prop_defs.items():
        value = op.properties.get(name)
        if value is None or (value == d.default_value and not isinstance(d, OptPropertyDef)):
            continue
        entries.append((name, value))
    entries += [(k, v) for k, v in op.properties.items() if k not in prop_defs]
    entries += list(op.attributes.items())
    if not entries:
        return
    printer.print_string(" {")

    def print_entry(entry: tuple[str, Attribute]) -> None:
        printer.print_identifier_or_string_literal(entry[0])
        printer.print_string(" = ")
        print_value(printer, entry[1])

    printer.print_list(entries, print_entry)
    printer.print_string("}")


def print_value(printer: Printer, value: Attribute) -> None:
    """Print ints, floats and flags bare (``-1``, ``1.0e-05``, ``true``); the rest as attributes."""
    if isinstance(value, IntegerAttr) and value.type in (i64, i1):
        v = value.value.data
        printer.print_string(("true" if v else "false") if value.type == i1 else str(v))
    elif isinstance(value, FloatAttr) and value.type == f64 and math.isfinite(value.value.data):
        printer.print_string(float_literal(value.value.data))
    else:
        printer.print_attribute(value)


def float_literal(x: float) -> str:
    """A float in MLIR syntax that reads back as the same double."""
    text = repr(float(x))
    if "." not in text:
        mantissa, _, exponent = text.partition("e")
        text = mantissa + ".0" + ("e" + exponent if exponent else "")
    return text


# --- verification ---------------------------------------------------------------------


def verify_inferred_types(op: Operation) -> None:
    """Check the declared result types against the registered ``infer_type``, if any.

    The inferred type wins on every static dimension; a dynamic dimension on
    either side is compatible with anything (MLIR's ``isCompatibleReturnTypes``).
    """
    infer = registry.get_op_attr(op.name, "infer_type")
    if infer is None:
        return
    inferred = list(infer(op))
    declared = [r.type for r in op.results]
    if len(inferred) != len(declared):
        raise VerifyException(f"expected {len(inferred)} results, got {len(declared)}")
    for i, (got, want) in enumerate(zip(declared, inferred)):
        if not types_compatible(got, want):
            which = "result type" if len(declared) == 1 else f"result #{i} type"
            raise VerifyException(f"{which} {got} does not match the inferred type {want}")


def operand_tensor(op: Operation, index: int) -> TensorType:
    t = op.operands[index].type
    assert isinstance(t, TensorType)
    return t


__all__ = [
    "UniformOp",
    "I64Array",
    "bool_prop",
    "float_prop",
    "floats_prop",
    "int_prop",
    "ints_prop",
    "param",
    "py_value",
    "str_prop",
    "verify_inferred_types",
]
