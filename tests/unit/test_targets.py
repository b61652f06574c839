"""The Target layer: a target from outside strati (tests/unit/plugins/toy_target.py) compiles,
runs, interprets and lists with no edit to strati; the CPU's conv2d strategies are chosen by
cost and match the interpreter at both vector widths; plug-in passes join the registry; and
nothing outside strati/dialects/hw/cpu names the CPU's ops."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import parse
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import strati
from strati.compiler import lower_to
from strati.context import make_context
from strati.diagnostics import StratiError
from strati.dialects.hw import TARGET_ATTR
from strati.dialects.hw.cpu.target import host_cpu
from strati.dialects.hw.target import get_target
from strati.runtime.interpreter import run_function
from strati.runtime.jit import compile_module
from strati.runtime.loop_interpreter import run_loop_function
from strati.strategy import choose, forced, strategies
from strati.transforms import available_passes, register_pass, strati_passes, unregister_pass

sys.path.insert(0, str(Path(__file__).parent / "plugins"))
import toy_target  # noqa: E402  (registers the toy target, as --load-plugin does)

STRATI = Path(strati.__file__).parent
RNG = np.random.default_rng(7)

MLP = """
func.func @mlp(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %y = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %z = graph.relu %y : tensor<4x16xf32>
  func.return %z : tensor<4x16xf32>
}
"""


def mlp_inputs():
    return RNG.standard_normal((4, 8)).astype(np.float32), RNG.standard_normal((8, 16)).astype(np.float32)


# --- a target from outside ---------------------------------------------------------------------


def test_toy_target_compiles_and_runs_on_its_simulator():
    x, w = mlp_inputs()
    before = dict(toy_target.STATS)
    exe = strati.compile(parse(MLP), "toy")
    got = exe(x, w)
    np.testing.assert_allclose(got, np.maximum(x @ w, 0), rtol=1e-6, atol=1e-6)
    assert toy_target.STATS["macs"] - before["macs"] == 4 * 8 * 16
    assert toy_target.STATS["bytes"] - before["bytes"] == 4 * (4 * 8 + 8 * 16 + 4 * 16)  # two copies in, one out


@pytest.mark.parametrize("opt_level", [0, 3])
def test_toy_target_interprets_at_every_level(opt_level):
    x, w = mlp_inputs()
    want = run_function(parse(MLP), [x, w])[0]
    tensor = lower_to(parse(MLP), "tensor", strati.compiler.optimizations_for(opt_level), target="toy")
    assert any(op.name == "toy.matmul" for op in tensor.walk())
    np.testing.assert_array_equal(run_function(tensor, [x, w])[0], want)
    hw = lower_to(parse(MLP), "hw", strati.compiler.optimizations_for(opt_level), target="toy")
    assert hw.attributes[TARGET_ATTR].target_name == "toy"
    np.testing.assert_array_equal(run_loop_function(hw, [x, w])[0], want)
    np.testing.assert_array_equal(compile_module(hw)(x, w), want)


def test_toy_strategy_applies_to_2d_f32_only():
    batched = parse(MLP.replace("tensor<4x8xf32>", "tensor<2x4x8xf32>").replace("tensor<4x16xf32>", "tensor<2x4x16xf32>"))
    op = next(o for o in batched.walk() if o.name == "graph.matmul")
    assert choose(op, get_target("toy").describe()) is None  # falls back to the op's own lowering
    x = RNG.standard_normal((2, 4, 8)).astype(np.float32)
    w = RNG.standard_normal((8, 16)).astype(np.float32)
    np.testing.assert_allclose(strati.compile(batched, "toy")(x, w), np.maximum(x @ w, 0), rtol=1e-5, atol=1e-5)


def test_unknown_target_lists_the_known_ones():
    with pytest.raises(StratiError, match=r"unknown target 'tpu' \(targets: cpu, (\w+, )*toy(, \w+)*\)"):  # with the plug-ins loaded
        strati.compile(parse(MLP), "tpu")


# --- strategies -------------------------------------------------------------------------------


def conv(c: int, o: int, hw: int, k: int, stride: int = 1, pad: int = 0) -> str:
    out = (hw + 2 * pad - k) // stride + 1
    props = f"strides = array<i64: {stride}, {stride}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>"
    return f"""
