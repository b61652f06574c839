"""MLIR text in and out: parsing that records each op's source location, and printing.

xDSL's parser leaves ops without a ``loc(...)`` at an unknown location; ours
records ``file:line:col`` of the op's first token, so that verifier errors and
pass failures point at the source line, as in MLIR.
"""

from __future__ import annotations

import bisect
import io
import math
import re

from pathlib import Path

import numpy as np

from xdsl.context import Context
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    ShapedType,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError

from strati.context import make_context
from strati.dense import print_dense, to_dtype
from strati.diagnostics import DiagnosticError, parse_diagnostic, verify_module
from strati.resources import Reference, ResourcePrinting, Section, SectionScanner, resolve


MAX_DIGITS = 1000
"""The longest number literal read (an i1000 needs 302 digits)."""


class LinearLexer(MLIRLexer):
    """xDSL's lexer, with string literals lexed in linear time.

    xDSL 0.75 matches a string literal with a nested quantifier, ``(?:[^"]+|escape)*``,
    which backtracks exponentially when the closing quote is missing (28 characters after
    an unterminated quote took 16 s).  The same language with possessive quantifiers
    (``++``, ``*+``) cannot backtrack."""

    _unescaped_characters_regex = re.compile(r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"')

    def _lex_number(self, start_pos):
        """A number, refused past MAX_DIGITS digits (Python refuses to convert 4,300)."""
        token = super()._lex_number(start_pos)
        if len(token.span.text) > MAX_DIGITS:
            raise ParseError(token.span, f"number literal of {len(token.span.text)} characters is too long (at most {MAX_DIGITS})")
        return token


class LocatingParser(Parser):
    """An xDSL parser (with the linear-time lexer) that gives every op the location of its first token."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>"):
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(LinearLexer(Input(text, name)))
        self._filename = StringAttr(name)
        # Offsets where lines start, so that a location costs a bisection, not a count from the top.
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._text = text
        self._references: list[Reference] = []
        self._section: Section | None = None
        path = Path(name)
        self._directory = path.parent if name not in ("-", "<stdin>", "<unknown>") and path.is_file() else None

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """The module, its ``dense_resource`` references resolved from the file's resources
        section (strati.resources)."""
        module = super().parse_module(allow_implicit_module)
        if self._references:
            resolve(module, self._references, self._section, self.lexer.input, self._directory)
        return module

    def _parse_builtin_dense_resource_attr(self) -> DenseResourceAttr:
        """``dense_resource<name> : type``, recorded to be resolved once the resources section
        at the end of the file is read (xDSL's keeps blobs in a process-wide table)."""
        start = self._current_token.span.start
        self.parse_characters("<", " in dense_resource attribute")
        handle = self.parse_identifier(context_msg=" for resource handle")
        self.parse_characters(">", " in dense_resource attribute")
        end = self.pos
        self.parse_characters(":", " in dense_resource attribute")
        type = self.parse_type()  # noqa: A001
        if not isinstance(type, ShapedType) or not type.has_static_shape():
            self.raise_error(f"dense_resource needs a static shaped type, got {type}")
        attr = DenseResourceAttr.from_params(handle, type)
        self._references.append(Reference(attr, start - len("dense_resource"), end))
        return attr

    def _parse_file_metadata_dictionary(self) -> None:
        """The ``{-# ... #-}`` section: scanned without the lexer (a blob is one hex string)."""
        if self._section is not None:
            self.raise_error("a second resources section")
        self._section = Section()
        start = self._current_token.span.end
        end = SectionScanner(self._text, start, self.lexer.input, self._section).scan()
        self._resume_from(end)

    def parse_dense_int_or_fp_elements_attr(self, type):  # noqa: A002 - xDSL's signature
        """As xDSL's, but a splat (``dense<1.0>``, or one element's hex) stays one element's
        bytes however large its type: xDSL expands it, 16M elements took 21 s and 3 GB."""
        start = self.pos
        splat = self._parse_optional_splat(type)
        if splat is not None:
            return splat
        self._resume_from(start)
        return super().parse_dense_int_or_fp_elements_attr(type)

    def _parse_optional_splat(self, type) -> DenseIntOrFPElementsAttr | None:  # noqa: A002
        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.kind in (MLIRTokenKind.L_SQUARE, MLIRTokenKind.GREATER):
            return None  # a nested literal or an empty one: xDSL's parser
        hex_string = self.parse_optional_str_literal()
        element = None
        if hex_string is None:
            values, literal_shape = self._parse_tensor_literal()
            if literal_shape:
                return None
            element = values[0]
        self.parse_punctuation(">", " in dense attribute")
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            type = self._parse_dense_literal_type()
        try:
            dtype = to_dtype(type.get_element_type())
        except TypeError:
            return None  # index, bf16, complex: xDSL's parser
        if math.prod(type.get_shape()) <= 1:
            return None
        if element is not None:
            value = element.to_type(self, type.get_element_type())
            data = np.array([value]).astype(dtype).astype(dtype.newbyteorder("<")).tobytes()
        else:
            try:
                data = bytes.fromhex(hex_string[2:])
            except ValueError:
                return None
            if len(data) != dtype.itemsize:
                return None
        return DenseIntOrFPElementsAttr(type, BytesAttr(data))

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        try:
            op = super().parse_operation()
        except ParseError:
            raise
        except RecursionError:
            raise ParseError(Span(start, start + 1, self.lexer.input), "the input is nested too deeply") from None
        except Exception as err:  # noqa: BLE001 - xDSL raises VerifyException, ValueError, ... while parsing
            from strati.diagnostics import diagnostic_message

            raise ParseError(Span(start, start + 1, self.lexer.input), diagnostic_message(err)) from None
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
    """xDSL's printer, but dense float attributes print exactly (in the generic form too), and
    large ones as ``dense_resource`` blobs when given a ResourcePrinting (strati.resources)."""

    def __init__(self, *args, resources: ResourcePrinting | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.resources = resources
        self._printing: list[Operation] = []

    def print_op(self, op: Operation) -> None:
        self._printing.append(op)
        try:
            super().print_op(op)
        finally:
            self._printing.pop()

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, DenseIntOrFPElementsAttr):
            print_dense(self, attribute)
        else:
            super().print_attribute(attribute)

    def print_as_resource(self, value: DenseIntOrFPElementsAttr) -> bool:
        """Print a large constant as ``dense_resource<name>``, named after the value or symbol
        of the op being printed; False to print it as ``dense<...>``."""
        if self.resources is None:
            return False
        handle = self.resources.handle(value, self._hint())
        if handle is None:
            return False
        self.print_string(f"dense_resource<{handle}> : ")
        self.print_attribute(value.type)
        return True

    def _hint(self) -> str | None:
        if not self._printing:
            return None
        op = self._printing[-1]
        if op.results and (name := self._ssa_values.get(op.results[0])) is not None:
            return name.lstrip("%")
        if isinstance(symbol := op.properties.get("sym_name", op.attributes.get("sym_name")), StringAttr):
            return symbol.data
        return None


def module_text(module: Operation, generic: bool = False, locations: bool = False,
                resources: ResourcePrinting | None = None) -> str:
    """The module's text; constants above ``resources.threshold`` elements (by default
    strati.resources.RESOURCE_THRESHOLD) as ``dense_resource`` blobs in a section at the end."""
    resources = ResourcePrinting() if resources is None else resources
    out = io.StringIO()
    StratiPrinter(stream=out, print_generic_format=generic, print_debuginfo=locations, resources=resources).print_op(module)
    out.write("\n")
    out.write(resources.section())
    return out.getvalue()
