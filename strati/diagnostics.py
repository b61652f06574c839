"""Errors that reach the user as one diagnostic line: ``file:line:col: error: message``.

Ops carry their source location (the parser records it; the ONNX importer uses
the node's name); a diagnostic about an op names the op and, where it has one,
its location.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, ModuleOp, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError


class StratiError(Exception):
    """A user-facing error, optionally about one op."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


@dataclass
class Diagnostic:
    message: str
    file: str | None = None
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        where = ":".join(str(x) for x in (self.file, self.line, self.col) if x is not None)
        return f"{where}: error: {self.message}" if where else f"error: {self.message}"


class DiagnosticError(Exception):
    """Carries a ready diagnostic up to the tool that prints it."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic


def location_text(loc: Attribute | None) -> str | None:
    """``file:line:col`` for a file location, the quoted name for a name location."""
    if (found := file_location(loc)) is not None:
        return ":".join(str(x) for x in found)
    match loc:
        case NameLoc():
            return f'"{loc.desc.data}"'
        case CallSiteLoc():
            return location_text(loc.callee)
        case FusedLoc():
            for sub in loc.locations.data:  # type: ignore[attr-defined]
                if (text := location_text(sub)) is not None:
                    return text
    return None


def file_location(loc: Attribute | None) -> tuple[str, int, int] | None:
    """(file, line, column) of the innermost file location in ``loc``."""
    match loc:
        case FileLineColLoc():
            return loc.filename.data, loc.line.data, loc.column.data
        case NameLoc():
            return file_location(loc.location)
        case CallSiteLoc():
            return file_location(loc.callee)
        case FusedLoc():
            for sub in loc.locations.data:  # type: ignore[attr-defined]
                if (found := file_location(sub)) is not None:
                    return found
    return None


def op_diagnostic(message: str, op: Operation | None, filename: str | None = None) -> Diagnostic:
    """A diagnostic at the op's source location, its message prefixed by the op's name."""
    if op is None:
        return Diagnostic(message, filename)
    if not message.startswith(f"'{op.name}'"):
        message = f"'{op.name}' op {message}"
    if (loc := file_location(op.location)) is not None:
        return Diagnostic(message, *loc)
    where = location_text(op.location)
    return Diagnostic(f"{message} (at {where})" if where else message, filename)


def parse_diagnostic(err: ParseError) -> Diagnostic:
    loc = err.span.get_location()
    return Diagnostic(err.msg, loc.file, loc.line, loc.col)


def diagnostic_message(err: BaseException) -> str:
    """The first line of an xDSL exception's message, without the IR dump it may carry."""
    text = str(err.args[0]) if err.args else str(err)
    if isinstance(err, DiagnosticException):
        text = text.removeprefix("Operation does not verify: ")
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return type(err).__name__
    if lines[0].endswith(":") and len(lines) > 1:  # "operand 'x' at position 0 does not verify:" + why
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def verify_module(module: ModuleOp, filename: str | None = None) -> Diagnostic | None:
    """The first op that does not verify, as a diagnostic at its location (outer ops first);
    then symbol redefinitions, SSA dominance, the representable sizes, globals whose value or
    use does not match their type, the accesses that constant loop bounds take out of their
    memrefs, and strati.limits."""
    from strati.verify_extra import check_accesses, check_globals, check_ops, check_structure

    for check in (check_structure, check_ops, check_globals, check_accesses):
        if (found := check(module)) is not None:
            message, op = found
            return op_diagnostic(message, op, filename)
    from strati.limits import LimitError, check_module

    try:
        check_module(module)
    except LimitError as err:
        return op_diagnostic(err.message, err.op, filename)
    return None
