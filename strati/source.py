"""MLIR text in and out: parsing that records each op's source location, and printing.

xDSL's parser leaves ops without a ``loc(...)`` at an unknown location; ours
records ``file:line:col`` of the op's first token, so that verifier errors and
pass failures point at the source line, as in MLIR.
"""

from __future__ import annotations

import bisect
import io
import re

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from strati.context import make_context
from strati.dense import print_dense
from strati.diagnostics import DiagnosticError, parse_diagnostic, verify_module


class LinearLexer(MLIRLexer):
    """xDSL's lexer, with string literals lexed in linear time.

    xDSL 0.75 matches a string literal with a nested quantifier, ``(?:[^"]+|escape)*``,
    which backtracks exponentially when the closing quote is missing (28 characters after
    an unterminated quote took 16 s).  The same language with possessive quantifiers
    (``++``, ``*+``) cannot backtrack."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')


class LocatingParser(Parser):
    """An xDSL parser (with the linear-time lexer) that gives every op the location of its first token."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>"):
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(LinearLexer(Input(text, name)))
        self._filename = StringAttr(name)
        # Offsets where lines start, so that a location costs a bisection, not a count from the top.
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            line = bisect.bisect_right(self._line_starts, start)
            column = start - self._line_starts[line - 1] + 1
            op.location = FileLineColLoc(self._filename, IntAttr(line), IntAttr(column))
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


class StratiPrinter(Printer):
    """xDSL's printer, but dense float attributes print exactly (in the generic form too)."""

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            print_dense(self, attribute)
        else:
            super().print_attribute(attribute)


def module_text(module: Operation, generic: bool = False, locations: bool = False) -> str:
    out = io.StringIO()
    StratiPrinter(stream=out, print_generic_format=generic, print_debuginfo=locations).print_op(module)
    out.write("\n")
    return out.getvalue()
