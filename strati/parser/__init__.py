"""strati's own languages, parsed with lark.  Today: declarative rewrite rules (docs/rules.md).

    rule mul_by_one: graph.mul(x, splat 1.0) -> x  where same_type(x, result)

:func:`load_rules` reads a ``.rules`` file into a :class:`RuleSet` of xDSL rewrite patterns
and records each rule in :data:`RULES` (its name, where it came from);
:func:`register_canonicalization` adds a rule set to its ops' ``canonicalize`` patterns, so
xDSL's ``canonicalize`` applies them; the ``apply-rules`` pass applies a file directly.
"""

from __future__ import annotations

import os
from pathlib import Path

from strati import registry
from strati.parser.compile import Rule, RuleSet, compile_rules
from strati.parser.matcher import RuleGroup
from strati.parser.syntax import RuleError, format_rules, parse_rules
from strati.registry import Registry, RegistryConflict

RULES = Registry("rule")
"""Every rule loaded so far, by name; its origin is ``file.rules:line``."""

_loaded: dict[tuple[str, int, int], RuleSet] = {}


def display_path(path: Path) -> str:
    """A path as the user gave it; a file of strati's own as ``strati/...``."""
    package = Path(__file__).resolve().parents[1]
    resolved = path.resolve()
    return str(resolved.relative_to(package.parent)) if resolved.is_relative_to(package) else str(path)


def load_rules(path: str | os.PathLike) -> RuleSet:
    """The rules of a ``.rules`` file (loaded once per version of the file), or a RuleError."""
    from strati.context import make_context
    from strati.tools.common import read_text

    p = Path(path)
    text = read_text(str(p))
    shown = display_path(p)
    stat = p.stat()
    key = (str(p.resolve()), stat.st_mtime_ns, stat.st_size)
    if key in _loaded:
        return _loaded[key]
    rules = compile_rules(parse_rules(text, shown), make_context(), shown, text)
    for rule in rules.rules:
        try:
            RULES.register(rule.name, rule, origin=shown)
        except RegistryConflict:
            line = int(rule.origin.rsplit(":", 1)[1])
            raise RuleError(f"rule '{rule.name}' is already defined at {RULES.lookup(rule.name).origin}",
                            shown, line) from None
    _loaded[key] = rules
    return rules


def register_canonicalization(rules: RuleSet) -> None:
    """Add the rules to the ``canonicalize`` patterns of the ops they rewrite, after the
    patterns already registered (at one level above them, so the registry records both)."""
    for op_name in rules.roots():
        entry = registry.op_attrs(op_name).get("canonicalize")
        old = () if entry is None else tuple(p for p in entry.value if not (isinstance(p, RuleGroup) and p.rules[0] in rules.rules))
        level = registry.DEFAULT_LEVEL if entry is None else entry.level + 1
        registry.register_op_attr(op_name, "canonicalize", (*old, *rules.patterns_for(op_name)), level=level)


def format_listing() -> str:
    """``strati-opt --list-rules``: each rule, the ops it rewrites, its benefit and its origin."""
    rows = [(name, f"benefit {rule.benefit}", f"[{rule.origin}]", ", ".join(rule.roots))
            for name, rule in ((n, RULES.lookup(n)) for n in RULES.names())]
    widths = [max((len(r[i]) for r in rows), default=0) for i in range(3)]
    return "".join(f"{a:{widths[0]}}  {b:{widths[1]}}  {c:{widths[2]}}  {d}\n" for a, b, c, d in rows)


__all__ = ["RULES", "Rule", "RuleError", "RuleSet", "format_listing", "format_rules", "load_rules",
           "parse_rules", "register_canonicalization"]
