"""Large constants in the text: MLIR's ``dense_resource<name>`` with the blobs at the end of
the file, elided placeholders, and weights kept in a file next to the ``.mlir``.

A module prints a constant with more than ``RESOURCE_THRESHOLD`` elements (not a splat) as
``dense_resource<name> : tensor<...>`` and its bytes once, as one hex string, in the file's
``{-# dialect_resources: { builtin: { name: "0x<4-byte alignment><bytes>" } } #-}`` section,
as ``mlir-opt`` does: ``bytes.hex`` and ``bytes.fromhex`` instead of one number per element.
Parsing resolves each reference to an ordinary dense attribute holding the blob's bytes, so
every pass, interpreter and code generator sees the values as it sees any other constant;
the resource is only how the text carries them.  Printed again, the constant is again a
resource, named after its SSA value.

``dense_resource<__elided__>`` (``--elide-large-constants``) stands for values left out: the
module parses, verifies and prints for inspection, and is refused where values are needed.

With external weights the blobs go to a file beside the ``.mlir`` (``m.weights.bin``), which
the section names with each blob's offset and size::

    {-# external_resources: { strati_weights: { file: "m.weights.bin", conv.w: "offset=0,size=1728" } } #-}

The file is read only from the ``.mlir``'s own directory (the rules of ONNX external data).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, DenseResourceAttr, ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span

from strati.dense import to_dtype
from strati.diagnostics import StratiError

RESOURCE_THRESHOLD = 1024
"""Constants with more elements than this print as ``dense_resource`` blobs (splats never do)."""

ELIDE_DEFAULT = 16
"""``--elide-large-constants`` without a value elides constants of more elements than this."""

ELIDED = "__elided__"
"""The handle of an elided constant, as MLIR prints it."""

EXTERNAL_GROUP = "strati_weights"
"""The ``external_resources`` group that names the weights file and each blob's place in it."""

EXTERNAL_ALIGNMENT = 64
"""Each blob of a weights file starts at a multiple of this many bytes."""

ELIDED_MESSAGE = (
    "has an elided value (dense_resource<__elided__>, printed with --elide-large-constants): "
    "the module can be inspected but not compiled or run"
)

_IDENT = re.compile(r"[A-Za-z_][\w$.]*")
_NOT_IDENT = re.compile(r"[^\w$.]")
_SPACE = re.compile(r"(?:\s+|//[^\n]*)*")
_PLACE = re.compile(r"offset=(\d+),size=(\d+)")


# --- printing ------------------------------------------------------------------------------


@dataclass
class ResourcePrinting:
    """How a printer writes large constants: as blobs above ``threshold`` elements (``None``:
    never), as ``__elided__`` above ``elide_above``, and with ``weights_file`` set, into that
    file (its bytes in :attr:`external`) instead of the text."""

    threshold: int | None = RESOURCE_THRESHOLD
    elide_above: int | None = None
    weights_file: str | None = None
    blobs: dict[str, bytes] = field(default_factory=dict)
    places: dict[str, tuple[int, int]] = field(default_factory=dict)
    external: bytearray = field(default_factory=bytearray)
    _by_id: dict[int, tuple[Attribute, str]] = field(default_factory=dict)

    def handle(self, attr: DenseIntOrFPElementsAttr, hint: str | None) -> str | None:
        """The handle to print ``attr`` as (recording its blob), or None to print it as ``dense<>``."""
        try:
            itemsize = to_dtype(attr.get_element_type()).itemsize
        except TypeError:
            return None
        count = math.prod(attr.get_shape())
        if count <= 1 or len(attr.data.data) != count * itemsize:  # a splat stored once
            return None
        if self.elide_above is not None and count > self.elide_above:
            return ELIDED
        if self.threshold is None or count <= self.threshold:
            return None
        if (seen := self._by_id.get(id(attr))) is not None:
            return seen[1]
        name = _unique(_identifier(hint or "cst"), self.blobs.keys() | self.places.keys())
        self._by_id[id(attr)] = (attr, name)
        data = attr.data.data
        if self.weights_file is None:
            self.blobs[name] = max(1, itemsize).to_bytes(4, "little") + data
        else:
            self.external.extend(b"\0" * (-len(self.external) % EXTERNAL_ALIGNMENT))
            self.places[name] = (len(self.external), len(data))
            self.external.extend(data)
        return name

    def section(self) -> str:
        """The ``{-# ... #-}`` section of the blobs printed so far ('' if none)."""
        entries = []
        if self.blobs:
            items = ",\n".join(f'      {name}: "0x{blob.hex()}"' for name, blob in self.blobs.items())
            entries.append(f"  dialect_resources: {{\n    builtin: {{\n{items}\n    }}\n  }}")
        if self.places:
            lines = [f'      file: "{self.weights_file}"']
            lines += [f'      {name}: "offset={o},size={n}"' for name, (o, n) in self.places.items()]
            entries.append(f"  external_resources: {{\n    {EXTERNAL_GROUP}: {{\n" + ",\n".join(lines) + "\n    }\n  }")
        return "\n{-#\n" + ",\n".join(entries) + "\n#-}\n" if entries else ""


