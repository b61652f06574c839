"""The differential suite: every graph op compiled to native code against the reference interpreter.

Every op in ``strati.dialects.graph.ops.ALL_OPS`` has cases here (a test fails when an op
has fewer than three, so a new op must bring its own): shapes that broadcast, sizes that
are not multiples of the vector width (7, 13, 33), size-1 and size-0 dimensions, rank 0,
an empty reduction axis where the op allows one, the representative property values of
the lowering tests, and the dtypes each op takes.  Each case is one graph op; the cases
of one op are batched as independent ops of one function (its own arguments and
results), compiled once with ``strati.compile`` and run once, and each case's results are
compared with what ``run_function`` (the interpreter on the graph-level module) gives.
When the batch does not compile, each case is compiled alone, so every failure names
its case.

Tolerances:

* float32: rtol 1e-4, atol 1e-5 (sums and dot products in another order, libm/libmvec
  transcendental functions against numpy's, fast-math reassociation);
* exact for integers, booleans, and every op whose result elements are copies or
  selections of input elements (data movement, max/min, relu, clip, where, casts, ...);
* float64: rtol 1e-10, atol 1e-12 (the same reordering, at double precision);
* float16: rtol 1e-3, atol 1e-3 (one or two half roundings of results computed at
  higher precision on either side, a half ulp being 4.9e-4).

A case whose compiled result is known to differ carries an ``xfail`` reason (op,
shape, size of the error); it is compiled alone and is a strict xfail.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.traits import IsTerminator
import pytest
import test_lower_nn as lower_nn  # the lowering tests' cases, extended here
import test_lower_shape_reduce as lower_shape  # the lowering tests' cases, extended here
from helpers import parse, tensor_type

import strati
from strati.dense import to_dtype
from strati.dialects.graph.attrs.nn import window_out
from strati.dialects.graph.ops import ALL_OPS
from strati.dialects.shapes import shape_of
from strati.runtime.interpreter import argument_names, find_function, run_function

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the interpreter on inf, NaN, 0: expected

RNG = np.random.default_rng(8)
EXAMPLES = Path(__file__).parents[2] / "examples"

F32 = dict(rtol=1e-4, atol=1e-5)
F64 = dict(rtol=1e-10, atol=1e-12)
F16 = dict(rtol=1e-3, atol=1e-3)
EXACT = dict(rtol=0, atol=0)

EXACT_OPS = {
    "constant", "neg", "abs", "relu", "identity", "dropout", "clip", "cast", "maximum", "minimum",
    "equal", "less", "greater", "where", "max_pool2d", "reduce_max", "reduce_min", "argmax",
    "reshape", "broadcast_to", "flatten", "transpose", "squeeze", "unsqueeze", "slice", "pad",
    "concat", "split", "gather", "resize",
}  # fmt: skip
"""Ops whose float results are input elements (or constants) unchanged: compared exactly."""

INF, NAN = np.inf, np.nan
SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, 0.5, INF, -INF, NAN, 1e-40, -1e-40, 3e38, -3e38, 100.0, -100.0, 88.0], np.float32)
"""Zeros, infinities, NaN, subnormals and huge values: the IEEE corners every float op must keep."""


# --- cases -------------------------------------------------------------------------------------


@dataclass
class Case:
    """One graph op applied to ``inputs``; ``value``: the literal of a graph.constant."""

    op: str
    inputs: list[np.ndarray]
    out_shapes: list[tuple[int, ...]]
    out_dtypes: list[np.dtype] | None = None
    props: str = ""
    tol: dict | None = None
    xfail: str | None = None
    value: np.ndarray | None = None
    note: str = ""
    out_types: list[str] = field(init=False)

    def __post_init__(self):
        dtypes = self.out_dtypes or [self.inputs[0].dtype if self.inputs else self.value.dtype] * len(self.out_shapes)
        self.out_dtypes = [np.dtype(d) for d in dtypes]
        self.out_types = [tensor_type(s, d) for s, d in zip(self.out_shapes, self.out_dtypes)]

    @property
    def id(self) -> str:
        shapes = ",".join("x".join(map(str, x.shape)) or "0d" for x in self.inputs) or "x".join(map(str, self.value.shape))
        dtypes = ",".join(sorted({x.dtype.name for x in self.inputs} | {d.name for d in self.out_dtypes}))
        text = f"{self.op}[{shapes}|{dtypes}"
        if self.props:
            p = self.props.replace("array<i64: ", "[").replace("array<f32: ", "[").replace("array<i64>", "[]")
            text += "|" + p.replace(">", "]").replace('"', "")
        text += f"|{self.note}" if self.note else ""
        return text + "]"

    def tolerance(self, dtype: np.dtype) -> dict:
        if self.tol is not None:
            return self.tol
        if dtype.kind != "f" or self.op in EXACT_OPS:
            return EXACT
        return {4: F32, 8: F64, 2: F16}[dtype.itemsize]

    def lines(self, k: int) -> tuple[list[str], str, list[str]]:
        """Argument declarations, the op's line and its result values, for case number ``k`` of a function."""
        args = [f"%c{k}_{j}" for j in range(len(self.inputs))]
        decls = [f"{a}: {tensor_type(x.shape, x.dtype)}" for a, x in zip(args, self.inputs)]
        n = len(self.out_types)
        sig = self.out_types[0] if n == 1 else f"({', '.join(self.out_types)})"
        lhs = f"%r{k}" if n == 1 else f"%r{k}:{n}"
        results = [f"%r{k}"] if n == 1 else [f"%r{k}#{i}" for i in range(n)]
        if self.op == "constant":
            return decls, f"  {lhs} = graph.constant {dense_text(self.value)} : {sig}", results
        props = f" {{{self.props}}}" if self.props else ""
        in_types = ", ".join(tensor_type(x.shape, x.dtype) for x in self.inputs)
        return decls, f"  {lhs} = graph.{self.op} {', '.join(args)}{props} : ({in_types}) -> {sig}", results


def dense_text(value: np.ndarray) -> str:
    """A dense literal: hex bytes (exact) for numbers, nested true/false for booleans."""
    if value.dtype == np.bool_:
        def nested(a):
            return ("true" if a else "false") if a.ndim == 0 else "[" + ", ".join(nested(x) for x in a) + "]"
        return f"dense<{nested(value)}>"
    data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<")).tobytes()
    return f'dense<"0x{data.hex().upper()}">'


