"""The CPU's depthwise strategy (strati/dialects/hw/cpu/depthwise.py) and grouped convolutions as
one matmul per group (strati/dialects/hw/cpu/strategies.py): numerics against numpy (float64, one
group and one tap at a time) on odd sizes -- prime channels, 1x1 images, strides 2, asymmetric
pads, dilation, channel multipliers, several images -- at every -O level, on fixed AVX2 (8 lanes)
and AVX-512 (16 lanes) descriptions, weights as arguments and as constants; the knobs, their
override on the op, and the choice."""

from __future__ import annotations

import numpy as np
import pytest

import strati
from strati.context import make_context
from strati.compiler import lower_to
from strati.dialects.hw import TARGET_ATTR
from strati.dialects.hw.cpu.conv import OW_TILE
from strati.dialects.hw.cpu.depthwise import depthwise_knobs, is_depthwise
from strati.dialects.hw.cpu.target import host_cpu
from strati.source import parse_module
from strati.strategy import choose, forced
from test_conv_blocked import constant_weights

RNG = np.random.default_rng(23)
RTOL = 1e-4
"""float32 sums of at most a few hundred products against float64: relative to the largest output."""


def reference(x, w, b, stride, pads, dilation, groups):
    """The convolution in float64, one group and one tap at a time; ``pads`` (top, left, bottom, right)."""
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    top, left, bottom, right = pads
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (top, bottom), (left, right)))
    oh = (h + top + bottom - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd + left + right - dilation * (kw - 1) - 1) // stride + 1
    y = np.zeros((n, o, oh, ow))
    per = o // groups
    for g in range(groups):
        xs = xp[:, g * cg : (g + 1) * cg]
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dilation, j * dilation
                patch = xs[:, :, r0 : r0 + stride * (oh - 1) + 1 : stride, c0 : c0 + stride * (ow - 1) + 1 : stride]
                y[:, g * per : (g + 1) * per] += np.einsum("nchw,oc->nohw", patch, w[g * per : (g + 1) * per, :, i, j].astype(np.float64))
    if b is not None:
        y += b[None, :, None, None]
    return y


def module_text(x_shape, w_shape, out_shape, stride, pads, dilation, groups, bias: bool, knob: int | None = None) -> str:
    tt = lambda s: f"tensor<{'x'.join(map(str, s))}xf32>"  # noqa: E731
    props = (f"strides = array<i64: {stride}, {stride}>, pads = array<i64: {', '.join(map(str, pads))}>, "
             f"dilations = array<i64: {dilation}, {dilation}>, groups = {groups} : i64")  # fmt: skip
    if knob is not None:
        props += f', "schedule.ow_tile" = {knob} : i64'
    args = f"%x: {tt(x_shape)}, %w: {tt(w_shape)}" + (f", %b: {tt(w_shape[:1])}" if bias else "")
    operands = "%x, %w, %b" if bias else "%x, %w"
    types = f"{tt(x_shape)}, {tt(w_shape)}" + (f", {tt(w_shape[:1])}" if bias else "")
    return (
        f"func.func @conv({args}) -> {tt(out_shape)} {{\n"
        f"  %y = graph.conv2d {operands} {{{props}}} : ({types}) -> {tt(out_shape)}\n"
        f"  func.return %y : {tt(out_shape)}\n}}\n"
    )


def run(case, lanes: int, opt_level: int, strategy: str, constant: bool):
    """Compile the case with ``strategy`` forced on a ``lanes``-wide description; (got, want)."""
    n, c, o, groups, h, wd, k, stride, pads, dilation = case
    target = host_cpu().replace(vector_width=lanes)
    x = RNG.standard_normal((n, c, h, wd)).astype(np.float32)
    w = RNG.standard_normal((o, c // groups, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = reference(x, w, b, stride, pads, dilation, groups)
    text = module_text(x.shape, w.shape, want.shape, stride, pads, dilation, groups, bias=True)
    module = parse_module(make_context(), text, "conv.mlir")
    op = next(op for op in module.walk() if op.name == "graph.conv2d")
    chosen = None
    with forced("graph.conv2d", "cpu", strategy):
        chosen = choose(op, target)
        if constant:
            module = constant_weights(module, w)
        module.attributes[TARGET_ATTR] = target
        exe = strati.compile(module, opt_level=opt_level)
    assert chosen is not None and chosen.strategy.name == strategy, "the strategy must apply to the case"
    got = exe(x, b) if constant else exe(x, w, b)
    return got, want


# (n, c, o, groups, h, w, k, stride, pads (top, left, bottom, right), dilation)
DEPTHWISE = [
    (1, 7, 7, 7, 1, 1, 1, 1, (0, 0, 0, 0), 1),  # a 1x1 image, a 1x1 kernel, prime channels
    (1, 13, 13, 13, 9, 11, 3, 1, (1, 1, 1, 1), 1),  # a partial block of channels, odd image
    (1, 17, 17, 17, 10, 13, 3, 2, (1, 0, 2, 1), 1),  # stride 2, asymmetric pads
    (2, 5, 15, 5, 8, 9, 3, 2, (1, 1, 1, 1), 1),  # channel multiplier 3, two images
    (1, 19, 19, 19, 12, 12, 3, 1, (2, 2, 2, 2), 2),  # dilation 2
    (1, 11, 11, 11, 7, 7, 5, 1, (2, 2, 2, 2), 1),  # 5x5 taps, rows shorter than the tile
    (1, 3, 6, 3, 6, 23, 3, 1, (1, 1, 1, 1), 1),  # a row of 23 pixels: a partial register tile
]
GROUPED = [
    (2, 12, 18, 3, 9, 9, 3, 2, (1, 1, 1, 1), 1),  # im2col per group, two images (the weights' group d0 mod 3)
    (1, 68, 68, 4, 5, 3, 1, 1, (0, 0, 0, 0), 1),  # a pointwise one per group (ShuffleNet's)
    (3, 10, 6, 2, 1, 1, 1, 1, (0, 0, 0, 0), 1),  # a 1x1 image, three images
    (1, 15, 10, 5, 7, 6, 3, 1, (0, 1, 2, 1), 1),  # 3 -> 2 channels per group, asymmetric pads
]


def case_id(case) -> str:
    n, c, o, g, h, w, k, s, p, d = case
    return f"n{n}_{c}to{o}g{g}_{h}x{w}_k{k}s{s}p{''.join(map(str, p))}d{d}"


def levels(cases):
    return [(case, level) for i, case in enumerate(cases) for level in (i % 4,)]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case, opt_level", levels(DEPTHWISE), ids=[f"{case_id(c)}-O{lv}" for c, lv in levels(DEPTHWISE)])
def test_depthwise_matches_numpy(case, lanes, opt_level):
    got, want = run(case, lanes, opt_level, "depthwise", constant=(lanes == 16) == (opt_level % 2 == 1))
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=RTOL * np.abs(want).max())


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case, opt_level", levels(GROUPED), ids=[f"{case_id(c)}-O{lv}" for c, lv in levels(GROUPED)])
def test_grouped_as_matmul_matches_numpy(case, lanes, opt_level):
    strategy = "1x1_as_matmul" if case[6] == 1 and case[7] == 1 and not any(case[8]) else "im2col"
    got, want = run(case, lanes, opt_level, strategy, constant=opt_level % 2 == 1)
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=RTOL * np.abs(want).max())


