"""Numerics of the nn ops' references, against onnxruntime running the same ONNX node.

The declared result type of each strati op is onnxruntime's output shape, so the
tests also check that ``infer_type`` agrees with onnxruntime.
"""

import numpy as np
import pytest
from helpers import one_op, parse, run_onnx, run_op

from strati import registry
from strati.dialects.shapes import shape_of

RNG = np.random.default_rng(0)
F32 = dict(rtol=1e-4, atol=1e-5)


def sample(shape, dtype=np.float32, scale=1.0):
    return np.asarray(RNG.standard_normal(shape) * scale, dtype)


def ints(values) -> str:
    return "array<i64: " + ", ".join(str(v) for v in values) + ">"


def props(**kw) -> str:
    """The property dictionary's body, in the graph syntax."""
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (tuple, list)):
            text = ints(value)
        elif isinstance(value, float):
            text = repr(value)
        else:
            text = str(value)
        out.append(f"{key} = {text}")
    return ", ".join(out)


def check(op, onnx_op, inputs, strati_props="", opset=17, tol=F32, **onnx_attrs):
    """Run onnxruntime, then strati declaring onnxruntime's result shape; compare."""
    (want,) = run_onnx(onnx_op, inputs, opset=opset, **onnx_attrs)
    present = [x for x in inputs if x is not None]
    (got,) = run_op(op, present, [want.shape], out_dtypes=[want.dtype], props=strati_props)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, want, **tol)
    return got


# --- matmul ------------------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3, 5), (5, 7)),
    ((7,), (7,)),  # 0-d result
    ((7,), (7, 3)),
    ((2, 3, 9), (9,)),
    ((2, 1, 3, 5), (4, 5, 6)),  # broadcast batch
    ((1, 5), (5, 1)),
    ((3, 9, 5), (3, 5, 2)),
    ((1, 4, 11), (5, 11, 13)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES)
def test_matmul_matches_onnxruntime(shapes):
    check("matmul", "MatMul", [sample(shapes[0]), sample(shapes[1])])


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64])
def test_matmul_other_dtypes(dtype):
    a = RNG.integers(-5, 5, (2, 3, 4)).astype(dtype)
    b = RNG.integers(-5, 5, (4, 5)).astype(dtype)
    got = check("matmul", "MatMul", [a, b], tol=dict(rtol=0, atol=0))
    assert got.dtype == dtype


# --- gemm --------------------------------------------------------------------------------

GEMM_CASES = [
    # M, K, N, trans_a, trans_b, alpha, beta, shape of C
    (3, 5, 4, False, False, 1.0, 1.0, None),
    (3, 5, 4, True, False, 0.5, 2.0, (4,)),
    (1, 7, 9, False, True, 1.0, 1.0, (1, 9)),
    (5, 3, 2, True, True, -1.5, 0.25, (5, 1)),
    (4, 6, 3, False, False, 1.0, 1.0, ()),
    (4, 6, 3, False, True, 2.0, 1.0, (4, 3)),
    (9, 1, 1, False, False, 1.0, 0.0, (9, 1)),
]


@pytest.mark.parametrize("m,k,n,ta,tb,alpha,beta,c_shape", GEMM_CASES)
def test_gemm_matches_onnxruntime(m, k, n, ta, tb, alpha, beta, c_shape):
    a = sample((k, m) if ta else (m, k))
    b = sample((n, k) if tb else (k, n))
    c = None if c_shape is None else sample(c_shape)
    p = props(
        alpha=alpha if alpha != 1.0 else None,
        beta=beta if beta != 1.0 else None,
        trans_a=ta or None,
        trans_b=tb or None,
    )
    attrs = dict(alpha=alpha, beta=beta, transA=int(ta), transB=int(tb))
    check("gemm", "Gemm", [a, b] + ([] if c is None else [c]), p, **attrs)


def test_gemm_beta_zero_does_not_read_c():
    """As BLAS and onnxruntime: 0 * inf would be NaN, but beta = 0 means c is not used."""
    a, b = sample((2, 3)), sample((3, 2))
    c = np.array([np.inf, np.nan], np.float32)
    got = check("gemm", "Gemm", [a, b, c], "beta = 0.0", beta=0.0)
    assert np.all(np.isfinite(got))


# --- conv2d ------------------------------------------------------------------------------

