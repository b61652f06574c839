"""The loop transformations (tile, unroll-and-jam, pack, scalar-replace) and the CPU's matmul
schedule that composes them: differential tests at odd sizes (primes, remainders, 1x1).

Each transformation keeps every sum in its order, so at the loop level the transformed
nest is checked bit for bit against the original one in the loop interpreter.  The whole
schedule is compiled for fixed AVX-512 and AVX2 descriptions (small caches, so that every
tile loop has several and partial tiles) and checked against numpy in float64.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i64

from strati.compiler import lower_to
from strati.context import make_context
from strati.dialects.hw import TARGET_ATTR, TargetAttr
from strati.dialects.hw.cpu.matmul import CpuScheduleMatmulPass, knobs
from strati.dialects.loop.ops import ForOp
from strati.runtime.jit import compile_module
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.source import parse_module
from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass
from strati.transforms.pack import PackPass
from strati.transforms.scalar_replace import ScalarReplacePass
from strati.transforms.tile import TilePass
from strati.transforms.unroll_and_jam import UnrollAndJamPass

RNG = np.random.default_rng(9)
SIZES = [(1, 1, 1), (2, 3, 5), (7, 1, 13), (13, 17, 11), (29, 31, 37), (16, 8, 33)]


def matmul_text(m: int, k: int, n: int, trans_b: bool = False, batch: int | None = None) -> str:
    pre = f"{batch}x" if batch else ""
    b_shape = f"{pre}{n}x{k}" if trans_b else f"{pre}{k}x{n}"
    if trans_b:
        op = f"graph.gemm %a, %b {{trans_b = true}} : (tensor<{m}x{k}xf32>, tensor<{b_shape}xf32>) -> tensor<{m}x{n}xf32>"
    else:
        op = f"graph.matmul %a, %b : (tensor<{pre}{m}x{k}xf32>, tensor<{b_shape}xf32>) -> tensor<{pre}{m}x{n}xf32>"
    a_shape = f"{pre}{m}x{k}" if not trans_b else f"{m}x{k}"
    return (
        f"func.func @mm(%a: tensor<{a_shape}xf32>, %b: tensor<{b_shape}xf32>) -> tensor<{pre}{m}x{n}xf32> {{\n"
        f"  %c = {op}\n  func.return %c : tensor<{pre}{m}x{n}xf32>\n}}"
    )


def loop_module(text: str):
    return lower_to(parse_module(make_context(), text), "loop")


def nest_loops(module) -> tuple[ForOp, ForOp, ForOp]:
    """The (i, j, k) loops of the module's matmul nest (the innermost loop is k)."""
    k = next(o for o in module.walk() if isinstance(o, ForOp) and o.body.block.first_op.name == "memref.load"
             and any(x.name == "arith.mulf" for x in o.body.block.ops))  # fmt: skip
    j = k.parent_op()
    return j.parent_op(), j, k


def inputs(m: int, k: int, n: int):
    return RNG.standard_normal((m, k)).astype(np.float32), RNG.standard_normal((k, n)).astype(np.float32)


def run(module, *xs):
    return run_loop_function(module, list(xs))[0]


# --- each transformation, bit for bit in the loop interpreter ------------------------------------


@pytest.mark.parametrize("m, k, n", SIZES)
def test_tile_every_loop_multi_level(m, k, n):
    a, b = inputs(m, k, n)
    original = loop_module(matmul_text(m, k, n))
    want = run(original, a, b)
    module = loop_module(matmul_text(m, k, n))
    i, j, kk = nest_loops(module)
    i.attributes["schedule.tile"] = ArrayAttr([IntegerAttr(4, i64), IntegerAttr(3, i64)])
    j.attributes["schedule.tile"] = ArrayAttr([IntegerAttr(5, i64)])
    kk.attributes["schedule.tile"] = ArrayAttr([IntegerAttr(2, i64)])
    TilePass().apply(make_context(), module)
    module.verify()
    assert len([o for o in module.walk() if "schedule.tile_size" in o.attributes]) == 4
    np.testing.assert_array_equal(run(module, a, b), want)


@pytest.mark.parametrize("m, k, n", SIZES)
@pytest.mark.parametrize("factor", [2, 3, 8])
def test_unroll_and_jam_rows(m, k, n, factor):
    a, b = inputs(m, k, n)
    want = run(loop_module(matmul_text(m, k, n)), a, b)
    module = loop_module(matmul_text(m, k, n))
    i, _, _ = nest_loops(module)
    i.attributes["schedule.unroll_jam"] = IntegerAttr(factor, i64)
    UnrollAndJamPass().apply(make_context(), module)
    module.verify()
    stores = [o for o in module.walk() if o.name == "memref.store" and o.parent_op().parent_op().parent_op() is not None]
    assert len(stores) >= min(factor, m), "the rows are jammed into the inner loops"
    np.testing.assert_array_equal(run(module, a, b), want)


@pytest.mark.parametrize("m, k, n", SIZES)
def test_pack_both_operands(m, k, n):
    a, b = inputs(m, k, n)
    want = run(loop_module(matmul_text(m, k, n)), a, b)
    module = loop_module(matmul_text(m, k, n))
    i, j, _ = nest_loops(module)
    i.attributes["schedule.pack"] = ArrayAttr([StringAttr("b")])
    j.attributes["schedule.pack"] = ArrayAttr([StringAttr("a")])
    PackPass().apply(make_context(), module)
    module.verify()
    allocs = [o for o in module.walk() if o.name == "memref.alloc"]
    # B in the order of the loops that read it (j, then k innermost); A's row for one i.
    assert {str(o.memref.type) for o in allocs} >= {f"memref<{n}x{k}xf32>", f"memref<{k}xf32>"}
    np.testing.assert_array_equal(run(module, a, b), want)