@pytest.mark.parametrize(
    "lanes, oh, ow, want",
    [
        (16, 5, 24, (12, 1)),  # 20 accumulators at most (5/8 of 32 registers): a divisor of the row
        (8, 5, 24, (8, 1)),  # 10 with AVX2's 16
        (8, 9, 23, (8, 1)),  # no divisor: 8, 8 and 7, not 10, 10 and 3 (3 FMAs in flight leave the pipes idle)
        (16, 7, 7, (7, 2)),  # whole rows: two 7-pixel rows in 20 registers
        (8, 1, 1, (1, 1)),
    ],
)
def test_knobs_come_from_the_target(lanes, oh, ow, want):
    kn = depthwise_knobs(host_cpu().replace(vector_width=lanes), oh, ow)
    assert (kn["ow_tile"], kn["oh_tile"]) == want and kn["block"] == lanes


def test_a_knob_on_the_op_overrides_the_target():
    target = host_cpu().replace(vector_width=8)
    text = module_text((1, 8, 9, 48), (8, 1, 3, 3), (1, 8, 5, 24), 2, (1, 1, 1, 1), 1, 8, bias=False, knob=6)
    for knob, want in ((6, 6), (None, 8)):
        module = parse_module(make_context(), text if knob else text.replace(', "schedule.ow_tile" = 6 : i64', ""), "conv.mlir")
        module.attributes[TARGET_ATTR] = target
        with forced("graph.conv2d", "cpu", "depthwise"):
            loops = lower_to(module, "loop", target="cpu")
        assert [op.attributes[OW_TILE].value.data for op in loops.walk() if OW_TILE in op.attributes] == [want]


@pytest.mark.parametrize(
    "c, h, stride, want",
    [
        (544, 7, 1, "depthwise"),  # ShuffleNet's last stage: 7x7 rows fill half a vector in the direct form
        (272, 14, 2, "depthwise"),  # strided: the direct form is scalar
        (144, 56, 1, "direct"),  # MobileNet-v2's: the copies to and from the blocked layout cost more
        (144, 56, 2, "direct"),  # the blocked input (1.9 MB) is larger than L2
    ],
)
def test_choice(c, h, stride, want):
    """The choice on the AVX-512 host where the costs were calibrated (see depthwise.py)."""
    target = host_cpu().replace(vector_width=16, l2=1 << 20)
    oh = (h + 2 - 3) // stride + 1
    text = module_text((1, c, h, h), (c, 1, 3, 3), (1, c, oh, oh), stride, (1, 1, 1, 1), 1, c, bias=False)
    op = next(op for op in parse_module(make_context(), text, "conv.mlir").walk() if op.name == "graph.conv2d")
    assert is_depthwise(op, target)
    assert choose(op, target).strategy.name == want


def test_grouped_convolutions_with_one_channel_per_group_are_not_matmuls():
    """Depthwise groups would be matmuls of one row: only the depthwise and direct forms apply."""
    target = host_cpu().replace(vector_width=16)
    text = module_text((1, 8, 5, 5), (8, 1, 1, 1), (1, 8, 5, 5), 1, (0, 0, 0, 0), 1, 8, bias=False)
    op = next(op for op in parse_module(make_context(), text, "conv.mlir").walk() if op.name == "graph.conv2d")
    assert {name for name, _ in choose(op, target).costs} == {"depthwise", "direct"}