CONV_CASES = [
    # input, weight, bias, strides, pads (top, left, bottom, right), dilations, groups
    ((1, 3, 8, 8), (4, 3, 3, 3), True, (1, 1), (1, 1, 1, 1), (1, 1), 1),
    ((2, 4, 9, 7), (6, 2, 3, 2), False, (2, 1), (0, 1, 2, 0), (1, 2), 2),
    ((1, 5, 10, 11), (5, 1, 3, 3), True, (2, 2), (1, 1, 1, 1), (1, 1), 5),  # depthwise
    ((3, 1, 5, 5), (2, 1, 1, 1), True, (1, 1), (0, 0, 0, 0), (1, 1), 1),  # 1x1
    ((1, 6, 13, 9), (9, 2, 5, 3), True, (3, 2), (2, 0, 1, 3), (2, 3), 3),
    ((2, 3, 4, 5), (7, 3, 4, 5), False, (1, 1), (0, 0, 0, 0), (1, 1), 1),  # kernel = input
    ((1, 4, 6, 6), (8, 1, 3, 3), False, (1, 2), (2, 2, 0, 1), (1, 1), 4),  # depthwise multiplier 2
]


@pytest.mark.parametrize("x_shape,w_shape,bias,strides,pads,dilations,groups", CONV_CASES)
def test_conv2d_matches_onnxruntime(x_shape, w_shape, bias, strides, pads, dilations, groups):
    x, w = sample(x_shape), sample(w_shape)
    inputs = [x, w] + ([sample((w_shape[0],))] if bias else [])
    p = props(strides=strides, pads=pads, dilations=dilations, groups=groups)
    check("conv2d", "Conv", inputs, p, strides=list(strides), pads=list(pads), dilations=list(dilations), group=groups)


# --- pooling -----------------------------------------------------------------------------

POOL_CASES = [
    # input, kernel, strides, pads, dilations, ceil_mode
    ((1, 3, 7, 7), (3, 3), (2, 2), (0, 0, 0, 0), (1, 1), False),
    ((2, 2, 8, 9), (3, 2), (2, 3), (1, 0, 1, 1), (1, 1), True),
    ((1, 1, 5, 5), (2, 2), (2, 2), (0, 0, 0, 0), (1, 1), True),  # partial last window
    ((1, 1, 5, 5), (2, 2), (2, 2), (1, 1, 1, 1), (1, 1), True),  # a window would start in the right pad
    ((1, 2, 6, 7), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), True),
    ((2, 3, 9, 10), (3, 2), (1, 2), (2, 1, 0, 1), (2, 2), False),
    ((1, 2, 11, 9), (2, 3), (3, 2), (1, 2, 1, 0), (2, 1), True),
    ((1, 1, 1, 1), (1, 1), (1, 1), (0, 0, 0, 0), (1, 1), False),
]


def pool_props(kernel, strides, pads, dilations, ceil_mode, **extra):
    return props(kernel=kernel, strides=strides, pads=pads, dilations=dilations, ceil_mode=ceil_mode or None, **extra)


@pytest.mark.parametrize("shape,kernel,strides,pads,dilations,ceil_mode", POOL_CASES)
def test_max_pool2d_matches_onnxruntime(shape, kernel, strides, pads, dilations, ceil_mode):
    x = sample(shape)
    check(
        "max_pool2d", "MaxPool", [x], pool_props(kernel, strides, pads, dilations, ceil_mode),
        kernel_shape=list(kernel), strides=list(strides), pads=list(pads), dilations=list(dilations),
        ceil_mode=int(ceil_mode),
    )


@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("shape,kernel,strides,pads,dilations,ceil_mode", POOL_CASES)
def test_avg_pool2d_matches_onnxruntime(shape, kernel, strides, pads, dilations, ceil_mode, count_include_pad):
    x = sample(shape)
    check(
        "avg_pool2d", "AveragePool", [x],
        pool_props(kernel, strides, pads, dilations, ceil_mode, count_include_pad=count_include_pad or None),
        opset=19, kernel_shape=list(kernel), strides=list(strides), pads=list(pads), dilations=list(dilations),
        ceil_mode=int(ceil_mode), count_include_pad=int(count_include_pad),
    )


def test_max_pool2d_integers():
    x = RNG.integers(-100, 100, (1, 2, 6, 5)).astype(np.int8)
    check("max_pool2d", "MaxPool", [x], props(kernel=(2, 2), pads=(1, 1, 1, 1)), opset=12,
          kernel_shape=[2, 2], pads=[1, 1, 1, 1], tol=dict(rtol=0, atol=0))


