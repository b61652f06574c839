"""Random graph programs: every graph op, random static shapes that type-check.

A program is one ``func.func`` of a few to a few dozen graph ops over small tensors.  Each
op is proposed with random operands (values computed so far, new arguments, constants)
and random properties; the op's registered ``infer_type`` decides whether the proposal
type-checks and gives its result types, so the generator knows only what each op needs
(ranks, a positive operand, an integer index) and not the shape rules.  Shapes stay small
(at most :data:`MAX_ELEMENTS` per tensor) so that a program compiles in a second or two.

Values the semantics leave open are kept out: logarithms and roots get positive operands,
gather constant in-range indices, casts to integers clipped inputs, and integers are not
divided (issue 12 lists division by zero and out-of-range gathers as known bugs).  Nor are
ties that rounding decides: an ``argmax`` or ``topk`` whose operand went through an op that
rounds (a sum, a transcendental function) reads it plus a ramp along its axis
(:func:`tie_free`), since the native code may round equal values a few ulp apart in two
places (a vector body and its remainder, contracted or reassociated) where numpy does not.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass, field

import numpy as np

MAX_ELEMENTS = 512
FLOAT_UNARY = ("neg", "abs", "exp", "tanh", "sigmoid", "erf", "relu", "identity", "leaky_relu", "gelu", "clip", "dropout")
POSITIVE_UNARY = ("log", "sqrt", "rsqrt")
FLOAT_BINARY = ("add", "sub", "mul", "div", "maximum", "minimum")
TRIGONOMETRIC = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh")
COMPARE = ("equal", "less", "greater")
EXACT = frozenset({
    "abs", "neg", "relu", "identity", "dropout", "clip", "maximum", "minimum", "max_pool2d", "reduce_max", "reduce_min",
    "reshape", "broadcast_to", "flatten", "transpose", "squeeze", "unsqueeze", "slice", "pad", "concat", "split",
    "gather", "gather_elements", "gather_nd", "dynamic_slice", "where", "equal", "less", "greater", "argmax", "topk",
})  # fmt: skip
"""Ops whose results are exact functions of their operands' values (they move, select or compare)."""
REDUCE = ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod")

DTYPES = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64, "i1": np.bool_}


@dataclass(frozen=True)
class Value:
    name: str
    shape: tuple[int, ...]
    dtype: str = "f32"
    rounded: bool = False
    """Computed by an op that rounds (or from such a value): the backends may differ in the last ulp."""

    @property
    def type(self) -> str:
        return tensor_type(self.shape, self.dtype)


