"""The hw dialect: what every hardware target shares (level 4).

**The target description.**  A target is described by one attribute, attached to the
module as the discardable attribute ``hw.target``; passes below level 3 read it and
never hard-code a machine::

    builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true,
                                                       cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
      ...
    }

The name says which registered target (:mod:`strati.dialects.hw.target`) it describes;
the fields are that target's own (:attr:`Target.fields`): the CPU has vector width,
FMA, cores and caches, an accelerator its scratchpad sizes and tile shape.  A field is
an integer, a boolean, a string or a list of integers (``tile = [16, 16, 16]``).  The
parser checks every field against the target's declaration (a field left out takes its
default), so a description of a target that is not registered (a plug-in not loaded) is
an error naming the known ones.

**Memory spaces.**  ``#hw.space<"sram">`` is the memory space of a ``memref`` that lives
somewhere other than main memory (``memref<16x16xi8, #hw.space<"sram">>``); the target
declares its spaces and their capacities (:attr:`Target.memory_spaces`), and
``plan-memory`` makes one arena per space.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntAttr, IntegerAttr, MemRefType, ModuleOp, StringAttr, i1
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

TARGET_ATTR = "hw.target"
"""The name of the module attribute that holds the target description."""


def to_attr(value: Any) -> Attribute:
    """A description field's Python value as an attribute."""
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    if isinstance(value, int):
        return IntAttr(value)
    if isinstance(value, str):
        return StringAttr(value)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return ArrayAttr([IntAttr(v) for v in value])
    raise TypeError(f"a #hw.target field is an int, a bool, a string or a list of ints, not {value!r}")


def from_attr(attr: Attribute) -> Any:
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    if isinstance(attr, IntAttr):
        return attr.data
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, ArrayAttr):
        return tuple(from_attr(a) for a in attr.data)
    raise TypeError(f"not a #hw.target field value: {attr}")


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """``#hw.target<"name", field = value, ...>``: a target's description, fields as it declares them."""

    name = "hw.target"

    target: StringAttr
    fields: DictionaryAttr

    def __init__(self, target: str, **fields: Any):
        super().__init__(StringAttr(target), DictionaryAttr({k: to_attr(v) for k, v in fields.items()}))

    @property
    def target_name(self) -> str:
        return self.target.data

    def values(self) -> dict[str, Any]:
        """Every field as a plain Python value."""
        return {k: from_attr(v) for k, v in self.fields.data.items()}

    def __getitem__(self, field: str) -> Any:
        attr = self.fields.data.get(field)
        if attr is None:
            raise KeyError(f"target '{self.target_name}' has no field '{field}' (fields: {', '.join(self.fields.data)})")
        return from_attr(attr)

    def get(self, field: str, default: Any = None) -> Any:
        attr = self.fields.data.get(field)
        return default if attr is None else from_attr(attr)

    def replace(self, **changes: Any) -> TargetAttr:
        """The same description with some fields changed (a fixed machine for a test, a tuner's variant)."""
        return TargetAttr(self.target_name, **{**self.values(), **changes})

    def verify(self) -> None:
        from strati.dialects.hw.target import description_problem

        problem = description_problem(self.target_name, self.values())
        if problem is not None:
            raise VerifyException(problem)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        from strati.dialects.hw.target import description_problem, find_target

        start = parser.pos
        with parser.in_angle_brackets():
            name = parser.parse_str_literal(" (the target name)")
            target = find_target(name)
            if target is None:
                from strati.dialects.hw.target import target_names

                parser.raise_error(f"unknown target '{name}' (targets: {', '.join(target_names())})", start, parser.pos)
            declared = {f.name: f for f in target.fields}
            values: dict[str, Any] = {}
            while parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                key = parser.parse_identifier(context_msg=" (a #hw.target field)")
                if key not in declared:
                    parser.raise_error(f"unknown #hw.target field '{key}' (fields: {', '.join(declared)})", pos, parser.pos)
                if key in values:
                    parser.raise_error(f"#hw.target field '{key}' given twice", pos, parser.pos)
                parser.parse_punctuation("=")
                values[key] = declared[key].parse(parser)
        problem = description_problem(name, values)
        if problem is not None:
            parser.raise_error(problem, start, parser.pos)
        values = {**{f.name: f.default for f in target.fields if f.default is not None}, **values}
        return (StringAttr(name), DictionaryAttr({k: to_attr(values[k]) for k in declared if k in values}))

    def print_parameters(self, printer: Printer) -> None:
        from strati.dialects.hw.target import find_target

        target = find_target(self.target_name)
        order = [f.name for f in target.fields] if target is not None else []
        names = [n for n in order if n in self.fields.data] + sorted(set(self.fields.data) - set(order))
        printer.print_string("<")
        printer.print_string_literal(self.target_name)
        for n in names:
            printer.print_string(f", {n} = {format_value(self[n])}")
        printer.print_string(">")


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@irdl_attr_definition
class MemorySpaceAttr(ParametrizedAttribute):
    """``#hw.space<"sram">``: a memory a target declares besides main memory (a memref's memory space)."""

    name = "hw.space"

    space: StringAttr

    def __init__(self, space: str):
        super().__init__(StringAttr(space))

    @property
    def space_name(self) -> str:
        return self.space.data

    def verify(self) -> None:
        if not self.space.data:
            raise VerifyException("#hw.space needs a non-empty name")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (StringAttr(parser.parse_str_literal(" (the memory space's name)")),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.space.data)
        printer.print_string(">")


def memory_space(t: Attribute) -> str | None:
    """The name of a memref type's ``#hw.space``, None for main memory."""
    if isinstance(t, MemRefType) and isinstance(t.memory_space, MemorySpaceAttr):
        return t.memory_space.space_name
    return None


def module_target(module: ModuleOp) -> TargetAttr | None:
    """The module's target description, if it has one."""
    attr = module.attributes.get(TARGET_ATTR)
    return attr if isinstance(attr, TargetAttr) else None


def set_module_target(module: ModuleOp, target: TargetAttr) -> None:
    module.attributes[TARGET_ATTR] = target


ALL_ATTRS = [TargetAttr, MemorySpaceAttr]
ALL_OPS: list = []

__all__ = [
    "ALL_ATTRS",
    "ALL_OPS",
    "TARGET_ATTR",
    "MemorySpaceAttr",
    "TargetAttr",
    "memory_space",
    "module_target",
    "set_module_target",
]