@pytest.mark.parametrize("shape", [(1, 3, 5, 7), (2, 1, 1, 1), (3, 4, 9, 2)])
def test_global_avg_pool2d_matches_onnxruntime(shape):
    check("global_avg_pool2d", "GlobalAveragePool", [sample(shape)])


# --- normalization -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,epsilon", [((2, 3, 5, 4), 1e-5), ((4, 5), 1e-3), ((1, 3, 7), 0.0), ((2, 3, 2, 3, 2), 0.5)]
)
def test_batch_norm_matches_onnxruntime(shape, epsilon):
    c = shape[1]
    x = sample(shape, scale=3.0)
    scale, bias, mean = sample((c,)), sample((c,)), sample((c,))
    var = np.asarray(RNG.uniform(0.2, 2.0, (c,)), np.float32)
    p = props(epsilon=epsilon) if epsilon != 1e-5 else ""
    check("batch_norm", "BatchNormalization", [x, scale, bias, mean, var], p, opset=15, epsilon=epsilon)


LAYER_NORM_CASES = [
    # input, axis, scale shape, bias shape (None: no bias), epsilon
    ((4, 10), -1, (10,), (10,), 1e-5),
    ((2, 3, 5), 1, (3, 5), (3, 5), 1e-3),
    ((2, 3, 5), -2, (3, 5), None, 1e-5),
    ((3, 1, 7), 0, (3, 1, 7), (3, 1, 7), 0.1),
    ((6,), 0, (6,), (6,), 1e-5),
    ((2, 4, 6), -1, (1, 6), (6,), 1e-5),  # scale broadcast
]


@pytest.mark.parametrize("shape,axis,scale_shape,bias_shape,epsilon", LAYER_NORM_CASES)
def test_layer_norm_matches_onnxruntime(shape, axis, scale_shape, bias_shape, epsilon):
    x = sample(shape, scale=2.0) + 1.5
    inputs = [x, sample(scale_shape)] + ([] if bias_shape is None else [sample(bias_shape)])
    p = props(axis=axis if axis != -1 else None, epsilon=epsilon if epsilon != 1e-5 else None)
    check("layer_norm", "LayerNormalization", inputs, p, opset=17, axis=axis, epsilon=epsilon)


SOFTMAX_CASES = [((7,), -1), ((3, 5), 0), ((2, 3, 9), 1), ((2, 3, 9), -1), ((4, 1), 1), ((2, 5, 3), -3)]


@pytest.mark.parametrize("op,onnx_op", [("softmax", "Softmax"), ("log_softmax", "LogSoftmax")])
@pytest.mark.parametrize("shape,axis", SOFTMAX_CASES)
def test_softmax_matches_onnxruntime(op, onnx_op, shape, axis):
    x = sample(shape, scale=30.0)  # exp would overflow without the max shift
    x.flat[0] = 200.0
    p = props(axis=axis) if axis != -1 else ""
    check(op, onnx_op, [x], p, opset=13, axis=axis)


@pytest.mark.parametrize("op,onnx_op", [("softmax", "Softmax"), ("log_softmax", "LogSoftmax")])
def test_softmax_float64(op, onnx_op):
    check(op, onnx_op, [sample((3, 8), np.float64, 10.0)], opset=13, tol=dict(rtol=1e-12, atol=1e-12))


LRN_CASES = [
    # input, size, alpha, beta, bias
    ((1, 5, 4, 4), 3, 1e-4, 0.75, 1.0),
    ((2, 7, 3, 5), 5, 1e-3, 0.5, 2.0),
    ((1, 1, 2, 2), 5, 0.1, 0.75, 1.0),
    ((1, 6, 3, 3), 1, 0.5, 1.5, 0.5),
    ((2, 9, 1, 3), 9, 2.0, 0.25, 1.0),
]


@pytest.mark.parametrize("shape,size,alpha,beta,bias", LRN_CASES)
def test_lrn_matches_onnxruntime(shape, size, alpha, beta, bias):
    x = sample(shape, scale=2.0)
    p = props(size=size, alpha=alpha, beta=beta, bias=bias)
    check("lrn", "LRN", [x], p, size=size, alpha=alpha, beta=beta, bias=bias)


