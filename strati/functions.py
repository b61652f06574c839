"""Finding a module's entry function and naming its arguments: what the interpreters, the
code generator, the JIT and the tools agree on (a module of its own, so none of them
imports another for it)."""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp

from strati.diagnostics import StratiError


def find_function(module: ModuleOp, entry: str | None = None) -> func.FuncOp:
    """The function named ``entry``, or the module's only (or first public) function."""
    funcs = [op for op in module.walk() if isinstance(op, func.FuncOp) and op.body.blocks]
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


__all__ = ["OUTPUTS_ATTR", "argument_names", "find_function", "input_argument_names", "output_count"]
