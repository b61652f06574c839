"""convert-graph-to-tensor on the nn ops: the tensor-level IR computes what the graph op does.

Each case is a one-op graph function run by the interpreter, lowered, checked to hold
no graph op, verified, printed and parsed back, and run again; the two results match
at float32 tolerance (exactly for integers).
"""

import numpy as np
import pytest
import test_nn as nn  # the reference tests' cases, extended here
from helpers import one_op, parse

from strati.context import make_context
from strati.diagnostics import StratiError
from strati.dialects.graph.attrs.nn import window_out
from strati.runtime.interpreter import run_function
from strati.transforms.convert_graph_to_tensor import ConvertGraphToTensorPass

RNG = np.random.default_rng(0)
F32 = dict(rtol=1e-4, atol=1e-5)
EXACT = dict(rtol=0, atol=0)
F16 = dict(rtol=1e-3, atol=1e-3)  # one float16 rounding of float32 results summed in another order


def sample(shape, dtype=np.float32, scale=1.0):
    return np.asarray(RNG.standard_normal(shape) * scale, dtype)


def props(**kw) -> str:
    out = []
    for key, value in kw.items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, (tuple, list)):
            text = "array<i64: " + ", ".join(map(str, value)) + ">"
        elif isinstance(value, float):
            text = repr(value)
        else:
            text = str(value)
        out.append(f"{key} = {text}")
    return ", ".join(out)


def lower_and_compare(op, inputs, out_shape, p="", tol=F32, out_dtype=None):
    """Run the graph op, lower it, run the tensor-level IR, compare; returns the lowered module."""
    module = parse(one_op(op, inputs, [out_shape], None if out_dtype is None else [out_dtype], p))
    (want,) = run_function(module, inputs)
    ConvertGraphToTensorPass().apply(make_context(), module)
    left = sorted({o.name for o in module.walk() if o.name.startswith("graph.")})
    assert not left, f"graph ops left after lowering: {left}"
    module.verify()
    module = parse(str(module))  # the lowered IR prints and parses back
    (got,) = run_function(module, inputs)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, **tol)
    return module


def op_names(module) -> list[str]:
    return [o.name for o in module.walk()]


# --- matmul ------------------------------------------------------------------------------

MATMUL_SHAPES = [
    ((3, 5), (5, 7)),
    ((7,), (7,)),  # both promoted: 0-d result
    ((7,), (7, 3)),
    ((2, 3, 9), (9,)),
    ((2, 1, 3, 5), (4, 5, 6)),  # broadcast batch, missing batch dims
    ((1, 5), (5, 1)),
    ((3, 9, 5), (3, 5, 2)),
    ((1, 4, 11), (5, 11, 13)),
    ((5,), (2, 3, 5, 4)),  # 1-D lhs against a batch
    ((1, 1, 2, 3), (1, 3, 1)),  # size-1 everywhere
    ((3, 0), (0, 4)),  # empty contraction: zeros
]


@pytest.mark.parametrize("a_shape,b_shape", MATMUL_SHAPES)
def test_matmul(a_shape, b_shape):
    a, b = sample(a_shape), sample(b_shape)
    lower_and_compare("matmul", [a, b], np.matmul(a, b).shape)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float64, np.float16])
def test_matmul_other_dtypes(dtype):
    a = RNG.integers(-5, 5, (2, 3, 4)).astype(dtype)
    b = RNG.integers(-5, 5, (4, 5)).astype(dtype)
    module = lower_and_compare("matmul", [a, b], (2, 3, 5), tol=EXACT)
    assert ("arith.truncf" in op_names(module)) == (dtype == np.float16)  # f16 accumulates in f32


# --- gemm --------------------------------------------------------------------------------

GEMM_CASES = nn.GEMM_CASES + [(2, 3, 5, True, True, 3.0, 0.0, (5,)),]


@pytest.mark.parametrize("m,k,n,ta,tb,alpha,beta,c_shape", GEMM_CASES)
def test_gemm(m, k, n, ta, tb, alpha, beta, c_shape):
    a = sample((k, m) if ta else (m, k))
    b = sample((n, k) if tb else (k, n))
    inputs = [a, b] + ([] if c_shape is None else [sample(c_shape)])
    p = props(
        alpha=alpha if alpha != 1.0 else None,
        beta=beta if beta != 1.0 else None,
        trans_a=ta or None,
        trans_b=tb or None,
    )
    lower_and_compare("gemm", inputs, (m, n), p)


def test_gemm_beta_zero_does_not_read_c():
    a, b = sample((2, 3)), sample((3, 2))
    c = np.array([np.inf, np.nan], np.float32)
    module = lower_and_compare("gemm", [a, b, c], (2, 2), "beta = 0.0")
    assert op_names(module).count("tensor.generic") == 1


