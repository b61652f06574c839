"""vectorize-transposes: the shuffle rounds transpose any power-of-two tile (simulated with numpy);
transposes and a blocked convolution's copy back to NCHW, compiled through the CPU's whole
pipeline with AVX2 and AVX-512 descriptions, give numpy's results bit for bit (odd and prime
sizes: remainders in either loop, loops shorter than a vector)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import arith, vector

from strati.compiler import lower_to, optimizations_for
from strati.context import make_context
from strati.dialects.hw import TARGET_ATTR, TargetAttr
from strati.runtime.interpreter import run_function
from strati.runtime.jit import compile_module
from strati.source import parse_module
from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass
from strati.transforms.vectorize_transposes import transpose_masks

AVX512 = TargetAttr("cpu", vector_width=16, fma=True, cores=2, l1=32768, l2=1 << 20, l3=1 << 24)
AVX2 = TargetAttr("cpu", vector_width=8, fma=True, cores=2, l1=32768, l2=1 << 19, l3=1 << 24)
RNG = np.random.default_rng(11)


@pytest.mark.parametrize("n", [2, 4, 8, 16, 32])
def test_the_rounds_transpose_a_tile(n):
    rows = [np.arange(n) + 100 * i for i in range(n)]
    for i, p, first, second in transpose_masks(n):
        both = np.concatenate([rows[i], rows[p]])
        rows[i], rows[p] = both[first], both[second]
    np.testing.assert_array_equal(np.stack(rows), (np.arange(n)[:, None] + 100 * np.arange(n)[None, :]))
    assert len(transpose_masks(n)) == n // 2 * int(np.log2(n))  # pairs of rows, log2(n) rounds


def hw_module(text: str, target: TargetAttr, optimizations=()):
    module = lower_to(parse_module(make_context(), text), "loop", optimizations)
    module.attributes[TARGET_ATTR] = target
    ConvertLoopToHwPass().apply(make_context(), module)  # the target's pipeline, vectorize-transposes in it
    module.verify()
    return module


def shuffles(module) -> int:
    return sum(isinstance(o, vector.ShuffleOp) for o in module.walk())


def tensor(shape) -> str:
    return "tensor<" + "x".join(map(str, shape)) + "xf32>"


# (input shape, perm, transposed in registers): the lanes halve (AVX-512's 16 -> 8 -> 4) while a
# loop is shorter.
TRANSPOSES = [
    ((64, 64), (1, 0), True),
    ((3, 37, 40), (0, 2, 1), True),  # 37 = 32 + 5 (AVX2): both loops have remainders
    ((2, 5, 9, 16), (0, 1, 3, 2), True),  # 9: 8 lanes, on AVX-512 too
    ((1, 48, 13, 13), (0, 2, 3, 1), True),
    ((7, 5), (1, 0), True),  # 4 lanes
    ((3, 16), (1, 0), False),  # 3 < 4
]  # fmt: skip


@pytest.mark.parametrize("target", [AVX2, AVX512], ids=["avx2", "avx512"])
@pytest.mark.parametrize("shape, perm, tiled", TRANSPOSES, ids=[f"{'x'.join(map(str, c[0]))}" for c in TRANSPOSES])
def test_transposes_match_numpy(shape, perm, tiled, target):
    out = tuple(shape[p] for p in perm)
    text = (f"func.func @f(%x: {tensor(shape)}) -> {tensor(out)} {{\n"
            f"  %y = graph.transpose %x {{perm = array<i64: {', '.join(map(str, perm))}>}} : ({tensor(shape)}) -> {tensor(out)}\n"
            f"  func.return %y : {tensor(out)}\n}}\n")  # fmt: skip
    module = hw_module(text, target)
    assert (shuffles(module) > 0) == tiled
    x = RNG.standard_normal(shape).astype(np.float32)
    np.testing.assert_array_equal(compile_module(module)(x), x.transpose(perm))


CONV = """func.func @f(%x: tensor<1x3x23x23xf32>, %w: tensor<32x3x3x3xf32>) -> tensor<1x32x5x5xf32> {
  %y = graph.conv2d %x, %w {strides = array<i64: 2, 2>} : (tensor<1x3x23x23xf32>, tensor<32x3x3x3xf32>) -> tensor<1x32x11x11xf32>
  %r = graph.relu %y : tensor<1x32x11x11xf32>
  %p = graph.max_pool2d %r {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x32x11x11xf32>) -> tensor<1x32x5x5xf32>
  func.return %p : tensor<1x32x5x5xf32>
}
"""


@pytest.mark.parametrize("target", [AVX2, AVX512], ids=["avx2", "avx512"])
def test_a_blocked_convolution_goes_back_to_nchw_in_tiles(target):
    """SqueezeNet's stem, small: the max pool reads NCHW, the convolution writes NCHW{c}c."""
    module = hw_module(CONV, target)
    assert shuffles(module) > 0
    x = RNG.standard_normal((1, 3, 23, 23)).astype(np.float32)
    w = RNG.standard_normal((32, 3, 3, 3)).astype(np.float32)
    want = run_function(parse_module(make_context(), CONV), [x, w])[0]
    np.testing.assert_allclose(compile_module(module)(x, w), want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("target", [AVX2, AVX512], ids=["avx2", "avx512"])
@pytest.mark.parametrize("dtype, tiled", [(np.float64, True), (np.int32, True), (np.int8, False)])
def test_element_types(dtype, tiled, target):
    """Wider elements, fewer lanes (f64: 4 with AVX2); bytes are left alone (MIN_BITS)."""
    el = {np.float64: "f64", np.int32: "i32", np.int8: "i8"}[dtype]
    text = (f"func.func @f(%x: tensor<19x12x{el}>) -> tensor<12x19x{el}> {{\n"
            f"  %y = graph.transpose %x {{perm = array<i64: 1, 0>}} : (tensor<19x12x{el}>) -> tensor<12x19x{el}>\n"
            f"  func.return %y : tensor<12x19x{el}>\n}}\n")  # fmt: skip
    module = hw_module(text, target)
    lanes = {v.type.get_shape()[0] for v in (o.result for o in module.walk() if isinstance(o, vector.ShuffleOp))}
    assert bool(lanes) == tiled
    if dtype is np.float64:
        assert lanes == ({4} if target is AVX2 else {8})
    x = (RNG.standard_normal((19, 12)) * 50).astype(dtype)
    np.testing.assert_array_equal(compile_module(module)(x), x.T)


@pytest.mark.parametrize("target", [AVX2, AVX512], ids=["avx2", "avx512"])
@pytest.mark.parametrize("channels, size", [(32, 14), (64, 7), (32, 9)])
def test_a_residual_block_goes_back_to_nchw_in_tiles(channels, size, target):
    """ResNet's: the copy back adds the input (NCHW, read where the result is written) and
    applies the relu, after the transpose."""
    t = f"tensor<1x{channels}x{size}x{size}xf32>"
    wt = f"tensor<{channels}x{channels}x3x3xf32>"
    text = (f"func.func @f(%x: {t}, %w: {wt}) -> {t} {{\n"
            f"  %y = graph.conv2d %x, %w {{pads = array<i64: 1, 1, 1, 1>}} : ({t}, {wt}) -> {t}\n"
            f"  %s = graph.add %y, %x : ({t}, {t}) -> {t}\n"
            f"  %r = graph.relu %s : {t}\n"
            f"  func.return %r : {t}\n}}\n")  # fmt: skip
    module = hw_module(text, target, optimizations_for(3))  # the add and the relu fused into the copy
    added = [o for o in module.walk() if isinstance(o, arith.AddfOp) and isinstance(o.lhs.owner, vector.ShuffleOp)]
    assert added, "the residual is not added to the transposed columns"
    x = RNG.standard_normal((1, channels, size, size)).astype(np.float32)
    w = RNG.standard_normal((channels, channels, 3, 3)).astype(np.float32)
    want = run_function(parse_module(make_context(), text), [x, w])[0]
    np.testing.assert_allclose(compile_module(module)(x, w), want, rtol=1e-5, atol=1e-4)
