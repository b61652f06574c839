"""Rules files -> xDSL ``RewritePattern``s.

The syntax tree of ``strati.parser.syntax`` is checked against the ops it names (they
exist, take that many operands, have those properties), the names it uses (bound before
use) and the natives it calls (registered, with that many arguments).  A rule's match and
constraints become Python source (a :class:`MatchCode`, joined with the other rules of its
op into one function by ``matcher.py``); its replacement becomes closures that build the
new ops.  A :class:`Rule` runs the replacement: build, verify the new ops, replace.

Types: a replacement must have the type of the result it replaces.  When the rule itself
says so (``x : T`` and ``: T``, ``same_type(x, result)``, ``: type(result)``) nothing is
checked at run time; when the rule says the opposite (two different literal types), it is
rejected when loaded; otherwise each application checks, and a rule that would change a
type is an error naming it.
"""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    NoneType,
    StringAttr,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, OptOperandDef, VarOperandDef, VarResultDef, OptResultDef
from xdsl.parser import Parser
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import ParseError, VerifyException

from strati import registry
from strati.diagnostics import StratiError, diagnostic_message
from strati.dialects.uniform import coerce_property, describe, group_by_defs, param, satisfies
from strati.parser import natives
from strati.parser.matcher import Key, MatchCode, RuleGroup, var
from strati.parser.syntax import (
    Bind,
    Call,
    Compare,
    Expr,
    ListLit,
    Lit,
    NewOp,
    OpPattern,
    OpSet,
    Pattern,
    Pos,
    Ref,
    RuleDef,
    RuleError,
    Splat,
    TypeLit,
    Use,
    Wildcard,
    format_expr,
)
from strati.registry import UnknownName

Env = dict[str, Any]

VERIFY_EACH: ContextVar[bool] = ContextVar("strati_rules_verify_each", default=False)
"""Debug mode: re-verify the enclosing op after every rule application."""

FIRED: ContextVar[Counter | None] = ContextVar("strati_rules_fired", default=None)
"""When set, every application adds the rule's name (for the non-convergence error)."""


class Rule(RewritePattern):
    """One rule of a rules file, applicable to the ops named ``roots``.  Its match is Python
    source (``code``), run with the other rules of the op by a :class:`RuleGroup`."""

    def __init__(self, name: str, origin: str, benefit: int, roots: tuple[str, ...], text: str,
                 code: MatchCode, builds: list[Callable[[Env, list[Operation]], SSAValue]],
                 type_proven: tuple[bool, ...]):
        self.name, self.origin, self.benefit, self.roots, self.text = name, origin, benefit, roots, text
        self.code, self.builds, self.type_proven = code, builds, type_proven
        self._alone: dict[str, RuleGroup] = {}  # by op name

    def __repr__(self) -> str:
        return f"Rule({self.name} at {self.origin})"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        """The rule on its own (a rule set applies its rules by op, in groups)."""
        if op.name not in self.roots:
            return
        if op.name not in self._alone:
            self._alone[op.name] = RuleGroup(op.name, (self,), self.origin)
        self._alone[op.name].match_and_rewrite(op, rewriter)

    def rewrite(self, op: Operation, rewriter: PatternRewriter, env: Env) -> bool:
        """Build the replacement of a matched op and replace it; False when a new op does not verify."""
        new_ops: list[Operation] = []
        try:
            values = [build(env, new_ops) for build in self.builds]
            for new in new_ops:
                new.verify(verify_nested_ops=False)
        except VerifyException:  # a new op that does not verify: the rule does not apply here
            _discard(new_ops)
            return False
        for value, result, proven in zip(values, op.results, self.type_proven):
            if not proven and value.type != result.type:
                _discard(new_ops)
                raise StratiError(f"rule '{self.name}' ({self.origin}) would replace a value of type "
                                  f"{result.type} by one of type {value.type}", op)
        for new in new_ops:
            new.location = op.location
        scope = _top(op) if VERIFY_EACH.get() else None
        rewriter.replace(op, new_ops, values)
        if (fired := FIRED.get()) is not None:
            fired[self.name] += 1
        if scope is not None:
            try:
                scope.verify()
            except VerifyException as err:
                raise StratiError(f"rule '{self.name}' ({self.origin}) produced IR that does not verify: "
                                  f"{diagnostic_message(err)}", new_ops[-1] if new_ops else None) from None
        return True


