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
from strati.dialects.hw.cpu.matmul import A_BLOCK_TILES, CpuScheduleMatmulPass, knobs
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
@pytest.mark.parametrize("transposed", [False, True], ids=["b", "b_t"])
def test_pack_in_panels(m, k, n, transposed):
    """B's columns tiled by 4, the tile loop hoisted outside i, B packed in panels at a loop
    around the nest: ceil(n/4) panels, the last one partial; the results bit for bit the
    unpacked nest's (B as given or transposed)."""
    from strati.transforms.interchange import hoist_loop
    from strati.transforms.pack import pack
    from strati.transforms.tile import tile_loop
    from strati.dialects.loop.analysis import IndexConstants
    from strati.runtime.interpreter import find_function

    a, b = inputs(m, k, n)
    if transposed:
        b = np.ascontiguousarray(b.T)
    text = matmul_text(m, k, n, trans_b=transposed)
    want = run(loop_module(text), a, b)
    module = loop_module(text)
    i, j, _ = nest_loops(module)
    consts = IndexConstants(find_function(module))
    top = ForOp(consts.get(0), consts.get(1), consts.get(1))  # a loop of one iteration around the nest to pack in
    i.parent_block().insert_op_before(top, i)
    i.detach()
    top.body.block.insert_op_before(i, top.body.block.last_op)
    hoist_loop(tile_loop(j, 4, consts))  # top { jr { i { j { k } } } }
    alloc = pack(top, find_function(module).body.block.args[1], consts, panels=True)
    module.verify()
    # the panel's block outermost (where %jr is), then the loops' order inside: j, then k
    assert alloc is not None and list(alloc.memref.type.get_shape()) == [-(-n // 4), 4, k]
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
    """The register tile follows the registers: 32 zmm (AVX-512) hold 7 rows x 2 vectors beside
    the B vectors and broadcasts of two k steps (4 + 14); 16 ymm (AVX2) 6 x 2: 12 accumulators,
    half again the 8 FMAs in flight, beside one k step's 2 B vectors and 2 broadcasts (3 x 2
    would leave room for two k steps, but only 6 FMAs in flight).  With one vector of columns:
    12 rows on both (12 + 1 + 2 registers)."""
    big = (1024, 1024, 1024)
    k512, k2 = knobs(AVX512, *big), knobs(AVX2, *big)
    assert (k512["mr"], k512["nr"]) == (7, 32)
    assert (k2["mr"], k2["nr"]) == (6, 16)
    assert (knobs(AVX512, 1024, 16, 1024)["mr"], knobs(AVX2, 1024, 8, 1024)["mr"]) == (12, 12)
    for kn in (k512, k2):
        assert kn["mc"] * kn["kc"] * 4 <= AVX512["l2"] // 4  # A's packed block a quarter of L2
        assert 2 * kn["kc"] * kn["nc"] * 4 <= AVX512["l3"] // 2  # both cores' B panels half of L3
        assert kn["mc"] % kn["mr"] == 0 and kn["nc"] % kn["nr"] == 0


@pytest.mark.parametrize("k", [64, 200, 1024, 1170, 1171, 2048, 4099])
@pytest.mark.parametrize("target", [AVX512, AVX2], ids=["avx512", "avx2"])
def test_k_blocks_are_deep_and_even(k, target):
    """KC, C (2048 x 2048) far larger than L2: a block of A of A_BLOCK_TILES register tiles of
    rows fits a quarter of L2 (so each k block, which reloads all of C, is as deep as that
    allows), the k blocks even (no short last block), and a k that fits is one block.  With
    C in half of L2 (a core's share), B's kc x nr micro-panel fills half of L1 instead."""
    small = knobs(target, 64, 64, k)
    assert 64 * 64 * 4 // 2 <= target["l2"] // 2 and small["kc"] == max(16, min(k, target["l1"] // 2 // (small["nr"] * 4)))
    kn = knobs(target, 2048, 2048, k)
    deepest = target["l2"] // 4 // (A_BLOCK_TILES * kn["mr"] * 4)
    blocks = -(-k // kn["kc"])
    assert kn["kc"] <= deepest and A_BLOCK_TILES * kn["mr"] * kn["kc"] * 4 <= target["l2"] // 4
    assert blocks == -(-k // deepest)  # no more blocks than the depth needs
    assert blocks * kn["kc"] - k < blocks  # even: every block kc or kc - 1 deep
    if k <= deepest:
        assert kn["kc"] == k


def test_the_cores_split_the_columns_or_the_rows():
    """The cores split whichever of the columns or the rows they share more evenly: a square
    matmul's columns (each core packs its own panels of B once), a 1x1 convolution's rows when
    its image is 7x7 (49 columns, 4 tiles of 16: 32 + 17 columns, against 2048 rows)."""
    big = knobs(AVX2, 1024, 1024, 1024)
    assert big["nc"] * 2 >= 1024 > big["nc"]  # two column blocks, one per core
    pointwise = knobs(AVX2, 2048, 49, 512)
    assert pointwise["nc"] >= 49  # one column block
    assert -(-2048 // pointwise["mc"]) % 2 == 0  # row blocks a multiple of the cores


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


# --- constant weights packed at compile time, and the small-M (GEMV) schedule ---------------------


def with_constant_b(text: str, b: np.ndarray):
    """The graph-level module of ``text`` with its argument ``%b`` replaced by a constant of ``b``."""
    from xdsl.dialects.builtin import FunctionType

    from strati.dense import dense_from_numpy
    from strati.dialects.graph.ops import ConstantOp
    from strati.runtime.interpreter import find_function

    module = parse_module(make_context(), text)
    fn = find_function(module)
    block = fn.body.block
    arg = block.args[1]
    c = ConstantOp(dense_from_numpy(b))
    block.insert_op_before(c, block.first_op)
    arg.replace_all_uses_with(c.result)
    block.erase_arg(arg)
    fn.function_type = FunctionType.from_lists([fn.function_type.inputs.data[0]], list(fn.function_type.outputs.data))
    return module


def packed_globals(module) -> list:
    return [o for o in module.walk() if o.name == "memref.global" and "_packed_" in o.sym_name.data]


@pytest.mark.parametrize("m, k, n", [(1, 13, 11), (3, 17, 7), (5, 8, 29)])
@pytest.mark.parametrize("trans_b", [False, True], ids=["b", "b_t"])
def test_pack_constant_bit_for_bit(m, k, n, trans_b):
    """A constant B packed at compile time, in tiles of 4 columns (the last partial): no copy in
    the loops, the original global gone, and the nest's results bit for bit."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((n, k) if trans_b else (k, n)).astype(np.float32)
    want = run(lower_to(with_constant_b(matmul_text(m, k, n, trans_b), b), "loop"), a)
    module = lower_to(with_constant_b(matmul_text(m, k, n, trans_b), b), "loop")
    _, j, _ = nest_loops(module)
    j.attributes["schedule.tile"] = ArrayAttr([IntegerAttr(4, i64)])
    TilePass().apply(make_context(), module)
    tile = next(o for o in module.walk() if isinstance(o, ForOp) and "schedule.tile_size" in o.attributes)
    name = next(o for o in module.walk() if o.name == "memref.get_global").memref.name_hint
    tile.attributes["schedule.pack"] = ArrayAttr([StringAttr(name)])
    PackPass().apply(make_context(), module)
    module.verify()
    assert not [o for o in module.walk() if o.name == "memref.alloc"], "no copy at run time"
    (g,) = [o for o in module.walk() if o.name == "memref.global"]
    assert "_packed_" in g.sym_name.data and g.type.get_shape() == ((n + 3) // 4, 4, k)  # blocks, then j, k as the loops
    np.testing.assert_array_equal(run(module, a), want)


GEMV_SIZES = [(1, 97, 131), (3, 53, 71), (2, 257, 67), (1, 7, 5), (5, 29, 45), (6, 31, 100)]


@pytest.mark.parametrize("target", [AVX512, AVX2], ids=["avx512", "avx2"])
@pytest.mark.parametrize("m, k, n", GEMV_SIZES)
@pytest.mark.parametrize("constant", [False, True], ids=["b_arg", "b_const"])
def test_small_m_schedule_compiled(target, m, k, n, constant):
    """M below the register tile's rows takes the small-M schedule (B transposed, as a Linear
    layer's weights); with constant weights B is packed at compile time and nothing copies it."""
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((n, k)).astype(np.float32)
    text = matmul_text(m, k, n, trans_b=True)
    module = lower_to(with_constant_b(text, b), "loop") if constant else loop_module(text)
    module.attributes[TARGET_ATTR] = target
    CpuScheduleMatmulPass(min_work=1).apply(make_context(), module)
    module.verify()
    from strati.dialects.hw.cpu.matmul import full_mr

    small = m < full_mr(target, n)  # 7 rows on AVX-512, 6 on AVX2: else the large-M schedule
    assert any(o.attributes.get("schedule.small_m") == IntegerAttr(m, i64) for o in module.walk()) == small
    # (a buffer packed in a parallel loop is allocated in each iteration, so in each copy of the loop)
    allocs = {o.memref.name_hint for o in module.walk() if o.name == "memref.alloc"}
    if constant:  # nothing reads the original weights (so no copy of them runs): the packed global only
        assert len(packed_globals(module)) == 1
        assert not [o for o in module.walk() if o.name == "memref.global" and "_packed_" not in o.sym_name.data]
        assert allocs == (set() if small else {"a_packed"}), "A is packed by the large-M schedule only"
    else:
        assert not packed_globals(module) and allocs == ({"b_packed"} if small else {"a_packed", "b_packed"})
    got = compiled(module)(a) if constant else compiled(module)(a, b)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.T.astype(np.float64), rtol=1e-4, atol=1e-5 * math.sqrt(k))


def test_small_m_knobs_from_the_target():
    """One row on AVX-512: 4 vectors of 16 columns (64); AVX2: 4 of 8; the cores split N; the
    large-M register tile's rows (7 on AVX-512, 6 on AVX2) are where the small-M schedule stops."""
    from strati.dialects.hw.cpu.matmul import full_mr, small_m_knobs

    k512 = small_m_knobs(AVX512, 1, 4096, 9216, constant_b=True)
    k2 = small_m_knobs(AVX2, 1, 4096, 9216, constant_b=True)
    assert (k512["mr"], k512["nr"], k2["nr"]) == (1, 64, 32)
    for kn in (k512, k2):
        assert kn["nc"] * AVX512["cores"] >= 4096 and kn["nc"] % kn["nr"] == 0
        assert kn["kc"] * 4 <= AVX512["l2"] // 2  # A's rows of a panel stay in half of L2
    assert small_m_knobs(AVX2, 1, 4096, 9216)["kc"] * 32 * 4 <= AVX2["l1"] // 2  # a panel copied at run time: half of L1
    # Accumulators, B vectors and two broadcasts in 16 registers: 2 rows x 4 vectors + 4 + 2; 3 x 3 + 3 + 2 (3 x 4 + 4 + 2 = 18).
    assert (small_m_knobs(AVX2, 2, 4096, 64)["nr"], small_m_knobs(AVX2, 3, 4096, 64)["nr"]) == (32, 24)
    assert (full_mr(AVX512, 4096), full_mr(AVX2, 4096)) == (7, 6)


def test_shared_kernel_gets_each_callers_packed_weights():
    """Two fully connected layers of the same shape share one outlined kernel at -O3: each call
    passes the packed global of its own weights, and the results are both layers'."""
    import strati
    from strati.compiler import OPT_LEVELS

    x = RNG.standard_normal((1, 520)).astype(np.float32)
    w1, w2 = (RNG.standard_normal((520, 520)).astype(np.float32) / 8 for _ in range(2))
    t = "tensor<1x520xf32>"
    text = (
        f"func.func @mlp(%x: {t}, %w1: tensor<520x520xf32>, %w2: tensor<520x520xf32>) -> {t} {{\n"
        f"  %h = graph.gemm %x, %w1 {{trans_b = true}} : ({t}, tensor<520x520xf32>) -> {t}\n"
        f"  %y = graph.gemm %h, %w2 {{trans_b = true}} : ({t}, tensor<520x520xf32>) -> {t}\n"
        f"  func.return %y : {t}\n}}"
    )

    from xdsl.dialects.builtin import FunctionType

    from strati.dense import dense_from_numpy
    from strati.dialects.graph.ops import ConstantOp
    from strati.runtime.interpreter import find_function

    def module():
        mod = parse_module(make_context(), text)
        fn = find_function(mod)
        block = fn.body.block
        for arg, w in reversed(list(zip(block.args[1:], (w1, w2)))):
            c = ConstantOp(dense_from_numpy(w))
            block.insert_op_before(c, block.first_op)
            arg.replace_all_uses_with(c.result)
            block.erase_arg(arg)
        fn.function_type = FunctionType.from_lists([fn.function_type.inputs.data[0]], list(fn.function_type.outputs.data))
        return mod

    hw = module()
    hw.attributes[TARGET_ATTR] = AVX512
    lower_to(hw, "hw", OPT_LEVELS[3])
    kernels = [o for o in hw.walk() if o.name == "func.func" and "strati.kernel" in o.attributes and "small_m" in str(o)]
    assert len(kernels) == 1, "one kernel for both layers"
    assert len(packed_globals(hw)) == 2
    assert not [o for o in hw.walk() if o.name == "memref.global" and o.type.get_shape() == (520, 520)], "the originals went"
    want = (x.astype(np.float64) @ w1.T.astype(np.float64)) @ w2.T.astype(np.float64)
    np.testing.assert_allclose(strati.compile(module(), opt_level=3)(x), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("stride, kernel", [(1, 1), pytest.param(2, 3, marks=pytest.mark.slow)])
def test_convolutions_constant_weights_packed_at_compile_time(stride, kernel):
    """A convolution in matmul form with constant weights (A, read through a reshape of the
    weights' global for 1x1): packed at compile time, the original weights gone, numerics kept."""
    import strati
    from strati.strategy import forced

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
    padded = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kernel, kernel), axis=(2, 3))[:, :, ::stride, ::stride]
    want = np.tensordot(windows, w.astype(np.float64), axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)  # numpy's im2col
    with forced("graph.conv2d", "cpu", "1x1_as_matmul" if (stride, kernel) == (1, 1) else "im2col"):
        module = lower_to(with_constant_b(text, w), "loop")
        module.attributes[TARGET_ATTR] = AVX2
        CpuScheduleMatmulPass(min_work=1).apply(make_context(), module)
        module.verify()
        assert len(packed_globals(module)) == 1
        assert not [o for o in module.walk() if o.name == "memref.global" and "_packed_" not in o.sym_name.data]
        np.testing.assert_allclose(compiled(module)(x), want, rtol=1e-4, atol=1e-4)
        exe = strati.compile(with_constant_b(text, w), opt_level=3)
        np.testing.assert_allclose(exe(x), want, rtol=1e-4, atol=1e-4)