@pytest.mark.parametrize("size", [2, 4])
def test_lrn_even_size_follows_the_onnx_formula(size):
    """onnxruntime rejects even sizes (and onnx.reference's LRN loops over the batch, not
    the channels), so the oracle is the ONNX formula written out channel by channel."""
    x = sample((2, 7, 3, 2), scale=2.0)
    alpha, beta, bias = 0.3, 0.75, 1.5
    (got,) = run_op("lrn", [x], [x.shape], props=props(size=size, alpha=alpha, beta=beta, bias=bias))
    x64 = x.astype(np.float64)
    want = np.empty_like(x64)
    for c in range(x.shape[1]):
        lo, hi = max(0, c - (size - 1) // 2), min(x.shape[1] - 1, c + -(-(size - 1) // 2))
        square_sum = (x64[:, lo : hi + 1] ** 2).sum(axis=1)
        want[:, c] = x64[:, c] / (bias + alpha / size * square_sum) ** beta
    np.testing.assert_allclose(got, want, **F32)


# --- dtype, dynamic shapes, flops, pattern ------------------------------------------------


@pytest.mark.parametrize(
    "op,inputs,p",
    [
        ("conv2d", [(1, 2, 5, 5), (3, 2, 3, 3)], ""),
        ("avg_pool2d", [(1, 2, 5, 5)], "kernel = array<i64: 2, 2>"),
        ("softmax", [(3, 6)], ""),
        ("layer_norm", [(3, 6), (6,)], ""),
    ],
)
def test_float16_results_are_float16_and_close_to_float32(op, inputs, p):
    xs = [sample(s) for s in inputs]
    (want32,) = run_onnx(
        {"conv2d": "Conv", "avg_pool2d": "AveragePool", "softmax": "Softmax", "layer_norm": "LayerNormalization"}[op],
        xs,
        opset=17,
        **({"kernel_shape": [2, 2]} if op == "avg_pool2d" else {}),
    )
    xs16 = [x.astype(np.float16) for x in xs]
    (got16,) = run_op(op, xs16, [want32.shape], props=p)
    assert got16.dtype == np.float16
    np.testing.assert_allclose(got16.astype(np.float32), want32, rtol=1e-2, atol=1e-2)


def infer(text):
    """The verified module's single graph op."""
    module = parse(text)
    return next(op for op in module.walk() if op.name.startswith("graph."))


def test_dynamic_dimensions_propagate():
    text = """
    func.func @f(%x: tensor<?x3x?x8xf32>, %w: tensor<4x3x3x3xf32>, %a: tensor<?x5xf32>, %b: tensor<5x?xf32>) -> tensor<?x4x?x4xf32> {
      %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x4xf32>
      %m = graph.matmul %a, %b : (tensor<?x5xf32>, tensor<5x?xf32>) -> tensor<?x?xf32>
      %p = graph.max_pool2d %x {kernel = array<i64: 3, 3>, ceil_mode = true, strides = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
      func.return %y : tensor<?x4x?x4xf32>
    }
    """
    module = parse(text)
    ops = {op.name: op for op in module.walk() if op.name.startswith("graph.")}
    for name, want in [
        ("graph.conv2d", (None, 4, None, 4)),
        ("graph.matmul", (None, None)),
        ("graph.max_pool2d", (None, 3, None, 4)),
    ]:
        (inferred,) = registry.get_op_attr(name, "infer_type")(ops[name])
        assert shape_of(inferred) == want
        assert registry.get_op_attr(name, "flops")(ops[name]) == 0  # unknown cost


def test_flops_count_multiply_adds_as_two():
    x, w, b = sample((2, 4, 9, 7)), sample((6, 2, 3, 2)), sample((6,))
    (y,) = run_onnx("Conv", [x, w, b], group=2)
    conv = infer(one_op("conv2d", [x, w, b], [y.shape], props="groups = 2"))
    assert registry.get_op_attr("graph.conv2d", "flops")(conv) == y.size * (2 * 2 * 3 * 2 + 1)
    a, c = sample((3, 4, 5)), sample((5, 6))
    mm = infer(one_op("matmul", [a, c], [np.matmul(a, c).shape]))
    assert registry.get_op_attr("graph.matmul", "flops")(mm) == 2 * a.size * c.shape[1]


def test_patterns():
    kinds = {name: registry.get_op_attr(f"graph.{name}", "pattern") for name in
             ["matmul", "gemm", "conv2d", "max_pool2d", "avg_pool2d", "batch_norm", "softmax", "log_softmax"]}
    assert kinds["conv2d"] == kinds["matmul"] == kinds["gemm"] == registry.OpPattern.OUT_ELEMWISE_FUSABLE
    assert kinds["max_pool2d"] == kinds["avg_pool2d"] == registry.OpPattern.OUT_ELEMWISE_FUSABLE
    assert kinds["batch_norm"] == registry.OpPattern.BROADCAST
    assert kinds["softmax"] == kinds["log_softmax"] == registry.OpPattern.OPAQUE


# --- verifier ------------------------------------------------------------------------------


def op_text(op, in_types, out_type, p=""):
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(in_types))
    operands = ", ".join(f"%a{i}" for i in range(len(in_types)))
    p = f" {{{p}}}" if p else ""
    return (
        f"func.func @main({args}) -> {out_type} {{\n"
        f"  %r = graph.{op} {operands}{p} : ({', '.join(in_types)}) -> {out_type}\n"
        f"  func.return %r : {out_type}\n}}\n"
    )