@pytest.mark.parametrize("m, k, n", SIZES)
def test_scalar_replace_the_accumulator(m, k, n):
    a, b = inputs(m, k, n)
    want = run(loop_module(matmul_text(m, k, n)), a, b)
    module = loop_module(matmul_text(m, k, n))
    _, _, kk = nest_loops(module)
    kk.attributes["schedule.scalar_replace"] = IntegerAttr(1, i64)
    ScalarReplacePass().apply(make_context(), module)
    module.verify()
    assert not [o for o in kk.body.walk() if o.name in ("memref.load", "memref.store") and o.operands[-3 if o.name == "memref.store" else 0].name_hint == "out"]
    assert [o for o in module.walk() if o.name == "memref.alloca"]
    np.testing.assert_array_equal(run(module, a, b), want)


# --- the matmul schedule, compiled ----------------------------------------------------------------

AVX512 = TargetAttr("cpu", vector_width=16, fma=True, cores=2, l1=4096, l2=65536, l3=1 << 20)
AVX2 = TargetAttr("cpu", vector_width=8, fma=True, cores=2, l1=4096, l2=65536, l3=1 << 20)


def scheduled(text: str, target: TargetAttr):
    module = loop_module(text)
    module.attributes[TARGET_ATTR] = target
    before = module.clone()
    CpuScheduleMatmulPass(min_work=1).apply(make_context(), module)
    module.verify()
    return before, module


@pytest.mark.parametrize("target", [AVX512, AVX2], ids=["avx512", "avx2"])
@pytest.mark.parametrize("m, k, n", [*SIZES, (67, 53, 71), (3, 130, 97)])
def test_matmul_schedule_compiled(target, m, k, n):
    before, module = scheduled(matmul_text(m, k, n), target)
    assert any("schedule.mr" in o.attributes or "schedule.kc" in o.attributes for o in module.walk())
    a, b = inputs(m, k, n)
    got = compiled(module)(a, b)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-5 * math.sqrt(k))


def compiled(module):
    """The scheduled module (vector code: the loop interpreter does not run it) through the rest
    of the CPU's pipeline, every parallel loop a task, compiled."""
    ConvertLoopToHwPass(pipeline="interchange,vectorize,cpu-parallelize{threshold=1}").apply(make_context(), module)
    return compile_module(module)


def test_register_tile_from_the_register_file():
    """The register tile follows the registers: 32 zmm (AVX-512) hold 7 rows x 2 vectors, 16 ymm (AVX2) 3 x 2."""
    big = (1024, 1024, 1024)
    k512, k2 = knobs(AVX512, *big), knobs(AVX2, *big)
    assert (k512["mr"], k512["nr"]) == (7, 32)
    assert (k2["mr"], k2["nr"]) == (3, 16)
    for kn in (k512, k2):
        assert kn["kc"] * kn["nr"] * 4 <= AVX512["l1"] // 2  # B's micro-panel fits half of L1
        assert kn["kc"] * kn["nc"] * 4 <= AVX512["l2"] // 2  # B's packed panel half of L2
        assert kn["mc"] % kn["mr"] == 0


@pytest.mark.parametrize(
    "text, shapes",
    [
        (matmul_text(13, 29, 41, batch=3), [(3, 13, 29), (3, 29, 41)]),
        (matmul_text(19, 23, 37, trans_b=True), [(19, 23), (37, 23)]),
    ],
    ids=["batched", "gemm_trans_b"],
)
def test_batched_and_transposed(text, shapes):
    before, module = scheduled(text, AVX512)
    assert any(o.name == "memref.alloc" and "packed" in (o.memref.name_hint or "") for o in module.walk())
    xs = [RNG.standard_normal(s).astype(np.float32) for s in shapes]
    np.testing.assert_allclose(compiled(module)(*xs), run(before, *xs), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("stride, kernel", [(1, 1), (2, 3), (1, 3)])
def test_convolutions_in_matmul_form_are_scheduled(stride, kernel):
    """1x1_as_matmul and im2col lower to the matmul nest the schedule recognises."""
    import strati

    x = RNG.standard_normal((1, 24, 11, 11)).astype(np.float32)
    w = RNG.standard_normal((40, 24, kernel, kernel)).astype(np.float32)
    pad = kernel // 2
    side = (11 + 2 * pad - kernel) // stride + 1
    text = (
        f"func.func @conv(%x: tensor<1x24x11x11xf32>, %w: tensor<40x24x{kernel}x{kernel}xf32>) -> tensor<1x40x{side}x{side}xf32> {{\n"
        f"  %y = graph.conv2d %x, %w {{strides = array<i64: {stride}, {stride}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>}}"
        f" : (tensor<1x24x11x11xf32>, tensor<40x24x{kernel}x{kernel}xf32>) -> tensor<1x40x{side}x{side}xf32>\n"
        f"  func.return %y : tensor<1x40x{side}x{side}xf32>\n}}"
    )
    from strati.strategy import forced

    with forced("graph.conv2d", "cpu", "1x1_as_matmul" if (stride, kernel) == (1, 1) else "im2col"):  # not blocked
        before, module = scheduled(text, AVX2)
        assert any("schedule.mr" in o.attributes for o in module.walk())
        want = run_function(parse_module(make_context(), text), [x, w])[0]  # numpy's, not the loop interpreter's 1M steps
        np.testing.assert_allclose(compiled(module)(x, w), want, rtol=1e-4, atol=1e-4)
        # And through strati.compile for the host (the default threshold: the nest is big enough).
        np.testing.assert_allclose(strati.compile(parse_module(make_context(), text))(x, w), want, rtol=1e-4, atol=1e-4)