def function_text(cases: list[Case]) -> tuple[str, list[slice]]:
    """One function holding every case's op; the slices of its results that belong to each case."""
    decls, body, results, types, spans = [], [], [], [], []
    for k, case in enumerate(cases):
        d, line, r = case.lines(k)
        decls += d
        body.append(line)
        spans.append(slice(len(results), len(results) + len(r)))
        results += r
        types += case.out_types
    sig = types[0] if len(types) == 1 else f"({', '.join(types)})"
    text = (
        f"func.func @main({', '.join(decls)}) -> {sig} {{\n" + "\n".join(body) + "\n"
        f"  func.return {', '.join(results)} : {', '.join(types)}\n}}\n"
    )
    return text, spans


# --- sample data ---------------------------------------------------------------------------------


def normal(shape, dtype=np.float32, scale=1.0, offset=0.0):
    return np.asarray(RNG.standard_normal(shape) * scale + offset, dtype)


def positive(shape, dtype=np.float32):
    return np.asarray(np.abs(RNG.standard_normal(shape)) * 3 + 0.1, dtype)


def integers(shape, dtype=np.int32, low=-20, high=20):
    return RNG.integers(low, high, shape).astype(dtype)


def booleans(shape):
    return RNG.integers(0, 2, shape).astype(np.bool_)


def sample(shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return booleans(shape)
    if dtype.kind == "f":
        return normal(shape, dtype)
    return integers(shape, dtype)


def ints(name, values) -> str:
    return f"{name} = array<i64: {', '.join(map(str, values))}>" if values else f"{name} = array<i64>"


def props(*items) -> str:
    return ", ".join(i for i in items if i)


def flag(name, value) -> str:
    return f"{name} = {str(bool(value)).lower()}"


CASES: list[Case] = []


def add(*cases: Case) -> None:
    CASES.extend(cases)


# --- elementwise ---------------------------------------------------------------------------------

SHAPES = [(7,), (3, 1, 13), (2, 33), (1, 1), (), (0, 5)]  # odd sizes, size 1, rank 0, empty
BROADCASTS = [
    ((7,), (7,)),
    ((3, 1, 13), (4, 1)),
    ((2, 33), ()),
    ((1, 5), (6, 1)),
    ((2, 1, 1, 9), (1, 3, 5, 1)),
    ((0, 3), (1, 3)),
]
UNARY_FLOAT = ["neg", "abs", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "relu", "identity", "dropout",
               "leaky_relu", "gelu", "clip"]  # fmt: skip
POSITIVE_DOMAIN = {"log", "sqrt", "rsqrt"}
UNARY_PROPS = {
    "leaky_relu": ["", "alpha = 0.2", "alpha = -1.5"],
    "gelu": ['approximate = "none"', 'approximate = "tanh"'],
    "clip": ["min = -1.0, max = 2.5", "max = 0.5", "min = 0.0", ""],
    "dropout": ["", "ratio = 0.3"],
}


def unary_input(op, shape, dtype=np.float32):
    if op in POSITIVE_DOMAIN:
        return positive(shape, dtype)
    return normal(shape, dtype, scale=3.0)


for _op in UNARY_FLOAT:
    _variants = UNARY_PROPS.get(_op, [""])
    for _i, _shape in enumerate(SHAPES):
        for _p in _variants if _i < 2 else _variants[:1]:
            add(Case(_op, [unary_input(_op, _shape)], [_shape], props=_p))
    add(Case(_op, [SPECIAL.copy()], [SPECIAL.shape], props=_variants[-1], note="special values"))
    add(Case(_op, [unary_input(_op, (5, 7), np.float64)], [(5, 7)], props=_variants[-1]))
    add(Case(_op, [unary_input(_op, (3, 11), np.float16)], [(3, 11)], props=_variants[-1]))
add(Case("exp", [normal((4, 9), scale=40.0)], [(4, 9)], note="overflow and underflow"))
add(Case("tanh", [normal((3, 17), scale=15.0)], [(3, 17)], note="saturation"))
add(Case("sigmoid", [normal((3, 17), scale=40.0)], [(3, 17)], note="saturation"))

for _op in ["neg", "abs", "relu", "identity", "dropout"]:
    for _shape, _dtype in [((7,), np.int32), ((3, 1, 13), np.int64), ((2, 9), np.int8)]:
        add(Case(_op, [integers(_shape, _dtype, -100, 100)], [_shape]))
add(Case("identity", [booleans((3, 5))], [(3, 5)]), Case("dropout", [booleans((9,))], [(9,)]))
add(Case("clip", [integers((4, 9), np.int32)], [(4, 9)], props="min = -3.0, max = 4.0"))
add(Case("clip", [integers((13,), np.int64)], [(13,)], props="max = 2.0"))
add(Case("leaky_relu", [normal((2, 2, 2), np.float32, 3.0)], [(2, 2, 2)], props="alpha = 0.0"))

CASTS = [
    (np.float32, np.int32, 1e3), (np.float32, np.int64, 1e6), (np.int32, np.float32, None), (np.int64, np.float32, None),
    (np.float32, np.float64, 1.0), (np.float64, np.float32, 1.0), (np.float32, np.float16, 10.0),
    (np.float16, np.float32, 10.0), (np.int32, np.int8, None), (np.int8, np.int32, None), (np.int64, np.int32, None),
    (np.int32, np.int64, None), (np.bool_, np.float32, None), (np.float32, np.bool_, 1.0), (np.int32, np.bool_, None),
    (np.bool_, np.int32, None), (np.float64, np.int32, 1e3),
]  # fmt: skip
for _i, (_src, _dst, _scale) in enumerate(CASTS):
    _shape = [(7,), (3, 1, 13), (2, 33)][_i % 3]
    if np.dtype(_src) == np.bool_:
        _x = booleans(_shape)
    elif np.dtype(_src).kind == "f":
        _x = normal(_shape, _src, _scale)
        _x.flat[:3] = [0.0, -0.0, 0.5]  # zeros and a tie
    else:
        _x = integers(_shape, _src, -300, 300)
        _x.flat[:2] = [0, -1]
    add(Case("cast", [_x], [_shape], [_dst]))

BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "equal", "less", "greater"]
COMPARE = {"equal", "less", "greater"}


def binary_inputs(op, a_shape, b_shape, dtype=np.float32):
    if np.dtype(dtype).kind != "f":
        a, b = integers(a_shape, dtype), integers(b_shape, dtype)
        if op == "div":
            b = np.where(b == 0, 7, b).astype(dtype)
        return a, b
    if op in COMPARE:  # few distinct values: equal elements occur
        return RNG.integers(-2, 3, a_shape).astype(dtype), RNG.integers(-2, 3, b_shape).astype(dtype)
    if op == "pow":
        return positive(a_shape, dtype), normal(b_shape, dtype)
    if op == "div":
        b = normal(b_shape, dtype)
        return normal(a_shape, dtype), np.where(np.abs(b) < 0.1, 0.5, b).astype(dtype)
    return normal(a_shape, dtype, 3.0), normal(b_shape, dtype, 3.0)