def _identifier(hint: str) -> str:
    name = _NOT_IDENT.sub("_", hint)
    return name if _IDENT.fullmatch(name) else "_" + name


def _unique(name: str, taken) -> str:
    if name not in taken and name != ELIDED:
        return name
    i = 1
    while f"{name}_{i}" in taken:
        i += 1
    return f"{name}_{i}"


# --- parsing -------------------------------------------------------------------------------


@dataclass
class Blob:
    """One entry of a file's resource section: its bytes, or its place in the weights file."""

    start: int  # offset of the entry's value in the text, for errors
    end: int
    data: bytes | None = None
    place: tuple[int, int] | None = None


@dataclass
class Section:
    """The resources a file's ``{-# ... #-}`` section holds."""

    blobs: dict[str, Blob] = field(default_factory=dict)
    weights_file: tuple[str, int, int] | None = None  # the name and its span


class SectionScanner:
    """Reads a ``{-# dialect_resources: ..., external_resources: ... #-}`` section from the
    text after its opening ``{-#``, without the lexer: a blob is one ``str.find`` and one
    ``bytes.fromhex``."""

    def __init__(self, text: str, pos: int, source: Input, section: Section):
        self.text, self.pos, self.source, self.section = text, pos, source, section

    def error(self, message: str, start: int | None = None, end: int | None = None) -> ParseError:
        start = self.pos if start is None else start
        return ParseError(Span(start, max(start + 1, end or 0), self.source), message)

    def skip(self) -> None:
        self.pos = _SPACE.match(self.text, self.pos).end()

    def punct(self, p: str, what: str) -> None:
        self.skip()
        if not self.text.startswith(p, self.pos):
            raise self.error(f"expected '{p}' {what}")
        self.pos += len(p)

    def optional(self, p: str) -> bool:
        self.skip()
        if self.text.startswith(p, self.pos):
            self.pos += len(p)
            return True
        return False

    def ident(self, what: str) -> tuple[str, int]:
        self.skip()
        m = _IDENT.match(self.text, self.pos)
        if m is None:
            raise self.error(f"expected {what}")
        self.pos = m.end()
        return m.group(), m.start()

    def string(self, what: str) -> tuple[int, int]:
        """The span of a string literal's contents."""
        self.skip()
        if not self.text.startswith('"', self.pos):
            raise self.error(f"expected a string for {what}")
        end = self.text.find('"', self.pos + 1)
        if end < 0:
            raise self.error(f"unterminated string for {what}")
        start, self.pos = self.pos + 1, end + 1
        return start, end

    def braces(self, item, what: str) -> None:
        """``{ item, item, ... }`` (a trailing comma allowed)."""
        self.punct("{", what)
        while not self.optional("}"):
            item()
            if not self.optional(","):
                self.punct("}", what)
                return

    def scan(self) -> int:
        """Read entries up to and including ``#-}``; the offset after it."""
        while True:
            key, start = self.ident("'dialect_resources' or 'external_resources'")
            self.punct(":", f"after '{key}'")
            if key == "dialect_resources":
                self.braces(self.dialect_group, "around dialect_resources")
            elif key == "external_resources":
                self.braces(self.external_group, "around external_resources")
            else:
                raise self.error(f"unknown key '{key}' in the file's resources section "
                                 "(strati reads dialect_resources and external_resources)", start)
            if not self.optional(","):
                break
            self.skip()
            if self.text.startswith("#-}", self.pos):
                break
        self.punct("#-}", "at the end of the resources section")
        return self.pos

    def dialect_group(self) -> None:
        dialect, start = self.ident("a dialect name")
        if dialect != "builtin":
            raise self.error(f"unknown resource dialect '{dialect}' (strati reads builtin blobs)", start)
        self.punct(":", "after 'builtin'")
        self.braces(self.blob, "around the builtin blobs")

    def blob(self) -> None:
        name, at = self.ident("a resource name")
        self.punct(":", f"after resource '{name}'")
        start, end = self.string(f"resource '{name}'")
        if name in self.section.blobs:
            raise self.error(f"resource '{name}' is defined twice", at)
        self.section.blobs[name] = Blob(start, end, data=self.decode(name, start, end))

    def decode(self, name: str, start: int, end: int) -> bytes:
        text = self.text
        if not text.startswith("0x", start) or end - start < 10:
            raise self.error(f"resource '{name}': a blob is \"0x\", 8 hex digits of alignment, then the bytes in hex",
                             start, end)
        try:
            header = bytes.fromhex(text[start + 2 : start + 10])
            data = bytes.fromhex(text[start + 10 : end])
        except ValueError:
            bad = re.compile(r"[^0-9A-Fa-f]").search(text, start + 2, end)
            if bad is not None:
                raise self.error(f"resource '{name}': '{bad.group()}' is not a hex digit", bad.start()) from None
            raise self.error(f"resource '{name}': an odd number of hex digits", start, end) from None
        alignment = int.from_bytes(header, "little")
        if alignment == 0 or alignment & (alignment - 1):
            raise self.error(f"resource '{name}': alignment {alignment} (its first 4 bytes) is not a power of 2", start)
        return data

    def external_group(self) -> None:
        group, start = self.ident("an external resource group")
        if group != EXTERNAL_GROUP:
            raise self.error(f"unknown external resource group '{group}' (strati reads '{EXTERNAL_GROUP}')", start)
        self.punct(":", f"after '{group}'")
        self.braces(self.place, f"around {EXTERNAL_GROUP}")

    def place(self) -> None:
        name, at = self.ident("'file' or a resource name")
        self.punct(":", f"after '{name}'")
        start, end = self.string(name)
        value = self.text[start:end]
        if name == "file":
            self.section.weights_file = (value, start, end)
            return
        if name in self.section.blobs:
            raise self.error(f"resource '{name}' is defined twice", at)
        m = _PLACE.fullmatch(value)
        if m is None:
            raise self.error(f"resource '{name}': expected \"offset=N,size=M\" (its place in the weights file)", start, end)
        self.section.blobs[name] = Blob(start, end, place=(int(m.group(1)), int(m.group(2))))


