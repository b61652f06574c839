"""The op attribute registry: any module attaches any named attribute to any op.

As in NNVM/TVM, an op is defined once (its operands, results, properties and
structural verifier) and everything else a pass may want to know about it
(``infer_type``, ``reference``, ``pattern``, ``flops``, ``lower``, ...) is attached
later, from outside, by the op's name.  A pass reads only the keys it needs and
leaves alone the ops that lack them.

A registration carries a priority ``level``: a higher level overrides a lower
one, so a plug-in can replace a default; two registrations of the same key at
the same level are a conflict and raise.

:class:`Registry` is that convention as a class; every other table of strati
(passes, targets, strategies, ONNX converters) is one, so they all behave alike.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from strati.diagnostics import StratiError

DEFAULT_LEVEL = 10

# The standard keys and what each value must be.  Other keys are allowed: the
# registry is open, these are only documented for ``--list-op-attrs``.
STANDARD_ATTRS: dict[str, str] = {
    "infer_type": "(op) -> list of result types; raises VerifyException naming what is wrong",
    "reference": "(op, *numpy arrays) -> numpy array or tuple of them; defines the semantics",
    "pattern": "OpPattern: the fusion kind",
    "flops": "(op) -> int: floating-point operations of one execution",
    "lower": "(op, rewriter) -> lowers the op to the next level",
    "canonicalize": "tuple of RewritePattern: what xDSL's canonicalize applies to the op",
    "bufferize": "(converter, op) -> None: the op's tensor -> memref rule (convert-tensor-to-loop)",
    "emit": "(emitter, op) -> LLVM value(s) or None: the op's LLVM emission (strati.codegen.llvm)",
    "local_verifier": "True: the op's verifier reads only its own operand and result types, properties and "
    "attributes, so verification checks each distinct signature once (strati.verify_extra.check_ops)",
}


class OpPattern(enum.IntEnum):
    """Fusion kinds, as in TVM (a smaller value fuses more freely)."""

    ELEMWISE = 0
    BROADCAST = 1
    INJECTIVE = 2
    REDUCE = 3
    OUT_ELEMWISE_FUSABLE = 4
    OPAQUE = 8

    def __str__(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Registration:
    value: Any
    level: int
    origin: str  # the module that registered it


class RegistryConflict(StratiError, KeyError):
    """Two modules registered the same name at the same level."""

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


class UnknownName(StratiError, KeyError):
    """A name that is not in a registry; the message lists the known ones."""

    def __str__(self) -> str:
        return self.message


class Registry:
    """A named table with strati's one convention for every registry (op attributes, passes,
    targets, ONNX converters, strategies): each entry records the module that registered it;
    a higher ``level`` overrides a lower one; the same name at the same level from another
    module is a :class:`RegistryConflict` (the same module registering again, as on a reload,
    replaces its own entry); an unknown name is an :class:`UnknownName` listing the known ones;
    :meth:`format` lists the entries with their origins."""

    def __init__(self, kind: str):
        self.kind = kind
        self._entries: dict[Any, Registration] = {}

    def register(self, name: Any, value: Any, *, level: int = DEFAULT_LEVEL, origin: str | None = None) -> Any:
        origin = origin or _caller_module()
        old = self._entries.get(name)
        if old is not None:
            if old.level == level and old.origin != origin:
                raise RegistryConflict(
                    f"{self.kind} '{_label(name)}' is already registered at level {level} by {old.origin}; "
                    "register at a higher level to override it"
                )
            if old.level > level:
                return value
        self._entries[name] = Registration(value, level, origin)
        return value

    def unregister(self, name: Any) -> None:
        self._entries.pop(name, None)

    def get(self, name: Any, default: Any = None) -> Any:
        reg = self._entries.get(name)
        return default if reg is None else reg.value

    def lookup(self, name: Any) -> Any:
        """The value registered under ``name``, or an UnknownName listing the known names."""
        reg = self._entries.get(name)
        if reg is None:
            known = ", ".join(sorted(_label(n) for n in self._entries)) or "none"
            raise UnknownName(f"unknown {self.kind} '{_label(name)}' ({self.kind}s: {known})")
        return reg.value

    def entry(self, name: Any) -> Registration | None:
        return self._entries.get(name)

    def names(self) -> list[Any]:
        return sorted(self._entries, key=_label)

    def items(self) -> list[tuple[Any, Registration]]:
        return [(n, self._entries[n]) for n in self.names()]

    def __contains__(self, name: Any) -> bool:
        return name in self._entries

    def __getitem__(self, name: Any) -> Any:
        return self.lookup(name)

    def __iter__(self):
        return iter(self.names())

    def __len__(self) -> int:
        return len(self._entries)

    def format(self, describe: Callable[[Any], str] | None = None) -> str:
        """One line per entry: its name, what ``describe`` says of its value, and its origin."""
        rows = [(_label(n), describe(r.value) if describe else "", r.origin) for n, r in self.items()]
        width = max((len(r[0]) for r in rows), default=0)
        return "\n".join(f"{n:{width}}  {d}  [{o}]" if d else f"{n:{width}}  [{o}]" for n, d, o in rows)


def _label(name: Any) -> str:
    return "/".join(map(str, name)) if isinstance(name, tuple) else str(name)


_NOTHING = object()
_tables: dict[str, Registry] = {}
"""Op name -> the registry of its attributes."""


def register_op_attr(
    op_name: str, attr_name: str, value: Any = _NOTHING, level: int = DEFAULT_LEVEL
):
    """Attach ``attr_name = value`` to the op named ``op_name`` (e.g. "graph.relu").

    Without ``value`` it is a decorator: ``@register_op_attr("graph.relu", "reference")``.
    """
    if value is _NOTHING:

        def decorator(fn):
            _register(op_name, attr_name, fn, level, _origin(fn))
            return fn

        return decorator
    _register(op_name, attr_name, value, level, _caller_module())
    return value


def _register(op_name: str, attr_name: str, value: Any, level: int, origin: str) -> None:
    if "." not in op_name:
        raise ValueError(f"op name '{op_name}' must be qualified by its dialect (e.g. 'graph.relu')")
    table = _tables.setdefault(op_name, Registry(f"attribute of op '{op_name}':"))
    try:
        table.register(attr_name, value, level=level, origin=origin)
    except RegistryConflict:
        old = table.entry(attr_name)
        assert old is not None
        raise RegistryConflict(
            f"attribute '{attr_name}' of op '{op_name}' is already registered at level "
            f"{level} by {old.origin}; register at a higher level to override it"
        ) from None


def _origin(obj: Any) -> str:
    return getattr(obj, "__module__", None) or _caller_module()


def _caller_module() -> str:
    frame = inspect.currentframe()
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return frame.f_globals.get("__name__", "?") if frame is not None else "?"


def get_op_attr(op_name: str, attr_name: str, default: Any = None) -> Any:
    """The value of ``attr_name`` for the op, or ``default`` if none is registered."""
    table = _tables.get(op_name)
    return default if table is None else table.get(attr_name, default)


def has_op_attr(op_name: str, attr_name: str) -> bool:
    table = _tables.get(op_name)
    return table is not None and attr_name in table


def op_attrs(op_name: str) -> dict[str, Registration]:
    """All registrations of one op, by attribute name."""
    table = _tables.get(op_name)
    return {} if table is None else dict(table.items())


def registered_ops() -> list[str]:
    return sorted(_tables)


def attr_names() -> list[str]:
    """Every attribute name in use: the standard ones first, then the others."""
    used = {a for table in _tables.values() for a in table}
    return [a for a in STANDARD_ATTRS if a in used] + sorted(used - STANDARD_ATTRS.keys())


def unregister_op_attr(op_name: str, attr_name: str) -> None:
    """Remove a registration (for tests and plug-ins that clean up after themselves)."""
    table = _tables.get(op_name)
    if table is not None:
        table.unregister(attr_name)
        if not len(table):
            _tables.pop(op_name, None)


def format_table(op_names: list[str] | None = None) -> str:
    """The op × attribute support matrix, as printed by ``strati-opt --list-op-attrs``."""
    ops = registered_ops() if op_names is None else op_names
    cols = attr_names()

    def mark(op: str, col: str) -> str:
        reg = op_attrs(op).get(col)
        return "-" if reg is None else (str(reg.value) if col == "pattern" else "x")

    rows = [["op", *cols]] + [[op, *(mark(op, c) for c in cols)] for op in ops]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


def lookup_or_raise(op_name: str, attr_name: str) -> Callable[..., Any]:
    """The registered value, or a KeyError that names the op and the attribute."""
    reg = op_attrs(op_name).get(attr_name)
    if reg is None:
        raise UnknownName(f"op '{op_name}' has no registered '{attr_name}'")
    return reg.value