for _op in BINARY:
    _out = [np.bool_] if _op in COMPARE else None
    for _a, _b in BROADCASTS:
        add(Case(_op, list(binary_inputs(_op, _a, _b)), [np.broadcast_shapes(_a, _b)], _out))
    add(Case(_op, list(binary_inputs(_op, (4, 7), (7,), np.float64)), [(4, 7)], _out))
    add(Case(_op, list(binary_inputs(_op, (3, 5), (1,), np.float16)), [(3, 5)], _out))
    if _op != "pow":
        for _dtype, (_a, _b) in [(np.int32, ((3, 1, 13), (4, 1))), (np.int64, ((2, 33), ())), (np.int8, ((9,), (9,)))]:
            add(Case(_op, list(binary_inputs(_op, _a, _b, _dtype)), [np.broadcast_shapes(_a, _b)], _out))
    _x, _y = np.meshgrid(SPECIAL, SPECIAL)  # every pair of special values
    add(Case(_op, [_x.astype(np.float32), _y.astype(np.float32)], [_x.shape], _out, note="special values"))
add(Case("pow", [np.array([-2, -3, -0.5, 2, 0, 0, -2], np.float32), np.array([3, 2, -1, 0.5, -1, 0, 0.5], np.float32)],
         [(7,)], note="negative bases"))  # fmt: skip
add(Case("div", [np.array([7, -7, 7, -7, 6, 0, -1, 1], np.int32), np.array([2, 2, -2, -2, 3, 5, 3, -3], np.int32)],
         [(8,)], note="truncation"))  # fmt: skip
add(Case("equal", [booleans((4, 5)), booleans((5,))], [(4, 5)], [np.bool_]))
add(Case("pow", [integers((7,), np.int32, 1, 4), integers((7,), np.int32, 0, 4)], [(7,)]))

WHERE = [((7,), (7,), (7,)), ((3, 1), (1, 4), ()), ((2, 1, 13), (1, 5, 1), (5, 13)), ((1,), (2, 33), (2, 1)), ((0, 2), (2,), (1, 2))]
for _i, (_c, _x, _y) in enumerate(WHERE):
    _dtype = [np.float32, np.int32, np.float32, np.int64, np.float32][_i]
    add(Case("where", [booleans(_c), sample(_x, _dtype), sample(_y, _dtype)], [np.broadcast_shapes(_c, _x, _y)], [_dtype]))
add(Case("where", [booleans((3, 4)), booleans((3, 4)), booleans((4,))], [(3, 4)]))
add(Case("where", [booleans((15,)), SPECIAL.copy(), SPECIAL[::-1].copy()], [(15,)], [np.float32], note="special values"))

# --- constants -----------------------------------------------------------------------------------

for _value in [
    np.array(1.5, np.float32),
    np.full((2, 3), -0.25, np.float32),
    normal((7, 13)),
    SPECIAL.copy(),
    integers((5,), np.int64),
    integers((2, 33), np.int32),
    booleans((3, 4)),
    normal((129, 129)),  # 66 kB: bound by address instead of embedded
    normal((3, 5), np.float64),
]:
    add(Case("constant", [], [_value.shape], [_value.dtype], value=_value))

# --- matmul, gemm, conv ----------------------------------------------------------------------------

MATMUL_SHAPES = lower_nn.MATMUL_SHAPES + [
    ((7, 13), (13, 33)),
    ((33, 65), (65, 17)),
]
for _a, _b in MATMUL_SHAPES:
    _x, _y = normal(_a), normal(_b)
    add(Case("matmul", [_x, _y], [np.matmul(_x, _y).shape]))
for _dtype in (np.int32, np.int64, np.float64, np.float16):
    _x, _y = integers((2, 3, 4), _dtype, -5, 5), integers((4, 5), _dtype, -5, 5)
    add(Case("matmul", [_x, _y], [(2, 3, 5)], tol=EXACT))  # small integers: exact in every dtype

GEMM_CASES = lower_nn.GEMM_CASES + [
    (13, 33, 7, False, True, 1.0, 1.0, (7,)),
    (3, 0, 4, False, False, 1.0, 1.0, (4,)),  # empty contraction: beta * c
]
for _m, _k, _n, _ta, _tb, _alpha, _beta, _c in GEMM_CASES:
    _inputs = [normal((_k, _m) if _ta else (_m, _k)), normal((_n, _k) if _tb else (_k, _n))]
    _inputs += [] if _c is None else [normal(_c)]
    _p = props(f"alpha = {_alpha}" if _alpha != 1.0 else "", f"beta = {_beta}" if _beta != 1.0 else "",
               flag("trans_a", True) if _ta else "", flag("trans_b", True) if _tb else "")  # fmt: skip
    add(Case("gemm", _inputs, [(_m, _n)], props=_p))
add(Case("gemm", [normal((2, 3)), normal((3, 2)), np.array([INF, NAN], np.float32)], [(2, 2)], props="beta = 0.0",
         note="beta 0 ignores c"))  # fmt: skip
add(Case("gemm", [normal((3, 4), np.float64), normal((4, 5), np.float64), normal((5,), np.float64)], [(3, 5)]))

CONV_CASES = lower_nn.CONV_CASES + [
    ((1, 16, 15, 15), (33, 16, 3, 3), True, (1, 1), (1, 1, 1, 1), (1, 1), 1),  # wider channels
    ((0, 2, 4, 4), (3, 2, 3, 3), False, (1, 1), (0, 0, 0, 0), (1, 1), 1),  # empty batch
]


