"""Differential tests of the ONNX importer: one-node models, seeded random shapes and
attribute values, several opsets where an operator's semantics changed, run by
onnxruntime and by strati (import + the reference interpreter), compared at
rtol 1e-4 / atol 1e-5 (exactly for integers, booleans and data movement).

onnxruntime refuses some old opsets (6 for most operators) and a few newer ones;
those models are run by ONNX's own reference evaluator (``onnx.reference``)
instead, and the case says so in its id.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from strati.frontends.onnx import UnsupportedModelError, bind_feeds, import_model, supported_op_types
from strati.runtime.interpreter import find_function, run_function

RTOL, ATOL = 1e-4, 1e-5
ort.set_default_logger_severity(3)  # no warnings about old opsets
DRAWS = 8  # random draws (shapes, attributes, values) per case

CASES: dict[str, Callable[[np.random.Generator], None]] = {}
COVERED: set[str] = set()


def case(*op_types: str, draws: int = DRAWS):
    """Register a case function; it is called with ``draws`` seeded generators."""

    def decorator(fn):
        COVERED.update(op_types)
        CASES[fn.__name__.removeprefix("case_")] = (fn, draws)
        return fn

    return decorator


# --- building and running -------------------------------------------------------------


def make_model(op_type, inputs, attrs, opset, n_outputs=1, const=(), outputs=None):
    """One node; ``inputs`` are arrays (None: an omitted optional input); the positions in
    ``const`` are initializers, the others graph inputs."""
    names, graph_inputs, inits = [], [], []
    for i, x in enumerate(inputs):
        if x is None:
            names.append("")
            continue
        name = f"in{i}"
        names.append(name)
        if i in const:
            inits.append(numpy_helper.from_array(np.asarray(x), name))
        else:
            dtype = helper.np_dtype_to_tensor_dtype(np.asarray(x).dtype)
            graph_inputs.append(helper.make_tensor_value_info(name, dtype, np.asarray(x).shape))
    out_names = outputs or [f"out{i}" for i in range(n_outputs)]
    node = helper.make_node(op_type, names, out_names, name=f"{op_type.lower()}_node", **attrs)
    graph = helper.make_graph(
        [node], "g", graph_inputs, [onnx.ValueInfoProto(name=o) for o in out_names if o], initializer=inits
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8 if opset <= 18 else 10
    return model


def feeds_of(model, inputs, const):
    return {f"in{i}": np.asarray(x) for i, x in enumerate(inputs) if x is not None and i not in const}


def run_oracle(model, feeds, reference: bool = False):
    """onnxruntime; ONNX's reference evaluator for the models onnxruntime refuses, or always
    (``reference``) where onnxruntime is not exact on every host."""
    try:
        if reference:
            raise LookupError("the reference evaluator is asked for")
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    except Exception:  # noqa: BLE001 - an opset or type onnxruntime does not implement
        from onnx.reference import ReferenceEvaluator

        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return [np.asarray(o) for o in ReferenceEvaluator(model).run(None, feeds)], "onnx.reference"
    return session.run(None, feeds), "onnxruntime"


def run_strati(model, feeds):
    module = import_model(model)
    fn = find_function(module)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return run_function(module, bind_feeds(fn, feeds))


def check(op_type, inputs, opset=17, n_outputs=1, const=(), outputs=None, exact=False, reference=False, **attrs):
    model = make_model(op_type, inputs, attrs, opset, n_outputs, const, outputs)
    feeds = feeds_of(model, inputs, const)
    want, oracle = run_oracle(model, feeds, reference)
    got = run_strati(model, feeds)
    where = f"{op_type} opset {opset} {attrs} inputs {[None if x is None else np.asarray(x).shape for x in inputs]} vs {oracle}"
    assert len(got) == len(want), where
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape, f"{where}: shape {g.shape} != {w.shape}"
        assert g.dtype == w.dtype, f"{where}: dtype {g.dtype} != {w.dtype}"
        if exact or w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=where)
        else:
            np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=where)


# --- random values ----------------------------------------------------------------------


def shape(rng, rank, lo=1, hi=5):
    return tuple(int(d) for d in rng.integers(lo, hi + 1, size=rank))


def randn(rng, s, dtype=np.float32):
    return np.asarray(rng.standard_normal(s)).astype(dtype)


def randint(rng, s, lo=-9, hi=10, dtype=np.int64):
    return rng.integers(lo, hi, size=s).astype(dtype)


def broadcastable(rng, s):
    """A shape that broadcasts against ``s``: some dimensions 1, maybe fewer of them."""
    t = [1 if rng.random() < 0.4 else d for d in s]
    drop = int(rng.integers(0, len(s) + 1))
    return tuple(t[drop:])


# --- elementwise ------------------------------------------------------------------------

UNARY_FLOAT = {
    # op: (opsets, value transform)
    "Relu": ((6, 13, 14), None),
    "Sigmoid": ((6, 13), None),
    "Tanh": ((6, 13), None),
    "Exp": ((6, 13), None),
    "Log": ((6, 13), lambda x: np.abs(x) + 0.1),
    "Sqrt": ((6, 13), np.abs),
    "Abs": ((6, 13), None),
    "Neg": ((6, 13), None),
    "Erf": ((9, 13), None),
    "Reciprocal": ((6, 13), lambda x: np.where(np.abs(x) < 0.1, 0.5, x).astype(x.dtype)),
    "Softsign": ((7,), None),
    "Softplus": ((7,), None),
    "Mish": ((18,), None),
    "Identity": ((7, 14, 16, 21), None),
    "Sign": ((9, 13), None),
}


@case(*UNARY_FLOAT)
def case_unary(rng):
    for op_type, (opsets, transform) in UNARY_FLOAT.items():
        # (rank >= 1 for Erf: graph.erf's reference fails on rank 0, np.frompyfunc gives a scalar)
        x = randn(rng, shape(rng, int(rng.integers(op_type == "Erf", 4))))
        if transform is not None:
            x = transform(x)
        for opset in opsets:
            check(op_type, [x], opset)


@case("Floor", "Ceil", "Round")
def case_rounding(rng):
    x = np.concatenate([
        rng.integers(-20, 20, 12) / 2.0,  # halves: ties
        rng.standard_normal(12) * 3,
        [0.0, -0.0, 1e9 + 0.5, -3e9, 2.0**23 + 1, np.inf, -np.inf, np.nan],
    ]).astype(np.float32)
    for op_type in ("Floor", "Ceil", "Round"):
        check(op_type, [x], 13 if op_type != "Round" else 11, exact=True)
        check(op_type, [x.astype(np.float64)], 13 if op_type != "Round" else 11, exact=True)


@case("Elu", "Selu", "Celu", "ThresholdedRelu", "HardSigmoid", "HardSwish", "LeakyRelu", "Shrink", "Gelu", "Swish")
def case_activations(rng):
    x = randn(rng, shape(rng, 3)) * 2
    a = float(rng.uniform(0.1, 2.0))
    check("Elu", [x], 7, alpha=a)
    check("Selu", [x], 7, alpha=a, gamma=float(rng.uniform(0.5, 2)))
    check("Selu", [x], 7)
    check("Celu", [x], 12, alpha=a)
    check("ThresholdedRelu", [x], 10, alpha=a)
    check("HardSigmoid", [x], 7, alpha=a / 4, beta=float(rng.uniform(0, 1)))
    check("HardSwish", [x], 14)
    check("LeakyRelu", [x], 7, alpha=a)
    check("LeakyRelu", [x], 16)
    check("Shrink", [x], 9, lambd=a, bias=float(rng.uniform(-1, 1)))
    check("Gelu", [x], 20)
    check("Gelu", [x], 20, approximate="tanh")
    check("Swish", [x], 24, alpha=a)


@case("PRelu")
def case_prelu(rng):
    s = shape(rng, 4)
    x = randn(rng, s)
    check("PRelu", [x, randn(rng, (s[1], 1, 1))], 9, const=(1,))
    check("PRelu", [x, randn(rng, broadcastable(rng, s))], 16)
    check("PRelu", [x, randn(rng, (1,))], 7, const=(1,))


@case("IsNaN", "IsInf")
def case_special_values(rng):
    x = randn(rng, (12,))
    x[[1, 4]] = np.nan
    x[2], x[7] = np.inf, -np.inf
    check("IsNaN", [x], 13)
    check("IsNaN", [x.astype(np.float64)], 20)
    for pos, neg in ((1, 1), (1, 0), (0, 1), (0, 0)):
        check("IsInf", [x], 10, detect_positive=pos, detect_negative=neg)


BINARY = ("Add", "Sub", "Mul", "Div")


@case(*BINARY, "Pow")
def case_binary(rng):
    s = shape(rng, int(rng.integers(1, 4)))
    for op_type in BINARY:
        a, b = randn(rng, s), randn(rng, broadcastable(rng, s))
        if op_type == "Div":
            b = np.where(np.abs(b) < 0.1, 0.5, b).astype(np.float32)
        for opset in (7, 13, 14):
            check(op_type, [a, b], opset)
        check(op_type, [b, a], 14)
        ia, ib = randint(rng, s), randint(rng, broadcastable(rng, s))
        if op_type == "Div":
            ib = np.where(ib == 0, 3, ib)
        check(op_type, [ia, ib], 14)
        check(op_type, [ia.astype(np.int32), ib.astype(np.int32)], 13)
    base = np.abs(randn(rng, s)) + 0.5
    check("Pow", [base, randn(rng, broadcastable(rng, s))], 7)
    check("Pow", [base, randn(rng, broadcastable(rng, s))], 15)
    check("Pow", [base, np.array([2, 3], np.int64)[: s[-1] if s[-1] <= 2 else 1]], 15)


@case("Add", "Mul")
def case_legacy_broadcast(rng):
    # Opset 6: broadcast=1 with an axis aligns b at that axis (here numpy agrees when b's
    # shape matches a's trailing dimensions); onnxruntime refuses opset 6.
    s = shape(rng, 3)
    check("Add", [randn(rng, s), randn(rng, s[1:])], 6, broadcast=1)
    check("Mul", [randn(rng, s), randn(rng, s)], 6)


@case("Max", "Min", "Sum", "Mean")
def case_variadic(rng):
    s = shape(rng, 3)
    for op_type in ("Max", "Min", "Sum", "Mean"):
        for n in (1, 2, 3):
            xs = [randn(rng, s)] + [randn(rng, broadcastable(rng, s)) for _ in range(n - 1)]
            check(op_type, xs, 13)
        check(op_type, [randn(rng, s), randn(rng, s)], 6)
    check("Max", [randint(rng, s), randint(rng, s)], 13)
    check("Min", [randint(rng, s, dtype=np.int32), randint(rng, s, dtype=np.int32)], 12)


@case("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")
def case_compare(rng):
    s = shape(rng, 3)
    for op_type, opset in (("Equal", 13), ("Less", 13), ("Greater", 13), ("LessOrEqual", 16), ("GreaterOrEqual", 16)):
        a = randint(rng, s, -3, 3)
        b = randint(rng, broadcastable(rng, s), -3, 3)
        check(op_type, [a, b], opset)
        fa, fb = a.astype(np.float32), b.astype(np.float32)
        fa[..., 0] = np.nan
        check(op_type, [fa, fb], opset)
    check("Equal", [a.astype(bool), b.astype(bool)], 11)
    check("Less", [fa, fb], 9)


@case("Not", "And", "Or", "Xor", "Where")
def case_logical(rng):
    s = shape(rng, 3)
    a = rng.random(s) < 0.5
    b = rng.random(broadcastable(rng, s)) < 0.5
    check("Not", [a], 7)
    for op_type in ("And", "Or", "Xor"):
        check(op_type, [a, b], 7)
        check(op_type, [b, a], 7)
    check("Where", [a, randn(rng, broadcastable(rng, s)), randn(rng, s)], 16)
    check("Where", [b, randint(rng, s), randint(rng, broadcastable(rng, s))], 9)


@case("Clip")
def case_clip(rng):
    s = shape(rng, 3)
    x = randn(rng, s) * 2
    lo, hi = sorted(rng.uniform(-1.5, 1.5, 2).astype(np.float32))
    check("Clip", [x], 6, min=float(lo), max=float(hi))
    check("Clip", [x], 6, max=float(hi))
    for opset in (11, 12, 13):
        check("Clip", [x, np.float32(lo), np.float32(hi)], opset, const=(1, 2))
        check("Clip", [x, None, np.float32(hi)], opset, const=(2,))
        check("Clip", [x, np.float32(lo)], opset, const=(1,))
        check("Clip", [x], opset)
        check("Clip", [x, np.float32(lo), np.float32(hi)], opset)  # bounds known at run time
    check("Clip", [x, np.float32(hi), np.float32(lo)], 13, const=(1, 2))  # min > max: all max
    xi = randint(rng, s)
    check("Clip", [xi, np.int64(-3), np.int64(4)], 13, const=(1, 2))


@case("Mod")
def case_mod(rng):
    s = shape(rng, 2)
    a = randint(rng, s, -20, 20)
    b = randint(rng, broadcastable(rng, s), -6, 7)
    b = np.where(b == 0, 5, b)
    check("Mod", [a, b], 13)
    check("Mod", [a, b], 13, fmod=1)
    check("Mod", [a.astype(np.int32), b.astype(np.int32)], 10)
    check("Mod", [a.astype(np.uint8) % 50, np.abs(b).astype(np.uint8)], 13)
    fa, fb = randn(rng, s) * 5, randn(rng, broadcastable(rng, s))
    check("Mod", [fa, np.where(np.abs(fb) < 0.1, 0.5, fb).astype(np.float32)], 13, fmod=1, exact=True)
    # Floats with fmod=0 (opset 28; onnxruntime refuses them before): numpy.mod, as ONNX's reference.
    fb = np.where(np.abs(fb) < 0.1, 0.5, fb).astype(np.float32)
    model = make_model("Mod", [fa, fb], {}, 13)
    (got,) = run_strati(model, feeds_of(model, [fa, fb], ()))
    np.testing.assert_array_equal(got, np.mod(fa, fb))


# --- linear algebra, convolution, pooling ---------------------------------------------------


@case("MatMul")
def case_matmul(rng):
    m, k, n = shape(rng, 3)
    check("MatMul", [randn(rng, (m, k)), randn(rng, (k, n))], 13)
    b = shape(rng, 1)
    check("MatMul", [randn(rng, b + (m, k)), randn(rng, (k, n))], 9)
    check("MatMul", [randn(rng, (2, 1, m, k)), randn(rng, (3, k, n))], 13)
    check("MatMul", [randn(rng, (k,)), randn(rng, (k, n))], 13)
    check("MatMul", [randn(rng, (m, k)), randn(rng, (k,))], 13)
    check("MatMul", [randint(rng, (m, k)), randint(rng, (k, n))], 13)


@case("Gemm")
def case_gemm(rng):
    m, k, n = shape(rng, 3)
    for ta in (0, 1):
        for tb in (0, 1):
            a = randn(rng, (k, m) if ta else (m, k))
            b = randn(rng, (n, k) if tb else (k, n))
            alpha, beta = (float(v) for v in rng.uniform(-2, 2, 2))
            check("Gemm", [a, b, randn(rng, (m, n))], 9, transA=ta, transB=tb, alpha=alpha, beta=beta)
            check("Gemm", [a, b, randn(rng, (n,))], 13, const=(2,), transA=ta, transB=tb)
            check("Gemm", [a, b], 13, transA=ta, transB=tb, alpha=alpha)
    check("Gemm", [randn(rng, (m, k)), randn(rng, (k, n)), randn(rng, (1,))], 7)
    check("Gemm", [randn(rng, (m, k)), randn(rng, (k, n)), randn(rng, (m, 1))], 11)


def conv_attrs(rng, nsp, kernel):
    attrs = {}
    if rng.random() < 0.5:
        attrs["strides"] = [int(s) for s in rng.integers(1, 3, nsp)]
    if rng.random() < 0.4:
        attrs["dilations"] = [int(d) for d in rng.integers(1, 3, nsp)]
    mode = rng.choice(["NOTSET", "pads", "SAME_UPPER", "SAME_LOWER", "VALID"])
    if mode == "pads":
        attrs["pads"] = [int(p) for p in rng.integers(0, 3, 2 * nsp)]
    elif mode != "NOTSET":
        attrs["auto_pad"] = str(mode)
    if "auto_pad" in attrs and attrs["auto_pad"].startswith("SAME"):
        attrs.pop("dilations", None)  # onnxruntime computes SAME pads without dilation
    return attrs


@case("Conv", draws=4)
def case_conv(rng):
    for nsp in (1, 2, 3):
        groups = int(rng.choice([1, 2]))
        n = int(rng.integers(1, 3))
        c = groups * int(rng.integers(1, 3))
        o = groups * int(rng.integers(1, 3))
        kernel = tuple(int(k) for k in rng.integers(1, 4, nsp))
        spatial = tuple(int(d) for d in rng.integers(5, 8 if nsp < 3 else 6, nsp))
        x = randn(rng, (n, c) + spatial)
        w = randn(rng, (o, c // groups) + kernel)
        attrs = conv_attrs(rng, nsp, kernel)
        check("Conv", [x, w, randn(rng, (o,))], 11, const=(1, 2), group=groups, **attrs)
        check("Conv", [x, w], 11, group=groups, kernel_shape=list(kernel), **attrs)


@case("ConvTranspose", draws=4)
def case_conv_transpose(rng):
    for nsp in (1, 2):
        groups = int(rng.choice([1, 2]))
        c = groups * int(rng.integers(1, 3))
        og = int(rng.integers(1, 3))
        kernel = tuple(int(k) for k in rng.integers(1, 4, nsp))
        spatial = tuple(int(d) for d in rng.integers(2, 5, nsp))
        x = randn(rng, (1, c) + spatial)
        w = randn(rng, (c, og) + kernel)
        strides = [int(s) for s in rng.integers(1, 3, nsp)]
        attrs = {"strides": strides, "group": groups}
        if rng.random() < 0.5:
            attrs["pads"] = [int(p) for p in rng.integers(0, 2, 2 * nsp)]
        if rng.random() < 0.4:
            attrs["dilations"] = [int(d) for d in rng.integers(1, 3, nsp)]
        if rng.random() < 0.4:
            attrs["output_padding"] = [int(rng.integers(0, s)) if s > 1 else 0 for s in strides]
        check("ConvTranspose", [x, w, randn(rng, (og * groups,))], 11, const=(1, 2), **attrs)
        check("ConvTranspose", [x, w], 11, **attrs)
        # With output_shape or SAME_UPPER, onnxruntime puts the odd pad at the other end
        # than the ONNX spec and reference (which strati follows), and clamps a negative
        # total padding at 0: compare where they agree (an even, non-negative total).
        plain = {"strides": strides, "group": groups}
        out_shape = [s * (d - 1) + k - 2 * int(rng.integers(0, (k + 1) // 2)) for s, d, k in zip(strides, spatial, kernel)]
        check("ConvTranspose", [x, w], 11, output_shape=out_shape, **plain)
        same_kernel = tuple(s + 2 * int(rng.integers(0, 2)) for s in strides)
        check("ConvTranspose", [x, randn(rng, (c, og) + same_kernel)], 11, auto_pad="SAME_UPPER", **plain)


@case("MaxPool", "AveragePool", draws=4)
def case_pool(rng):
    for nsp in (1, 2, 3):
        kernel = [int(k) for k in rng.integers(1, 4, nsp)]
        spatial = tuple(int(d) for d in rng.integers(4, 8 if nsp < 3 else 6, nsp))
        x = randn(rng, (2, 2) + spatial)
        attrs = {"kernel_shape": kernel}
        if rng.random() < 0.6:
            attrs["strides"] = [int(s) for s in rng.integers(1, 3, nsp)]
        if rng.random() < 0.5:
            attrs["pads"] = [int(rng.integers(0, k)) for k in kernel * 2]
        elif rng.random() < 0.5:
            attrs["auto_pad"] = str(rng.choice(["SAME_UPPER", "SAME_LOWER", "VALID"]))
        ceil_mode = int(rng.integers(0, 2))
        check("MaxPool", [x], 8, **attrs)
        check("MaxPool", [x], 12, ceil_mode=ceil_mode, **attrs)
        if "auto_pad" not in attrs:
            check("MaxPool", [x], 12, dilations=[int(d) for d in rng.integers(1, 3, nsp)], **attrs)
        for include in (0, 1):
            check("AveragePool", [x], 7, count_include_pad=include, **attrs)
            check("AveragePool", [x], 19, count_include_pad=include, ceil_mode=ceil_mode, **attrs)
    check("MaxPool", [randint(rng, (1, 2, 5, 5)).astype(np.int8)], 12, kernel_shape=[2, 2])


@case("GlobalAveragePool", "GlobalMaxPool")
def case_global_pool(rng):
    for rank in (3, 4, 5):
        x = randn(rng, shape(rng, rank))
        check("GlobalAveragePool", [x], 7)
        check("GlobalMaxPool", [x], 7)


# --- normalization --------------------------------------------------------------------------


@case("BatchNormalization")
def case_batch_norm(rng):
    s = shape(rng, int(rng.integers(2, 5)))
    c = s[1]
    params = [randn(rng, (c,)), randn(rng, (c,)), randn(rng, (c,)), np.abs(randn(rng, (c,))) + 0.1]
    for opset in (7, 9, 14, 15):
        check("BatchNormalization", [randn(rng, s)] + params, opset, const=(1, 2, 3, 4), epsilon=float(rng.uniform(1e-5, 1e-2)))
    check("BatchNormalization", [randn(rng, s)] + params, 15)


@case("InstanceNormalization", "LayerNormalization", "GroupNormalization", "RMSNormalization")
def case_norms(rng):
    s = shape(rng, int(rng.integers(3, 5)), lo=2)
    x = randn(rng, s)
    c = s[1]
    check("InstanceNormalization", [x, randn(rng, (c,)), randn(rng, (c,))], 6, const=(1, 2), epsilon=1e-3)
    axis = int(rng.integers(-len(s), len(s)))
    norm_shape = s[axis:]
    check("LayerNormalization", [x, randn(rng, norm_shape), randn(rng, norm_shape)], 17, axis=axis)
    check("LayerNormalization", [x, randn(rng, norm_shape)], 17, axis=axis, epsilon=1e-3)
    check("LayerNormalization", [x, randn(rng, norm_shape)], 17, n_outputs=3, axis=axis)
    groups = int(rng.choice([g for g in (1, 2, c) if c % g == 0]))
    check("GroupNormalization", [x, randn(rng, (c,)), randn(rng, (c,))], 21, num_groups=groups)
    check("RMSNormalization", [x, randn(rng, norm_shape)], 23, axis=axis)


@case("LRN", "LpNormalization", "MeanVarianceNormalization")
def case_other_norms(rng):
    x = randn(rng, shape(rng, 4, lo=2))
    size = int(rng.choice([1, 3, 5]))
    check("LRN", [x], 13, size=size, alpha=float(rng.uniform(1e-4, 1e-2)), beta=0.75, bias=float(rng.uniform(0.5, 2)))
    for p in (1, 2):
        check("LpNormalization", [x], 1 if False else 7, p=p, axis=int(rng.integers(-4, 4)))
    check("MeanVarianceNormalization", [x], 13)
    check("MeanVarianceNormalization", [x], 13, axes=[1, 2])


@case("Softmax", "LogSoftmax", "Hardmax")
def case_softmax(rng):
    s = shape(rng, int(rng.integers(1, 5)))
    x = randn(rng, s)
    axis = int(rng.integers(-len(s), len(s)))
    for op_type in ("Softmax", "LogSoftmax", "Hardmax"):
        check(op_type, [x], 11, axis=axis)
        if len(s) >= 2:  # (the default axis 1)
            check(op_type, [x], 11)
        check(op_type, [x], 13, axis=axis)
        check(op_type, [x], 13)
    check("Hardmax", [np.round(x)], 13, axis=axis)  # ties: the first one


@case("Dropout")
def case_dropout(rng):
    x = randn(rng, shape(rng, 3))
    check("Dropout", [x], 7, ratio=0.3)
    check("Dropout", [x], 10)  # (the mask of Dropout-10 is unspecified at inference; onnxruntime fills it false)
    check("Dropout", [x, np.float32(0.2)], 12, const=(1,), n_outputs=2)
    check("Dropout", [x], 13)


# --- reductions -----------------------------------------------------------------------------

REDUCE = ("ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
          "ReduceLogSum", "ReduceLogSumExp")  # fmt: skip


@case(*REDUCE)
def case_reduce(rng):
    s = shape(rng, int(rng.integers(1, 4)))
    x = randn(rng, s)
    positive = np.abs(x) + 0.5
    axes = sorted({int(a) for a in rng.integers(-len(s), len(s), int(rng.integers(1, len(s) + 1)))})
    axes = sorted({a % len(s) for a in axes})
    keep = int(rng.integers(0, 2))
    for op_type in REDUCE:
        v = positive if op_type == "ReduceLogSum" else x
        check(op_type, [v], 11, axes=axes, keepdims=keep)
        check(op_type, [v], 11)
        from_input = 13 if op_type == "ReduceSum" else 18
        check(op_type, [v, np.array(axes, np.int64)], from_input, const=(1,), keepdims=keep)
        check(op_type, [v], from_input, keepdims=keep)
        check(op_type, [v, np.array([], np.int64)], from_input, const=(1,), noop_with_empty_axes=1)
    xi = randint(rng, s)
    for op_type in ("ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceMean"):
        check(op_type, [xi], 13, keepdims=keep)


@case("ArgMax", "ArgMin")
def case_argmax(rng):
    s = shape(rng, int(rng.integers(1, 4)))
    axis = int(rng.integers(-len(s), len(s)))
    for x in (randn(rng, s), randint(rng, s, -3, 3), randint(rng, s, 0, 4, np.uint8)):
        for op_type in ("ArgMax", "ArgMin"):
            check(op_type, [x], 11, axis=axis, keepdims=int(rng.integers(0, 2)))
            check(op_type, [x], 13, axis=axis, select_last_index=1)
            check(op_type, [x], 13)
    check("ArgMin", [np.array([[np.iinfo(np.int32).min, 0, np.iinfo(np.int32).max]], np.int32)], 13, axis=1)


# --- data movement --------------------------------------------------------------------------


@case("Reshape")
def case_reshape(rng):
    s = shape(rng, 3)
    x = randn(rng, s)
    for target in ([s[0], -1], [0, s[1] * s[2]], [-1], [0, 0, s[2], 1], [s[2], s[1], s[0]]):
        check("Reshape", [x, np.array(target, np.int64)], 13, const=(1,), exact=True)
        check("Reshape", [x, np.array(target, np.int64)], 6, const=(1,), exact=True)
    check("Reshape", [randn(rng, (0, s[1])), np.array([s[1], 0], np.int64)], 14, const=(1,), allowzero=1)
    check("Reshape", [randint(rng, s), np.array([-1, s[2]], np.int64)], 19, const=(1,))


@case("Flatten", "Transpose", "Squeeze", "Unsqueeze")
def case_shape_ops(rng):
    s = shape(rng, 4)
    x = randn(rng, s)
    for axis in range(0, 5):
        check("Flatten", [x], 9, axis=axis, exact=True)
    check("Flatten", [x], 13, axis=-2, exact=True)
    perm = [int(p) for p in rng.permutation(4)]
    check("Transpose", [x], 13, perm=perm, exact=True)
    check("Transpose", [x], 7, exact=True)
    y = randn(rng, (s[0], 1, s[1], 1))
    check("Squeeze", [y], 11, axes=[1, -1], exact=True)
    check("Squeeze", [y], 7, exact=True)
    check("Squeeze", [y, np.array([3], np.int64)], 13, const=(1,), exact=True)
    check("Squeeze", [y], 13, exact=True)
    check("Unsqueeze", [x], 11, axes=[0, -1], exact=True)
    check("Unsqueeze", [x], 7, axes=[2], exact=True)
    check("Unsqueeze", [x, np.array([1, 5], np.int64)], 13, const=(1,), exact=True)


@case("Concat", "Split")
def case_concat_split(rng):
    s = shape(rng, 3)
    axis = int(rng.integers(-3, 3))
    parts = []
    for _ in range(int(rng.integers(1, 4))):
        t = list(s)
        t[axis] = int(rng.integers(1, 4))
        parts.append(randn(rng, t))
    check("Concat", parts, 13, axis=axis, exact=True)
    check("Concat", parts, 7, axis=axis % 3, exact=True)
    x = randn(rng, (6, 4, 5))
    check("Split", [x], 11, n_outputs=3, axis=0, exact=True)
    check("Split", [x], 11, n_outputs=2, axis=-1, split=[2, 3], exact=True)
    check("Split", [x], 7, n_outputs=2, axis=1, exact=True)
    check("Split", [x, np.array([1, 2, 3], np.int64)], 13, const=(1,), n_outputs=3, exact=True)
    check("Split", [x], 13, n_outputs=2, axis=0, exact=True)
    check("Split", [x], 18, n_outputs=2, axis=2, num_outputs=2, exact=True)
    check("Split", [x], 18, n_outputs=3, axis=0, num_outputs=3, exact=True)


@case("Slice")
def case_slice(rng):
    s = shape(rng, 3, lo=2, hi=6)
    x = randn(rng, s)
    big = np.iinfo(np.int64).max
    for _ in range(3):
        axes = sorted(rng.choice(3, int(rng.integers(1, 4)), replace=False).tolist())
        starts = [int(rng.integers(-s[a], s[a])) for a in axes]
        steps = [int(rng.choice([1, 2, -1, -2])) for _ in axes]
        # (INT64_MAX as the end of a backward slice: onnxruntime reads it as "to the
        # beginning", the ONNX spec and numpy clamp it to the last element.)
        ends = [int(rng.choice([rng.integers(-s[a] - 2, s[a] + 2), big if st > 0 else -big])) for a, st in zip(axes, steps)]
        arrays = [np.array(v, np.int64) for v in (starts, ends, axes, steps)]
        check("Slice", [x] + arrays, 13, const=(1, 2, 3, 4), exact=True)
        check("Slice", [x] + arrays[:3], 10, const=(1, 2, 3), exact=True)
        check("Slice", [x] + arrays[:2], 11, const=(1, 2), exact=True) if len(axes) == 3 else None
        clamped = [min(max(e, -2**31), 2**31 - 1) for e in ends]
        check("Slice", [x], 9, starts=starts, ends=clamped, axes=axes, exact=True)


@case("Gather")
def case_gather(rng):
    s = shape(rng, 3)
    x = randn(rng, s)
    axis = int(rng.integers(-3, 3))
    dim = s[axis]
    idx = rng.integers(-dim, dim, shape(rng, int(rng.integers(0, 3))))
    check("Gather", [x, idx.astype(np.int64)], 13, axis=axis, exact=True)
    check("Gather", [x, idx.astype(np.int32)], 11, const=(1,), axis=axis, exact=True)
    check("Gather", [x, (idx % dim).astype(np.int64)], 7, axis=axis % 3, exact=True)


@case("Pad")
def case_pad(rng):
    s = shape(rng, 3, lo=3, hi=5)
    x = randn(rng, s)
    for mode in ("constant", "reflect", "edge"):
        lo = -1 if mode == "constant" else 0
        pads = [int(p) for p in rng.integers(lo, 3, 6)]
        check("Pad", [x], 2 if False else 7, mode=mode, pads=pads, value=1.5, exact=True)
        check("Pad", [x, np.array(pads, np.int64)], 11, const=(1,), mode=mode, exact=True)
        check("Pad", [x, np.array(pads, np.int64), np.float32(-2.5)], 13, const=(1, 2), mode=mode, exact=True)
        axes = [0, 2]
        ap = [pads[0], pads[2], pads[3], pads[5]]
        check("Pad", [x, np.array(ap, np.int64), None, np.array(axes, np.int64)], 18, const=(1, 3), mode=mode, exact=True)
        check("Pad", [x, np.array(pads, np.int64)], 19, const=(1,), mode=mode, exact=True)
    check("Pad", [randint(rng, s), np.array([1, 0, 0, 0, 2, 1], np.int64), np.int64(7)], 13, const=(1, 2), exact=True)


@case("Cast", "CastLike")
def case_cast(rng):
    x = randn(rng, shape(rng, 2)) * 5
    for to, dtype in ((TensorProto.INT32, np.int32), (TensorProto.INT64, np.int64), (TensorProto.FLOAT16, np.float16),
                      (TensorProto.DOUBLE, np.float64), (TensorProto.BOOL, np.bool_), (TensorProto.UINT8, np.uint8)):
        v = np.abs(x) if dtype == np.uint8 else x
        check("Cast", [v], 13, to=to)
        check("Cast", [v], 6, to=to)
        check("CastLike", [v, np.zeros(1, dtype)], 15)
    check("Cast", [rng.random(5) < 0.5], 13, to=TensorProto.FLOAT)
    check("Cast", [randint(rng, (5,))], 19, to=TensorProto.FLOAT)


@case("Shape", "Size", "ConstantOfShape", "Constant", "Range")
def case_constants(rng):
    s = shape(rng, 4)
    x = randn(rng, s)
    check("Shape", [x], 13)
    for start, end in ((1, None), (-3, -1), (0, 2)):
        attrs = {"start": start} if end is None else {"start": start, "end": end}
        check("Shape", [x], 15, **attrs)
    check("Size", [x], 13)
    check("ConstantOfShape", [np.array(s[:2], np.int64)], 9, const=(0,))
    check("ConstantOfShape", [np.array(s[:3], np.int64)], 20, const=(0,), value=numpy_helper.from_array(np.array([7], np.int32)))
    value = randn(rng, (2, 3))
    check("Constant", [], 13, value=numpy_helper.from_array(value))
    check("Constant", [], 13, value_float=1.5)
    check("Constant", [], 13, value_ints=[1, 2, 3])
    check("Constant", [], 13, value_int=4)
    check("Constant", [], 13, value_floats=[0.5, 2.0])
    check("Range", [np.int64(2), np.int64(17), np.int64(3)], 11, const=(0, 1, 2))
    check("Range", [np.float32(1.0), np.float32(-2.0), np.float32(-0.5)], 11, const=(0, 1, 2))


@case("Expand", "Tile")
def case_expand_tile(rng):
    s = shape(rng, 3)
    x = randn(rng, (s[0], 1, s[2]))
    check("Expand", [x, np.array(s, np.int64)], 13, const=(1,), exact=True)
    check("Expand", [x, np.array([2, 1, 1, 1], np.int64)], 8, const=(1,), exact=True)
    check("Expand", [x, np.array([1], np.int64)], 13, const=(1,), exact=True)
    reps = rng.integers(1, 4, 3)
    check("Tile", [x, reps.astype(np.int64)], 13, const=(1,), exact=True)
    check("Tile", [randint(rng, s), np.array([1, 1, 1], np.int64)], 6, const=(1,), exact=True)


@case("DepthToSpace", "SpaceToDepth")
def case_depth_space(rng):
    b = int(rng.integers(2, 4))
    x = randn(rng, (2, b * b * 2, 3, 2))
    check("DepthToSpace", [x], 13, blocksize=b, exact=True)
    check("DepthToSpace", [x], 13, blocksize=b, mode="CRD", exact=True)
    check("DepthToSpace", [x], 11, blocksize=b, exact=True)
    check("SpaceToDepth", [randn(rng, (1, 3, 2 * b, 3 * b))], 13, blocksize=b, exact=True)


@case("Resize", "Upsample")
def case_resize(rng):
    x = randn(rng, (1, 2, int(rng.integers(2, 5)), int(rng.integers(2, 5))))
    scales = np.array([1, 1, rng.choice([0.5, 1.5, 2.0, 3.0]), rng.choice([0.6, 2.0, 2.5])], np.float32)
    check("Resize", [x, np.array([], np.float32), scales], 11, const=(1, 2), mode="nearest", exact=True)
    for ctm in ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel", "tf_half_pixel_for_nn"):
        for nearest in ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil"):
            check("Resize", [x, None, scales], 13, const=(2,), mode="nearest", coordinate_transformation_mode=ctm,
                  nearest_mode=nearest, exact=True)
    sizes = np.array([1, 2, int(rng.integers(1, 8)), int(rng.integers(1, 8))], np.int64)
    check("Resize", [x, None, None, sizes], 13, const=(3,), mode="nearest", exact=True)
    check("Resize", [x, None, None, sizes[2:]], 18, const=(3,), mode="nearest", axes=[2, 3], exact=True)
    check("Resize", [x, None, scales], 19, const=(2,), exact=True)
    up = np.array([1, 1, 2, 3], np.float32)
    check("Resize", [x, up], 10, const=(1,), mode="nearest", exact=True)
    check("Upsample", [x, up], 9, const=(1,), mode="nearest", exact=True)
    check("Upsample", [x], 7, scales=[1.0, 1.0, 2.0, 2.0], exact=True)


@case("Trilu", "EyeLike")
def case_matrices(rng):
    x = randn(rng, (2,) + shape(rng, 2, lo=2, hi=6))
    for upper in (0, 1):
        k = int(rng.integers(-3, 4))
        check("Trilu", [x, np.int64(k)], 14, const=(1,), upper=upper, exact=True)
        check("Trilu", [x], 14, upper=upper, exact=True)
    m = randn(rng, shape(rng, 2, lo=2, hi=6))
    check("EyeLike", [m], 9, k=int(rng.integers(-2, 3)))
    check("EyeLike", [m], 9, dtype=TensorProto.INT64)


# --- ops that index by values, trigonometric functions, bit shifts ---------------------------

TRIGONOMETRIC = {
    # op: (opset, value transform into the domain)
    "Sin": (7, None), "Cos": (7, None), "Tan": (7, None), "Atan": (7, None),
    "Asin": (7, np.tanh), "Acos": (7, np.tanh), "Sinh": (9, None), "Cosh": (9, None),
    "Asinh": (9, None), "Acosh": (9, lambda x: np.abs(x) + 1), "Atanh": (9, lambda x: np.tanh(x) * 0.99),
}  # fmt: skip


@case(*TRIGONOMETRIC)
def case_trigonometric(rng):
    x = randn(rng, shape(rng, int(rng.integers(0, 4)))) * 2
    for op_type, (opset, transform) in TRIGONOMETRIC.items():
        check(op_type, [x if transform is None else transform(x).astype(np.float32)], opset)
    check("Sin", [x.astype(np.float64)], 7)


@case("GatherElements", "GatherND", "ScatterND")
def case_gather_scatter(rng):
    s = shape(rng, 3)
    x = randn(rng, s)
    axis = int(rng.integers(-3, 3))
    t = list(s)
    t[axis] = int(rng.integers(1, 6))
    t = [int(rng.integers(1, d + 1)) if i != axis % 3 else d for i, d in enumerate(t)]
    idx = rng.integers(-s[axis], s[axis], size=t)
    check("GatherElements", [x, idx], 13, axis=axis, exact=True)
    check("GatherElements", [x, idx.astype(np.int32)], 11, const=(1,), axis=axis, exact=True)
    k = int(rng.integers(1, 4))
    tuples = np.stack([rng.integers(-d, d, size=(2, 3)) for d in s[:k]], axis=-1)
    check("GatherND", [x, tuples], 13, exact=True)
    batch = np.stack([rng.integers(0, d, size=(s[0], 2)) for d in s[1:3]], axis=-1)
    check("GatherND", [x, batch], 12, batch_dims=1, exact=True)
    # ScatterND: distinct index tuples (repeated ones are undefined for reduction none).
    flat = rng.permutation(int(np.prod(s[:k])))[: int(rng.integers(1, 4))]
    where = np.stack(np.unravel_index(flat, s[:k]), axis=-1).astype(np.int64)
    updates = randn(rng, (len(flat),) + s[k:])
    check("ScatterND", [x, where, updates], 11, exact=True)
    check("ScatterND", [x, where, updates], 13, const=(1,), exact=True)
    for reduction in ("add", "mul"):
        check("ScatterND", [x, where, updates], 16, reduction=reduction)
    for reduction in ("max", "min"):
        check("ScatterND", [x, where, updates], 18, reduction=reduction)


@case("CumSum")
def case_cumsum(rng):
    s = shape(rng, int(rng.integers(1, 4)))
    x = randn(rng, s)
    axis = np.array(int(rng.integers(-len(s), len(s))), np.int64)
    for exclusive in (0, 1):
        for reverse in (0, 1):
            check("CumSum", [x, axis], 14, const=(1,), exclusive=exclusive, reverse=reverse)
    check("CumSum", [randint(rng, s), axis.astype(np.int32)], 11, const=(1,))


@case("MatMulInteger", "ConvInteger")
def case_integer_products(rng):
    """Against onnx's reference: onnxruntime's u8 x s8 kernels on AVX2 without VNNI add the
    products in pairs in saturating int16 (vpmaddubsw): on an AMD EPYC one sum of 11909 came
    out 8456."""
    a = randint(rng, (2, 3, 4), 0, 256, np.uint8)
    b = randint(rng, (4, 5), -128, 128, np.int8)
    check("MatMulInteger", [a, b, np.uint8(rng.integers(0, 256)), np.int8(rng.integers(-128, 128))], 10, exact=True, reference=True)
    check("MatMulInteger", [a, b], 10, exact=True, reference=True)
    x = randint(rng, (1, 2, 5, 6), 0, 256, np.uint8)
    w = randint(rng, (3, 2, 2, 3), 0, 256, np.uint8)
    check("ConvInteger", [x, w, np.uint8(rng.integers(0, 256)), np.uint8(rng.integers(0, 256))], 10, exact=True, strides=[1, 2])


@case("LpPool")
def case_lp_pool(rng):
    x = randn(rng, (1, 3, 6, 7))
    check("LpPool", [x], 18, kernel_shape=[2, 3])
    check("LpPool", [x], 18, kernel_shape=[3, 2], p=3, strides=[2, 1], pads=[1, 0, 1, 1])
    check("LpPool", [x], 18, kernel_shape=[2, 2], p=1, dilations=[2, 1])
    check("LpPool", [x], 18, kernel_shape=[3, 2], auto_pad="SAME_LOWER")  # (with dilations, onnxruntime's size is not SAME's)
    check("LpPool", [randn(rng, (2, 2, 9))], 18, kernel_shape=[4], strides=[2])


@case("OneHot")
def case_one_hot(rng):
    s = shape(rng, int(rng.integers(1, 3)))
    depth = int(rng.integers(2, 6))
    indices = randint(rng, s, -depth - 1, depth + 1)  # negative, and out of range both ways
    values = np.array([-0.5, 3.0], np.float32)
    for axis in range(-len(s) - 1, len(s) + 1):
        check("OneHot", [indices, np.array(depth, np.int64), values], 11, const=(1,), axis=axis)
    check("OneHot", [indices.astype(np.float32), np.array(float(depth), np.float32), np.array([0, 7], np.int32)], 11, const=(1,))


@case("CumProd")
def case_cumprod(rng):
    s = shape(rng, int(rng.integers(1, 4)))
    x = randn(rng, s)
    axis = np.array(int(rng.integers(-len(s), len(s))), np.int64)
    for exclusive in (0, 1):
        for reverse in (0, 1):
            check("CumProd", [x, axis], 26, const=(1,), exclusive=exclusive, reverse=reverse)
    check("CumProd", [randint(rng, s, -3, 4), axis.astype(np.int32)], 26, const=(1,))
    check("CumSum", [x.astype(np.float64), axis], 14, const=(1,), reverse=1)


@case("TopK")
def case_topk(rng):
    s = shape(rng, int(rng.integers(1, 4)), lo=2, hi=6)
    axis = int(rng.integers(-len(s), len(s)))
    x = randn(rng, s)
    k = int(rng.integers(0, s[axis] + 1))
    outs = ["values", "indices"]
    check("TopK", [x, np.array([k], np.int64)], 11, const=(1,), outputs=outs, axis=axis, exact=True)
    check("TopK", [x, np.array([k], np.int64)], 11, const=(1,), outputs=outs, axis=axis, largest=0, exact=True)
    check("TopK", [x, np.array([k], np.int64)], 10, const=(1,), outputs=outs, axis=axis, exact=True)
    check("TopK", [x], 1, outputs=outs, k=k, axis=axis, exact=True)
    ties = randint(rng, s, 0, 3)  # equal values: lower indices first
    check("TopK", [ties, np.array([k], np.int64)], 11, const=(1,), outputs=outs, axis=axis)
    check("TopK", [ties, np.array([k], np.int64)], 11, const=(1,), outputs=outs, axis=axis, largest=0)


@case("BitShift")
def case_bit_shift(rng):
    s = shape(rng, 2)
    for dtype in (np.uint8, np.uint16, np.uint32, np.uint64):
        bits = np.dtype(dtype).itemsize * 8
        a = rng.integers(0, 2**bits - 1, size=s, dtype=np.uint64).astype(dtype)
        b = rng.integers(0, bits, size=broadcastable(rng, s)).astype(dtype)
        check("BitShift", [a, b], 11, direction="LEFT")
        check("BitShift", [a, b], 11, direction="RIGHT")
    for dtype in (np.int8, np.int32, np.int64):  # onnxruntime has no signed BitShift: ONNX's reference
        bits = np.dtype(dtype).itemsize * 8
        a = randint(rng, s, -100, 100, dtype)
        b = randint(rng, broadcastable(rng, s), -2, bits + 2, dtype)
        check("BitShift", [a, b], 11, direction="LEFT")
        check("BitShift", [a, b], 11, direction="RIGHT")


@case("Resize", "Upsample")
def case_resize_interpolated(rng):
    x = randn(rng, (1, 2, int(rng.integers(2, 5)), int(rng.integers(2, 5))))
    scales = np.array([1, 1, rng.choice([0.5, 1.5, 2.0, 3.0]), rng.choice([0.6, 2.0, 2.5])], np.float32)
    for ctm in ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"):
        check("Resize", [x, None, scales], 13, const=(2,), mode="linear", coordinate_transformation_mode=ctm)
    sizes = np.array([1, 2, int(rng.integers(1, 8)), int(rng.integers(1, 8))], np.int64)
    check("Resize", [x, None, None, sizes], 13, const=(3,), mode="linear")
    check("Resize", [x, None, None, sizes], 19, const=(3,), mode="linear", coordinate_transformation_mode="align_corners")
    check("Resize", [x, np.array([], np.float32), scales], 11, const=(1, 2), mode="linear")
    up = np.array([1, 1, 2, 3], np.float32)
    check("Resize", [x, up], 10, const=(1,), mode="linear")
    check("Upsample", [x, up], 9, const=(1,), mode="linear")
    check("Resize", [randn(rng, (3, 5)), None, np.array([2.0, 0.5], np.float32)], 13, const=(2,), mode="linear")
    for ctm in ("half_pixel", "asymmetric", "align_corners", "pytorch_half_pixel"):
        check("Resize", [x, None, scales], 13, const=(2,), mode="cubic", coordinate_transformation_mode=ctm)
    check("Resize", [x, None, scales], 13, const=(2,), mode="cubic", cubic_coeff_a=-0.5, exclude_outside=1)
    check("Resize", [x, None, None, sizes], 18, const=(3,), mode="cubic", exclude_outside=1)


@case("GridSample")
def case_grid_sample(rng):
    """Opset 16 (4-D; bilinear, nearest, bicubic) and 20 (N-D; linear, nearest, cubic), every
    padding, both align_corners, odd sizes and grid points outside [-1, 1]."""
    x = randn(rng, (2, 3, int(rng.integers(2, 6)), int(rng.integers(2, 6))))
    grid = rng.uniform(-1.7, 1.7, (2, int(rng.integers(1, 5)), int(rng.integers(1, 5)), 2)).astype(np.float32)
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding in ("zeros", "border", "reflection"):
            for align in (0, 1):
                attrs = dict(mode=mode, padding_mode=padding, align_corners=align)
                if mode == "bicubic" and padding != "zeros":
                    # onnxruntime (as PyTorch) pads each cubic tap but not the coordinate; ONNX's
                    # reference, which the node tests and strati follow, clamps or reflects the
                    # coordinate first: compare with the reference.
                    model = make_model("GridSample", [x, grid], attrs, 16)
                    later = make_model("GridSample", [x, grid], {**attrs, "mode": "cubic"}, 20)  # the reference's name
                    want = ReferenceEvaluator(later).run(None, {"in0": x, "in1": grid})[0]
                    np.testing.assert_allclose(run_strati(model, {"in0": x, "in1": grid})[0], want, rtol=RTOL, atol=ATOL)
                else:
                    check("GridSample", [x, grid], 16, **attrs)
    v = randn(rng, (1, 2, 3, 4, 5))
    vgrid = rng.uniform(-1.3, 1.3, (1, 2, 3, 2, 3)).astype(np.float32)
    for mode in ("linear", "nearest"):
        check("GridSample", [v, vgrid], 20, mode=mode, padding_mode="border", align_corners=1)
    with pytest.raises(UnsupportedModelError, match=r"a rank-5 input \(GridSample 16 takes 4-D ones\)"):
        import_model(make_model("GridSample", [v, vgrid], {}, 16))


EINSUM = [
    # equation, operand shapes
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij->ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("i,i->", [(5,), (5,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij,kj", [(3, 4), (5, 4)]),  # implicit output: ik
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),  # ellipses of different ranks, a broadcast
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),  # attention scores
    ("abc,cd,de->abe", [(2, 3, 4), (4, 5), (5, 6)]),
    ("ijk,ikl->ijl", [(1, 3, 4), (2, 4, 5)]),  # a size-1 batch dimension broadcast
]


@case("Einsum")
def case_einsum(rng):
    for equation, shapes in EINSUM:
        check("Einsum", [randn(rng, s) for s in shapes], 12, equation=equation)
    check("Einsum", [randint(rng, (3, 4)), randint(rng, (4, 2))], 12, equation="ij,jk->ik")
    diagonal = make_model("Einsum", [randn(rng, (3, 3))], {"equation": "ii->i"}, 12)
    with pytest.raises(UnsupportedModelError, match="a letter repeated within an operand"):
        import_model(diagonal)


@case("RNN", "GRU", "LSTM", draws=2)
def case_recurrent(rng):
    """Unrolled at import (strati/frontends/onnx_rnn.py): every direction, initial states,
    clip, sequence_lens, layout 1, peepholes, GRU's linear_before_reset, other activations."""
    seq, batch, inp, hidden = (int(v) for v in rng.integers(1, 6, 4))
    for kind, g in (("RNN", 1), ("GRU", 3), ("LSTM", 4)):
        outs = ["y", "y_h"] + (["y_c"] if kind == "LSTM" else [])
        for direction in ("forward", "reverse", "bidirectional"):
            d = 2 if direction == "bidirectional" else 1
            x = randn(rng, (seq, batch, inp))
            w, r = randn(rng, (d, g * hidden, inp)) * 0.5, randn(rng, (d, g * hidden, hidden)) * 0.5
            bias, h0 = randn(rng, (d, 2 * g * hidden)) * 0.5, randn(rng, (d, batch, hidden))
            states = [h0] + ([h0 * 0.5] if kind == "LSTM" else [])
            attrs = dict(hidden_size=hidden, direction=direction)
            check(kind, [x, w, r, bias, None, *states], 14, const=(1, 2, 3), outputs=outs, clip=0.7, **attrs)
            if direction == "reverse":
                lens = np.full((batch,), seq, np.int32)
                check(kind, [x, w, r, None, lens], 7, const=(1, 2, 4), outputs=outs, **attrs)
            if direction == "bidirectional":
                xt = np.ascontiguousarray(np.transpose(x, (1, 0, 2)))
                bstates = [np.ascontiguousarray(np.transpose(v, (1, 0, 2))) for v in states]
                check(kind, [xt, w, r, bias, None, *bstates], 14, const=(1, 2, 3), outputs=outs, layout=1, **attrs)
            if kind == "LSTM":
                check(kind, [x, w, r, bias, None, *states, randn(rng, (d, 3 * hidden))], 14, const=(1, 2, 3, 7),
                      outputs=outs, **attrs)
            if kind == "GRU":
                check(kind, [x, w, r, bias, None, h0], 14, const=(1, 2, 3), outputs=outs, linear_before_reset=1, **attrs)
            if direction == "forward":
                acts = {"RNN": ["Relu"], "GRU": ["Tanh", "Sigmoid"], "LSTM": ["Tanh", "Sigmoid", "Relu"]}[kind]
                check(kind, [x, w, r, bias], 14, const=(1, 2, 3), outputs=outs, activations=acts, **attrs)