def test_gemm_float16():
    a, b, c = sample((3, 4), np.float16), sample((5, 4), np.float16), sample((5,), np.float16)
    lower_and_compare("gemm", [a, b, c], (3, 5), "alpha = 0.5, trans_b = true", tol=F16)


# --- conv2d ------------------------------------------------------------------------------

CONV_CASES = nn.CONV_CASES + [
    ((1, 2, 7, 6), (3, 2, 2, 3), True, (3, 3), (0, 0, 2, 2), (1, 1), 1),  # strides leave a remainder
]


def conv_out(x_shape, w_shape, strides, pads, dilations):
    oh = window_out(x_shape[2], w_shape[2], strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(x_shape[3], w_shape[3], strides[1], pads[1], pads[3], dilations[1], False, "width")
    return (x_shape[0], w_shape[0], oh, ow)


@pytest.mark.parametrize("x_shape,w_shape,bias,strides,pads,dilations,groups", CONV_CASES)
def test_conv2d(x_shape, w_shape, bias, strides, pads, dilations, groups):
    inputs = [sample(x_shape), sample(w_shape)] + ([sample((w_shape[0],))] if bias else [])
    p = props(strides=strides, pads=pads, dilations=dilations, groups=groups)
    module = lower_and_compare("conv2d", inputs, conv_out(x_shape, w_shape, strides, pads, dilations), p)
    assert ("tensor.pad" in op_names(module)) == any(pads)


def test_conv2d_float16():
    x, w, b = sample((1, 2, 5, 5), np.float16), sample((3, 2, 3, 3), np.float16), sample((3,), np.float16)
    lower_and_compare("conv2d", [x, w, b], (1, 3, 3, 3), tol=F16)


# --- pooling -----------------------------------------------------------------------------

POOL_CASES = nn.POOL_CASES


def pool_case(shape, kernel, strides, pads, dilations, ceil_mode, **extra):
    p = props(kernel=kernel, strides=strides, pads=pads, dilations=dilations, ceil_mode=ceil_mode or None, **extra)
    oh = window_out(shape[2], kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil_mode, "height")
    ow = window_out(shape[3], kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil_mode, "width")
    return p, (shape[0], shape[1], oh, ow)


@pytest.mark.parametrize("shape,kernel,strides,pads,dilations,ceil_mode", POOL_CASES)
def test_max_pool2d(shape, kernel, strides, pads, dilations, ceil_mode):
    p, out = pool_case(shape, kernel, strides, pads, dilations, ceil_mode)
    lower_and_compare("max_pool2d", [sample(shape)], out, p, tol=EXACT)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float16])
def test_max_pool2d_other_dtypes(dtype):
    x = RNG.integers(0 if dtype == np.uint8 else -100, 100, (1, 2, 6, 5)).astype(dtype)
    p, out = pool_case(x.shape, (2, 2), (2, 2), (1, 1, 1, 1), (1, 1), True)
    lower_and_compare("max_pool2d", [x], out, p, tol=EXACT)


@pytest.mark.parametrize("count_include_pad", [False, True])
@pytest.mark.parametrize("shape,kernel,strides,pads,dilations,ceil_mode", POOL_CASES)
def test_avg_pool2d(shape, kernel, strides, pads, dilations, ceil_mode, count_include_pad):
    p, out = pool_case(shape, kernel, strides, pads, dilations, ceil_mode, count_include_pad=count_include_pad or None)
    lower_and_compare("avg_pool2d", [sample(shape)], out, p)


def test_avg_pool2d_float16():
    p, out = pool_case((1, 2, 5, 5), (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), True)
    lower_and_compare("avg_pool2d", [sample((1, 2, 5, 5), np.float16)], out, p, tol=F16)


@pytest.mark.parametrize("shape", [(1, 3, 5, 7), (2, 1, 1, 1), (3, 4, 9, 2)])
def test_global_avg_pool2d(shape):
    lower_and_compare("global_avg_pool2d", [sample(shape)], shape[:2] + (1, 1))


# --- normalization -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "shape,epsilon", [((2, 3, 5, 4), 1e-5), ((4, 5), 1e-3), ((1, 3, 7), 0.0), ((2, 3, 2, 3, 2), 0.5), ((3, 1), 1e-5)]
)
def test_batch_norm(shape, epsilon):
    c = shape[1]
    x = sample(shape, scale=3.0)
    scale, bias, mean = sample((c,)), sample((c,)), sample((c,))
    var = np.asarray(RNG.uniform(0.2, 2.0, (c,)), np.float32)
    p = props(epsilon=epsilon) if epsilon != 1e-5 else ""
    lower_and_compare("batch_norm", [x, scale, bias, mean, var], shape, p)


