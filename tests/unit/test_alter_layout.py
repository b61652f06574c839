"""alter-layout (strati/transforms/alter_layout.py) and the layout ops (graph.layout_transform,
graph.conv2d_blocked, graph.*_pool2d_blocked): the layouts against index-by-index numpy, the
pass's rewrites (convs blocked, the layout carried through relu, add, pooling and concat,
the changes cancelled, the weights folded, a lone convolution kept NCHW), and small networks compiled at -O3
(alter-layout in it) on fixed AVX2
(8 lanes) and AVX-512 (16 lanes) descriptions against numpy, with channel counts that are
not multiples of the block (padding channels), 1x1 images and stride 2.  float32 tolerances
as the blocked conv's tests (rtol 1e-4, atol 1e-4 of the largest output)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from test_conv_blocked import reference as conv_ref

import strati
from strati.compiler import OPT_LEVELS, lower_to, run_pass
from strati.context import make_context
from strati.dialects.graph.attrs.layout import from_blocked, to_blocked
from strati.dialects.hw import TARGET_ATTR
from strati.dialects.hw.cpu.target import host_cpu
from strati.source import parse_module
from strati.strategy import forced
from strati.transforms.alter_layout import AlterLayoutPass
from strati.transforms.fold_constants import constant_value

WITH_LAYOUT = OPT_LEVELS[3]
"""-O3, alter-layout in it."""

RNG = np.random.default_rng(11)


def tt(shape) -> str:
    return f"tensor<{'x'.join(map(str, shape))}xf32>"


@pytest.mark.parametrize("c", [8, 16])
def test_blocked_layouts_index_by_index(c):
    x = RNG.standard_normal((2, 21, 3, 2)).astype(np.float32)
    xb = to_blocked(x, "act", c)
    assert xb.shape == (2, -(-21 // c), 3, 2, c)
    for n, i, h, w in itertools.product(*map(range, x.shape)):
        assert xb[n, i // c, h, w, i % c] == x[n, i, h, w]
    assert not xb[:, -1, :, :, 21 % c :].any()  # the padding channels are zeros
    np.testing.assert_array_equal(from_blocked(xb, "act", 21), x)
    w = RNG.standard_normal((13, 5, 3, 2)).astype(np.float32)
    wb = to_blocked(w, "weight", c)
    for o, i, kh, kw in itertools.product(*map(range, w.shape)):
        assert wb[o // c, kh, kw, i, o % c] == w[o, i, kh, kw]
    np.testing.assert_array_equal(from_blocked(wb, "weight", 13), w)


def pool_ref(x, k, s, p, kind):
    """Max (padding -inf) or average (padding not counted) pooling, one window at a time."""
    n, c, h, w = x.shape
    oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
    y = np.zeros((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        r0, c0 = i * s - p, j * s - p
        win = x[:, :, max(r0, 0) : r0 + k, max(c0, 0) : c0 + k]
        y[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
    return y


def network(c_in, o1, hw, stride, concat: bool):
    """conv(s) + bias -> relu -> conv 3x3 -> add residual -> max pool 3x3 s2 p1 ->
    [concat with a 1x1 conv of the pool] -> avg pool 2x2 s1 p1 (count_include_pad false):
    its text, its constant weights and its numpy result on ``x``."""
    h1 = (hw + 2 - 3) // stride + 1
    hp = (h1 + 2 - 3) // 2 + 1
    w1 = RNG.standard_normal((o1, c_in, 3, 3)).astype(np.float32) / 3
    b1 = RNG.standard_normal(o1).astype(np.float32)
    w2 = RNG.standard_normal((o1, o1, 3, 3)).astype(np.float32) / 5
    w3 = RNG.standard_normal((7, o1, 1, 1)).astype(np.float32) / 3
    oc = o1 + (7 if concat else 0)
    ha = hp + 1

    def numpy_result(x):
        r = np.maximum(conv_ref(x, w1, b1, stride, 1, 1, 1), 0)
        a = conv_ref(r.astype(np.float32), w2, None, 1, 1, 1, 1) + r
        m = pool_ref(a, 3, 2, 1, "max")
        if concat:
            m = np.concatenate([m, conv_ref(m.astype(np.float32), w3, None, 1, 0, 1, 1)], axis=1)
        return pool_ref(m, 2, 1, 1, "avg")

    consts = {"w1": w1, "b1": b1, "w2": w2, "w3": w3}
    args = ", ".join(f"%{k}: {tt(v.shape)}" for k, v in consts.items())
    lines = [f"func.func @net(%x: {tt((1, c_in, hw, hw))}, {args}) -> {tt((1, oc, ha, ha))} {{"]
    y1 = (1, o1, h1, h1)
    pm = (1, o1, hp, hp)
    lines += [
        f"  %y = graph.conv2d %x, %w1, %b1 {{strides = array<i64: {stride}, {stride}>, pads = array<i64: 1, 1, 1, 1>}} : ({tt((1, c_in, hw, hw))}, {tt(w1.shape)}, {tt(b1.shape)}) -> {tt(y1)}",
        f"  %r = graph.relu %y : {tt(y1)}",
        f"  %z = graph.conv2d %r, %w2 {{pads = array<i64: 1, 1, 1, 1>}} : ({tt(y1)}, {tt(w2.shape)}) -> {tt(y1)}",
        f"  %a = graph.add %z, %r : {tt(y1)}",
        f"  %m = graph.max_pool2d %a {{kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}} : ({tt(y1)}) -> {tt(pm)}",
    ]
    last, shape = "%m", pm
    if concat:
        lines += [
            f"  %q = graph.conv2d %m, %w3 : ({tt(pm)}, {tt(w3.shape)}) -> {tt((1, 7, hp, hp))}",
            f"  %k = graph.concat %m, %q {{axis = {-3 if stride == 2 else 1} : i64}} : ({tt(pm)}, {tt((1, 7, hp, hp))}) -> {tt((1, oc, hp, hp))}",
        ]
        last, shape = "%k", (1, oc, hp, hp)
    lines += [
        f"  %v = graph.avg_pool2d {last} {{kernel = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}} : ({tt(shape)}) -> {tt((1, oc, ha, ha))}",
        f"  func.return %v : {tt((1, oc, ha, ha))}",
        "}",
    ]
    return "\n".join(lines), numpy_result, list(consts.values())


def _module(text, lanes, consts=()):
    """The module on a fixed description, its arguments after the first ``consts`` (constants)."""
    from xdsl.dialects.builtin import FunctionType

    from strati.dense import dense_from_numpy
    from strati.dialects.graph.ops import ConstantOp
    from strati.runtime.interpreter import find_function

    module = parse_module(make_context(), text, "net.mlir")
    module.attributes[TARGET_ATTR] = host_cpu().replace(vector_width=lanes)
    fn = find_function(module)
    block = fn.body.block
    for value in consts:
        c = ConstantOp(dense_from_numpy(value))
        block.insert_op_before(c, block.first_op)
        block.args[1].replace_all_uses_with(c.result)
        block.erase_arg(block.args[1])
    inputs = list(fn.function_type.inputs.data)
    fn.function_type = FunctionType.from_lists(inputs[:1] + inputs[1 + len(consts) :], list(fn.function_type.outputs.data))
    return module


# (c_in, o1, image, stride, concat): o1 a multiple of both blocks (the concat carried) or not
# (padding channels, the concat of a padded part stays NCHW), 1x1 images, stride 2.
NETS = [(3, 16, 9, 1, True), (5, 21, 10, 2, False), (7, 13, 1, 1, True), (4, 32, 7, 2, True)]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("net", NETS, ids=[f"c{a}o{b}_{c}x{c}s{d}{'_concat' if e else ''}" for a, b, c, d, e in NETS])
def test_networks_match_numpy(net, lanes):
    c_in, o1, hw, stride, concat = net
    text, numpy_result, consts = network(c_in, o1, hw, stride, concat)
    x = RNG.standard_normal((1, c_in, hw, hw)).astype(np.float32)
    want = numpy_result(x)
    with forced("graph.conv2d", "cpu", "blocked"):
        graph = lower_to(_module(text, lanes, consts), "graph", WITH_LAYOUT)
        got = strati.compile(_module(text, lanes, consts), optimizations=WITH_LAYOUT)(x)
    counts = Counter(o.name for o in graph.walk())
    # a conv to fewer channels than a vector (the 1x1 to 7, o1 = 13 on AVX-512) is not blocked
    blocked = 2 if o1 >= lanes else 0
    assert counts["graph.conv2d"] == 2 + concat - blocked and counts["graph.conv2d_blocked"] == blocked
    assert counts["graph.max_pool2d_blocked"] == (1 if blocked else 0)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize("lanes", [8, 16])
def test_changes_cancel_between_convs_and_weights_fold(lanes):
    """Between the input and the output every op is blocked but the 1x1 conv to 7 channels
    (fewer than a vector): the first conv reads the 3-channel input as it is (NCHW), one
    change out at the end, and a pair around that conv (its result changed for the concat);
    the weights are constants in OHWI{c}o (their plain constants gone, but the unblocked
    conv's)."""
    text, _, consts = network(3, 16, 9, 1, True)
    with forced("graph.conv2d", "cpu", "blocked"):
        module = lower_to(_module(text, lanes, consts), "graph", ["canonicalize", "alter-layout"])
    changes = [(o.param("src"), o.param("dst")) for o in module.walk() if o.name == "graph.layout_transform"]
    blocked, plain = f"NCHW{lanes}c", "NCHW"
    assert sorted(changes) == sorted([(blocked, plain), (plain, blocked), (blocked, plain)])
    ops = {o.name for o in module.walk() if o.name.startswith("graph.")} - {"graph.constant", "graph.layout_transform"}
    assert ops == {"graph.conv2d_blocked", "graph.relu", "graph.add", "graph.max_pool2d_blocked", "graph.conv2d", "graph.concat", "graph.avg_pool2d_blocked"}
    for o in module.walk():
        if o.name in ("graph.relu", "graph.add", "graph.concat"):
            assert len(o.results[0].type.get_shape()) == 5, o.name
    shapes = [tuple(o.results[0].type.get_shape()) for o in module.walk() if o.name == "graph.constant"]
    assert sorted(shapes) == sorted([(16 // lanes, 3, 3, 3, lanes), (16, ), (16 // lanes, 3, 3, 16, lanes), (7, 16, 1, 1)])
    conv = next(o for o in module.walk() if o.name == "graph.conv2d_blocked")
    assert constant_value(conv.operands[1]).shape == (16 // lanes, 3, 3, 3, lanes)
    assert conv.operands[0].type.get_shape() == (1, 3, 9, 9)  # the function's argument, NCHW


def test_weights_as_arguments_are_changed_at_run_time():
    """A weight that is an argument keeps its change (a copy at run time); the numerics hold."""
    w = RNG.standard_normal((11, 5, 3, 3)).astype(np.float32)
    x = RNG.standard_normal((1, 5, 6, 7)).astype(np.float32)
    text = (f"func.func @f(%x: {tt(x.shape)}, %w: {tt(w.shape)}) -> {tt((1, 11, 3, 4))} {{\n"
            f"  %y = graph.conv2d %x, %w {{strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>}} : ({tt(x.shape)}, {tt(w.shape)}) -> {tt((1, 11, 3, 4))}\n"
            f"  func.return %y : {tt((1, 11, 3, 4))}\n}}")  # fmt: skip
    with forced("graph.conv2d", "cpu", "blocked"):
        graph = _module(text, 8)
        run_pass(graph, AlterLayoutPass(lone=True))  # one convolution: blocked only when asked
        got = strati.compile(graph.clone())(x, w)
    assert ("OIHW", "OHWI8o") in [(o.param("src"), o.param("dst")) for o in graph.walk() if o.name == "graph.layout_transform"]
    want = conv_ref(x, w, None, 2, 1, 1, 1)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize("lanes", [8, 16])
def test_blocked_convs_pair_output_blocks_and_chunk_input_blocks(lanes):
    """In the blocked layout a register tile holds two neighbouring output blocks (two vectors,
    as the NCHW form's tile: ``schedule.oc_blocks = 2`` on the generic, the weights and the
    result viewed as [ob / 2][2]...), and with a 4 KB L1 in the description the second conv's
    input blocks (32 channels: 4 blocks of 8, 2 of 16; 9 x 2 blocks x c x 4 bytes of weights per
    input block, more than the 2560 bytes of 5/8 of L1) go one per chunk.  On AVX-512 the first
    conv's 3 input channels (one loop: 9 x 32 x 4 = 1152 bytes each) go two per chunk too (2 +
    1).  The network still matches numpy."""
    text, numpy_result, consts = network(3, 32, 9, 1, False)
    x = RNG.standard_normal((1, 3, 9, 9)).astype(np.float32)
    target = host_cpu().replace(vector_width=lanes, l1=4096)

    def module():
        m = _module(text, lanes, consts)
        m.attributes[TARGET_ATTR] = target
        return m

    with forced("graph.conv2d", "cpu", "blocked"):
        tensors = lower_to(module(), "tensor", WITH_LAYOUT)
        hw = lower_to(module(), "hw", WITH_LAYOUT)
        got = strati.compile(module(), optimizations=WITH_LAYOUT)(x)
    pairs = [op.attributes["schedule.oc_blocks"].value.data for op in tensors.walk() if "schedule.oc_blocks" in op.attributes]
    assert pairs == [2, 2]
    chunks = [op.attributes["schedule.ic_chunk"].value.data for op in hw.walk() if "schedule.ic_chunk" in op.attributes]
    assert chunks == ([1] if lanes == 8 else [2, 1])
    want = numpy_result(x)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


@pytest.mark.parametrize("lanes", [8, 16])
def test_a_lone_convolution_keeps_nchw(lanes):
    """conv -> softmax over the channels -> conv -> relu -> conv: the first convolution's blocked
    result would meet no other's (the softmax mixes channels): it stays NCHW, the two after it
    are blocked together; ``lone=true`` blocks all three.  The numerics hold either way."""
    ws = [RNG.standard_normal(s).astype(np.float32) for s in ((16, 6, 3, 3), (24, 16, 3, 3), (16, 24, 1, 1))]
    x = RNG.standard_normal((1, 6, 8, 8)).astype(np.float32)
    t1, t2, t3 = tt((1, 16, 8, 8)), tt((1, 24, 8, 8)), tt((1, 16, 8, 8))
    pads = "{pads = array<i64: 1, 1, 1, 1>}"
    text = (f"func.func @f(%x: {tt(x.shape)}, %w1: {tt(ws[0].shape)}, %w2: {tt(ws[1].shape)}, %w3: {tt(ws[2].shape)}) -> {t3} {{\n"
            f"  %a = graph.conv2d %x, %w1 {pads} : ({tt(x.shape)}, {tt(ws[0].shape)}) -> {t1}\n"
            f"  %s = graph.softmax %a {{axis = 1 : i64}} : {t1}\n"
            f"  %b = graph.conv2d %s, %w2 {pads} : ({t1}, {tt(ws[1].shape)}) -> {t2}\n"
            f"  %r = graph.relu %b : {t2}\n"
            f"  %c = graph.conv2d %r, %w3 : ({t2}, {tt(ws[2].shape)}) -> {t3}\n"
            f"  func.return %c : {t3}\n}}")  # fmt: skip
    want = strati.compile(_module(text, lanes, ws), optimizations=OPT_LEVELS[2])(x)  # no alter-layout
    for lone, kinds in ((False, {"graph.conv2d": 1, "graph.conv2d_blocked": 2}), (True, {"graph.conv2d_blocked": 3})):
        with forced("graph.conv2d", "cpu", "blocked"):
            graph = _module(text, lanes, ws)
            run_pass(graph, AlterLayoutPass(lone=lone))
            got = strati.compile(graph.clone())(x)
        convs = Counter(o.name for o in graph.walk() if o.name.startswith("graph.conv2d"))
        assert dict(convs) == kinds
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.abs(want).max())