def tensor_type(shape, dtype: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + dtype + ">"


def parse_type(text: str) -> tuple[tuple[int, ...], str]:
    body = text[len("tensor<") : -1].split("x")
    return tuple(int(d) for d in body[:-1]), body[-1]


def ints(name: str, values) -> str:
    return f"{name} = array<i64: {', '.join(map(str, values))}>" if len(values) else f"{name} = array<i64>"


def floats(name: str, values) -> str:
    return f"{name} = array<f32: {', '.join(f'{v:.1f}' for v in values)}>"


def flag(name: str, value: bool) -> str:
    return f"{name} = {'true' if value else 'false'}"


def dense(array: np.ndarray) -> str:
    if array.dtype == np.bool_:
        def nested(a: np.ndarray) -> str:
            return ("true" if a else "false") if a.ndim == 0 else "[" + ", ".join(nested(x) for x in a) + "]"

        return f"dense<{nested(array)}>"
    return f'dense<"0x{np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes().hex().upper()}">'


class Rejected(Exception):
    """A proposal that does not fit (no suitable operand, a type that does not check): try another."""


@dataclass
class Program:
    rng: random.Random
    args: list[Value] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    values: list[Value] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    ops: list[str] = field(default_factory=list)
    counter: int = 0

    # -- values -------------------------------------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def shape(self, rank: int | None = None, low: int = 1, high: int = 6) -> tuple[int, ...]:
        rank = self.rng.choice([0, 1, 2, 2, 3, 3, 4]) if rank is None else rank
        while True:
            s = tuple(self.rng.randint(low, high) for _ in range(rank))
            if math.prod(s) <= MAX_ELEMENTS:
                return s

    def argument(self, shape, dtype: str = "f32") -> Value:
        v = Value(self.fresh("a"), tuple(shape), dtype)
        self.args.append(v)
        self.values.append(v)
        return v

    def constant(self, array: np.ndarray, dtype: str) -> Value:
        v = Value(self.fresh("c"), tuple(array.shape), dtype)
        self.lines.append(f"  {v.name} = graph.constant {dense(array)} : {v.type}")
        self.values.append(v)
        return v

    def random_constant(self, shape, dtype: str = "f32", positive: bool = False) -> Value:
        r = np.random.default_rng(self.rng.getrandbits(32))
        if dtype == "i1":
            return self.constant(r.integers(0, 2, shape).astype(np.bool_), dtype)
        if dtype.startswith("i"):
            return self.constant(r.integers(-5, 6, shape).astype(DTYPES[dtype]), dtype)
        data = r.standard_normal(shape)
        data = np.abs(data) + 0.5 if positive else data
        return self.constant(data.astype(DTYPES[dtype]), dtype)

    def pick(self, dtype: str = "f32", rank: int | None = None, min_rank: int = 0, new: float = 0.2) -> Value:
        """A value computed so far (recent ones likelier), or a new argument."""
        fits = [v for v in self.values if v.dtype == dtype and (rank is None or len(v.shape) == rank)
                and len(v.shape) >= min_rank]
        if fits and fits[-1] is self.values[-1] and self.rng.random() < 0.6:  # chains: producer into consumer
            return fits[-1]
        if fits and self.rng.random() > new:
            k = len(fits)
            return fits[min(k - 1, int(k * self.rng.random() ** 0.5))]
        r = rank if rank is not None else self.rng.randint(min_rank, max(min_rank, 4))
        if dtype == "i1":
            return self.argument(self.shape(r), "i1")
        return self.argument(self.shape(r), dtype)

    def emit(self, op: str, operands: list[Value], props: list[str] | None = None, result_types: list[str] | None = None,
             n_results: int = 1) -> list[Value]:
        """Append ``graph.op`` if it type-checks; its results (inferred unless given)."""
        props_text = ", ".join(p for p in (props or []) if p)
        prop_part = f" {{{props_text}}}" if props_text else ""
        operand_part = " " + ", ".join(v.name for v in operands) if operands else ""
        in_types = ", ".join(v.type for v in operands)
        types = result_types or infer_types(op, operands, prop_part, n_results)
        if any(math.prod(parse_type(t)[0]) > MAX_ELEMENTS for t in types):
            raise Rejected("too big")
        names = [self.fresh() for _ in types]
        lhs = names[0] if len(names) == 1 else f"{names[0]}:{len(names)}"
        sig = types[0] if len(types) == 1 else f"({', '.join(types)})"
        line = f"  {lhs} = graph.{op}{operand_part}{prop_part} : ({in_types}) -> {sig}"
        if result_types:  # check what the caller computed
            infer_types(op, operands, prop_part, len(types), result_types)
        self.lines.append(line)
        self.ops.append(op)
        self.used.update(v.name for v in operands)
        rounded = op not in EXACT or any(v.rounded for v in operands)
        results = [Value(names[0] if len(names) == 1 else f"{names[0]}#{i}", *parse_type(t), rounded=rounded)
                   for i, t in enumerate(types)]
        self.values.extend(results)
        return results

    def positive(self, v: Value) -> Value:
        """|v| + 0.5: an operand for log, sqrt, rsqrt and pow."""
        (a,) = self.emit("abs", [v])
        half = self.constant(np.array(0.5, np.float32), "f32")
        return self.emit("add", [a, half])[0]

    # -- the whole function --------------------------------------------------------------

    def text(self) -> str:
        unused = [v for v in self.values if v.name not in self.used and v not in self.args and not v.name.startswith("%c")]
        outputs = unused[-3:] or [self.values[-1]]
        decls = ", ".join(f"{a.name}: {a.type}" for a in self.args)
        types = [v.type for v in outputs]
        sig = types[0] if len(types) == 1 else f"({', '.join(types)})"
        body = "\n".join(self.lines)
        return (f"func.func @main({decls}) -> {sig} {{\n{body}\n"
                f"  func.return {', '.join(v.name for v in outputs)} : {', '.join(types)}\n}}\n")


_CTX = None


def infer_types(op: str, operands: list[Value], prop_part: str, n_results: int, declared: list[str] | None = None) -> list[str]:
    """The op's result types by its ``infer_type`` (a VerifyException or a parse error: Rejected)."""
    global _CTX
    from xdsl.utils.exceptions import ParseError, VerifyException

    from strati import registry
    from strati.context import make_context
    from strati.source import parse_module

    if _CTX is None:
        _CTX = make_context()
    args = ", ".join(f"%x{i}: {v.type}" for i, v in enumerate(operands))
    names = ", ".join(f"%x{i}" for i in range(len(operands)))
    in_types = ", ".join(v.type for v in operands)
    placeholder = declared or ["tensor<f32>"] * n_results
    sig = placeholder[0] if len(placeholder) == 1 else f"({', '.join(placeholder)})"
    lhs = "%r" if n_results == 1 else f"%r:{n_results}"
    text = f"func.func @t({args}) {{\n  {lhs} = graph.{op} {names}{prop_part} : ({in_types}) -> {sig}\n  func.return\n}}\n"
    try:
        module = parse_module(_CTX, text)
        graph_op = next(o for o in module.walk() if o.name == f"graph.{op}")
        if declared:
            graph_op.verify()
            return declared
        inferred = registry.get_op_attr(graph_op.name, "infer_type")(graph_op)
    except (ParseError, VerifyException, ValueError) as err:
        raise Rejected(str(err)) from None
    types = [str(t) for t in inferred]
    if any("?" in t for t in types):
        raise Rejected("dynamic result")
    return types


# --- one proposal per op ----------------------------------------------------------------------------------


def unary(p: Program, op: str) -> None:
    x = p.pick()
    props = []
    if op == "leaky_relu" and p.rng.random() < 0.7:
        props = [f"alpha = {p.rng.choice([0.1, 0.2, 0.01, 2.0])}"]
    elif op == "gelu" and p.rng.random() < 0.5:
        props = ['approximate = "tanh"']
    elif op == "clip":
        lo, hi = sorted(p.rng.sample([-1.5, -0.5, 0.0, 0.5, 1.0, 2.0], 2))
        props = [f"min = {lo}" if p.rng.random() < 0.8 else "", f"max = {hi}" if p.rng.random() < 0.8 else ""]
    elif op == "dropout" and p.rng.random() < 0.5:
        props = ["ratio = 0.3"]
    p.emit(op, [x], props)


def positive_unary(p: Program, op: str) -> None:
    p.emit(op, [p.positive(p.pick())])


def broadcast_partner(p: Program, x: Value, dtype: str = "f32") -> Value:
    """A value whose shape broadcasts with x's: an existing one, or a new argument or constant."""
    same = [v for v in p.values if v.dtype == dtype and v.shape == x.shape and v is not x]
    if same and p.rng.random() < 0.4:
        return p.rng.choice(same)
    shape = list(x.shape)
    drop = p.rng.randint(0, len(shape)) if p.rng.random() < 0.3 else 0
    shape = shape[drop:]
    shape = [1 if p.rng.random() < 0.25 else d for d in shape]
    if p.rng.random() < 0.15 and len(shape) < 4:  # the partner is the larger one
        shape = [p.rng.randint(1, 3)] + shape
    if p.rng.random() < 0.3:
        return p.random_constant(tuple(shape), dtype)
    return p.argument(tuple(shape), dtype)


def binary(p: Program, op: str) -> None:
    x = p.pick()
    y = broadcast_partner(p, x)
    if p.rng.random() < 0.5:
        x, y = y, x
    p.emit(op, [x, y])


def power(p: Program, op: str) -> None:
    x = p.positive(p.pick())
    y = broadcast_partner(p, x)
    (y,) = p.emit("clip", [y], ["min = -2.0", "max = 2.0"])
    p.emit(op, [x, y])


def compare(p: Program, op: str) -> None:
    x = p.pick()
    p.emit(op, [x, broadcast_partner(p, x)])


def where(p: Program, op: str) -> None:
    x = p.pick()
    conds = [v for v in p.values if v.dtype == "i1"]
    cond = p.rng.choice(conds) if conds and p.rng.random() < 0.7 else broadcast_partner(p, x, "i1")
    p.emit(op, [cond, x, broadcast_partner(p, x)])


def cast(p: Program, op: str) -> None:
    source = p.pick(p.rng.choice(["f32", "f32", "i32", "i64", "i1"]))
    target = p.rng.choice(["f32", "f64", "i32", "i64"])
    if source.dtype == "f32" and target.startswith("i"):
        (source,) = p.emit("clip", [source], ["min = -100.0", "max = 100.0"])
    out = p.emit(op, [source], result_types=[tensor_type(source.shape, target)])[0]
    if target != "f32":  # back to f32, so that the value takes part in what follows
        p.emit(op, [out], result_types=[tensor_type(out.shape, "f32")])


def matmul(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    k = x.shape[-1]
    n = p.rng.randint(1, 7)
    rhs_shape = (k, n) if len(x.shape) > 1 or p.rng.random() < 0.7 else (k,)
    if len(x.shape) >= 3 and p.rng.random() < 0.3:
        rhs_shape = (x.shape[-3] if p.rng.random() < 0.5 else 1, k, n)
    y = p.random_constant(rhs_shape) if p.rng.random() < 0.5 else p.argument(rhs_shape)
    p.emit(op, [x, y])


def gemm(p: Program, op: str) -> None:
    a = p.pick(rank=2)
    trans_a, trans_b = p.rng.random() < 0.3, p.rng.random() < 0.5
    m, k = a.shape[::-1] if trans_a else a.shape
    n = p.rng.randint(1, 7)
    b = p.random_constant((n, k) if trans_b else (k, n))
    operands = [a, b]
    if p.rng.random() < 0.7:
        operands.append(p.random_constant(p.rng.choice([(n,), (m, n), (1, n), ()])))
    props = [flag("trans_a", True) if trans_a else "", flag("trans_b", True) if trans_b else ""]
    if p.rng.random() < 0.3:
        props += [f"alpha = {p.rng.choice([0.5, 2.0])}", f"beta = {p.rng.choice([0.0, 0.5, 1.5])}"]
    p.emit(op, operands, props)


def image(p: Program) -> Value:
    fits = [v for v in p.values if v.dtype == "f32" and len(v.shape) == 4]
    if fits and p.rng.random() < 0.7:
        return p.rng.choice(fits)
    return p.argument((p.rng.randint(1, 2), p.rng.randint(1, 4), p.rng.randint(3, 9), p.rng.randint(3, 9)))


def window(p: Program, x: Value, prefix: str = "") -> list[str]:
    kh, kw = p.rng.randint(1, min(3, x.shape[2])), p.rng.randint(1, min(3, x.shape[3]))
    props = [ints("kernel", (kh, kw))] if prefix == "pool" else []
    if p.rng.random() < 0.4:
        props.append(ints("strides", (p.rng.randint(1, 2), p.rng.randint(1, 2))))
    if p.rng.random() < 0.4:
        props.append(ints("pads", [p.rng.randint(0, k - 1) for k in (kh, kw, kh, kw)]))
    if p.rng.random() < 0.2:
        props.append(ints("dilations", (p.rng.randint(1, 2), p.rng.randint(1, 2))))
    return props, (kh, kw)


def conv2d(p: Program, op: str) -> None:
    x = image(p)
    c = x.shape[1]
    groups = p.rng.choice([g for g in (1, 1, 2, c) if g > 0 and c % g == 0])  # c may be 0 (an empty image)
    out = groups * p.rng.randint(1, 3)
    props, (kh, kw) = window(p, x)
    weight = p.random_constant((out, c // groups, kh, kw))
    operands = [x, weight] + ([p.random_constant((out,))] if p.rng.random() < 0.6 else [])
    p.emit(op, operands, props + ([f"groups = {groups}"] if groups != 1 else []))


def pool(p: Program, op: str) -> None:
    x = image(p)
    props, _ = window(p, x, "pool")
    if p.rng.random() < 0.2:
        props.append(flag("ceil_mode", True))
    if op == "avg_pool2d" and p.rng.random() < 0.4:
        props.append(flag("count_include_pad", True))
    p.emit(op, [x], props)


def global_pool(p: Program, op: str) -> None:
    p.emit(op, [image(p)])


def batch_norm(p: Program, op: str) -> None:
    x = p.pick(min_rank=2)
    c = (x.shape[1],)
    operands = [x, p.random_constant(c), p.random_constant(c), p.random_constant(c), p.random_constant(c, positive=True)]
    p.emit(op, operands, ["epsilon = 0.001"] if p.rng.random() < 0.3 else [])


def layer_norm(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randint(-len(x.shape), len(x.shape) - 1)
    tail = x.shape[axis:]
    operands = [x, p.random_constant(tail)] + ([p.random_constant(tail)] if p.rng.random() < 0.5 else [])
    p.emit(op, operands, [f"axis = {axis}"])


def softmax(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    p.emit(op, [x], [f"axis = {p.rng.randint(-len(x.shape), len(x.shape) - 1)}"])


def lrn(p: Program, op: str) -> None:
    p.emit(op, [image(p)], [f"size = {p.rng.choice([1, 3, 5])}"] + (["alpha = 0.001", "bias = 2.0"] if p.rng.random() < 0.5 else []))


def reduce(p: Program, op: str) -> None:
    x = p.pick()
    r = len(x.shape)
    props = []
    if r and p.rng.random() < 0.8:
        axes = sorted(p.rng.sample(range(r), p.rng.randint(1, r)))
        props.append(ints("axes", [a - r if p.rng.random() < 0.3 else a for a in axes]))
    if p.rng.random() < 0.4:
        props.append(flag("keepdims", False))
    if op == "reduce_prod":  # keep the product of many normal values in range
        (x,) = p.emit("clip", [x], ["min = -1.5", "max = 1.5"])
    p.emit(op, [x], props)


def tie_free(p: Program, x: Value, axis: int) -> Value:
    """``x`` if it is exact, else ``clip(x, -4, 4)`` plus a ramp along ``axis`` (steps of 0.0173 in
    a random order): ties that rounding decides become gaps far above the rounding."""
    if not x.rounded:
        return x
    (x,) = p.emit("clip", [x], ["min = -4.0", "max = 4.0"])
    shape = [1] * len(x.shape)
    shape[axis] = x.shape[axis]
    order = np.random.default_rng(p.rng.getrandbits(32)).permutation(x.shape[axis])
    return p.emit("add", [x, p.constant((order * 0.0173).astype(np.float32).reshape(shape), "f32")])[0]


def argmax(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randint(-len(x.shape), len(x.shape) - 1)
    x = tie_free(p, x, axis)
    props = [f"axis = {axis}"]
    if p.rng.random() < 0.4:
        props.append(flag("keepdims", False))
    if p.rng.random() < 0.3:
        props.append(flag("select_last_index", True))
    (i,) = p.emit(op, [x], props)
    p.emit("cast", [i], result_types=[tensor_type(i.shape, "f32")])


def factor(p: Program, n: int) -> tuple[int, ...]:
    """A random shape with n elements."""
    dims, rest = [], n
    while rest > 1 and len(dims) < 3:
        divisors = [d for d in range(2, rest + 1) if rest % d == 0]
        d = p.rng.choice(divisors)
        dims.append(d)
        rest //= d
    if rest > 1:
        dims.append(rest)
    while p.rng.random() < 0.3 and len(dims) < 4:
        dims.insert(p.rng.randint(0, len(dims)), 1)
    p.rng.shuffle(dims)
    return tuple(dims)


def reshape(p: Program, op: str) -> None:
    x = p.pick()
    p.emit(op, [x], result_types=[tensor_type(factor(p, math.prod(x.shape)))])


def broadcast_to(p: Program, op: str) -> None:
    x = p.pick()
    shape = [p.rng.randint(2, 4) if d == 1 and p.rng.random() < 0.6 else d for d in x.shape]
    while len(shape) < 4 and p.rng.random() < 0.4:
        shape.insert(0, p.rng.randint(1, 3))
    p.emit(op, [x], result_types=[tensor_type(shape)])


def flatten(p: Program, op: str) -> None:
    x = p.pick()
    p.emit(op, [x], [f"axis = {p.rng.randint(-len(x.shape), len(x.shape))}"] if x.shape else [])


def transpose(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    perm = list(range(len(x.shape)))
    p.rng.shuffle(perm)
    p.emit(op, [x], [ints("perm", perm)] if p.rng.random() < 0.8 else [])


def squeeze(p: Program, op: str) -> None:
    ones = [v for v in p.values if v.dtype == "f32" and 1 in v.shape]
    x = p.rng.choice(ones) if ones else p.argument((1, p.rng.randint(1, 5), 1))
    axes = [i for i, d in enumerate(x.shape) if d == 1]
    chosen = sorted(p.rng.sample(axes, p.rng.randint(1, len(axes))))
    p.emit(op, [x], [ints("axes", chosen)] if p.rng.random() < 0.7 else [])


def unsqueeze(p: Program, op: str) -> None:
    x = p.pick()
    out_rank = len(x.shape) + p.rng.randint(1, 2)
    if out_rank > 5:
        raise Rejected("rank")
    axes = sorted(p.rng.sample(range(out_rank), out_rank - len(x.shape)))
    p.emit(op, [x], [ints("axes", axes)])


def slice_(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axes = sorted(p.rng.sample(range(len(x.shape)), p.rng.randint(1, len(x.shape))))
    starts, ends, steps = [], [], []
    for a in axes:
        d = x.shape[a]
        step = p.rng.choice([1, 1, 1, 2, -1, -2])
        s, e = p.rng.randint(-d - 1, d + 1), p.rng.randint(-d - 1, d + 1)
        if step > 0 and p.rng.random() < 0.7:
            s, e = sorted((s, e))
        if step < 0 and p.rng.random() < 0.7:
            s, e = sorted((s, e), reverse=True)
        starts.append(s)
        ends.append(e if p.rng.random() < 0.9 else (2**62 if step > 0 else -(2**62)))
        steps.append(step)
    props = [ints("starts", starts), ints("ends", ends), ints("axes", axes)]
    if any(s != 1 for s in steps) or p.rng.random() < 0.3:
        props.append(ints("steps", steps))
    p.emit(op, [x], props)


def pad(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    mode = p.rng.choice(["constant", "constant", "reflect", "edge"])
    r = len(x.shape)
    pads = []
    for d in list(x.shape) * 2:
        limit = d - 1 if mode == "reflect" else 2
        pads.append(p.rng.randint(-1 if (mode == "constant" and d > 1) else 0, max(0, min(limit, 2))))
    props = [ints("pads", pads[:r] + pads[r:])]
    if mode != "constant":
        props.append(f'mode = "{mode}"')
    elif p.rng.random() < 0.5:
        props.append("value = 1.5")
    p.emit(op, [x], props)


def concat(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randrange(len(x.shape))
    operands = [x]
    for _ in range(p.rng.randint(1, 3)):
        shape = list(x.shape)
        shape[axis] = p.rng.randint(1, 4)
        same = [v for v in p.values if v.dtype == "f32" and len(v.shape) == len(shape)
                and all(a == b for i, (a, b) in enumerate(zip(v.shape, shape)) if i != axis)]
        operands.append(p.rng.choice(same) if same and p.rng.random() < 0.5 else p.argument(shape))
    p.emit(op, operands, [f"axis = {axis - len(x.shape) if p.rng.random() < 0.3 else axis}"])


def split(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randrange(len(x.shape))
    d = x.shape[axis]
    if p.rng.random() < 0.5 and d > 1:
        cut = sorted(p.rng.sample(range(1, d), p.rng.randint(1, min(3, d - 1))))
        sizes = [b - a for a, b in zip([0] + cut, cut + [d])]
        props = [f"axis = {axis}", ints("sizes", sizes)]
        n = len(sizes)
    else:
        n = p.rng.choice([k for k in (1, 2, 3) if d % k == 0])
        props = [f"axis = {axis}"]
    p.emit(op, [x], props, n_results=n)


def gather(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randrange(len(x.shape))
    d = x.shape[axis]
    r = np.random.default_rng(p.rng.getrandbits(32))
    shape = p.rng.choice([(), (p.rng.randint(1, 4),), (2, p.rng.randint(1, 3))])
    indices = p.constant(r.integers(-d, d, shape).astype(np.int64), "i64")
    p.emit(op, [x, indices], [f"axis = {axis}"])


def resize(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    shape = list(x.shape)
    for i in range(max(0, len(shape) - 2), len(shape)):
        shape[i] = p.rng.choice([shape[i], shape[i] * 2, max(1, shape[i] // 2), shape[i] + 1])
    props = []
    if p.rng.random() < 0.4:
        props.append(f'coordinate_transformation_mode = "{p.rng.choice(["asymmetric", "align_corners", "half_pixel"])}"')
    if p.rng.random() < 0.4:
        props.append(f'nearest_mode = "{p.rng.choice(["floor", "ceil", "round_prefer_ceil"])}"')
    p.emit(op, [x], props, result_types=[tensor_type(shape)])


def bounded_unary(p: Program, op: str) -> None:
    """The trigonometric family, each on its domain (clipped, or shifted to >= 1.5 for acosh)."""
    x = p.pick()
    bound = {"asin": 0.99, "acos": 0.99, "atanh": 0.99, "tan": 1.2, "sinh": 10.0, "cosh": 10.0}.get(op)
    if bound is not None:
        (x,) = p.emit("clip", [x], [f"min = {-bound}", f"max = {bound}"])
    elif op == "acosh":
        (x,) = p.emit("add", [p.positive(x), p.constant(np.array(1.0, np.float32), "f32")])
    p.emit(op, [x])


def integer_binary(p: Program, op: str) -> None:
    """mod (by a positive divisor) and bit_shift (by 0 to 3) on i32 constants, back to f32."""
    shape = p.shape(high=4)
    r = np.random.default_rng(p.rng.getrandbits(32))
    x = p.constant(r.integers(-50, 50, shape).astype(np.int32), "i32")
    y = p.constant(r.integers(1, 6 if op == "mod" else 4, shape).astype(np.int32), "i32")
    props = [f'direction = "{p.rng.choice(["left", "right"])}"'] if op == "bit_shift" else []
    (out,) = p.emit(op, [x, y], props)
    p.emit("cast", [out], result_types=[tensor_type(out.shape, "f32")])


def cumsum(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    p.emit(op, [x], [f"axis = {p.rng.randrange(-len(x.shape), len(x.shape))}",
                     "exclusive = true" if p.rng.random() < 0.4 else "", "reverse = true" if p.rng.random() < 0.4 else ""])


def topk(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randrange(len(x.shape))
    x = tie_free(p, x, axis)
    k = p.rng.randint(1, x.shape[axis])
    values, indices = p.emit(op, [x], [f"k = {k}", f"axis = {axis}", "largest = false" if p.rng.random() < 0.4 else ""],
                             n_results=2)
    p.emit("cast", [indices], result_types=[tensor_type(indices.shape, "f32")])


def gather_elements(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    axis = p.rng.randrange(len(x.shape))
    shape = [p.rng.randint(1, d) if i != axis else p.rng.randint(1, 4) for i, d in enumerate(x.shape)]
    r = np.random.default_rng(p.rng.getrandbits(32))
    indices = p.constant(r.integers(-x.shape[axis], x.shape[axis], shape).astype(np.int64), "i64")
    p.emit(op, [x, indices], [f"axis = {axis}"])


def nd_indices(p: Program, x: Value, unique: bool) -> tuple[Value, int]:
    """(m, q) indices into the leading q dimensions of x (distinct rows when ``unique``)."""
    q = p.rng.randint(1, len(x.shape))
    rows = list(itertools.product(*(range(d) for d in x.shape[:q])))
    m = p.rng.randint(1, min(4, len(rows)))
    picked = p.rng.sample(rows, m) if unique else [p.rng.choice(rows) for _ in range(m)]
    return p.constant(np.array(picked, np.int64).reshape(m, q), "i64"), q


def gather_nd(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    indices, _ = nd_indices(p, x, unique=False)
    p.emit(op, [x, indices])


def scatter_nd(p: Program, op: str) -> None:
    x = p.pick(min_rank=1)
    indices, q = nd_indices(p, x, unique=True)
    updates = p.random_constant((indices.shape[0], *x.shape[q:]))
    reduction = p.rng.choice(["none", "add", "mul", "max", "min"])
    p.emit(op, [x, indices, updates], [f'reduction = "{reduction}"'])


def dynamic_slice(p: Program, op: str) -> None:
    """One sliced axis, with starts and ends (constants here) that give the declared extent."""
    x = p.pick(min_rank=1)
    a = p.rng.randrange(len(x.shape))
    d = x.shape[a]
    step = p.rng.choice([1, 1, 2, -1, -2])
    m = p.rng.randint(0, -(-d // abs(step)))
    if m == 0:
        s = p.rng.randint(0, max(d - 1, 0))
    elif step > 0:
        s = p.rng.randint(0, max(0, d - (m - 1) * step - 1))
    else:
        s = p.rng.randint(min((m - 1) * -step, max(d - 1, 0)), max(d - 1, 0))
    e = s + m * step
    if e < 0:
        e = -d - 1  # "before 0": -1 would count from the end
    if s < d and p.rng.random() < 0.3:
        s -= d  # the same start counted from the end
    starts, ends = p.constant(np.array([s], np.int64), "i64"), p.constant(np.array([e], np.int64), "i64")
    shape = list(x.shape)
    shape[a] = m
    props = [ints("axes", [a])] + ([ints("steps", [step])] if step != 1 else [])
    p.emit(op, [x, starts, ends], props, [tensor_type(shape, "f32")])


def grid_sample(p: Program, op: str) -> None:
    """An image sampled at a constant grid, some points outside [-1, 1], in any mode and padding."""
    x = image(p)
    grid = p.constant(np.random.default_rng(p.rng.getrandbits(32)).uniform(
        -1.2, 1.2, (x.shape[0], p.rng.randint(1, 5), p.rng.randint(1, 5), 2)).astype(np.float32), "f32")
    props = [f'mode = "{p.rng.choice(["linear", "nearest", "cubic"])}"',
             f'padding_mode = "{p.rng.choice(["zeros", "border", "reflection"])}"']
    if p.rng.random() < 0.5:
        props.append(flag("align_corners", True))
    n, c, ho, wo = x.shape[0], x.shape[1], grid.shape[1], grid.shape[2]
    p.emit(op, [x, grid], props, [tensor_type([n, c, ho, wo], "f32")])


def constant(p: Program, op: str) -> None:
    x = p.pick()
    c = p.random_constant(x.shape if p.rng.random() < 0.7 else (), "f32")
    p.ops.append("constant")
    p.emit("add", [x, c])


PROPOSALS = {
    **{op: unary for op in FLOAT_UNARY},
    **{op: positive_unary for op in POSITIVE_UNARY},
    **{op: binary for op in FLOAT_BINARY},
    "pow": power,
    **{op: compare for op in COMPARE},
    "where": where,
    "cast": cast,
    "matmul": matmul,
    "gemm": gemm,
    "conv2d": conv2d,
    "max_pool2d": pool,
    "avg_pool2d": pool,
    "global_avg_pool2d": global_pool,
    "batch_norm": batch_norm,
    "layer_norm": layer_norm,
    "softmax": softmax,
    "log_softmax": softmax,
    "lrn": lrn,
    **{op: reduce for op in REDUCE},
    "argmax": argmax,
    "reshape": reshape,
    "broadcast_to": broadcast_to,
    "flatten": flatten,
    "transpose": transpose,
    "squeeze": squeeze,
    "unsqueeze": unsqueeze,
    "slice": slice_,
    "pad": pad,
    "concat": concat,
    "split": split,
    "gather": gather,
    "resize": resize,
    "constant": constant,
    **{op: bounded_unary for op in TRIGONOMETRIC},
    "mod": integer_binary,
    "bit_shift": integer_binary,
    "cumsum": cumsum,
    "cumprod": cumsum,
    "topk": topk,
    "gather_elements": gather_elements,
    "gather_nd": gather_nd,
    "scatter_nd": scatter_nd,
    "dynamic_slice": dynamic_slice,
    "grid_sample": grid_sample,
}
"""How to propose each graph op; tests check that every op of ``ALL_OPS`` is here."""


def generate(seed: int, n_ops: int | None = None, only: list[str] | None = None) -> tuple[str, list[str]]:
    """A random program (its text) and the ops it applies, from ``seed``."""
    rng = random.Random(seed)
    p = Program(rng)
    p.argument(p.shape())
    names = only or sorted(PROPOSALS)
    target = n_ops or rng.randint(2, 12)
    attempts = 0
    while len(p.ops) < target and attempts < 20 * target:
        attempts += 1
        op = rng.choice(names)
        saved = (list(p.args), list(p.lines), list(p.values), set(p.used), list(p.ops), p.counter)
        try:
            PROPOSALS[op](p, op)
        except (Rejected, ValueError):  # ValueError: a random choice from nothing (a size-0 dimension)
            p.args, p.lines, p.values, p.used, p.ops, p.counter = saved
    return p.text(), p.ops