def conv_out(x_shape, w_shape, strides, pads, dilations):
    oh = window_out(x_shape[2], w_shape[2], strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(x_shape[3], w_shape[3], strides[1], pads[1], pads[3], dilations[1], False, "width")
    return (x_shape[0], w_shape[0], oh, ow)


for _x, _w, _bias, _s, _pads, _d, _g in CONV_CASES:
    _inputs = [normal(_x), normal(_w)] + ([normal((_w[0],))] if _bias else [])
    _p = props(ints("strides", _s), ints("pads", _pads), ints("dilations", _d), f"groups = {_g}")
    add(Case("conv2d", _inputs, [conv_out(_x, _w, _s, _pads, _d)], props=_p))
add(Case("conv2d", [normal((1, 2, 5, 5), np.float16), normal((3, 2, 3, 3), np.float16), normal((3,), np.float16)],
         [(1, 3, 3, 3)], tol=dict(rtol=1e-2, atol=1e-2), note="f16: 18 products rounded to half"))  # fmt: skip

# --- pooling and normalization ---------------------------------------------------------------------

POOL_CASES = lower_nn.POOL_CASES + [((1, 9, 33, 13), (2, 2), (2, 2), (0, 0, 0, 0), (1, 1), False),]


def pool_case(op, x, kernel, strides, pads, dilations, ceil_mode, *extra):
    shape = x.shape
    p = props(ints("kernel", kernel), ints("strides", strides), ints("pads", pads), ints("dilations", dilations),
              flag("ceil_mode", True) if ceil_mode else "", *extra)  # fmt: skip
    oh = window_out(shape[2], kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil_mode, "height")
    ow = window_out(shape[3], kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil_mode, "width")
    return Case(op, [x], [(shape[0], shape[1], oh, ow)], props=p)


for _shape, *_rest in POOL_CASES:
    add(pool_case("max_pool2d", normal(_shape), *_rest))
    add(pool_case("avg_pool2d", normal(_shape), *_rest))
    add(pool_case("avg_pool2d", normal(_shape), *_rest, flag("count_include_pad", True)))
for _dtype in (np.int8, np.int32, np.float16):
    add(pool_case("max_pool2d", integers((1, 2, 6, 5), _dtype, -100, 100), (2, 2), (2, 2), (1, 1, 1, 1), (1, 1), True))
add(pool_case("avg_pool2d", normal((1, 2, 5, 5), np.float16), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), True))
add(pool_case("max_pool2d", np.resize(SPECIAL, (1, 1, 5, 6)).astype(np.float32), (2, 2), (1, 1), (0, 0, 0, 0),
              (1, 1), False))  # fmt: skip

for _shape in [(1, 3, 5, 7), (2, 1, 1, 1), (3, 4, 9, 2), (1, 2, 33, 13), (0, 3, 4, 5)]:  # (empty H or W is rejected)
    add(Case("global_avg_pool2d", [normal(_shape)], [_shape[:2] + (1, 1)]))
add(Case("global_avg_pool2d", [normal((2, 3, 4, 5), np.float64)], [(2, 3, 1, 1)]))

for _shape, _eps in [((2, 3, 5, 4), 1e-5), ((4, 5), 1e-3), ((1, 3, 7), 0.0), ((2, 3, 2, 3, 2), 0.5), ((3, 1), 1e-5),
                     ((1, 33, 13, 1), 1e-5)]:  # fmt: skip
    _c = _shape[1]
    _var = np.asarray(RNG.uniform(0.2, 2.0, (_c,)), np.float32)
    add(Case("batch_norm", [normal(_shape, scale=3.0), normal((_c,)), normal((_c,)), normal((_c,)), _var], [_shape],
             props=f"epsilon = {_eps}" if _eps != 1e-5 else ""))  # fmt: skip

LAYER_NORM_CASES = lower_nn.LAYER_NORM_CASES + [((3, 33), -1, (33,), (33,), 1e-5),]
for _shape, _axis, _s, _b, _eps in LAYER_NORM_CASES:
    _inputs = [normal(_shape, scale=2.0, offset=1.5), normal(_s)] + ([] if _b is None else [normal(_b)])
    _p = props(f"axis = {_axis}" if _axis != -1 else "", f"epsilon = {_eps}" if _eps != 1e-5 else "")
    add(Case("layer_norm", _inputs, [_shape], props=_p))
add(Case("layer_norm", [normal((3, 6), np.float16), normal((6,), np.float16), normal((6,), np.float16)], [(3, 6)]))

SOFTMAX_CASES = lower_nn.SOFTMAX_CASES + [((3, 33), -1), ((3, 0), 1)]  # fmt: skip
for _op in ("softmax", "log_softmax"):
    for _shape, _axis in SOFTMAX_CASES:
        _x = normal(_shape, scale=30.0)  # exp would overflow without the max shift
        if _x.size:
            _x.flat[0] = 200.0
        add(Case(_op, [_x], [_shape], props=f"axis = {_axis}" if _axis != -1 else ""))
    add(Case(_op, [normal((3, 8), np.float64, 4.0)], [(3, 8)]))
    add(Case(_op, [normal((3, 8), np.float16, 4.0)], [(3, 8)]))

LRN_CASES = lower_nn.LRN_CASES + [((1, 13, 5, 33), 5, 1e-4, 0.75, 1.0),]
for _shape, _size, _alpha, _beta, _bias in LRN_CASES:
    add(Case("lrn", [normal(_shape, scale=2.0)], [_shape],
             props=f"size = {_size}, alpha = {_alpha}, beta = {_beta}, bias = {_bias}"))  # fmt: skip

# --- reductions ------------------------------------------------------------------------------------

REDUCE_CASES = [
    # shape, axes (None: the property is absent), keepdims
    ((3, 4), (1,), False),
    ((3, 4), (0,), True),
    ((2, 3, 5), (-1, 0), False),
    ((2, 3, 5), (1,), True),
    ((2, 3, 5), None, True),
    ((2, 3, 5), None, False),
    ((1, 7, 1), (0, 2), False),
    ((1, 7, 1), (-2,), True),
    ((5,), (0,), False),
    ((4, 1, 3, 2), (1, 3), True),
    ((3, 33), (1,), False),
    ((13, 7), (0,), True),
    ((3, 0), (1,), False),  # an empty reduction: the identity (NaN for a float mean, 0 for an integer one)
    ((0, 4), (0,), True),
    ((3, 4), (), True),  # empty axes: every axis
]
REDUCE_OPS = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod"]


def reduced_shape(shape, axes, keepdims):
    axes = range(len(shape)) if not axes else [a % len(shape) for a in axes]
    return tuple(1 if i in axes else n for i, n in enumerate(shape) if keepdims or i not in axes)


def reduce_input(op, shape, dtype):
    if op == "reduce_prod":
        if np.dtype(dtype).kind == "f":
            return (1 + 0.1 * normal(shape, dtype)).astype(dtype)
        return integers(shape, dtype, -3, 4)
    return sample(shape, dtype)


