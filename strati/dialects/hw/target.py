"""Targets: level 4 as a plug-in point.  A :class:`Target` is one object, registered by name,
that says everything the compiler asks of a piece of hardware:

* ``fields``: its description's own fields (``#hw.target<"name", ...>``), with their kinds,
  defaults and checks; :meth:`Target.describe` gives the description of the machine at hand;
* ``dialects()``: the dialects of its ops, loaded into every context;
* ``pipeline``: the passes ``convert-loop-to-hw{target=NAME}`` runs to map loop nests onto it
  (its patterns at level 3 -> 4), as a pass pipeline a person can read and run by hand;
* ``memory_spaces``: its memories besides main memory and the field that holds each one's
  capacity in bytes (``plan-memory`` makes one arena per space, within that capacity);
* ``runtime_symbols()``, ``before_call()`` and ``after_call()``: what the JIT binds for the
  code it emits, what it sets up before each call and what it checks after it.

How the target's ops become LLVM IR is the ``emit`` attribute of each op, and how they run
in the loop interpreter their ``reference`` (:mod:`strati.registry`); which implementation
an op gets on the target is a strategy (:mod:`strati.strategy`).  Nothing
outside a target's own folder names its ops.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect

from strati.diagnostics import StratiError
from strati.dialects.hw.ops import TargetAttr, module_target
from strati.registry import DEFAULT_LEVEL, Registry

DEFAULT_TARGET = "cpu"
"""The target of ``strati.compile`` and the tools when none is named: the machine strati runs on."""

BUILTIN_TARGETS = ("strati.dialects.hw.cpu",)
"""Packages that register strati's own targets, imported the first time targets are looked up."""


@dataclass(frozen=True)
class Field:
    """One field of a target description: ``kind`` is int, bool, str or tuple (a list of ints);
    ``default`` None makes it required; ``check(value)`` says what is wrong with a value, or None."""

    name: str
    kind: type
    doc: str = ""
    default: Any = None
    check: Callable[[Any], str | None] | None = None

    def parse(self, parser) -> Any:
        if self.kind is bool:
            return parser.parse_boolean(f" ({self.name})")
        if self.kind is int:
            return parser.parse_integer(allow_boolean=False, context_msg=f" ({self.name})")
        if self.kind is str:
            return parser.parse_str_literal(f" ({self.name})")
        return tuple(
            parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False, context_msg=f" ({self.name})")
            )
        )


def at_least(n: int) -> Callable[[int], str | None]:
    return lambda v: None if v >= n else f"must be at least {n}"


def power_of_two(v: int) -> str | None:
    return None if v >= 1 and v & (v - 1) == 0 else "must be a power of two >= 1"


def size_in_bytes(v: int) -> str | None:
    return None if v >= 0 else "must be a size in bytes >= 0"


class Target:
    """A hardware target; subclass it, fill in the class attributes, and :func:`register_target` an instance."""

    name: ClassVar[str]
    fields: ClassVar[tuple[Field, ...]] = ()
    pipeline: ClassVar[str] = ""
    """The passes that map loop nests onto the target (what convert-loop-to-hw runs), e.g.
    ``"cpu-schedule-matmul,cpu-schedule-conv,unroll-windows,interchange,vectorize-transposes,vectorize,cpu-parallelize,merge-kernels"``; they read the module's description."""
    memory_spaces: ClassVar[dict[str, str]] = {}
    """Memory space name -> the description field holding its capacity in bytes."""
    doc: ClassVar[str] = ""

    def dialects(self) -> list[Dialect]:
        return []

    def describe(self) -> TargetAttr:
        """The description of this target as it is here (by default every field's default)."""
        return TargetAttr(self.name, **{f.name: f.default for f in self.fields})

    def check(self, values: dict[str, Any]) -> str | None:
        """What is wrong with a description's values as a whole (fields are checked one by one first)."""
        return None

    def space_capacity(self, description: TargetAttr, space: str) -> int | None:
        field = self.memory_spaces.get(space)
        return None if field is None else description.get(field)

    def runtime_symbols(self) -> dict[str, int]:
        """Symbol -> address, bound into the JIT before code for this target is linked."""
        return {}

    def before_call(self) -> None:
        """Called before every call of compiled code (e.g. to hand its runtime the number of threads)."""

    def after_call(self) -> None:
        """Called after every call of compiled code (e.g. to raise an error its tasks recorded)."""

    def profile(self) -> str | None:
        """What the target's runtime measured since the last call of this method (a report for
        ``strati-run --profile``: cycles, bytes moved, utilisation), or None when it measures nothing."""
        return None