@dataclass
class Reference:
    attr: DenseResourceAttr
    start: int
    end: int


def resolve(module: ModuleOp, refs: list[Reference], section: Section | None, source: Input,
            directory: Path | None) -> None:
    """Replace every ``dense_resource`` reference (but ``__elided__``) by a dense attribute
    holding its blob's bytes, checked against its type; a ParseError at the first problem."""
    def error(message: str, start: int, end: int) -> ParseError:
        return ParseError(Span(start, max(end, start + 1), source), message)

    weights: bytes | None = None
    resolved: dict[DenseResourceAttr, DenseIntOrFPElementsAttr] = {}
    for ref in refs:
        name = ref.attr.resource_handle.data
        if name == ELIDED or ref.attr in resolved:
            continue
        if section is None:
            raise error(f"dense_resource<{name}> has no blob: the file has no {{-# dialect_resources #-}} section", ref.start, ref.end)
        blob = section.blobs.get(name)
        if blob is None:
            known = ", ".join(list(section.blobs)[:5]) or "none"
            raise error(f"unknown resource '{name}' (the file's resources section has: {known})", ref.start, ref.end)
        if blob.data is not None:
            data = blob.data
        else:
            if weights is None:
                weights = _read_weights(section, directory, error)
            offset, size = blob.place
            if offset + size > len(weights):
                raise error(f"resource '{name}': bytes {offset} to {offset + size} are past the end of the weights file "
                            f"({len(weights)} bytes)", blob.start, blob.end)
            data = weights[offset : offset + size]
        t = ref.attr.type
        try:
            itemsize = to_dtype(t.get_element_type()).itemsize
        except TypeError:
            raise error(f"dense_resource of element type {t.get_element_type()} is not supported", ref.start, ref.end) from None
        need = math.prod(t.get_shape()) * itemsize
        if len(data) != need:
            raise error(f"resource '{name}' holds {len(data)} bytes, its type {t} needs {need}", ref.start, ref.end)
        resolved[ref.attr] = DenseIntOrFPElementsAttr(t, BytesAttr(data))
    if not resolved:
        return
    for op in module.walk():
        for table in (op.properties, op.attributes):
            for key, value in table.items():
                if isinstance(value, DenseResourceAttr) and value in resolved:
                    table[key] = resolved[value]