func.func @conv(%x: tensor<1x{c}x{hw}x{hw}xf32>, %w: tensor<{o}x{c}x{k}x{k}xf32>, %b: tensor<{o}xf32>) -> tensor<1x{o}x{out}x{out}xf32> {{
  %y = graph.conv2d %x, %w, %b {{{props}}} : (tensor<1x{c}x{hw}x{hw}xf32>, tensor<{o}x{c}x{k}x{k}xf32>, tensor<{o}xf32>) -> tensor<1x{o}x{out}x{out}xf32>
  func.return %y : tensor<1x{o}x{out}x{out}xf32>
}}
"""


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize(
    "shape, want",
    [
        ((16, 32, 7, 1, 1, 0), {8: "blocked", 16: "blocked"}),  # output channels in vectors beat the matmul's row of 49
        ((64, 256, 56, 1, 1, 0), {8: "blocked", 16: "1x1_as_matmul"}),  # 16 lanes: copying 800K outputs back to NCHW costs more
        ((64, 64, 56, 3, 1, 1), {8: "blocked", 16: "blocked"}),  # im2col's patch matrix (7 MB) would be read per channel
        ((64, 128, 56, 3, 2, 1), {8: "blocked", 16: "blocked"}),  # strided: direct is scalar
        ((512, 512, 7, 3, 1, 1), {8: "blocked", 16: "blocked"}),  # rows of 7 waste the direct form's vectors
        ((32, 8, 7, 3, 2, 1), {8: "blocked", 16: "im2col"}),  # 8 output channels: half a vector of 16, not blocked
        ((4, 8, 64, 3, 1, 1), {8: "blocked", 16: "im2col"}),  # a small patch matrix (36 x 4096) fits L2
    ],
)
def test_conv2d_strategy_is_chosen_by_cost(lanes, shape, want):
    # A fixed description (the choices read the caches too): AVX2 or AVX-512 with a 1 MiB L2.
    target = host_cpu().replace(vector_width=lanes, fma=True, cores=2, l1=32768, l2=1 << 20, l3=16 << 20)
    op = next(o for o in parse(conv(*shape)).walk() if o.name == "graph.conv2d")
    choice = choose(op, target)
    assert choice.strategy.name == want[lanes]
    assert choice.explain().startswith(f"graph.conv2d -> cpu/{want[lanes]}: cheapest of {want[lanes]}")
    pointwise = shape[3] == 1 and shape[4] == 1 and shape[5] == 0
    assert ("im2col" in choice.not_applicable) == pointwise
    assert ("1x1_as_matmul" in choice.not_applicable) != pointwise
    assert ("blocked" in choice.not_applicable) == (shape[1] < lanes)


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("strategy", ["direct", "1x1_as_matmul", "im2col", "blocked"])
@pytest.mark.parametrize("shape", [(16, 32, 7, 1, 1, 0), (8, 8, 9, 3, 2, 1), (3, 5, 6, 1, 1, 0), (4, 6, 11, 5, 3, 2), (8, 8, 5, 3, 1, 1), (5, 17, 6, 3, 2, 1)])
def test_conv2d_strategies_match_the_interpreter(lanes, strategy, shape):
    """Every strategy that applies, forced, on a fixed AVX2 or AVX-512 machine."""
    c, o, size, k, stride, pad = shape
    text = conv(c, o, size, k, stride, pad)
    chosen = next(s for s in strategies("graph.conv2d", "cpu") if s.name == strategy)
    op = next(o for o in parse(text).walk() if o.name == "graph.conv2d")
    if not chosen.applies(op, host_cpu()):
        pytest.skip(f"{strategy} does not apply to this convolution")
    x = RNG.standard_normal((1, c, size, size)).astype(np.float32)
    w = RNG.standard_normal((o, c, k, k)).astype(np.float32)
    b = RNG.standard_normal(o).astype(np.float32)
    want = run_function(parse(text), [x, w, b])[0]
    with forced("graph.conv2d", "cpu", strategy):
        loops = lower_to(parse(text), "loop", target="cpu")
    assert choose(op, host_cpu()) is not None
    loops.attributes[TARGET_ATTR] = host_cpu().replace(vector_width=lanes)
    hw = lower_to(loops, "hw")
    assert {op.result.type.get_shape()[0] for op in hw.walk() if op.name == "vector.load"} <= {4, 8, 16}
    np.testing.assert_allclose(compile_module(hw)(x, w, b), want, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(run_loop_function(hw, [x, w, b])[0], want, rtol=1e-4, atol=1e-4)


# --- plug-in passes ---------------------------------------------------------------------------


class CountOpsPass(ModulePass):
    """Counts the ops of a module (a plug-in's pass)."""

    name = "test-count-ops"
    seen = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        CountOpsPass.seen = sum(1 for _ in op.walk())


def test_a_plugin_pass_joins_the_pipeline_and_the_listing():
    register_pass(CountOpsPass)
    try:
        assert strati_passes().entry("test-count-ops").origin == __name__
        from strati.tools.opt import list_passes, parse_pipeline

        assert re.search(rf"test-count-ops +Counts the ops of a module \(a plug-in's pass\)\.  \[{__name__}\]", list_passes())
        (p,) = parse_pipeline("test-count-ops")
        p.apply(make_context(), parse(MLP))
        assert CountOpsPass.seen == 5
        with pytest.raises(StratiError, match="pass 'test-count-ops' is already registered at level 10 by"):
            register_pass(CountOpsPass, origin="elsewhere")
    finally:
        unregister_pass("test-count-ops")
    assert "test-count-ops" not in available_passes()


# --- the layering -----------------------------------------------------------------------------


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return found


def test_nothing_outside_the_cpu_folder_names_its_ops():
    cpu = STRATI / "dialects" / "hw" / "cpu"
    offenders = []
    for path in STRATI.rglob("*.py"):
        if cpu in path.parents:
            continue
        text = path.read_text()
        if re.search(r"\bcpu\.(parallel|yield)\b|ParallelOp", text) or any(m.startswith("strati.dialects.hw.cpu") for m in imports(path)):
            offenders.append(str(path.relative_to(STRATI)))
    assert offenders == []


@pytest.mark.parametrize(
    "folder, forbidden",
    [
        ("codegen", ("strati.runtime", "strati.compiler", "strati.transforms")),
        ("runtime", ("strati.compiler", "strati.transforms")),
        ("transforms", ("strati.compiler", "strati.tools")),
        ("dialects/graph", ("strati.transforms", "strati.compiler")),
        ("dialects/tensor", ("strati.transforms", "strati.compiler", "strati.runtime")),
        ("dialects/loop", ("strati.transforms", "strati.compiler", "strati.runtime")),
    ],
)
def test_no_import_from_a_higher_layer(folder, forbidden):
    bad = [
        f"{path.relative_to(STRATI)} imports {m}"
        for path in (STRATI / folder).rglob("*.py")
        for m in imports(path)
        if m.startswith(forbidden)
    ]
    assert bad == []
