"""The op attribute registry: any module attaches any named attribute to any op.

As in NNVM/TVM, an op is defined once (its operands, results, properties and
structural verifier) and everything else a pass may want to know about it
(``infer_type``, ``reference``, ``pattern``, ``flops``, ``lower``, ...) is attached
later, from outside, by the op's name.  A pass reads only the keys it needs and
leaves alone the ops that lack them.

A registration carries a priority ``level``: a higher level overrides a lower
one, so a plug-in can replace a default; two registrations of the same key at
the same level are a conflict and raise.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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


_NOTHING = object()
_table: dict[str, dict[str, Registration]] = {}


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
    attrs = _table.setdefault(op_name, {})
    old = attrs.get(attr_name)
    if old is not None:
        if old.level == level and old.origin != origin:
            raise KeyError(
                f"attribute '{attr_name}' of op '{op_name}' is already registered at level "
                f"{level} by {old.origin}; register at a higher level to override it"
            )
        if old.level > level:
            return
    attrs[attr_name] = Registration(value, level, origin)


def _origin(obj: Any) -> str:
    return getattr(obj, "__module__", None) or _caller_module()


def _caller_module() -> str:
    frame = inspect.currentframe()
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    return frame.f_globals.get("__name__", "?") if frame is not None else "?"


def get_op_attr(op_name: str, attr_name: str, default: Any = None) -> Any:
    """The value of ``attr_name`` for the op, or ``default`` if none is registered."""
    reg = _table.get(op_name, {}).get(attr_name)
    return default if reg is None else reg.value


def has_op_attr(op_name: str, attr_name: str) -> bool:
    return attr_name in _table.get(op_name, {})


def op_attrs(op_name: str) -> dict[str, Registration]:
    """All registrations of one op, by attribute name."""
    return dict(_table.get(op_name, {}))


def registered_ops() -> list[str]:
    return sorted(_table)


def attr_names() -> list[str]:
    """Every attribute name in use: the standard ones first, then the others."""
    used = {a for attrs in _table.values() for a in attrs}
    return [a for a in STANDARD_ATTRS if a in used] + sorted(used - STANDARD_ATTRS.keys())


def unregister_op_attr(op_name: str, attr_name: str) -> None:
    """Remove a registration (for tests and plug-ins that clean up after themselves)."""
    attrs = _table.get(op_name, {})
    attrs.pop(attr_name, None)
    if not attrs:
        _table.pop(op_name, None)


def format_table(op_names: list[str] | None = None) -> str:
    """The op × attribute support matrix, as printed by ``strati-opt --list-op-attrs``."""
    ops = registered_ops() if op_names is None else op_names
    cols = attr_names()

    def mark(op: str, col: str) -> str:
        reg = _table.get(op, {}).get(col)
        return "-" if reg is None else (str(reg.value) if col == "pattern" else "x")

    rows = [["op", *cols]] + [[op, *(mark(op, c) for c in cols)] for op in ops]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


def lookup_or_raise(op_name: str, attr_name: str) -> Callable[..., Any]:
    """The registered value, or a KeyError that names the op and the attribute."""
    reg = _table.get(op_name, {}).get(attr_name)
    if reg is None:
        raise KeyError(f"op '{op_name}' has no registered '{attr_name}'")
    return reg.value
