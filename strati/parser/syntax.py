"""The rule language's syntax: the lark grammar (``rules.lark``), the syntax tree it is
turned into, and the printer that writes a tree back as text (``strati-opt --print-rules``).

Every node keeps its position, so that a semantic error found later still points at
``file.rules:line:col``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import lark

from strati.diagnostics import Diagnostic, DiagnosticError, StratiError

GRAMMAR = Path(__file__).with_name("rules.lark")


class RuleError(DiagnosticError, StratiError):
    """An error in a rules file: one line, ``file.rules:line:col: error: message``."""

    def __init__(self, message: str, file: str, line: int | None = None, col: int | None = None):
        DiagnosticError.__init__(self, Diagnostic(message, file, line, col))
        self.message = str(self.diagnostic)
        self.op = None


@dataclass(frozen=True)
class Pos:
    line: int
    col: int


# --- expressions (constraints, property values, types) ---------------------------------


@dataclass
class Ref:
    name: str
    pos: Pos


@dataclass
class Lit:
    value: Any  # int, float, str, bool
    text: str
    pos: Pos


@dataclass
class TypeLit:
    text: str
    pos: Pos


@dataclass
class ListLit:
    items: list[Expr]
    pos: Pos


@dataclass
class Call:
    fn: str
    args: list[Expr]
    pos: Pos


Expr = Union[Ref, Lit, TypeLit, ListLit, Call]


@dataclass
class Compare:
    op: str
    lhs: Expr
    rhs: Expr
    pos: Pos


Constraint = Union[Compare, Call]


# --- patterns and replacements ---------------------------------------------------------


@dataclass
class Prop:
    name: str
    value: Expr
    pos: Pos


@dataclass
class Bind:
    """A value bound to a name (the same name twice: the same value), optionally typed."""

    name: str
    type: Expr | None
    pos: Pos


@dataclass
class Wildcard:
    pos: Pos


@dataclass
class Splat:
    """A constant value all of whose elements equal ``value`` (the sign of zero included)."""

    value: int | float
    text: str
    pos: Pos


@dataclass
class OpPattern:
    op: str  # an op name (``graph.add``) or an op set's name
    args: list[Pattern]
    props: list[Prop]
    type: Expr | None
    bind: str | None
    pos: Pos


Pattern = Union[OpPattern, Bind, Wildcard, Splat]


@dataclass
class NewOp:
    op: str
    args: list[Replacement]
    props: list[Prop]
    type: Expr | None
    pos: Pos


@dataclass
class Use:
    name: str
    pos: Pos


Replacement = Union[NewOp, Use]


@dataclass
class OpSet:
    name: str
    ops: list[tuple[str, Pos]]
    pos: Pos


@dataclass
class RuleDef:
    name: str
    benefit: int
    pattern: OpPattern
    replacement: Replacement | list[Replacement]  # a list: one per result, with ``results``
    where: list[Constraint] = field(default_factory=list)
    pos: Pos = Pos(0, 0)
    results: list[str] | None = None  # ``(a, b) = op(...)``: the names of the matched op's results


# --- parsing ---------------------------------------------------------------------------


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True, cache=True)


def _pos(x: Any) -> Pos:
    return Pos(x.line, x.column) if isinstance(x, lark.Token) else Pos(x.meta.line, x.meta.column)


def _number(token: lark.Token) -> int | float:
    text = str(token)
    return float(text) if any(c in text for c in ".eE") or text.lstrip("+-") in ("inf", "nan") else int(text)


@lark.v_args(meta=True)
class _Build(lark.Transformer):
    """The lark tree -> the syntax tree above."""

    def start(self, meta, items):
        return items

    def opset(self, meta, items):
        name, *ops = items
        return OpSet(str(name), [(str(o), _pos(o)) for o in ops], Pos(meta.line, meta.column))

    def rule(self, meta, items):
        name, benefit, results, pattern, replacement, where = items
        if not isinstance(pattern, OpPattern):
            raise RuleError("a rule must match an op, not a single value", "", *_at(pattern))
        return RuleDef(str(name), benefit if benefit is not None else 1, pattern, replacement, where or [],
                       Pos(name.line, name.column), results)

    def results(self, meta, items):
        return [str(i) for i in items]

    def replacement_list(self, meta, items):
        return list(items)

    def benefit(self, meta, items):
        return int(items[0])

    def where(self, meta, items):
        return items

    def bind(self, meta, items):
        return Bind(str(items[0]), items[1], _pos(items[0]))

    def wildcard(self, meta, items):
        return Wildcard(Pos(meta.line, meta.column))

    def splat(self, meta, items):
        lit = items[0]
        return Splat(lit.value, lit.text, Pos(meta.line, meta.column))

    def op_pattern(self, meta, items):
        op, *rest = items
        *args, props, type_, bind = rest
        return OpPattern(str(op), [a for a in args if a is not None], props or [], type_,
                         None if bind is None else str(bind), _pos(op))

    def prop_patterns(self, meta, items):
        return items

    prop_values = prop_patterns

    def prop(self, meta, items):
        return Prop(str(items[0]), items[1], _pos(items[0]))

    def new_op(self, meta, items):
        op, *rest = items
        *args, props, type_ = rest
        return NewOp(str(op), [a for a in args if a is not None], props or [], type_, _pos(op))

    def use(self, meta, items):
        return Use(str(items[0]), _pos(items[0]))

    def compare(self, meta, items):
        return Compare(str(items[1]), items[0], items[2], _pos(items[1]))

    def check(self, meta, items):
        return Call(str(items[0]), [a for a in items[1:] if a is not None], _pos(items[0]))

    call = check

    def ref(self, meta, items):
        return Ref(str(items[0]), _pos(items[0]))

    def number(self, meta, items):
        return Lit(_number(items[0]), str(items[0]), _pos(items[0]))

    def string(self, meta, items):
        return Lit(str(items[0])[1:-1], str(items[0]), _pos(items[0]))

    def true(self, meta, items):
        return Lit(True, "true", Pos(meta.line, meta.column))

    def false(self, meta, items):
        return Lit(False, "false", Pos(meta.line, meta.column))

    def list(self, meta, items):
        return ListLit([i for i in items if i is not None], Pos(meta.line, meta.column))

    def type(self, meta, items):
        return TypeLit(str(items[0]), _pos(items[0]))


def _at(node: Any) -> tuple[int, int]:
    return node.pos.line, node.pos.col


def parse_rules(text: str, filename: str) -> list[OpSet | RuleDef]:
    """The op sets and rules of a rules file, or a RuleError at the first syntax error."""
    try:
        tree = _parser().parse(text)
        return _Build().transform(tree)
    except lark.exceptions.UnexpectedCharacters as err:
        raise RuleError(f"unexpected character {text[err.pos_in_stream]!r}", filename, err.line, err.column) from None
    except lark.exceptions.UnexpectedToken as err:
        token = err.token
        what = "end of file" if token.type == "$END" else f"'{token}'"
        expected = ", ".join(sorted(_describe(t) for t in err.expected))
        raise RuleError(f"unexpected {what}, expected {expected}", filename, err.line, err.column) from None
    except lark.exceptions.UnexpectedEOF as err:
        raise RuleError("unexpected end of file", filename, err.line, err.column) from None
    except lark.exceptions.VisitError as err:
        if isinstance(err.orig_exc, RuleError):
            d = err.orig_exc.diagnostic
            raise RuleError(d.message, filename, d.line, d.col) from None
        raise


_TERMINALS = {
    "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "EQUAL": "'='", "VBAR": "'|'", "__ANON_0": "'->'",
    "NAME": "a name", "OPNAME": "an op name", "TYPE": "a type", "SIGNED_NUMBER": "a number", "INT": "an integer",
    "STRING": "a string", "COMPARE": "a comparison", "RULE": "'rule'", "OPS": "'ops'", "WHERE": "'where'",
    "AS": "'as'", "SPLAT": "'splat'", "BENEFIT": "'benefit'", "UNDERSCORE": "'_'", "TRUE": "'true'",
    "FALSE": "'false'", "$END": "end of file", "MINUS": "'-'", "MORETHAN": "'>'",
}


def _describe(terminal: str) -> str:
    return _TERMINALS.get(terminal, terminal.lower())


# --- printing --------------------------------------------------------------------------


def format_expr(e: Expr) -> str:
    match e:
        case Ref():
            return e.name
        case Lit():
            return e.text
        case TypeLit():
            return e.text
        case ListLit():
            return "[" + ", ".join(map(format_expr, e.items)) + "]"
        case Call():
            return f"{e.fn}(" + ", ".join(map(format_expr, e.args)) + ")"
    raise TypeError(e)


def _props(props: list[Prop]) -> str:
    return " {" + ", ".join(f"{p.name} = {format_expr(p.value)}" for p in props) + "}" if props else ""


def format_pattern(p: Pattern) -> str:
    match p:
        case Bind():
            return p.name + (f" : {format_expr(p.type)}" if p.type is not None else "")
        case Wildcard():
            return "_"
        case Splat():
            return f"splat {p.text}"
        case OpPattern():
            text = f"{p.op}(" + ", ".join(map(format_pattern, p.args)) + ")" + _props(p.props)
            if p.type is not None:
                text += f" : {format_expr(p.type)}"
            return text + (f" as {p.bind}" if p.bind else "")
    raise TypeError(p)


def format_replacement(r: Replacement) -> str:
    if isinstance(r, Use):
        return r.name
    text = f"{r.op}(" + ", ".join(map(format_replacement, r.args)) + ")" + _props(r.props)
    return text + (f" : {format_expr(r.type)}" if r.type is not None else "")


def format_constraint(c: Constraint) -> str:
    if isinstance(c, Compare):
        return f"{format_expr(c.lhs)} {c.op} {format_expr(c.rhs)}"
    return format_expr(c)


def format_item(item: OpSet | RuleDef) -> str:
    if isinstance(item, OpSet):
        return f"ops {item.name} = " + " | ".join(name for name, _ in item.ops)
    head = f"rule {item.name}" + (f" benefit {item.benefit}" if item.benefit != 1 else "")
    results = "" if item.results is None else "(" + ", ".join(item.results) + ") = "
    r = item.replacement
    replacement = "(" + ", ".join(map(format_replacement, r)) + ")" if isinstance(r, list) else format_replacement(r)
    text = f"{head}:\n  {results}{format_pattern(item.pattern)}\n  -> {replacement}"
    if item.where:
        text += "\n  where " + ", ".join(map(format_constraint, item.where))
    return text


def format_rules(items: list[OpSet | RuleDef]) -> str:
    """The canonical text of a rules file (comments are not kept)."""
    return "".join(format_item(item) + "\n" for item in items)