LAYER_NORM_CASES = nn.LAYER_NORM_CASES + [
    ((2, 3, 1), -1, (1,), (1,), 1e-5),  # a size-1 normalized axis
]


@pytest.mark.parametrize("shape,axis,scale_shape,bias_shape,epsilon", LAYER_NORM_CASES)
def test_layer_norm(shape, axis, scale_shape, bias_shape, epsilon):
    x = sample(shape, scale=2.0) + 1.5
    inputs = [x, sample(scale_shape)] + ([] if bias_shape is None else [sample(bias_shape)])
    p = props(axis=axis if axis != -1 else None, epsilon=epsilon if epsilon != 1e-5 else None)
    lower_and_compare("layer_norm", inputs, shape, p)


SOFTMAX_CASES = nn.SOFTMAX_CASES + [((1, 1), 0)]


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,axis", SOFTMAX_CASES)
def test_softmax(op, shape, axis):
    x = sample(shape, scale=30.0)  # exp would overflow without the max shift
    x.flat[0] = 200.0
    p = props(axis=axis) if axis != -1 else ""
    lower_and_compare(op, [x], shape, p)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("dtype", [np.float64, np.float16])
def test_softmax_other_dtypes(op, dtype):
    tol = dict(rtol=1e-12, atol=1e-12) if dtype == np.float64 else F16
    lower_and_compare(op, [sample((3, 8), dtype, 4.0)], (3, 8), tol=tol)


def test_layer_norm_float16():
    x, scale, bias = sample((3, 6), np.float16), sample((6,), np.float16), sample((6,), np.float16)
    lower_and_compare("layer_norm", [x, scale, bias], (3, 6), tol=F16)


LRN_CASES = nn.LRN_CASES + [
    ((2, 7, 3), 4, 0.3, 0.75, 1.5),  # even size, rank 3
    ((3, 4), 2, 0.3, 0.75, 1.5),  # rank 2
]


@pytest.mark.parametrize("shape,size,alpha,beta,bias", LRN_CASES)
def test_lrn(shape, size, alpha, beta, bias):
    x = sample(shape, scale=2.0)
    lower_and_compare("lrn", [x], shape, props(size=size, alpha=alpha, beta=beta, bias=bias))


# --- the whole set ------------------------------------------------------------------------


def test_empty_tensors():
    lower_and_compare("softmax", [sample((3, 0))], (3, 0))
    lower_and_compare("conv2d", [sample((0, 2, 4, 4)), sample((3, 2, 3, 3))], (0, 3, 2, 2))


def test_dynamic_shapes_are_a_diagnostic():
    text = """
func.func @main(%a: tensor<?x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x5xf32> {
  %r = graph.matmul %a, %b : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
  func.return %r : tensor<?x5xf32>
}
"""
    module = parse(text)
    with pytest.raises(StratiError, match="needs static shapes") as err:
        ConvertGraphToTensorPass().apply(make_context(), module)
    assert err.value.op is not None and err.value.op.name == "graph.matmul"


def test_a_small_network_lowers_and_matches():
    """Several lowered ops in a row: conv, batch_norm, relu, max_pool, lrn, global pool, softmax."""
    text = """
func.func @main(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>,
                %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<1x3x1x1xf32> {
  %c = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  %n = graph.batch_norm %c, %s, %b, %m, %v : (tensor<1x3x6x6xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x6x6xf32>
  %r = graph.relu %n : tensor<1x3x6x6xf32>
  %p = graph.max_pool2d %r {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  %l = graph.lrn %p {size = 3} : tensor<1x3x3x3xf32>
  %g = graph.global_avg_pool2d %l : (tensor<1x3x3x3xf32>) -> tensor<1x3x1x1xf32>
  %y = graph.softmax %g {axis = 1} : tensor<1x3x1x1xf32>
  func.return %y : tensor<1x3x1x1xf32>
}
"""
    inputs = [sample((1, 2, 6, 6)), sample((3, 2, 3, 3)), sample((3,)), sample((3,)), sample((3,))]
    inputs.append(np.asarray(RNG.uniform(0.5, 2, (3,)), np.float32))
    module = parse(text)
    (want,) = run_function(module, inputs)
    ConvertGraphToTensorPass().apply(make_context(), module)
    assert not [o.name for o in module.walk() if o.name.startswith("graph.")]
    module.verify()
    (got,) = run_function(module, inputs)
    np.testing.assert_allclose(got, want, **F32)
