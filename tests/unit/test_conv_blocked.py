"""The CPU's blocked convolution (strati/dialects/hw/cpu/conv.py): its knobs, its choice, and
its numerics against numpy on odd sizes (prime channels, remainders, 1x1 images, strides 2
and 3, pads, dilation, groups), at every -O level, on fixed AVX2 (8 lanes) and AVX-512
(16 lanes) descriptions, with the weights as arguments (re-laid-out at run time) and as
constants (at compile time)."""

from __future__ import annotations

import numpy as np
import pytest

import strati
from strati.context import make_context
from strati.dense import dense_from_numpy
from strati.dialects.graph.ops import ConstantOp
from strati.dialects.hw import TARGET_ATTR
from strati.dialects.hw.cpu.conv import OW_TILE, ROWS_OUTER, conv_knobs, flat_pixels, is_blocked, rows_outer
from strati.dialects.hw.cpu.target import host_cpu
from strati.compiler import lower_to
from strati.runtime.interpreter import find_function
from strati.source import parse_module
from strati.strategy import choose, forced

RNG = np.random.default_rng(9)


def reference(x, w, b, stride, pad, dilation, groups):
    """The convolution in numpy, one group and one tap at a time (float64)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, o, oh, ow))
    per = o // groups
    for g in range(groups):
        xs = xp[:, g * cg : (g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                patch = xs[:, :, i * dilation : i * dilation + stride * (oh - 1) + 1 : stride, j * dilation : j * dilation + stride * (ow - 1) + 1 : stride]
                y[:, g * per : (g + 1) * per] += np.einsum("nchw,oc->nohw", patch, w[g * per : (g + 1) * per, :, i, j])
    if b is not None:
        y += b[None, :, None, None]
    return y


def module_text(x_shape, w_shape, out_shape, stride, pad, dilation, groups, bias: bool, relu: bool) -> str:
    tt = lambda s: f"tensor<{'x'.join(map(str, s))}xf32>"  # noqa: E731
    props = (f"strides = array<i64: {stride}, {stride}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>, "
             f"dilations = array<i64: {dilation}, {dilation}>, groups = {groups} : i64")  # fmt: skip
    args = f"%x: {tt(x_shape)}, %w: {tt(w_shape)}" + (f", %b: {tt(w_shape[:1])}" if bias else "")
    operands = "%x, %w, %b" if bias else "%x, %w"
    types = f"{tt(x_shape)}, {tt(w_shape)}" + (f", {tt(w_shape[:1])}" if bias else "")
    relu_line = f"  %r = graph.relu %y : ({tt(out_shape)}) -> {tt(out_shape)}\n" if relu else ""
    result = "%r" if relu else "%y"
    return (
        f"func.func @conv({args}) -> {tt(out_shape)} {{\n"
        f"  %y = graph.conv2d {operands} {{{props}}} : ({types}) -> {tt(out_shape)}\n"
        f"{relu_line}  func.return {result} : {tt(out_shape)}\n}}\n"
    )


def constant_weights(module, w: np.ndarray):
    """The module with its weight argument (the second) a graph.constant."""
    from xdsl.dialects.builtin import FunctionType

    fn = find_function(module)
    block = fn.body.block
    c = ConstantOp(dense_from_numpy(w))
    block.insert_op_before(c, block.first_op)
    block.args[1].replace_all_uses_with(c.result)
    block.erase_arg(block.args[1])
    inputs = list(fn.function_type.inputs.data)
    fn.function_type = FunctionType.from_lists(inputs[:1] + inputs[2:], list(fn.function_type.outputs.data))
    return module


# (c, o, h, w, k, stride, pad, dilation, groups)
CASES = [
    (3, 17, 1, 1, 1, 1, 0, 1, 1),  # a 1x1 image, prime output channels (a partial block)
    (7, 13 + 16, 9, 11, 3, 1, 1, 1, 1),  # primes, a non-square image, a remainder of the pixel tile
    (5, 19, 10, 10, 3, 2, 1, 1, 1),  # stride 2
    (4, 23, 13, 13, 5, 3, 2, 1, 1),  # stride 3, a 5x5 kernel
    (6, 17, 12, 12, 3, 1, 2, 2, 1),  # dilation 2
    (8, 64, 9, 9, 3, 1, 1, 1, 2),  # two groups of 32 output channels
    (16, 32, 7, 7, 3, 1, 1, 1, 1),  # rows shorter than the tile: whole rows jammed
]


def case_id(case) -> str:
    c, o, h, w, k, s, p, d, g = case
    return f"{c}to{o}_{h}x{w}_k{k}s{s}p{p}d{d}g{g}"


# Each case at two -O levels, every level over the cases (a compile per test: kept few).
LEVELS = [(case, level) for i, case in enumerate(CASES) for level in (i % 4, (i + 2) % 4)]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case, opt_level", LEVELS, ids=[f"{case_id(c)}-O{lv}" for c, lv in LEVELS])
def test_blocked_matches_numpy(case, lanes, opt_level):
    c, o, h, wd, k, stride, pad, dilation, groups = case
    target = host_cpu().replace(vector_width=lanes)
    x = RNG.standard_normal((1, c, h, wd)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = np.maximum(reference(x, w, b, stride, pad, dilation, groups), 0)
    oh = (h + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    text = module_text(x.shape, w.shape, (1, o, oh, ow), stride, pad, dilation, groups, bias=True, relu=True)
    module = parse_module(make_context(), text, "conv.mlir")
    op = next(op for op in module.walk() if op.name == "graph.conv2d")
    if not is_blocked(op, target):
        pytest.skip("the blocked strategy does not apply to this convolution on this machine")
    constant = opt_level % 2 == 1  # the weights as a constant at -O1 and -O3, an argument at -O0 and -O2
    if constant:
        module = constant_weights(module, w)
    module.attributes[TARGET_ATTR] = target
    with forced("graph.conv2d", "cpu", "blocked"):
        exe = strati.compile(module, opt_level=opt_level)
    got = exe(x, b) if constant else exe(x, w, b)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


ROWS_CASES = [(3, 64, 32, 32, 3, 1, 1, 1, 1), (3, 64, 33, 31, 3, 2, 1, 1, 1), (8, 64, 31, 29, 3, 1, 1, 1, 2)]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case", ROWS_CASES, ids=[case_id(c) for c in ROWS_CASES])
def test_rows_outside_the_blocks_match_numpy(case, lanes):
    """With a 24 KB L2 in the description, these images (14-16 KB padded, a group's) do not fit
    half of it and the weights (7-9 KB) do: the rows loop outside the channel blocks (the knob
    on the nest), and the results do not move (odd sizes, stride 2, two groups)."""
    c, o, h, wd, k, stride, pad, dilation, groups = case
    target = host_cpu().replace(vector_width=lanes, l2=24 * 1024)
    x = RNG.standard_normal((1, c, h, wd)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = reference(x, w, b, stride, pad, dilation, groups)
    oh = (h + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    ow = (wd + 2 * pad - dilation * (k - 1) - 1) // stride + 1
    text = module_text(x.shape, w.shape, (1, o, oh, ow), stride, pad, dilation, groups, bias=True, relu=False)
    module = constant_weights(parse_module(make_context(), text, "conv.mlir"), w)
    module.attributes[TARGET_ATTR] = target
    with forced("graph.conv2d", "cpu", "blocked"):
        loops = lower_to(parse_module(make_context(), str(module), "conv.mlir"), "loop")
        exe = strati.compile(module)
    assert any(ROWS_OUTER in op.attributes for op in loops.walk())
    got = exe(x, b)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


# (c, o, h, w, stride, pad, groups, the lanes at which the image is one row), 1x1 convolutions.
# In pixel steps of the register model (registers.tile_cost), AVX2 (8 lanes, 5 pixels x 2
# vectors at most) and AVX-512 (16 lanes, 10 x 2, or 20 x 1):
FLAT_CASES = [  # (channels, out channels, h, w, kernel, stride, pad, dilation, groups, widths that go flat)
    (19, 40, 7, 7, 1, 1, 0, 1, 1, {8}),  # AVX2: rows of 7 in tiles 4 + 3, 8 steps each, 56 > one row of 49 in 5s, 49;
    #                                      AVX-512: a row of 7 is one tile, 49 either way
    (5, 17, 3, 11, 1, 1, 0, 1, 1, {8}),  # AVX2: 3 rows of 4 + 4 + 3, 36 > 33 pixels in 5s, 34; AVX-512 (1 vector): rows whole, 33 = 33
    (8, 64, 5, 3, 1, 1, 0, 1, 2, {8, 16}),  # two groups of 32 channels. AVX2: rows of 3 at 6 accumulators, 20 > 15;
    #                                         AVX-512: 3 rows jammed into tiles of 9, 18 > 15
    (6, 32, 7, 7, 1, 2, 0, 1, 1, set()),  # stride 2, 4x4: AVX2 rows of 4 (16) = 16 pixels in 4s; AVX-512 pairs of rows, 16 = 10 + 6
    (6, 32, 7, 7, 1, 1, 1, 1, 1, set()),  # padded 1x1, 9x9: rows of 5 + 4 (81) < 16 tiles of 5 and a pixel (84)
    # Any kernel: pixel p reads the input at row p // ow, column p % ow.
    (16, 32, 7, 7, 3, 1, 1, 1, 1, {8}),  # AVX2: 56 > 49; AVX-512: a row of 7 is one tile of 14 accumulators, 49 = 49
    (8, 16, 14, 14, 3, 2, 1, 1, 1, {8, 16}),  # stride 2 to 7x7. AVX2 as above; AVX-512 (1 vector): pairs of rows,
    #                                            4 tiles of 14 (56) > 49 pixels in 20 + 20 + 9 (49)
    (8, 16, 7, 7, 3, 1, 2, 2, 1, {8, 16}),  # dilation 2, 7x7: as the stride-2 case
    (16, 64, 7, 7, 3, 1, 1, 1, 2, {8}),  # two groups of 32: as the first 3x3 case
]


def conv_op(text: str):
    return next(op for op in parse_module(make_context(), text, "conv.mlir").walk() if op.name == "graph.conv2d")


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case", FLAT_CASES, ids=[f"{c}to{o}_{h}x{w}k{k}s{s}p{p}d{d}g{g}" for c, o, h, w, k, s, p, d, g, _ in FLAT_CASES])
def test_image_as_one_row_matches_numpy(case, lanes):
    """A convolution computes on its output image as one row where the register model says the
    tiles run faster so (a 1x1 of stride 1 without padding reads its input as one row too: a
    view); the results do not move."""
    c, o, h, wd, k, stride, pad, dil, groups, flat_lanes = case
    target = host_cpu().replace(vector_width=lanes)
    x = RNG.standard_normal((2, c, h, wd)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = np.maximum(reference(x, w, b, stride, pad, dil, groups), 0)
    oh, ow = want.shape[2:]
    text = module_text(x.shape, w.shape, (2, o, oh, ow), stride, pad, dil, groups, bias=True, relu=True)
    block = conv_knobs(target, o // groups, oh, ow)["block"]
    flat = flat_pixels(conv_op(text), target, block)
    assert flat == (lanes in flat_lanes)
    module = constant_weights(parse_module(make_context(), text, "conv.mlir"), w)
    module.attributes[TARGET_ATTR] = target
    with forced("graph.conv2d", "cpu", "blocked"):
        tensors = lower_to(parse_module(make_context(), str(module), "conv.mlir"), "tensor")
        exe = strati.compile(module)
    convs = [op for op in tensors.walk() if op.name == "tensor.generic" and OW_TILE in op.attributes]
    assert len(convs) == 1 and (list(convs[0].results[0].type.get_shape())[2:4] == [1, oh * ow]) == flat
    one_row = [op for op in tensors.walk() if op.name == "tensor.reshape" and list(op.results[0].type.get_shape())[2:] == [1, h * wd]]
    assert bool(one_row) == (flat and k == 1)  # the input as a view: 1x1 only
    np.testing.assert_allclose(exe(x, b), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_rows_go_outside_when_the_image_does_not_fit_l2():
    """ResNet-50's 3x3 on 64 channels of 56x56 (an 861 KB padded image, 147 KB of weights): the
    rows outside on both widths (a 512 KB L2); on 256 channels of 14x14 (2.4 MB of weights) the
    blocks stay outside; one block has nothing to gain."""
    target = host_cpu().replace(l2=512 * 1024)
    assert rows_outer(target, 64 * 58 * 58 * 4, 64 * 64 * 9 * 4, 4, 56)
    assert not rows_outer(target, 256 * 16 * 16 * 4, 256 * 256 * 9 * 4, 16, 14)
    assert not rows_outer(target, 64 * 58 * 58 * 4, 16 * 64 * 9 * 4, 1, 56)


def test_weights_are_packed_at_compile_time_and_the_schedule_is_on_the_nest():
    """Constant weights become one constant in [oc/C][kh][kw][ic][C] (the original is gone),
    and the blocked nest carries its register tile at the loop level."""
    target = host_cpu().replace(vector_width=8)
    w = RNG.standard_normal((20, 3, 3, 3)).astype(np.float32)
    text = module_text((1, 3, 6, 6), w.shape, (1, 20, 6, 6), 1, 1, 1, 1, bias=False, relu=False)
    module = constant_weights(parse_module(make_context(), text, "conv.mlir"), w)
    module.attributes[TARGET_ATTR] = target
    with forced("graph.conv2d", "cpu", "blocked"):
        loops = lower_to(module, "loop", target="cpu")
    globals_ = {op.properties["sym_name"].data: op for op in loops.walk() if op.name == "memref.global"}
    (packed,) = [g for g in globals_.values() if g.properties["type"].get_shape() == (2, 3, 3, 3, 16)]
    assert not any(g.properties["type"].get_shape() == (20, 3, 3, 3) for g in globals_.values())
    from strati.dense import numpy_from_dense

    got = numpy_from_dense(packed.properties["initial_value"])
    padded = np.zeros((32, 3, 3, 3), np.float32)
    padded[:20] = w
    np.testing.assert_array_equal(got, padded.reshape(2, 16, 3, 3, 3).transpose(0, 3, 4, 2, 1))
    tiles = [op.attributes[OW_TILE].value.data for op in loops.walk() if OW_TILE in op.attributes]
    # Rows of 6 would take 2 tiles of 3 (6 accumulators: 8 steps of the register model a row, 48
    # in all); the 36 pixels as one row take 9 tiles of 4 (8 accumulators, 36 steps).
    assert tiles == [4] == [conv_knobs(target, 20, 1, 36)["ow_tile"]]


@pytest.mark.parametrize(
    "lanes, o, oh, ow, want",
    [
        (16, 64, 56, 56, dict(oc_vectors=2, block=32, ow_tile=8, oh_tile=1)),  # 56 = 7 x 8: a divisor near 10
        (16, 512, 7, 7, dict(oc_vectors=2, block=32, ow_tile=7, oh_tile=1)),
        (16, 16, 5, 5, dict(oc_vectors=1, block=16, ow_tile=5, oh_tile=4)),  # short rows: 4 rows of 5 = 20 accumulators
        (8, 64, 56, 56, dict(oc_vectors=2, block=16, ow_tile=4, oh_tile=1)),  # AVX2: 10 accumulators, 56 = 14 x 4
        (8, 8, 14, 14, dict(oc_vectors=1, block=8, ow_tile=7, oh_tile=1)),
        # 27 = 6 x 4 + 3 (8 accumulators, then 6), not 9 x 3 (6: a quarter of the FMA pipes idle)
        (8, 128, 27, 27, dict(oc_vectors=2, block=16, ow_tile=4, oh_tile=1)),
        (16, 128, 13, 13, dict(oc_vectors=2, block=32, ow_tile=9, oh_tile=1)),  # 9 + 4, not 10 + 3 (6 accumulators)
    ],
)
def test_knobs_fit_the_register_file(lanes, o, oh, ow, want):
    kn = conv_knobs(host_cpu().replace(vector_width=lanes), o, oh, ow)
    assert {k: kn[k] for k in want} == want
    registers = 32 if lanes == 16 else 16
    assert kn["ow_tile"] * kn["oh_tile"] * kn["oc_vectors"] <= registers * 5 // 8


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize(
    "shape",
    [(64, 64, 56, 3, 1, 1), (256, 256, 14, 3, 1, 1), (512, 512, 7, 3, 1, 1), (64, 128, 56, 3, 2, 1), (3, 64, 224, 7, 2, 3), (1024, 256, 14, 1, 1, 0)],
)
def test_resnet_layers_choose_the_blocked_form(lanes, shape):
    """ResNet-50's convolutions (3x3 at each size, strided, the stem, 1x1) take it on both machines."""
    from test_targets import conv

    op = next(o for o in parse_module(make_context(), conv(*shape), "t").walk() if o.name == "graph.conv2d")
    assert choose(op, host_cpu().replace(vector_width=lanes)).strategy.name == "blocked"


# (c, o, h, w, k, stride, pad, groups, l1): small L1s in the description, so that the weights
# of all the input channels do not fit 5/8 of it (conv.WEIGHTS_L1_SHARE) and the channel loop
# is split in chunks.  Per input channel, a 3x3 tile of 2 vectors holds 9 x 16 x 4 = 576 bytes
# of weights on AVX2, 1152 on AVX-512.
CHUNK_CASES = [
    (24, 32, 9, 12, 3, 1, 1, 1, 4096),  # AVX2: 2560 // 576 = 4 channels, 6 chunks (the partial sums
    #   of the image, 6 x 2 x 108 x 64 B = 83 KB, against the weights once per row, 9 x 576 x 24 =
    #   124 KB: the chunks above the rows); AVX-512: 2 channels, 12 chunks (12 x 2 x 108 x 128 B =
    #   332 KB against 9 x 1152 x 24 = 249 KB: below the rows). Rows of 12 take whole tiles of 4
    #   (AVX2) and 6 (AVX-512): the image stays in rows (not one row of 108)
    (23, 16, 6, 6, 3, 1, 1, 1, 8192),  # 23 channels (prime): chunks of 8 (AVX2), the last one of 7
    (16, 64, 11, 10, 3, 2, 1, 2, 4096),  # stride 2, two groups of 8 input channels
    (32, 32, 7, 7, 3, 1, 1, 1, 4096),  # 7x7: one row of 49 pixels on AVX2, rows of 7 (one tile each) on AVX-512
    (40, 32, 7, 7, 1, 1, 0, 1, 1024),  # 1x1: the image as one row (AVX2), 64 bytes per channel
]


def chunk_loops(module):
    return [op for op in module.walk() if "schedule.ic_chunk" in op.attributes]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case", CHUNK_CASES, ids=[f"{c}to{o}_{h}x{w}_k{k}s{s}g{g}_l1_{l1}" for c, o, h, w, k, s, p, g, l1 in CHUNK_CASES])
def test_input_channels_in_chunks_match_numpy(case, lanes):
    """The channel loop split in chunks whose weights fit the description's L1 (the knob
    ``schedule.ic_chunk`` on the chunk loop, which moved out of the register tiles' loops): the
    results agree with numpy (sums in another order: to rounding)."""
    c, o, h, wd, k, stride, pad, groups, l1 = case
    target = host_cpu().replace(vector_width=lanes, l1=l1)
    x = RNG.standard_normal((1, c, h, wd)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = np.maximum(reference(x, w, b, stride, pad, 1, groups), 0)
    oh, ow = (h + 2 * pad - k) // stride + 1, (wd + 2 * pad - k) // stride + 1
    text = module_text(x.shape, w.shape, (1, o, oh, ow), stride, pad, 1, groups, bias=True, relu=True)
    module = constant_weights(parse_module(make_context(), text, "conv.mlir"), w)
    module.attributes[TARGET_ATTR] = target
    with forced("graph.conv2d", "cpu", "blocked"):
        hw = lower_to(parse_module(make_context(), str(module), "conv.mlir"), "hw")
        exe = strati.compile(module)
    chunks = [op.attributes["schedule.ic_chunk"].value.data for op in chunk_loops(hw)]
    assert chunks and all(0 < n < c // groups for n in chunks)
    np.testing.assert_allclose(exe(x, b), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_chunks_go_above_the_rows_when_the_partial_sums_move_fewer_bytes():
    """CHUNK_CASES' first case, worked out in its comment: above the rows on AVX2 (a row loop
    between the chunk loop and the register tiles' loop), between them on AVX-512."""
    c, o, h, wd, k, stride, pad, groups, l1 = CHUNK_CASES[0]
    text = module_text((1, c, h, wd), (o, c, k, k), (1, o, h, wd), stride, pad, 1, groups, bias=False, relu=False)
    for lanes, chunk, above in ((8, 4, True), (16, 2, False)):
        module = parse_module(make_context(), text, "conv.mlir")
        module.attributes[TARGET_ATTR] = host_cpu().replace(vector_width=lanes, l1=l1)
        with forced("graph.conv2d", "cpu", "blocked"):
            hw = lower_to(module, "hw")
        (loop,) = chunk_loops(hw)
        assert loop.attributes["schedule.ic_chunk"].value.data == chunk
        tiles = [op for op in loop.walk() if "schedule.ow_tile" in op.attributes]
        depth = 0
        parent = tiles[0].parent_op()
        while parent is not loop:
            depth, parent = depth + 1, parent.parent_op()
        assert depth == (1 if above else 0), lanes