@case("If", draws=2)
def case_if(rng):
    """A condition known at import (an initializer): the taken branch, reading an outer value."""
    x = randn(rng, shape(rng, 2))
    for cond in (True, False):
        then_g = helper.make_graph([helper.make_node("Relu", ["x"], ["t"])], "then", [], [onnx.ValueInfoProto(name="t")])
        else_g = helper.make_graph([helper.make_node("Neg", ["x"], ["e"])], "else", [], [onnx.ValueInfoProto(name="e")])
        node = helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)
        graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
                                  [onnx.ValueInfoProto(name="y")], [numpy_helper.from_array(np.array(cond), "c")])  # fmt: skip
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
        model.ir_version = 8
        (want,), _ = run_oracle(model, {"x": x})
        (got,) = run_strati(model, {"x": x})
        np.testing.assert_array_equal(got, want)


@case("Loop", "Scan", draws=2)
def case_loop_scan(rng):
    """A Loop (trip count 0 to 4, a carried value, a scan output, an outer value read in the
    body) and a Scan (running sums, either direction), both graph.loop."""
    x = randn(rng, shape(rng, 2))
    vi = lambda name, t=TensorProto.FLOAT, shape=None: helper.make_tensor_value_info(name, t, shape)  # noqa: E731
    trip = int(rng.integers(0, 5))
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]), helper.make_node("Identity", ["c"], ["c2"]), helper.make_node("Tanh", ["s2"], ["e"])],
        "body", [vi("i", TensorProto.INT64, []), vi("c", TensorProto.BOOL, []), vi("s", shape=list(x.shape))],
        [vi("c2", TensorProto.BOOL, []), vi("s2", shape=list(x.shape)), vi("e", shape=list(x.shape))],
    )  # fmt: skip
    inits = [numpy_helper.from_array(np.array(trip, np.int64), "M"), numpy_helper.from_array(np.array(True), "T")]
    node = helper.make_node("Loop", ["M", "T", "x"], ["s", "scan"], body=body)
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["a", "e"], ["a2"]), helper.make_node("Mul", ["a2", "e"], ["o"])],
        "scan_body", [vi("a", shape=[x.shape[1]]), vi("e", shape=[x.shape[1]])],
        [vi("a2", shape=[x.shape[1]]), vi("o", shape=[x.shape[1]])],
    )  # fmt: skip
    scan = helper.make_node("Scan", ["x0s", "x"], ["a", "ys"], body=scan_body, num_scan_inputs=1,
                            scan_input_directions=[int(rng.integers(0, 2))])  # fmt: skip
    graph = helper.make_graph(
        [node, helper.make_node("Slice", ["x", "zero", "one"], ["x0"]), helper.make_node("Squeeze", ["x0", "zero"], ["x0s"]), scan],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)], [vi("s"), vi("scan"), vi("a"), vi("ys")],
        inits + [numpy_helper.from_array(np.array([0], np.int64), "zero"), numpy_helper.from_array(np.array([1], np.int64), "one")],
    )  # fmt: skip
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    want, _ = run_oracle(model, {"x": x})
    got = run_strati(model, {"x": x})
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL)