_TARGETS = Registry("target")
_loaded = False


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILTIN_TARGETS:
            importlib.import_module(module)


def register_target(target: Target, *, level: int = DEFAULT_LEVEL, origin: str | None = None) -> Target:
    """Make a target known by its name (the registry convention: a duplicate name from another
    module is an error, a higher level overrides)."""
    if not getattr(target, "name", ""):
        raise StratiError("a target needs a non-empty name")
    _TARGETS.register(target.name, target, level=level, origin=origin or type(target).__module__)
    from strati.context import register_dialect

    for dialect in target.dialects():
        register_dialect(dialect)
    return target


def unregister_target(name: str) -> None:
    _TARGETS.unregister(name)


def find_target(name: str) -> Target | None:
    _load_builtins()
    return _TARGETS.get(name)


def get_target(name: str) -> Target:
    """The registered target, or a StratiError naming the known ones."""
    _load_builtins()
    return _TARGETS.lookup(name)


def target_names() -> list[str]:
    _load_builtins()
    return _TARGETS.names()


def all_targets() -> list[Target]:
    _load_builtins()
    return [_TARGETS.get(n) for n in _TARGETS.names()]


def describe(name: str) -> TargetAttr:
    """The description of the named target as it is here."""
    return get_target(name).describe()


def target_of(module: ModuleOp, name: str | None = None) -> tuple[Target, TargetAttr]:
    """The target a module is compiled for and its description: ``name`` when given (the module's
    own description when it describes that target, else the target's), else the module's own
    description's target, else :data:`DEFAULT_TARGET`."""
    attr = module_target(module)
    if name is None:
        name = attr.target_name if attr is not None else DEFAULT_TARGET
    target = get_target(name)
    if attr is None or attr.target_name != name:
        attr = target.describe()
    return target, attr


def description_problem(name: str, values: dict[str, Any]) -> str | None:
    """What is wrong with a description of target ``name`` (unknown, missing or bad fields), or None."""
    target = find_target(name)
    if target is None:
        return f"unknown target '{name}' (targets: {', '.join(target_names())})"
    declared = {f.name: f for f in target.fields}
    unknown = [k for k in values if k not in declared]
    if unknown:
        return f"unknown #hw.target field '{unknown[0]}' (fields: {', '.join(declared)})"
    missing = [f.name for f in target.fields if f.name not in values and f.default is None]
    if missing:
        return f"#hw.target is missing {', '.join(missing)}"
    for key, value in values.items():
        field = declared[key]
        kind = tuple if field.kind is tuple else field.kind
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            return f"#hw.target {key} must be a {kind.__name__}, got {value!r}"
        if field.check is not None and (problem := field.check(value)) is not None:
            return f"#hw.target {key} {problem}, got {value}"
    return target.check({**{f.name: f.default for f in target.fields}, **values})


def format_targets() -> str:
    """The registered targets, as ``strati-opt --list-targets`` prints them."""
    lines = []
    for target in all_targets():
        origin = _TARGETS.entry(target.name).origin  # type: ignore[union-attr]
        lines.append(f"{target.name}  [{origin}]  {target.doc}".rstrip())
        lines.append(f"  dialects: {', '.join(d.name for d in target.dialects()) or 'none'}")
        lines.append(f"  pipeline: {target.pipeline or '(none)'}")
        for f in target.fields:
            default = "" if f.default is None else f" (default {f.default})"
            lines.append(f"  field {f.name}: {f.kind.__name__ if f.kind is not tuple else 'list of int'}{default}  {f.doc}".rstrip())
        for space, field in target.memory_spaces.items():
            lines.append(f"  memory space '{space}': capacity in field {field}")
        from strati.strategy import strategies_for_target

        for op_name, strategies in strategies_for_target(target.name).items():
            lines.append(f"  strategies for {op_name}: {', '.join(s.name for s in strategies)}")
    return "\n".join(lines) + "\n"


__all__ = [
    "BUILTIN_TARGETS",
    "DEFAULT_TARGET",
    "Field",
    "Target",
    "all_targets",
    "at_least",
    "describe",
    "description_problem",
    "find_target",
    "format_targets",
    "get_target",
    "power_of_two",
    "register_target",
    "size_in_bytes",
    "target_names",
    "target_of",
    "unregister_target",
]
