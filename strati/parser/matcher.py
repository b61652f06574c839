"""The rules of one op, compiled into one Python function.

The canonicalizer tries an op's patterns one after the other; rules written separately
share most of their work (``x + splat -0.0 -> x`` and its broadcasting twin look at the
same constant).  So the compiler (``compile.py``) writes each rule's match as Python
source, a block of guards over local variables, and :class:`RuleGroup` joins the blocks of
all the rules of one op, in benefit order, into one function compiled with ``compile()``:

- a value is named after its path from the matched op (``op._operands[1].owner...``), so
  rules that look at the same place use the same variable;
- a native call (``splat``, ``same_type``, ``perm``, ...) is named after the function and
  the paths of its arguments and computed at most once per matched op, whichever rule
  needs it first (the natives are pure functions of the IR, which a match does not change);
- a rule that matches builds its replacement from the bound names (``Rule.rewrite``).

The source is registered with ``linecache`` under ``<rules FILE: OP>``, with each rule's
``file.rules:line`` as a comment, so a traceback through a native shows which rule called it.
The generated code reads ``op._operands`` (xDSL's ``operands`` property builds a view per
access, which costs more than the rest of a failed match).
"""

from __future__ import annotations

import itertools
import linecache
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

if TYPE_CHECKING:
    from strati.parser.compile import Rule

_UNSET = object()
"""A memoized native call that no rule has made yet."""

Key = tuple
"""A structural name: ("result",), ("operand", parent, i), ("call", fn, args...), ..."""

_names: dict[Key, str] = {}


def var(key: Key) -> str:
    """The variable that holds what ``key`` names (the same in every rule)."""
    if key not in _names:
        _names[key] = f"{key[0][0]}{len(_names)}"
    return _names[key]


def const(value: Any) -> str:
    """A name for a Python object the generated code uses (a native, a literal, a rule): its
    identity, unique while the rule that names it holds it (MatchCode.consts, the group's
    namespace), so nothing global keeps it alive."""
    return f"K{id(value):x}"


@dataclass
class MatchCode:
    """One rule's match as Python: guard lines that ``break`` out of the rule's block, the
    objects they name, the memoized calls they make, and the variable of each bound name."""

    lines: list[str] = field(default_factory=list)
    consts: dict[str, Any] = field(default_factory=dict)
    memo: set[str] = field(default_factory=set)
    bound: dict[str, str] = field(default_factory=dict)
    done: set[Key] = field(default_factory=set)

    def const(self, value: Any) -> str:
        name = const(value)
        self.consts[name] = value
        return name

    def guard(self, condition: str) -> None:
        self.lines.append(f"if not ({condition}): break")

    def compute(self, key: Key, source: str) -> str:
        """The variable of ``key``, assigned from ``source`` the first time this rule needs it."""
        name = var(key)
        if key not in self.done:
            self.done.add(key)
            self.lines.append(f"{name} = {source}")
        return name

    def call(self, key: Key, fn: Callable, args: list[str], what: str) -> str:
        """A native call, made once per matched op across the rules of the group (``what``
        names it in the source, for tracebacks)."""
        name = var(key)
        if key not in self.done:
            self.done.add(key)
            self.memo.add(name)
            note = " ".join(what.split())  # one line, whatever the path holds
            self.lines.append(f"if {name} is _UNSET: {name} = {self.const(fn)}({', '.join(args)})  # {note}")
        return name


class RuleGroup(RewritePattern):
    """The rules for one op name as one pattern: tried in order, the first that applies wins."""

    def __init__(self, op_name: str, rules: tuple[Rule, ...], path: str):
        self.op_name, self.rules, self.path = op_name, rules, path
        self.match_and_rewrite = _compile_group(op_name, rules, path)  # type: ignore[method-assign]

    def __repr__(self) -> str:
        return f"RuleGroup({self.op_name}: {', '.join(r.name for r in self.rules)})"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:  # replaced in __init__
        raise NotImplementedError


_serial = itertools.count()


def group_source(op_name: str, rules: tuple[Rule, ...]) -> tuple[str, dict[str, Any]]:
    """The source of the group's function ``match(op, rewriter)`` and the names it uses."""
    namespace: dict[str, Any] = {"_UNSET": _UNSET, "Operation": Operation}
    shared = _common_prefix([r.code.lines for r in rules])
    memo = sorted({m for r in rules for m in r.code.memo})
    lines = ["def match(op, rewriter):", f"    if op.name != {op_name!r}: return", "    o_ = op._operands"]
    lines += [f"    {name} = _UNSET" for name in memo]
    lines += [f"    {line.removesuffix('break')}return" if line.endswith(": break") else f"    {line}"
              for line in shared]  # what every rule does first, once
    for rule in rules:
        namespace.update(rule.code.consts)
        rule_name = const(rule)
        namespace[rule_name] = rule
        env = ", ".join(f"{n!r}: {v}" for n, v in rule.code.bound.items())
        lines.append(f"    while True:  # rule {rule.name} ({rule.origin})")
        lines += [f"        {line}" for line in rule.code.lines[len(shared):]]
        lines.append(f"        if {rule_name}.rewrite(op, rewriter, {{{env}}}): return")
        lines.append("        break")
    return "\n".join(lines) + "\n", namespace


def _common_prefix(blocks: list[list[str]]) -> list[str]:
    """The lines that all blocks begin with."""
    prefix: list[str] = []
    for lines in zip(*blocks):
        if any(line != lines[0] for line in lines):
            break
        prefix.append(lines[0])
    return prefix


def _compile_group(op_name: str, rules: tuple[Rule, ...], path: str) -> Callable[[Operation, PatternRewriter], None]:
    source, namespace = group_source(op_name, rules)
    filename = f"<rules {path}: {op_name} #{next(_serial)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace["match"]