for _op in REDUCE_OPS:
    for _shape, _axes, _keep in REDUCE_CASES:
        for _dtype in (np.float32, np.int32):
            _p = props(ints("axes", _axes) if _axes is not None else "", flag("keepdims", _keep))
            add(Case(_op, [reduce_input(_op, _shape, _dtype)], [reduced_shape(_shape, _axes, _keep)], props=_p))
    for _dtype in (np.int8, np.int64, np.float64, np.float16):
        add(Case(_op, [reduce_input(_op, (3, 5, 4), _dtype)], [(3, 1, 4)], props=props(ints("axes", (1,)), flag("keepdims", True))))
    add(Case(_op, [normal((3, 4))], [(3, 4)], props=props(ints("axes", ()), flag("noop_with_empty_axes", True))))
    add(Case(_op, [np.array(2.5, np.float32)], [()], props=flag("keepdims", False)))
    _x = normal((3, 5))
    _x[1, 2] = NAN
    _x[2, 0] = INF
    add(Case(_op, [_x], [(3,)], props=props(ints("axes", (1,)), flag("keepdims", False)), note="nan and inf"))
for _op in ("reduce_max", "reduce_min"):
    add(Case(_op, [booleans((4, 5))], [(4,)], props=props(ints("axes", (1,)), flag("keepdims", False))))
add(Case("reduce_mean", [np.array([[-7, 0, 0], [7, 1, 0], [-1, -1, 0]], np.int32)], [(3,)],
         props=props(ints("axes", (1,)), flag("keepdims", False)), note="truncation"))  # fmt: skip

ARGMAX_CASES = [((3, 4), 1), ((3, 4), 0), ((2, 3, 5), -1), ((2, 3, 5), 1), ((1, 7, 1), 1), ((5,), 0), ((4, 1), -1),
                ((3, 33), 1)]  # fmt: skip
for _i, (_shape, _axis) in enumerate(ARGMAX_CASES):
    for _dtype in (np.float32, np.int32, np.int8, np.bool_):
        for _keep, _last in [(True, False), (False, True)] if _i % 2 else [(False, False), (True, True)]:
            _x = integers(_shape, _dtype, -3, 3) if _dtype != np.bool_ else booleans(_shape)  # small values: ties
            _out = list(_shape)
            if _keep:
                _out[_axis] = 1
            else:
                del _out[_axis]
            _p = props(f"axis = {_axis}", flag("keepdims", _keep), flag("select_last_index", True) if _last else "")
            add(Case("argmax", [_x.astype(_dtype)], [tuple(_out)], [np.int64], props=_p))
for _last in (False, True):
    _x = np.array([[1, NAN, 3, NAN], [-INF, -INF, -INF, -INF], [2, INF, INF, 0]], np.float32)
    add(Case("argmax", [_x], [(3,)], [np.int64], props=props("axis = 1", flag("keepdims", False),
                                                              flag("select_last_index", _last)), note="nan and inf"))  # fmt: skip

# --- data movement ---------------------------------------------------------------------------------

for _i, (_shape, _target) in enumerate([((3, 4), (2, 6)), ((1, 5, 1), (5,)), ((7,), (1, 7, 1)), ((), (1, 1)),
                                        ((2, 0, 3), (0, 4)), ((3, 4), (3, 4)), ((2, 33), (6, 11))]):  # fmt: skip
    add(Case("reshape", [sample(_shape, [np.float32, np.int64, np.bool_][_i % 3])], [_target]))

for _shape, _axis in [((2, 3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), -1), ((2, 3, 4), 3), ((5,), 1), ((1, 1), 1), ((3, 7, 13), 2)]:
    _a = _axis + len(_shape) if _axis < 0 else _axis
    add(Case("flatten", [normal(_shape)], [(int(np.prod(_shape[:_a])), int(np.prod(_shape[_a:])))], props=f"axis = {_axis}"))

for _shape, _axes in [((1, 3, 1), None), ((1, 3, 1), (0, -1)), ((1, 3, 1), (2,)), ((2, 3), None), ((1,), (0,)), ((1, 33, 1, 7), (2,))]:
    _x = integers(_shape, np.int32)
    add(Case("squeeze", [_x], [np.squeeze(_x, axis=_axes).shape], props=ints("axes", _axes) if _axes else ""))

for _shape, _axes in [((3, 4), (0,)), ((3, 4), (-1,)), ((3, 4), (1, 3)), ((), (0,)), ((5,), (0, -1)), ((13, 7), (1,))]:
    _x = normal(_shape)
    add(Case("unsqueeze", [_x], [np.expand_dims(_x, _axes).shape], props=ints("axes", _axes)))

TRANSPOSES = [((3, 4), None), ((2, 3, 5), (1, 0, 2)), ((2, 3, 5), (2, 0, 1)), ((2, 3, 5), None), ((1, 4, 1, 3), (3, 2, 0, 1)),
              ((5,), None), ((3, 4), (0, 1)), ((33, 13), None), ((0, 3), None)]  # fmt: skip
for _i, (_shape, _perm) in enumerate(TRANSPOSES):
    _x = sample(_shape, [np.float32, np.int8, np.bool_][_i % 3])
    add(Case("transpose", [_x], [np.transpose(_x, _perm).shape], props=ints("perm", _perm) if _perm else ""))

for _i, (_shape, _target) in enumerate([((3, 1), (2, 3, 5)), ((1,), (4,)), ((), (2, 3)), ((2, 1, 3), (2, 4, 3)), ((3, 4), (3, 4)),
                                        ((1, 1), (1, 7)), ((33, 1), (33, 13))]):  # fmt: skip
    add(Case("broadcast_to", [sample(_shape, [np.float32, np.int64][_i % 2])], [_target]))

SLICES = lower_shape.SLICES + [((13, 33), (1, 3), (12, 30), None, (3, 1)),]


def np_slice(x, starts, ends, axes, steps):
    index = [slice(None)] * x.ndim
    for a, st, en, sp in zip(axes or range(len(starts)), starts, ends, steps or [1] * len(starts)):
        index[a] = slice(st, en, sp)
    return x[tuple(index)]


for _i, (_shape, _starts, _ends, _axes, _steps) in enumerate(SLICES):
    _x = sample(_shape, [np.float32, np.int64][_i % 2])
    _out = (7,) if _ends == (-8,) else np_slice(_x, _starts, _ends, _axes, _steps).shape
    _p = props(ints("starts", _starts), ints("ends", _ends), ints("axes", _axes) if _axes else "",
               ints("steps", _steps) if _steps else "")  # fmt: skip
    add(Case("slice", [_x], [_out], props=_p))

for _shape, _axis, _sizes, _n in [((6, 4), 0, None, 3), ((6, 4), -1, None, 2), ((6, 5), 1, (2, 0, 3), 3), ((3, 7, 2), 1, (7,), 1),
                                  ((5,), 0, (1, 4), 2), ((2, 33), 1, (13, 7, 13), 3)]:  # fmt: skip
    _x = normal(_shape)
    _parts = np.split(_x, np.cumsum(_sizes)[:-1] if _sizes else _n, axis=_axis)
    add(Case("split", [_x], [p.shape for p in _parts], props=props(f"axis = {_axis}", ints("sizes", _sizes) if _sizes else "")))