def _read_weights(section: Section, directory: Path | None, error) -> bytes:
    from strati.paths import UnsafePath, inside

    if section.weights_file is None:
        start = next(b.start for b in section.blobs.values() if b.place is not None)
        raise error(f"the {EXTERNAL_GROUP} resources name no 'file'", start, start)
    name, start, end = section.weights_file
    if directory is None:
        raise error(f"weights file '{name}': external weights are read only for a module read from a file", start, end)
    try:
        path = inside(directory, name, "weights file", "the .mlir's directory")
        return path.read_bytes()
    except UnsafePath as err:
        raise error(str(err), start, end) from None
    except OSError as err:
        raise error(f"cannot read weights file '{name}': {err.strerror or err}", start, end) from None


# --- values that are not there ---------------------------------------------------------------


def elided_op(module: Operation) -> Operation | None:
    """The first op holding a ``dense_resource`` that was not resolved (an elided constant)."""
    for op in module.walk():
        for value in (*op.properties.values(), *op.attributes.values()):
            if isinstance(value, DenseResourceAttr):
                return op
    return None


def require_values(module: Operation) -> None:
    """A StratiError naming the first op whose constant value was elided."""
    if (op := elided_op(module)) is not None:
        raise StratiError(ELIDED_MESSAGE, op)


class MissingValues(StratiError, ValueError):
    """The values of an unresolved ``dense_resource``: a ValueError too, so that code asking
    whether a constant's values are known (folding, simplification) takes it as not."""


def unresolved_values(attr: DenseResourceAttr) -> MissingValues:
    """The error for reading the values of an unresolved ``dense_resource``."""
    if attr.resource_handle.data == ELIDED:
        return MissingValues(f"a constant {ELIDED_MESSAGE}")
    return MissingValues(f"dense_resource<{attr.resource_handle.data}> has no values (its blob was not in the file)")


# --- command-line options --------------------------------------------------------------------


def add_arguments(ap, external: bool = False) -> None:
    """``--elide-large-constants[=N]`` and ``--resource-threshold N`` (and ``--external-weights``)."""
    ap.add_argument("--elide-large-constants", nargs="?", type=int, const=ELIDE_DEFAULT, default=None, metavar="N",
                    help=f"print constants of more than N elements (default {ELIDE_DEFAULT}) as dense_resource<__elided__>: "
                         "the output can be read, not run")
    ap.add_argument("--resource-threshold", type=int, default=RESOURCE_THRESHOLD, metavar="N",
                    help=f"print constants of more than N elements as dense_resource blobs (default {RESOURCE_THRESHOLD})")
    if external:
        ap.add_argument("--external-weights", action="store_true",
                        help="write the blobs to OUT.weights.bin beside the -o file instead of into the text")


def printing_from_arguments(args, weights_file: str | None = None) -> ResourcePrinting:
    from strati.tools.common import ToolError

    for flag, value in (("--elide-large-constants", args.elide_large_constants), ("--resource-threshold", args.resource_threshold)):
        if value is not None and value < 0:
            raise ToolError(f"{flag} must be at least 0, got {value}")
    return ResourcePrinting(args.resource_threshold, args.elide_large_constants, weights_file)


def weights_path(output: str) -> Path:
    """``m.mlir`` -> ``m.weights.bin`` beside it."""
    path = Path(output)
    return path.with_name(path.stem + ".weights.bin")


__all__ = ["ELIDED", "ELIDE_DEFAULT", "RESOURCE_THRESHOLD", "ResourcePrinting", "elided_op", "require_values"]
