"""Finding a module's entry function and naming its arguments: what the interpreters, the
code generator, the JIT and the tools agree on (a module of its own, so none of them
imports another for it)."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Operation

from strati.diagnostics import StratiError


def functions(module: Operation) -> list[func.FuncOp]:
    """The functions of a module that have a body, nested modules' too, in order (found without
    walking into their bodies: a function's ops are many, and every pass asks)."""
    found: list[func.FuncOp] = []

    def visit(op: Operation) -> None:
        if isinstance(op, func.FuncOp):
            if op.body.blocks:
                found.append(op)
            return
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    visit(inner)

    visit(module)
    return found


def find_function(module: ModuleOp, entry: str | None = None) -> func.FuncOp:
    """The function named ``entry``, or the module's only (or first public) function."""
    funcs = functions(module)
    if entry is not None:
        for f in funcs:
            if f.sym_name.data == entry:
                return f
        names = ", ".join("@" + f.sym_name.data for f in funcs) or "none"
        raise StratiError(f"no function named @{entry} (functions: {names})")
    if not funcs:
        raise StratiError("the module has no function with a body")
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    return (public or funcs)[0]


def argument_names(fn: func.FuncOp) -> list[str]:
    """Argument names as the IR spells them (``%x`` -> "x"), ``arg<i>`` where unnamed."""
    return [a.name_hint or f"arg{i}" for i, a in enumerate(fn.body.blocks[0].args)]


NAME_ATTR = "strati.name"
"""An argument's (or result's) attribute: its name outside strati, e.g. an ONNX input or output
name (``input.1``, ``0``, ``input/ids:0``), which an SSA name cannot always spell.  Callers may
use it or the SSA name (its alias) interchangeably."""


def _named(attrs: ArrayAttr | None, count: int) -> list[str | None]:
    names: list[str | None] = [None] * count
    for i, d in enumerate(attrs.data[:count] if attrs is not None else ()):
        a = d.data.get(NAME_ATTR) if isinstance(d, DictionaryAttr) else None
        names[i] = a.data if isinstance(a, StringAttr) else None
    return names


def argument_aliases(fn: func.FuncOp) -> list[tuple[str, ...]]:
    """Every name each argument answers to: its ``strati.name`` first (when it has one), then its SSA name."""
    ssa = argument_names(fn)
    given = _named(fn.arg_attrs, len(ssa))
    return [(n,) if g in (None, n) else (g, n) for g, n in zip(given, ssa)]


def result_names(fn: func.FuncOp) -> list[str]:
    """Each output's ``strati.name``, else ``output<i>``: a graph function's results, a loop-level
    function's output arguments (the names are kept through lowering)."""
    if count := output_count(fn):
        given = _named(fn.arg_attrs, len(fn.function_type.inputs.data))[-count:]
    else:
        given = _named(fn.res_attrs, len(fn.function_type.outputs.data))
    return [g if g is not None else f"output{i}" for i, g in enumerate(given)]


def name_attrs(names: list[str]) -> ArrayAttr:
    """``arg_attrs``/``res_attrs`` that give each argument or result its ``strati.name``."""
    return ArrayAttr([DictionaryAttr({NAME_ATTR: StringAttr(n)}) for n in names])


OUTPUTS_ATTR = "strati.outputs"
"""A loop-level function's attribute: how many of its trailing arguments are outputs
(destination-passing style, see :mod:`strati.transforms.convert_tensor_to_loop`)."""


def output_count(fn: func.FuncOp) -> int:
    attr = fn.attributes.get(OUTPUTS_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


def input_argument_names(fn: func.FuncOp) -> list[str]:
    """The names of the arguments that are not outputs."""
    names = argument_names(fn)
    return names[: len(names) - output_count(fn)]


def input_aliases(fn: func.FuncOp) -> list[tuple[str, ...]]:
    """:func:`argument_aliases` of the arguments that are not outputs."""
    aliases = argument_aliases(fn)
    return aliases[: len(aliases) - output_count(fn)]


__all__ = [
    "NAME_ATTR", "OUTPUTS_ATTR", "argument_aliases", "argument_names", "find_function", "functions", "input_aliases",
    "input_argument_names", "name_attrs", "output_count", "result_names",
]  # fmt: skip