for _i, (_shapes, _axis) in enumerate([([(2, 3), (4, 3)], 0), ([(2, 3), (2, 1), (2, 5)], -1), ([(3,)], 0), ([(2, 0), (2, 3)], 1),
                                       ([(1, 2, 3), (1, 2, 3)], 1), ([(3, 13), (3, 7), (3, 13)], 1)]):  # fmt: skip
    _xs = [sample(s, [np.float32, np.int64, np.bool_][_i % 3]) for s in _shapes]
    add(Case("concat", _xs, [np.concatenate(_xs, axis=_axis).shape], props=f"axis = {_axis}"))

PADS = lower_shape.PADS + [((3, 13), (1, 7, 2, 9)),]
for _mode in ("constant", "reflect", "edge"):
    for _i, (_shape, _pads) in enumerate(PADS):
        _rank = len(_shape)
        _kept = [n + min(b, 0) + min(e, 0) for n, b, e in zip(_shape, _pads[:_rank], _pads[_rank:])]
        if _mode == "reflect" and any(p >= k for p, k in zip(_pads, _kept * 2) if p > 0):
            continue  # reflect pads must be smaller than the (cropped) dimension
        _dtype = [np.float32, np.int32][_i % 2]
        _out = tuple(k + max(b, 0) + max(e, 0) for k, b, e in zip(_kept, _pads[:_rank], _pads[_rank:]))
        _value = 1.5 if _dtype == np.float32 else -7.0
        _p = props(ints("pads", _pads), f'mode = "{_mode}"', f"value = {_value}" if _mode == "constant" else "")
        add(Case("pad", [sample(_shape, _dtype)], [_out], props=_p))

GATHERS = [((5, 3), [4, 0, -1, 2], 0), ((5, 3), [[0, -3], [2, 1]], 1), ((5, 3), 2, 0), ((2, 3, 4), [[-4, 3, 0]], -1),
           ((2, 3, 4), [1, -3, 0, 2], 1), ((1, 6), [[5], [-6]], 1), ((33, 7), [32, -33, 13, 0, 1], 0)]  # fmt: skip