@case("QuantizeLinear", "DequantizeLinear", "QLinearMatMul", "QLinearConv")
def case_quantized(rng):
    x = randn(rng, shape(rng, 3)) * 8
    scale, zero_point = np.float32(rng.choice([0.05, 0.25, 1.5])), np.int8(rng.integers(-20, 20))
    check("QuantizeLinear", [x, scale, zero_point], 13, const=(1, 2), exact=True)
    check("DequantizeLinear", [randint(rng, x.shape, -128, 128, np.int8), scale, zero_point], 13, const=(1, 2), exact=True)
    zero, one, ratio = np.int8(0), np.float32(1.0), np.float32(2.0 ** -int(rng.integers(0, 8)))  # symmetric, 2**-k
    m, k, n = shape(rng, 3, hi=9)
    a, b = randint(rng, (m, k), -128, 128, np.int8), randint(rng, (k, n), -128, 128, np.int8)
    check("QLinearMatMul", [a, one, zero, b, ratio, zero, one, zero], 13, const=(1, 2, 4, 5, 6, 7), exact=True)
    x, w = randint(rng, (1, 2, 6, 5), -128, 128, np.int8), randint(rng, (3, 2, 3, 3), -128, 128, np.int8)
    bias = randint(rng, (3,), -2000, 2000, np.int32)
    check("QLinearConv", [x, one, zero, w, ratio, zero, one, zero, bias], 13, const=(1, 2, 4, 5, 6, 7), pads=[1, 1, 1, 1],
          strides=[1, 2], exact=True)


# --- the test -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(CASES))
def test_op(name):
    fn, draws = CASES[name]
    for seed in range(draws):
        fn(np.random.default_rng([seed, sum(map(ord, name))]))


def test_every_supported_op_has_a_case():
    missing = sorted(set(supported_op_types()) - COVERED)
    assert not missing, f"supported ONNX ops without a differential test: {missing}"


def test_graph_input_with_initializer_is_a_constant():
    """As ONNX's backend runner: an input that has an initializer is a constant with a
    default, not an argument of the function."""
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    model = make_model("Add", [np.ones((2, 3), np.float32), w], {}, 13)
    model.graph.initializer.append(numpy_helper.from_array(w, "in1"))
    module = import_model(model)
    fn = find_function(module)
    assert len(fn.body.blocks[0].args) == 1
    (y,) = run_function(module, [np.ones((2, 3), np.float32)])
    np.testing.assert_array_equal(y, w + 1)