def _discard(ops: list[Operation]) -> None:
    for op in ops:
        op.drop_all_references()


def _top(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


@dataclass
class RuleSet:
    """The rules of one file, in order."""

    path: str
    rules: list[Rule]
    _groups: dict[str, tuple[RewritePattern, ...]] = field(default_factory=dict, repr=False)

    def roots(self) -> list[str]:
        return sorted({name for rule in self.rules for name in rule.roots})

    def rules_for(self, op_name: str) -> tuple[Rule, ...]:
        """The rules for one op, highest benefit first (file order among equals)."""
        return tuple(sorted((r for r in self.rules if op_name in r.roots), key=lambda r: -r.benefit))

    def patterns_for(self, op_name: str) -> tuple[RewritePattern, ...]:
        """The rules for one op as one pattern (one compiled function), or none."""
        if op_name not in self._groups:
            rules = self.rules_for(op_name)
            self._groups[op_name] = (RuleGroup(op_name, rules, self.path),) if rules else ()
        return self._groups[op_name]


# --- the compiler ----------------------------------------------------------------------


class _Compiler:
    def __init__(self, ctx: Context, path: str):
        self.ctx, self.path = ctx, path
        self.opsets: dict[str, tuple[str, ...]] = {}

    def error(self, message: str, pos: Pos) -> RuleError:
        return RuleError(message, self.path, pos.line, pos.col)

    # -- ops

    def op_class(self, name: str, pos: Pos) -> type[IRDLOperation]:
        cls = self.ctx.get_optional_op(name)
        if cls is None or not issubclass(cls, IRDLOperation):
            raise self.error(f"unknown op '{name}'", pos)
        return cls

    def resolve(self, ref: str, pos: Pos) -> tuple[str, ...]:
        """The op names an op reference stands for (one op, or an op set)."""
        if "." in ref:
            self.op_class(ref, pos)
            return (ref,)
        if ref not in self.opsets:
            known = ", ".join(sorted(self.opsets)) or "none"
            raise self.error(f"unknown op set '{ref}' (op sets: {known}); ops are named with their dialect", pos)
        return self.opsets[ref]

    def opset(self, item: OpSet) -> None:
        if item.name in self.opsets:
            raise self.error(f"op set '{item.name}' is already defined", item.pos)
        names: list[str] = []
        for ref, pos in item.ops:
            names += [n for n in self.resolve(ref, pos) if n not in names]
        self.opsets[item.name] = tuple(names)

    def check_arity(self, op_name: str, count: int, pos: Pos) -> None:
        defs = self.op_class(op_name, pos).get_irdl_definition().operands
        required = sum(not isinstance(d, (OptOperandDef, VarOperandDef)) for _, d in defs)
        variadic = any(isinstance(d, VarOperandDef) and not isinstance(d, OptOperandDef) for _, d in defs)
        most = None if variadic else len(defs)
        if count < required or (most is not None and count > most):
            names = ", ".join(n for n, _ in defs) or "none"
            want = str(required) if most == required else f"{required} to {most}" if most is not None else f"at least {required}"
            noun = "operand" if want == "1" else "operands"
            raise self.error(f"'{op_name}' takes {want} {noun} ({names}), not {count}", pos)

    def prop_def(self, op_name: str, prop: str, pos: Pos) -> Any:
        props = self.op_class(op_name, pos).get_irdl_definition().properties
        if prop not in props:
            known = ", ".join(props) or "none"
            raise self.error(f"'{op_name}' has no property '{prop}' (properties: {known})", pos)
        return props[prop]

    # -- a rule

    def rule(self, item: RuleDef, text: str) -> Rule:
        roots = self.resolve(item.pattern.op, item.pattern.pos)
        names = self.result_names(item, roots)
        replacements = item.replacement if isinstance(item.replacement, list) else [item.replacement]
        if len(replacements) != len(names):
            raise self.error(f"rule '{item.name}' replaces {len(names)} result{'s' * (len(names) != 1)}, "
                             f"not {len(replacements)}", replacements[0].pos)
        scope = _Scope({}, {}, tuple(names))
        types = _TypeFacts()
        code = MatchCode()
        if item.results is not None:
            code.guard(f"len(op.results) == {len(names)}")
        for i, name in enumerate(names):
            scope.kinds[name], scope.keys[name] = "value", ("result", i)
            code.bound[name] = code.compute(("result", i), f"op.results[{i}]")
        self.op_pattern(item.pattern, scope, types, code, None)
        for c in item.where:
            self.constraint(c, scope, types, code)
        builds = [self.replacement(r, scope) for r in replacements]
        proven = tuple(self.types_agree(item, r, name, types, scope) for r, name in zip(replacements, names))
        origin = f"{self.path}:{item.pos.line}"
        return Rule(item.name, origin, item.benefit, roots, text, code, builds, proven)

    def result_names(self, item: RuleDef, roots: tuple[str, ...]) -> list[str]:
        """The names of the matched op's results: ``result``, or those of ``(a, b) = op(...)``."""
        pos = item.pattern.pos
        for name in roots:
            results = self.op_class(name, pos).get_irdl_definition().results
            fixed = not any(isinstance(d, (VarResultDef, OptResultDef)) for _, d in results)
            if item.results is None and (len(results) != 1 or not fixed):
                raise self.error(f"'{name}' does not have exactly one result; a rule replaces one result", pos)
            if item.results is not None and fixed and len(results) != len(item.results):
                raise self.error(f"'{name}' has {len(results)} result{'s' * (len(results) != 1)}, "
                                 f"not {len(item.results)}", pos)
        if item.results is None:
            return ["result"]
        if len(set(item.results)) != len(item.results):
            raise self.error("the results of the matched op need different names", item.pos)
        return item.results

    # -- the match, written as Python (strati/parser/matcher.py)

    def op_pattern(self, p: OpPattern, scope: _Scope, types: _TypeFacts, code: MatchCode, value: Key | None) -> None:
        """Guards for the op that defines ``value`` (the matched op itself when None)."""
        names = self.resolve(p.op, p.pos)
        for name in names:
            self.check_arity(name, len(p.args), p.pos)
        if value is None:
            if p.bind:
                raise self.error("the matched op's result is always named 'result'", p.pos)
            op_key, op_var, operands = ("op",), "op", "o_"
            code.guard(f"len(o_) == {len(p.args)}")
        else:
            op_key = ("owner", value)
            op_var = code.compute(op_key, f"{var(value)}.owner")
            operands = f"{op_var}._operands"
            code.guard(f"isinstance({op_var}, Operation) and {op_var}.name in {code.const(frozenset(names))} "
                       f"and len({operands}) == {len(p.args)}")
        for i, arg in enumerate(p.args):
            key = ("operand", op_key, i)
            code.compute(key, f"{operands}[{i}]")
            self.value_pattern(arg, scope, types, code, key)
        for prop in p.props:
            for name in names:
                self.prop_def(name, prop.name, prop.pos)
            key = ("prop", op_key, prop.name)
            code.compute(key, f"{code.const(param)}({op_var}, {prop.name!r})")
            self.binder(prop.value, scope, "property", code, key)
        if p.type is not None:
            type_key = ("type", ("result", 0) if value is None else ("result0", op_key))
            code.compute(type_key, f"{op_var}.results[0].type")
            self.binder(p.type, scope, "type", code, type_key)
            first = scope.results[0] if value is None else p.bind or f"#{id(p)}"
            types.union(("value", first), types.term(p.type, scope))
        if value is not None and p.bind is not None:
            self.binder(Ref(p.bind, p.pos), scope, "value", code, value)

    def value_pattern(self, p: Pattern, scope: _Scope, types: _TypeFacts, code: MatchCode, value: Key) -> None:
        match p:
            case OpPattern():
                self.op_pattern(p, scope, types, code, value)
            case Wildcard():
                pass
            case Splat():
                element = ("literal", type(p.value).__name__, repr(p.value))
                code.guard(code.call(("call", natives.splat, value, element), natives.splat,
                                     [var(value), code.const(p.value)], f"splat {p.text} at {self.at(p.pos)}"))
            case Bind():
                self.binder(Ref(p.name, p.pos), scope, "value", code, value)
                if p.type is not None:
                    type_key = ("type", value)
                    code.compute(type_key, f"{var(value)}.type")
                    self.binder(p.type, scope, "type", code, type_key)
                    types.union(("value", p.name), types.term(p.type, scope))
            case _:
                raise TypeError(p)

    def binder(self, e: Expr, scope: _Scope, kind: str, code: MatchCode, key: Key) -> None:
        """Match what ``key`` holds against ``e``: an unbound name binds it, anything else must equal it."""
        if isinstance(e, Ref) and e.name not in scope.kinds:
            scope.kinds[e.name], scope.keys[e.name] = kind, key
            code.bound[e.name] = var(key)
        elif isinstance(e, Ref) and kind == "value" and scope.kinds[e.name] == "value":
            code.guard(f"{var(key)} is {code.bound[e.name]}")
        else:
            _, other = self.code_expr(e, scope, code)
            code.guard(f"{code.const(_equal)}({var(key)}, {other})")

    def code_expr(self, e: Expr, scope: _Scope, code: MatchCode) -> tuple[Key, str]:
        """An expression of a constraint: its structural key (for sharing calls) and its source."""
        match e:
            case Ref():
                if e.name not in scope.kinds:
                    raise self.error(f"unbound name '{e.name}'", e.pos)
                return scope.keys[e.name], code.bound[e.name]
            case Lit():
                return ("literal", type(e.value).__name__, repr(e.value)), code.const(e.value)
            case TypeLit():
                return ("literal", "type", e.text), code.const(self.parse_type(e))
            case ListLit():
                items = [self.code_expr(i, scope, code) for i in e.items]
                return ("list", *(k for k, _ in items)), "(" + "".join(f"{s}, " for _, s in items) + ")"
            case Call():
                fn = self.native(natives.FUNCTIONS, "function", e)
                args = [self.code_expr(a, scope, code) for a in e.args]
                return self.code_call(fn, args, code, e)
        raise TypeError(e)

    def code_call(self, fn: Callable, args: list[tuple[Key, str]], code: MatchCode, call: Call) -> tuple[Key, str]:
        key = ("call", fn, *(k for k, _ in args))
        return key, code.call(key, fn, [s for _, s in args], f"{format_expr(call)} at {self.at(call.pos)}")

    def at(self, pos: Pos) -> str:
        return f"{self.path}:{pos.line}:{pos.col}"

    def constraint(self, c: Compare | Call, scope: _Scope, types: _TypeFacts, code: MatchCode) -> None:
        if isinstance(c, Call):
            fn = self.native(natives.CONSTRAINTS, "constraint", c)
            if c.fn == "same_type" and len(c.args) == 2:
                types.union(types.term(c.args[0], scope), types.term(c.args[1], scope))
            _, holds = self.code_call(fn, [self.code_expr(a, scope, code) for a in c.args], code, c)
            code.guard(holds)
            return
        (_, lhs), (_, rhs) = self.code_expr(c.lhs, scope, code), self.code_expr(c.rhs, scope, code)
        if c.op == "==":
            types.union(types.term(c.lhs, scope), types.term(c.rhs, scope))
        code.guard(f"{code.const(_compare)}({code.const(_COMPARE[c.op])}, {lhs}, {rhs})")

    # -- expressions and constraints

    def expr(self, e: Expr, scope: _Scope) -> Callable[[Env], Any]:
        match e:
            case Ref():
                if e.name not in scope.kinds:
                    raise self.error(f"unbound name '{e.name}'", e.pos)
                name = e.name
                return lambda env: env[name]
            case Lit():
                value = e.value
                return lambda env: value
            case TypeLit():
                value = self.parse_type(e)
                return lambda env: value
            case ListLit():
                items = [self.expr(i, scope) for i in e.items]
                return lambda env: tuple(i(env) for i in items)
            case Call():
                fn = self.native(natives.FUNCTIONS, "function", e)
                return _apply(fn, [self.expr(a, scope) for a in e.args])
        raise TypeError(e)

    def native(self, table: registry.Registry, what: str, call: Call) -> Callable:
        try:
            fn = table.lookup(call.fn)
        except UnknownName as err:
            raise self.error(err.message, call.pos) from None
        try:
            inspect.signature(fn).bind(*call.args)
        except TypeError:
            params = inspect.signature(fn).parameters
            raise self.error(f"{what} '{call.fn}' takes {len(params)} arguments ({', '.join(params)}), "
                             f"not {len(call.args)}", call.pos) from None
        except ValueError:  # no signature (a builtin): checked when called
            pass
        return fn

    def parse_type(self, e: TypeLit) -> Attribute:
        try:
            return Parser(self.ctx, e.text).parse_type()
        except ParseError as err:
            raise self.error(f"invalid type '{e.text}': {err.msg}", e.pos) from None

    # -- the replacement

    def replacement(self, r: NewOp | Use, scope: _Scope) -> Callable[[Env, list[Operation]], SSAValue]:
        if isinstance(r, Use):
            kind = scope.kinds.get(r.name)
            if kind is None:
                raise self.error(f"unbound name '{r.name}'", r.pos)
            if kind != "value":
                raise self.error(f"'{r.name}' is a {kind}, not a value", r.pos)
            if r.name in scope.results:
                raise self.error("a rule cannot replace the result by itself" if scope.results == ("result",)
                                 else f"a rule cannot replace the results of an op by '{r.name}', one of them", r.pos)
            name = r.name
            return lambda env, new_ops: env[name]
        names = self.resolve(r.op, r.pos)
        if len(names) != 1:
            raise self.error(f"a replacement names one op, not the op set '{r.op}'", r.pos)
        op_name = names[0]
        cls = self.op_class(op_name, r.pos)
        self.check_arity(op_name, len(r.args), r.pos)
        args = [self.replacement(a, scope) for a in r.args]
        props = [(p.name, self.prop_def(op_name, p.name, p.pos), self.prop_value(op_name, p, scope)) for p in r.props]
        result_type = None if r.type is None else self.expr(r.type, scope)
        infer = None
        if result_type is None:
            if not registry.has_op_attr(op_name, "infer_type"):
                raise self.error(f"'{op_name}' has no registered infer_type: give its result type (': TYPE')", r.pos)
            infer = registry.get_op_attr(op_name, "infer_type")
        operand_defs = cls.get_irdl_definition().operands

        def build(env: Env, new_ops: list[Operation]) -> SSAValue:
            operands = [a(env, new_ops) for a in args]
            properties = {}
            for name, prop_def, value in props:
                attr = value(env)
                if attr is not None:
                    properties[name] = attr
            grouped = group_by_defs(operand_defs, operands, "operand")
            if result_type is not None:
                t = result_type(env)
            else:
                probe = cls.build(operands=grouped, result_types=[NoneType()], properties=properties)
                try:
                    (t,) = infer(probe)
                finally:
                    probe.drop_all_references()
            new = cls.build(operands=grouped, result_types=[t], properties=properties)
            new_ops.append(new)
            return new.results[0]

        return build

    def prop_value(self, op_name: str, p, scope: _Scope) -> Callable[[Env], Attribute | None]:
        prop_def = self.prop_def(op_name, p.name, p.pos)
        get = self.expr(p.value, scope)
        if isinstance(p.value, (Lit, ListLit, TypeLit)):
            attr = to_attribute(get({}), prop_def)
            if attr is None or not satisfies(prop_def.constr, attr):
                raise self.error(f"property '{p.name}' of '{op_name}' is {describe(prop_def.constr)}", p.pos)
            return lambda env: attr

        def value(env: Env) -> Attribute | None:
            attr = to_attribute(get(env), prop_def)
            if attr is not None and not satisfies(prop_def.constr, attr):
                raise StratiError(f"rules file {self.path}: property '{p.name}' of '{op_name}' "
                                  f"is {describe(prop_def.constr)}, not {attr}")
            return attr

        return value

    def types_agree(self, item: RuleDef, r: NewOp | Use, name: str, types: _TypeFacts, scope: _Scope) -> bool:
        """True when the rule proves the replacement ``r`` has the type of the result ``name``; an
        error when it proves the opposite; False when only an application can tell."""
        term = ("value", r.name) if isinstance(r, Use) else (types.term(r.type, scope) if r.type is not None else None)
        if term is None:
            return False
        result = ("value", name)
        if types.find(term) == types.find(result):
            return True
        have, want = types.literal(term, self), types.literal(result, self)
        if have is not None and want is not None and have != want:
            raise self.error(f"rule '{item.name}' replaces a result of type {want} by a value of type {have}", r.pos)
        return False


@dataclass
class _Scope:
    kinds: dict[str, str]  # name -> "value" | "property" | "type"
    keys: dict[str, Key]  # name -> where the match finds it (strati/parser/matcher.py)
    results: tuple[str, ...] = ("result",)  # the names of the matched op's results


class _TypeFacts:
    """What a rule says about types: classes of type terms known to be equal (a union-find)."""

    def __init__(self):
        self.parent: dict[Any, Any] = {}

    def find(self, t: Any) -> Any:
        while self.parent.get(t, t) != t:
            t = self.parent[t]
        return t

    def union(self, a: Any, b: Any) -> None:
        if a is not None and b is not None:
            self.parent.setdefault(a, a)
            self.parent.setdefault(b, b)
            self.parent[self.find(a)] = self.find(b)

    @staticmethod
    def term(e: Expr, scope: _Scope) -> Any:
        """The type term an expression stands for, when it is one."""
        match e:
            case Ref() if scope.kinds.get(e.name) == "type":
                return ("type", e.name)
            case Ref() if scope.kinds.get(e.name) == "value":
                return ("value", e.name)
            case Call(fn="type", args=[Ref() as arg]):
                return ("value", arg.name)
            case TypeLit():
                return ("literal", e.text, e.pos)
        return None

    def literal(self, t: Any, compiler: _Compiler) -> Attribute | None:
        root = self.find(t)
        for term in self.parent:
            if term[0] == "literal" and self.find(term) == root:
                return compiler.parse_type(TypeLit(term[1], term[2]))
        return None


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _apply(fn: Callable, args: list[Callable[[Env], Any]]) -> Callable[[Env], Any]:
    """``env -> fn(arg(env) for each arg)``, unrolled for the usual one or two arguments
    (rules run in the canonicalizer's inner loop)."""
    if len(args) == 1:
        (a,) = args
        return lambda env: fn(a(env))
    if len(args) == 2:
        a, b = args
        return lambda env: fn(a(env), b(env))
    return lambda env: fn(*[arg(env) for arg in args])


def _compare(fn: Callable[[Any, Any], bool], a: Any, b: Any) -> bool:
    try:
        return bool(fn(_plain(a), _plain(b)))
    except TypeError:  # e.g. None < 2: the constraint does not hold
        return False


def _equal(a: Any, b: Any) -> bool:
    return _plain(a) == _plain(b)


def _plain(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


def to_attribute(value: Any, prop_def: Any) -> Attribute | None:
    """A property's attribute from a native's Python value (None: leave the property out)."""
    match value:
        case None:
            return None
        case Attribute():
            return value
        case bool():
            return IntegerAttr(int(value), i1)
        case int():
            return coerce_property(prop_def, IntegerAttr(value, i64))
        case float():
            return FloatAttr(value, f64)
        case str():
            return StringAttr(value)
        case tuple() | list() if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            return DenseArrayBase.from_list(i64, list(value))
        case tuple() | list() if all(isinstance(v, (int, float)) for v in value):
            return DenseArrayBase.from_list(f32, [float(v) for v in value])
    raise StratiError(f"a rule computed {value!r}, which is not a property value")


def compile_rules(items: list[OpSet | RuleDef], ctx: Context, path: str, text: str) -> RuleSet:
    compiler = _Compiler(ctx, path)
    rules: list[Rule] = []
    seen: dict[str, Pos] = {}
    lines = text.splitlines()
    for item in items:
        if isinstance(item, OpSet):
            compiler.opset(item)
            continue
        if item.name in seen:
            raise compiler.error(f"rule '{item.name}' is already defined at line {seen[item.name].line}", item.pos)
        seen[item.name] = item.pos
        rules.append(compiler.rule(item, lines[item.pos.line - 1].strip() if lines else item.name))
    return RuleSet(path, rules)