X = "tensor<1x3x8x8xf32>"
BAD = [
    ("matmul", ["tensor<2x3xf32>", "tensor<4x5xf32>"], "tensor<2x5xf32>", "", r"matmul contraction dimensions differ: \[2x3\] and \[4x5\]"),
    ("matmul", ["tensor<2x3x4xf32>", "tensor<3x4x5xf32>"], "tensor<3x3x5xf32>", "", "batch dimensions do not broadcast"),
    ("matmul", ["tensor<f32>", "tensor<3xf32>"], "tensor<3xf32>", "", "lhs must have rank at least 1"),
    ("matmul", ["tensor<2x3xf32>", "tensor<3x5xf64>"], "tensor<2x5xf32>", "", "same element type"),
    ("matmul", ["tensor<2x3xf32>", "tensor<3x5xf32>"], "tensor<2x6xf32>", "", "does not match the inferred type tensor<2x5xf32>"),
    ("gemm", ["tensor<2x3xf32>", "tensor<4x5xf32>"], "tensor<2x5xf32>", "", "gemm contraction dimensions differ"),
    ("gemm", ["tensor<2x3x1xf32>", "tensor<3x5xf32>"], "tensor<2x5xf32>", "", "operand a must have rank 2, got tensor<2x3x1xf32>"),
    ("gemm", ["tensor<2x3xf32>", "tensor<3x5xf32>", "tensor<3x5xf32>"], "tensor<2x5xf32>", "", r"c of shape \[3x5\] does not broadcast"),
    ("gemm", ["tensor<2x3xi32>", "tensor<3x5xi32>"], "tensor<2x5xi32>", "", "floating-point"),
    ("conv2d", [X, "tensor<4x4x3x3xf32>"], "tensor<1x4x6x6xf32>", "", "input channels 3 do not match weight channels 4 x groups 1"),
    ("conv2d", ["tensor<1x4x8x8xf32>", "tensor<6x2x3x3xf32>"], "tensor<1x6x6x6xf32>", "groups = 4", "input channels 4 do not match weight channels 2 x groups 4"),
    ("conv2d", ["tensor<1x4x8x8xf32>", "tensor<5x2x3x3xf32>"], "tensor<1x5x6x6xf32>", "groups = 2", "output channels 5 are not divisible by groups 2"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "groups = 0", "groups must be positive"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "strides = array<i64: 1, 1, 1>", "strides must have 2 values, got 3"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "strides = array<i64: 0, 1>", r"strides must be positive, got \[0, 1\]"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "dilations = array<i64: 1, -1>", "dilations must be positive"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "pads = array<i64: 1, 1>", "pads must have 4 values, got 2"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "pads = array<i64: 0, 0, -1, 0>", "pads must be non-negative"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>", "tensor<5xf32>"], "tensor<1x4x6x6xf32>", "", r"bias must have shape \[4\], got tensor<5xf32>"),
    ("conv2d", [X, "tensor<4x3x9x3xf32>"], "tensor<1x4x1x6xf32>", "", "dilated kernel height 9 exceeds padded input height 8"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>", "dilations = array<i64: 1, 4>", "dilated kernel width 9 exceeds padded input width 8"),
    ("conv2d", ["tensor<3x8x8xf32>", "tensor<4x3x3x3xf32>"], "tensor<4x6x6xf32>", "", "input must have rank 4"),
    ("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x5x6xf32>", "", "does not match the inferred type tensor<1x4x6x6xf32>"),
    ("conv2d", ["tensor<1x3x8x8xi32>", "tensor<4x3x3x3xi32>"], "tensor<1x4x6x6xi32>", "", "floating-point"),
    ("max_pool2d", [X], X, "", "needs the property .kernel."),
    ("max_pool2d", [X], X, "kernel = array<i64: 3, 3, 3>", "kernel must have 2 values, got 3"),
    ("max_pool2d", [X], X, "kernel = array<i64: 0, 3>", "kernel must be positive"),
    ("max_pool2d", [X], X, "kernel = array<i64: 2, 2>, pads = array<i64: 0, 2, 0, 0>", "pads must be smaller than the kernel, got left pad 2"),
    ("avg_pool2d", [X], X, "kernel = array<i64: 2, 2>, strides = array<i64: 1, 0>", "strides must be positive"),
    ("avg_pool2d", ["tensor<1x3x8x8xi32>"], "tensor<1x3x7x7xi32>", "kernel = array<i64: 2, 2>", "floating-point"),
    ("avg_pool2d", [X], "tensor<1x3x4x4xf32>", "kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true, pads = array<i64: 1, 1, 1, 1>", r"inferred type tensor<1x3x5x5xf32>"),
    ("global_avg_pool2d", ["tensor<1x3x8xf32>"], "tensor<1x3x1xf32>", "", "input must have rank 4"),
    ("global_avg_pool2d", ["tensor<1x3x0x8xf32>"], "tensor<1x3x1x1xf32>", "", "spatial dimensions must be non-empty"),
    ("batch_norm", [X, "tensor<4xf32>", "tensor<3xf32>", "tensor<3xf32>", "tensor<3xf32>"], X, "", r"scale must have shape \[3\], got tensor<4xf32>"),
    ("batch_norm", [X] + ["tensor<3xf32>"] * 3 + ["tensor<3x1xf32>"], X, "", r"var must have shape \[3\]"),
    ("batch_norm", ["tensor<3xf32>"] * 5, "tensor<3xf32>", "", "input must have rank at least 2"),
    ("batch_norm", [X] + ["tensor<3xf32>"] * 4, X, "epsilon = -1.0e-05", "epsilon must be non-negative"),
    ("layer_norm", ["tensor<2x5xf32>", "tensor<4xf32>"], "tensor<2x5xf32>", "", r"scale of shape \[4\] does not broadcast to the input shape \[2x5\]"),
    ("layer_norm", ["tensor<2x5xf32>", "tensor<5xf32>", "tensor<2x2x5xf32>"], "tensor<2x5xf32>", "", r"bias of shape \[2x2x5\] does not broadcast"),
    ("layer_norm", ["tensor<2x5xf32>", "tensor<5xf32>"], "tensor<2x5xf32>", "axis = 2", "axis 2 is out of range for rank 2"),
    ("layer_norm", ["tensor<2x5xf32>", "tensor<5xf32>"], "tensor<2x5xf32>", "epsilon = -1.0", "epsilon must be non-negative"),
    ("softmax", ["tensor<2x5xf32>"], "tensor<2x5xf32>", "axis = -3", "axis -3 is out of range for rank 2"),
    ("softmax", ["tensor<f32>"], "tensor<f32>", "", "input must have rank at least 1"),
    ("log_softmax", ["tensor<2x5xi32>"], "tensor<2x5xi32>", "", "floating-point"),
    ("lrn", [X], X, "", "needs the property .size."),
    ("lrn", [X], X, "size = 0", "size must be positive, got 0"),
    ("lrn", ["tensor<3xf32>"], "tensor<3xf32>", "size = 3", "input must have rank at least 2"),
]


@pytest.mark.parametrize("op,in_types,out_type,p,message", BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)])
def test_verifier_names_the_problem(op, in_types, out_type, p, message):
    with pytest.raises(Exception, match=message):
        parse(op_text(op, in_types, out_type, p))


def test_verifier_accepts_the_fixed_cases():
    """The bad cases are one change away from good ones: the checks are specific."""
    parse(op_text("matmul", ["tensor<2x3xf32>", "tensor<3x5xf32>"], "tensor<2x5xf32>"))
    parse(op_text("conv2d", [X, "tensor<4x3x3x3xf32>"], "tensor<1x4x6x6xf32>"))
    parse(op_text("conv2d", ["tensor<1x4x8x8xf32>", "tensor<6x2x3x3xf32>"], "tensor<1x6x6x6xf32>", "groups = 2"))
    parse(op_text("max_pool2d", [X], "tensor<1x3x9x8xf32>", "kernel = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 0>"))
