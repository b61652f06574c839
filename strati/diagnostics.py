"""Errors that reach the user as one diagnostic line: ``file:line:col: error: message``.

Ops carry their source location (the parser records it; the ONNX importer uses
the node's name); a diagnostic about an op names the op and, where it has one,
its location.
"""

from __future__ import annotations

from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError


class StratiError(Exception):
    """A user-facing error, optionally about one op."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


def location_text(loc: Attribute | None) -> str | None:
    """``file:line:col`` for a file location, the quoted name for a name location."""
    match loc:
        case FileLineColLoc():
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        case NameLoc():
            inner = location_text(loc.location)
            return inner if inner is not None else f'"{loc.desc.data}"'
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


def op_location(op: Operation | None) -> str | None:
    return None if op is None else location_text(op.location)


def format_error(message: str, op: Operation | None = None, fallback: str | None = None) -> str:
    """One diagnostic line; the op's name is prefixed unless the message already starts with it."""
    where = op_location(op) or fallback
    if op is not None and not message.startswith(f"'{op.name}'"):
        message = f"'{op.name}' op {message}"
    return f"{where}: error: {message}" if where else f"error: {message}"


def parse_error_line(err: ParseError) -> tuple[str, int, int, str]:
    """(file, line, column, message) of an xDSL parse error."""
    loc = err.span.get_location()
    return loc.file, loc.line, loc.col, err.msg


def diagnostic_message(err: BaseException) -> str:
    """The first line of an xDSL exception's message, without the IR dump it may carry."""
    text = str(err.args[0]) if err.args else str(err)
    if isinstance(err, DiagnosticException):
        text = text.removeprefix("Operation does not verify: ")
    return text.strip().splitlines()[0] if text.strip() else type(err).__name__
