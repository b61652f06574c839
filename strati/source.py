"""MLIR text in and out: parsing that records each op's source location, and printing.

xDSL's parser leaves ops without a ``loc(...)`` at an unknown location; ours
records ``file:line:col`` of the op's first token, so that verifier errors and
pass failures point at the source line, as in MLIR.
"""

from __future__ import annotations

import io

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from strati.context import make_context
from strati.diagnostics import DiagnosticError, parse_diagnostic, verify_module


class LocatingParser(Parser):
    """An xDSL parser that gives every op the location of its first token."""

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            loc = start.get_location()
            op.location = FileLineColLoc(StringAttr(loc.file), IntAttr(loc.line), IntAttr(loc.col))
        return op


def parse_module(ctx: Context, text: str, filename: str = "<stdin>") -> ModuleOp:
    """Parse a module (an implicit ``builtin.module`` when the text has several top-level ops)."""
    return LocatingParser(ctx, text, filename).parse_module()


def load_module(text: str, filename: str, allow_unregistered: bool = False) -> ModuleOp:
    """Parse and verify, or raise a DiagnosticError at the first problem."""
    try:
        module = parse_module(make_context(allow_unregistered), text, filename)
    except ParseError as err:
        raise DiagnosticError(parse_diagnostic(err)) from None
    if (diag := verify_module(module, filename)) is not None:
        raise DiagnosticError(diag)
    return module


def module_text(module: Operation, generic: bool = False, locations: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic, print_debuginfo=locations).print_op(module)
    out.write("\n")
    return out.getvalue()