for _i, (_shape, _indices, _axis) in enumerate(GATHERS):
    _data = sample(_shape, [np.float32, np.int64][_i % 2])
    _idx = np.array(_indices, [np.int64, np.int32][(_i // 2) % 2])
    _out = np.take(_data, np.where(_idx < 0, _idx + _shape[_axis], _idx), axis=_axis).shape
    add(Case("gather", [_data, _idx], [_out], [_data.dtype], props=f"axis = {_axis}"))

COORDINATE_MODES = lower_shape.COORDINATE_MODES
NEAREST_MODES = lower_shape.NEAREST_MODES
RESIZE_SCALES = lower_shape.RESIZE_SCALES
RESIZE_SIZES = lower_shape.RESIZE_SIZES + [((1, 1, 13, 7), (1, 1, 33, 3))]
_k = 0
for _ctm in COORDINATE_MODES:
    for _nearest in NEAREST_MODES:
        _modes = f'coordinate_transformation_mode = "{_ctm}", nearest_mode = "{_nearest}"'
        _shape, _scales = RESIZE_SCALES[_k % len(RESIZE_SCALES)]
        _out = tuple(int(np.floor(np.float32(n) * np.float32(s))) for n, s in zip(_shape, _scales))
        _p = f"{_modes}, scales = array<f32: {', '.join(repr(float(s)) for s in _scales)}>"
        add(Case("resize", [sample(_shape, [np.float32, np.int32][_k % 2])], [_out], props=_p))
        _shape, _sizes = RESIZE_SIZES[_k % len(RESIZE_SIZES)]
        add(Case("resize", [sample(_shape, [np.float32, np.int64][_k % 2])], [_sizes], props=_modes))
        _k += 1



# --- indexing by values, trigonometric functions, mod, bit_shift, resize linear ---------------------

TRIG_DOMAIN = {"asin": np.tanh, "acos": np.tanh, "atanh": lambda x: np.tanh(x) * 0.99, "acosh": lambda x: np.abs(x) + 1}
for _op in ["sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh"]:
    _f = TRIG_DOMAIN.get(_op, lambda x: x)
    for _shape, _dtype in [((7,), np.float32), ((3, 1, 13), np.float32), ((), np.float32), ((0, 5), np.float32),
                           ((5, 7), np.float64), ((3, 11), np.float16)]:  # fmt: skip
        add(Case(_op, [np.asarray(_f(normal(_shape, _dtype, 2.0)), _dtype)], [_shape]))
    add(Case(_op, [SPECIAL.copy()], [SPECIAL.shape], note="special values"))

for _a, _b in [((7,), (7,)), ((3, 1, 13), (4, 1)), ((2, 33), ())]:
    for _dtype in (np.int32, np.int64, np.int8, np.uint8):
        _x, _y = integers(_a, _dtype, 0 if _dtype == np.uint8 else -20, 20), integers(_b, _dtype, 0 if _dtype == np.uint8 else -6, 7)
        for _fmod in (False, True):
            add(Case("mod", [_x, _y], [np.broadcast_shapes(_a, _b)], props=flag("fmod", True) if _fmod else ""))
    _y = normal(_b, scale=2.0)
    add(Case("mod", [normal(_a, scale=10.0), np.where(np.abs(_y) < 0.1, 0.5, _y).astype(np.float32)],
             [np.broadcast_shapes(_a, _b)], props=flag("fmod", True), tol=EXACT))  # fmt: skip
add(Case("mod", [np.array([7, -7, 7, -7, 0, 5, -128], np.int8), np.array([3, 3, -3, -3, 4, 0, -1], np.int8)], [(7,)],
         note="signs, zero and -1 divisors"))  # fmt: skip
for _fmod in (True, False):
    add(Case("mod", [np.array([7, -7, 5.5, -0.0, INF, 1.0, -1.0], np.float32), np.array([3, 3, -2, 1, 2, INF, INF], np.float32)],
             [(7,)], props=flag("fmod", _fmod), tol=EXACT, note="signs and infinities"))  # fmt: skip
    _y = normal((4, 9), np.float64, 2.0)
    add(Case("mod", [normal((4, 9), np.float64, 10.0), np.where(np.abs(_y) < 0.1, 0.5, _y)], [(4, 9)], props=flag("fmod", _fmod), tol=EXACT))

for _a, _b in [((7,), (7,)), ((3, 1, 13), (4, 1)), ((2, 33), ())]:
    for _dtype in (np.uint8, np.uint16, np.uint32, np.uint64, np.int8, np.int32, np.int64):
        _bits = np.dtype(_dtype).itemsize * 8
        _x = RNG.integers(0, 2**_bits - 1, _a, dtype=np.uint64).astype(_dtype)  # (negative ones when signed)
        _y = RNG.integers(-2 if np.dtype(_dtype).kind == "i" else 0, _bits + 3, _b).astype(_dtype)  # some out of range
        for _dir in ("left", "right"):
            add(Case("bit_shift", [_x, _y], [np.broadcast_shapes(_a, _b)], props=f'direction = "{_dir}"'))

for _i, (_shape, _ishape, _axis) in enumerate([((5, 3), (4, 3), 0), ((5, 3), (5, 7), 1), ((2, 3, 4), (2, 2, 4), -2),
                                               ((33, 7), (13, 7), 0), ((4,), (0,), 0)]):  # fmt: skip
    _data = sample(_shape, [np.float32, np.int64][_i % 2])
    _n = _shape[_axis]
    _idx = RNG.integers(-_n, _n, _ishape).astype([np.int64, np.int32][(_i // 2) % 2])
    add(Case("gather_elements", [_data, _idx], [_ishape], [_data.dtype], props=f"axis = {_axis}"))

for _i, (_shape, _ishape, _batch) in enumerate([((5, 3), (4, 2), 0), ((5, 3), (2, 1), 0), ((2, 3, 4), (2, 5, 1), 1),
                                                ((4, 6), (2,), 0), ((2, 3, 4, 5), (2, 3, 2), 2)]):  # fmt: skip
    _data = sample(_shape, [np.float32, np.int32][_i % 2])
    _k = _ishape[-1]
    _dims = np.array(_shape[_batch : _batch + _k])
    _idx = (RNG.integers(0, 1 << 20, _ishape) % (2 * _dims) - _dims).astype(np.int64)  # in [-d, d)
    _out = _ishape[:-1] + _shape[_batch + _k :]
    add(Case("gather_nd", [_data, _idx], [_out], [_data.dtype], props=f"batch_dims = {_batch}" if _batch else ""))

# dynamic_slice: (shape, starts, ends, axes, steps, result shape); negative starts count from the
# end, out-of-range ones clamp (the extents are the Python slices' of the same bounds).
for _i, (_shape, _s, _e, _axes, _steps, _out) in enumerate([
        ((7,), [-3], [100], [0], [1], (3,)), ((5, 13), [1, -100], [4, 5], [0, 1], [1, 2], (3, 3)),
        ((3, 1, 13), [12], [-100], [-1], [-3], (3, 1, 5)), ((2, 33), [0], [0], [1], [1], (2, 0)),
        ((4, 7), [-1, 2], [-5, 3], [0, 1], [-1, 1], (4, 1))]):  # fmt: skip
    _props = f"axes = array<i64: {', '.join(map(str, _axes))}>"
    _props += f", steps = array<i64: {', '.join(map(str, _steps))}>" if any(s != 1 for s in _steps) else ""
    _ints = [np.int64, np.int32][_i % 2]
    add(Case("dynamic_slice", [sample(_shape, [np.float32, np.int64][_i % 2]), np.array(_s, _ints), np.array(_e, _ints)],
             [_out], [[np.float32, np.int64][_i % 2]], props=_props))  # fmt: skip

for _i, (_shape, _idx) in enumerate([((5, 3), [[4], [0], [-2]]), ((5, 3), [[1, 2], [0, -1], [1, 2]]),
                                     ((2, 3, 4), [[[1, 0], [0, 2]]]), ((7,), [[3]]), ((3, 13), [[2], [1], [0], [-1]])]):  # fmt: skip
    _idx = np.array(_idx, np.int64)
    _dtype = [np.float32, np.int32][_i % 2]
    _updates = sample(_idx.shape[:-1] + _shape[_idx.shape[-1] :], _dtype)
    for _red in ["none", "add", "mul", "max", "min"] if _i < 3 else ["none"]:
        if _red == "none" and _i in (1, 4):
            continue  # repeated index tuples: undefined without a reduction
        add(Case("scatter_nd", [sample(_shape, _dtype), _idx, _updates], [_shape], [_dtype],
                 props=f'reduction = "{_red}"' if _red != "none" else ""))  # fmt: skip

for _i, (_shape, _axis) in enumerate([((7,), 0), ((3, 1, 13), -1), ((2, 33), 0), ((4, 5, 3), 1), ((0, 3), 1)]):
    for _dtype in (np.float32, np.int32, np.float64):
        for _ex, _rev in [(False, False), (True, False), (False, True), (True, True)][: 4 if _dtype == np.float32 else 1]:
            _p = props(f"axis = {_axis}", flag("exclusive", True) if _ex else "", flag("reverse", True) if _rev else "")
            add(Case("cumsum", [sample(_shape, _dtype)], [_shape], props=_p))
            add(Case("cumprod", [sample(_shape, _dtype)], [_shape], props=_p))

for _i, (_shape, _axis, _k) in enumerate([((7,), 0, 3), ((3, 13), -1, 5), ((4, 5, 3), 1, 5), ((2, 33), 1, 0), ((6, 2), 0, 6)]):
    for _dtype, _largest in [(np.float32, True), (np.float32, False), (np.int32, True), (np.int8, False)]:
        _x = sample(_shape, _dtype) if _dtype == np.float32 else integers(_shape, _dtype, -3, 3)  # ties
        _out = list(_shape)
        _out[_axis] = _k
        _p = props(f"k = {_k}", f"axis = {_axis}" if _axis != -1 else "", flag("largest", False) if not _largest else "")
        add(Case("topk", [_x], [tuple(_out)] * 2, [_dtype, np.int64], props=_p, tol=EXACT))

for _i, (_shape, _scales) in enumerate(RESIZE_SCALES):
    _ctm = ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel")[_i % 4]
    _out = tuple(int(np.floor(np.float32(n) * np.float32(s))) for n, s in zip(_shape, _scales))
    _p = f'mode = "linear", coordinate_transformation_mode = "{_ctm}", scales = array<f32: {", ".join(repr(float(s)) for s in _scales)}>'
    # f32 tolerance for f64 data too: the weights come from f32 coordinates (as onnxruntime's), which
    # fast-math may compute as x * (1 / scale), one f32 rounding apart from the reference's x / scale.
    add(Case("resize", [normal(_shape, [np.float32, np.float64][_i % 2])], [_out], props=_p, tol=F32))
for _i, (_shape, _sizes) in enumerate(RESIZE_SIZES):
    _ctm = ("pytorch_half_pixel", "half_pixel", "align_corners", "asymmetric")[_i % 4]
    add(Case("resize", [normal(_shape)], [_sizes], props=f'mode = "linear", coordinate_transformation_mode = "{_ctm}"', tol=F32))
    _cubic = 'mode = "cubic"' + (", exclude_outside = true" if _i % 2 else ", cubic_coeff_a = -0.5")
    add(Case("resize", [normal(_shape)], [_sizes], props=f'{_cubic}, coordinate_transformation_mode = "{_ctm}"', tol=F32))

# --- grid_sample ------------------------------------------------------------------------------------

for _i, (_x, _g, _mode, _pad) in enumerate([((2, 3, 5, 7), (2, 3, 4), "linear", "zeros"), ((1, 2, 5, 7), (1, 3, 3), "cubic", "reflection"),
                                           ((1, 2, 3, 4, 5), (1, 2, 3, 2), "linear", "border"), ((2, 1, 9), (2, 5), "cubic", "border"),
                                           ((1, 3, 4, 5), (1, 7, 1), "nearest", "reflection"), ((1, 1, 2, 3, 4), (1, 3, 2, 2), "nearest", "zeros")]):  # fmt: skip
    _grid = RNG.uniform(-1.6, 1.6, (*_g, len(_x) - 2)).astype([np.float32, np.float64][_i % 2])  # some points outside
    _p = props(f'mode = "{_mode}"', f'padding_mode = "{_pad}"', flag("align_corners", True) if _i % 3 == 1 else "")
    _dtype = [np.float32, np.float32, np.float64, np.float16][_i % 4]
    # f32 tolerance for f64 data: the weights come from f32 coordinates (as onnx's reference), one
    # f32 rounding apart under fast-math, as for resize.
    add(Case("grid_sample", [normal(_x, _dtype), _grid], [(*_x[:2], *_g[1:])], props=_p, tol=F32 if _dtype == np.float64 else None))
add(Case("grid_sample", [integers((1, 2, 3, 5), np.int32), normal((1, 4, 3, 2))], [(1, 2, 4, 3)], props='mode = "nearest", padding_mode = "border"'))

# --- known failures --------------------------------------------------------------------------------

KNOWN: list[tuple] = []  # (predicate on a Case, reason): none at present
for _case in CASES:
    for _match, _reason in KNOWN:
        if _match(_case) and _case.xfail is None:
            _case.xfail = _reason


# --- running ---------------------------------------------------------------------------------------


@dataclass
class Outcome:
    got: list[np.ndarray] | None
    want: list[np.ndarray]
    error: BaseException | None = None


def run_cases(cases: list[Case]) -> list[Outcome]:
    """Interpret and compile one function holding every case; the outcome of each case."""
    text, spans = function_text(cases)
    module = parse(text)
    inputs = [x for c in cases for x in c.inputs]
    want = run_function(module, inputs)
    exe = strati.compile(module)
    got = exe.run(*inputs)
    return [Outcome(got[s], want[s]) for s in spans]


def run_alone(case: Case) -> Outcome:
    try:
        return run_cases([case])[0]
    except Exception as err:  # reported by the case's test
        return Outcome(None, [], err)


@functools.cache
def outcomes(op: str) -> dict[int, Outcome]:
    """Every case of ``op`` without an xfail, by its index in CASES: compiled together, else one by one."""
    indices = [i for i, c in enumerate(CASES) if c.op == op and c.xfail is None]
    cases = [CASES[i] for i in indices]
    try:
        return dict(zip(indices, run_cases(cases)))
    except Exception:
        return {i: run_alone(c) for i, c in zip(indices, cases)}


def check(case: Case, outcome: Outcome) -> None:
    if outcome.error is not None:
        raise outcome.error
    assert len(outcome.got) == len(outcome.want)
    for i, (got, want) in enumerate(zip(outcome.got, outcome.want)):
        what = f"{case.id}, result {i}"
        assert got.dtype == want.dtype and got.shape == want.shape, f"{what}: {got.dtype}{got.shape} != {want.dtype}{want.shape}"
        tol = case.tolerance(want.dtype)
        if tol is EXACT:
            np.testing.assert_array_equal(got, want, err_msg=what, strict=True)
        else:
            np.testing.assert_allclose(got, want, err_msg=what, **tol)


def _param(i: int, case: Case):
    marks = [pytest.mark.xfail(reason=case.xfail, strict=True)] if case.xfail else []
    return pytest.param(i, id=f"{i}-{case.id}", marks=marks)


@pytest.mark.parametrize("index", [_param(i, c) for i, c in enumerate(CASES)])
def test_compiled_matches_interpreter(index):
    case = CASES[index]
    check(case, run_alone(case) if case.xfail else outcomes(case.op)[index])


def test_every_graph_op_has_cases():
    """Each op has cases over at least three distinct shapes: a new op without them fails here."""
    shapes: dict[str, set] = {}
    for case in CASES:
        shapes.setdefault(case.op, set()).add(tuple(x.shape for x in case.inputs) or case.value.shape)
    # Ops that only hold or end others (graph.fused, graph.yield) are covered by test_fusion.py.
    computing = [cls for cls in ALL_OPS if not cls.get_irdl_definition().regions and not cls.has_trait(IsTerminator)]
    names = [cls.name.removeprefix("graph.") for cls in computing]
    missing = [n for n in names if len(shapes.get(n, ())) < 3]
    assert not missing, f"graph ops with fewer than three shapes in the differential suite: {missing}"
    unknown = set(shapes) - set(names)
    assert not unknown, f"cases of ops that are not in ALL_OPS: {sorted(unknown)}"
    counts = Counter(c.op for c in CASES)
    assert min(counts.values()) >= 3


# --- the example models end to end -------------------------------------------------------------------


def example_inputs(module, seed: int) -> list[np.ndarray]:
    """Seeded inputs: the first argument standard normal, the parameters 0.3 * standard normal."""
    rng = np.random.default_rng(seed)
    fn = find_function(module)
    out = []
    for i, t in enumerate(fn.function_type.inputs.data):
        x = rng.standard_normal(shape_of(t)) * (1.0 if i == 0 else 0.3)
        out.append(x.astype(to_dtype(t.get_element_type())))
    return out


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.mlir")), ids=lambda p: p.stem)
def test_example_model_end_to_end(path):
    module = parse(path.read_text())
    exe = strati.compile(path)
    assert exe.input_names == argument_names(find_function(module))
    for seed in (0, 1):
        inputs = example_inputs(module, seed)
        want = run_function(module, inputs)
        got = exe.run(*inputs)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, err_msg=f"{path.name}, seed {seed}", **F32)
