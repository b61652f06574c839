"""plan-memory: numerics of every example with and without the plan, the CNN's acceptance
criterion (issue 5: peak memory at most half of one buffer per temporary), and the
allocator on random lifetimes.

Each example is lowered to the loop level once; the unplanned module run by the loop
interpreter is the reference.  The planned module must give bit-identical results in
the interpreter (the plan moves no arithmetic), with the arena poisoned with 0xff bytes
(NaN as any float) so that reading bytes nobody wrote shows, and the JIT must agree
within float tolerance, on the planned module alone and after convert-loop-to-hw in
either order.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import numpy as np
import pytest
from helpers import parse

import strati
from xdsl.dialects import func, memref

from strati.codegen.llvm import module_to_llvm_ir
from strati.compiler import load, lower_to, run_pass
from strati.context import make_context
from strati.diagnostics import StratiError
from strati.dialects.loop.ops import ArenaViewOp
from strati.runtime import loop_interpreter
from strati.runtime.jit import compile_module
from strati.runtime.loop_interpreter import run_loop_function
from strati.strategy import forced
from strati.transforms import strati_passes
from strati.transforms.plan_memory import PlanMemoryPass, assign_offsets, conflicts, memory_plan

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.glob("*.mlir"))
TOL = dict(rtol=1e-4, atol=1e-5)


def entry(module) -> func.FuncOp:
    return next(f for f in module.walk() if isinstance(f, func.FuncOp) and f.body.blocks)


def inputs_of(module, seed: int = 0) -> list[np.ndarray]:
    fn = entry(module)
    n_out = fn.attributes["strati.outputs"].value.data
    types = list(fn.function_type.inputs.data)[:-n_out]
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(tuple(t.get_shape())).astype(np.float32) for t in types]


def plan(module, *, in_place: bool = True):
    out = module.clone()
    PlanMemoryPass(in_place=in_place).apply(make_context(), out)
    out.verify()
    return out



@pytest.fixture(autouse=True, scope="module")
def direct_convolutions():
    """These tests check the loops of the direct convolution (fusion, in-place memory): the
    CPU's other conv2d strategies are tested in test_targets.py."""
    with forced("graph.conv2d", "cpu", "direct"):
        yield


@pytest.fixture(scope="module")
def lowered() -> dict[str, tuple]:
    """Each example at the loop level, its inputs and the unplanned interpreter's outputs."""
    found = {}
    for name in EXAMPLE_NAMES:
        module = lower_to(load(EXAMPLES / name), "loop")
        xs = inputs_of(module)
        found[name] = (module, xs, run_loop_function(module, xs))
    return found


@pytest.fixture
def nan_arenas(monkeypatch):
    """The interpreter fills i8 buffers (arenas) with 0xff: NaN for every float view."""
    original = loop_interpreter._poison

    def poison(t):
        if str(t.get_element_type()) == "i8":
            return np.full(tuple(t.get_shape()), -1, np.int8)
        return original(t)

    monkeypatch.setattr(loop_interpreter, "_poison", poison)


def test_registered():
    assert strati_passes().get("plan-memory")() is PlanMemoryPass


@pytest.mark.parametrize("in_place", [True, False], ids=["in-place", "no-in-place"])
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "cnn.mlir" else n for n in EXAMPLE_NAMES]
)  # the cnn's loop nests take the loop interpreter 8 s each (test_example_jit runs it compiled)
def test_example_interpreter(lowered, nan_arenas, name: str, in_place: bool):
    module, xs, want = lowered[name]
    p = plan(module, in_place=in_place)
    fn = entry(p)
    allocs = [op for op in fn.walk() if isinstance(op, memref.AllocOp)]
    assert len(allocs) == 1 and str(allocs[0].memref.type.get_element_type()) == "i8"
    deallocs = [op for op in fn.walk() if isinstance(op, memref.DeallocOp)]
    assert [d.memref for d in deallocs] == [allocs[0].memref]
    assert any(isinstance(op, ArenaViewOp) for op in fn.walk())
    got = run_loop_function(p, xs)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert not np.isnan(g).any()
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("in_place", [True, False], ids=["in-place", "no-in-place"])
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_jit(lowered, name: str, in_place: bool):
    module, xs, want = lowered[name]
    p = plan(module, in_place=in_place)
    got = compile_module(p).run(*xs)
    reference = compile_module(module.clone()).run(*xs)
    for g, w, r in zip(got, want, reference):
        np.testing.assert_allclose(g, w, **TOL)
        np.testing.assert_allclose(g, r, **TOL)  # LLVM may reassociate the two differently


@pytest.mark.parametrize("order", ["plan-then-hw", "hw-then-plan"])
@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_example_jit_with_hw(lowered, name: str, order: str):
    module, xs, want = lowered[name]
    m = module.clone()
    passes = ["plan-memory", "convert-loop-to-hw"] if order == "plan-then-hw" else ["convert-loop-to-hw", "plan-memory"]
    for p in passes:
        run_pass(m, p)
    assert any(isinstance(op, ArenaViewOp) for op in m.walk())
    for g, w in zip(compile_module(m).run(*xs), want):
        np.testing.assert_allclose(g, w, **TOL)


def test_cnn_peak_memory_halved(lowered):
    """Issue 5's acceptance criterion: the CNN's planned memory is at most half of one buffer
    per temporary; the arena also beats freeing each buffer after its last use (in place)."""
    module, _, _ = lowered["cnn.mlir"]
    p = memory_plan(module)["cnn"]
    assert p["buffers"] >= 10 and p["in_place"] >= 1
    assert 2 * p["arena_bytes"] <= p["naive_bytes"], p
    assert p["arena_bytes"] < p["peak_bytes"] <= p["naive_bytes"], p
    without = memory_plan(module, in_place=False)["cnn"]
    assert without["arena_bytes"] >= without["peak_bytes"]  # no placement beats the live peak but in place
    assert 2 * without["arena_bytes"] <= without["naive_bytes"]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_memory_plan_placements(lowered, name: str):
    """Buffers live at the same time never share bytes, except one computed in place of another."""
    module, _, _ = lowered[name]
    before = str(module)
    plans = memory_plan(module)
    assert str(module) == before  # memory_plan does not change the module
    (p,) = plans.values()
    placed = p["placements"]
    assert len(placed) == p["buffers"]
    assert sum(b["bytes"] for b in placed) == p["naive_bytes"]
    assert p["peak_bytes"] <= p["naive_bytes"]
    def root(k: int) -> int:  # the buffer whose bytes k's are (in place of it, or in a part of it)
        while (up := placed[k]["in_place_of"] if placed[k]["in_place_of"] is not None else placed[k]["part_of"]) is not None:
            k = up
        return k

    for i, a in enumerate(placed):
        assert a["offset"] % 64 == 0 and a["offset"] + a["bytes"] <= p["arena_bytes"]
        for j in range(i + 1, len(placed)):
            b = placed[j]
            live_together = a["start"] <= b["end"] and b["start"] <= a["end"]
            share = a["offset"] < b["offset"] + b["bytes"] and b["offset"] < a["offset"] + a["bytes"]
            if live_together and share and a["bytes"] and b["bytes"]:
                assert root(i) == root(j), (a, b)


DENSE = """builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = LANES, fma = true, cores = 2, l1 = 32768, l2 = 1048576, l3 = 33554432>} {
func.func @dense(%x: tensor<1x16x6x6xf32>, %w1: tensor<32x16x3x3xf32>, %w2: tensor<32x48x1x1xf32>, %w3: tensor<16x80x3x3xf32>) -> tensor<1x16x6x6xf32> {
  %y1 = graph.conv2d %x, %w1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x6x6xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x6x6xf32>
  %r1 = graph.relu %y1 : tensor<1x32x6x6xf32>
  %c1 = graph.concat %x, %r1 {axis = 1 : i64} : (tensor<1x16x6x6xf32>, tensor<1x32x6x6xf32>) -> tensor<1x48x6x6xf32>
  %y2 = graph.conv2d %c1, %w2 : (tensor<1x48x6x6xf32>, tensor<32x48x1x1xf32>) -> tensor<1x32x6x6xf32>
  %r2 = graph.relu %y2 : tensor<1x32x6x6xf32>
  %c2 = graph.concat %c1, %r2 {axis = 1 : i64} : (tensor<1x48x6x6xf32>, tensor<1x32x6x6xf32>) -> tensor<1x80x6x6xf32>
  %y3 = graph.conv2d %c2, %w3 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x80x6x6xf32>, tensor<16x80x3x3xf32>) -> tensor<1x16x6x6xf32>
  func.return %y3 : tensor<1x16x6x6xf32>
}
}"""


@pytest.mark.parametrize("lanes", [8, 16])
def test_concatenation_parts_computed_in_place(lanes: int):
    """A DenseNet-like block at -O3 (blocked layout, alter-layout): each concatenation's parts
    are computed in the bytes of its result (the first one's result a part of the second's),
    no part is copied, and the numerics are the graph interpreter's (the ops' numpy references)."""
    from helpers import run_ir

    from strati.compiler import OPT_LEVELS, optimizations_for

    text = DENSE.replace("LANES", str(lanes))
    with forced("graph.conv2d", "cpu", "blocked"):
        unplanned = tuple(o for o in OPT_LEVELS[3] if o not in ("plan-memory", "outline-kernels"))
        p = memory_plan(lower_to(parse(text), "loop", unplanned))["dense"]
        got = strati.compile(parse(text), optimizations=optimizations_for(3))
    # parts: the input's blocked copy and relu(conv1) in the first result, which is itself a
    # part of the second with relu(conv2); the copies of the first result and of the input go
    assert p["in_parts"] == 4 and p["copies_elided"] == 2, p
    rng = np.random.default_rng(1)
    xs = [rng.standard_normal(s).astype(np.float32) / 4 for s in ((1, 16, 6, 6), (32, 16, 3, 3), (32, 48, 1, 1), (16, 80, 3, 3))]
    (want,) = run_ir(text, *xs)
    np.testing.assert_allclose(got(*xs), want, rtol=1e-4, atol=1e-4 * np.abs(want).max())


def test_memory_plan_of_a_graph_module_is_lowered_by_the_caller():
    module = load(EXAMPLES / "mlp.mlir")
    with pytest.raises(StratiError, match="needs a loop-level module"):
        memory_plan(module)
    loops = lower_to(module.clone(), "loop")
    before = str(loops)
    p = memory_plan(loops)
    assert str(loops) == before
    assert set(p) == {"mlp"} and p["mlp"]["arena_bytes"] > 0


def test_report_and_idempotence(lowered):
    module, _, _ = lowered["cnn.mlir"]
    m = module.clone()
    err = io.StringIO()
    with redirect_stderr(err):
        PlanMemoryPass(report=True).apply(make_context(), m)
    p = memory_plan(module)["cnn"]
    assert err.getvalue() == (
        f"plan-memory @cnn: {p['buffers']} buffers, {p['in_place']} in place, {p['in_parts']} in parts of others "
        f"({p['copies_elided']} copies elided); one buffer per temporary: "
        f"{p['peak_bytes']} bytes live at peak, {p['naive_bytes']} bytes in all; arena: {p['arena_bytes']} bytes\n"
    )
    text = str(m)
    PlanMemoryPass().apply(make_context(), m)
    assert str(m) == text


def test_timeline_svg_draws_every_placement(lowered, tmp_path):
    """timeline= writes an SVG whose rectangles are the plan's placements: one per placed buffer, x from
    its lifetime and y from its offset in the arena, scaled alike; no two overlap in both axes."""
    import xml.etree.ElementTree as ET

    module, _, _ = lowered["cnn.mlir"]
    p = memory_plan(module)["cnn"]
    path = tmp_path / "plan.svg"
    PlanMemoryPass(timeline=str(path)).apply(make_context(), module.clone())
    ns = {"s": "http://www.w3.org/2000/svg"}
    rects = ET.parse(path).getroot().findall("s:rect", ns)[1:]  # the first is the white background
    placed = [b for b in p["placements"] if b["offset"] is not None]
    assert len(rects) == len(placed) > 0
    boxes = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) for r in rects]
    steps = max(b["end"] + 1 for b in placed)
    x_scale = boxes[0][2] / (placed[0]["end"] - placed[0]["start"] + 1)
    for b, (x, y, w, h) in zip(placed, boxes):
        assert w == pytest.approx((b["end"] - b["start"] + 1) * x_scale, abs=0.1)
        assert x == pytest.approx(boxes[0][0] + (b["start"] - placed[0]["start"]) * x_scale, abs=0.1)
        assert b["name"] in r_title(rects[placed.index(b)]) and f"{b['bytes']} B at offset {b['offset']}" in r_title(rects[placed.index(b)])
    assert steps * x_scale <= 960
    bottom = [y + h for _, y, _, h in boxes]  # offset 0 is the x axis: bottoms are ordered like offsets
    for a in range(len(placed)):
        for c in range(len(placed)):
            if placed[a]["offset"] < placed[c]["offset"]:
                assert bottom[a] > bottom[c]
            time_apart = placed[a]["end"] < placed[c]["start"] or placed[c]["end"] < placed[a]["start"]
            bytes_apart = (placed[a]["offset"] + placed[a]["bytes"] <= placed[c]["offset"]
                           or placed[c]["offset"] + placed[c]["bytes"] <= placed[a]["offset"])  # fmt: skip
            in_place = placed[a]["in_place_of"] is not None or placed[c]["in_place_of"] is not None
            assert a == c or time_apart or bytes_apart or in_place


def r_title(rect) -> str:
    return rect.find("{http://www.w3.org/2000/svg}title").text


@pytest.mark.parametrize("seed", range(200))
def test_allocator_random_lifetimes(seed: int):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    starts = rng.integers(0, 50, n)
    lifetimes = [(int(s), int(s + rng.integers(0, 15))) for s in starts]
    aligns = [int(rng.choice([1, 4, 16, 64])) for _ in range(n)]
    sizes = [int(rng.choice([0, 1, 3, 64, 100, 1000])) if rng.random() < 0.3 else int(rng.integers(1, 5000)) for _ in range(n)]
    offsets, total = assign_offsets(lifetimes, sizes, aligns)
    assert not conflicts(lifetimes, sizes, offsets)
    for o, s, a in zip(offsets, sizes, aligns):
        assert o >= 0 and o % a == 0 and o + s <= total
    # brute force: no two buffers live at one point share a byte; the total is at least the live peak
    peak = 0
    for t in range(0, 70):
        live = [i for i, (s, e) in enumerate(lifetimes) if s <= t <= e and sizes[i]]
        peak = max(peak, sum(sizes[i] for i in live))
        spans = sorted((offsets[i], offsets[i] + sizes[i]) for i in live)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    assert peak <= total <= sum(sizes) + sum(aligns)  # never worse than stacking them all


def test_allocator_reuses_dead_bytes():
    # three disjoint lifetimes share offset 0; two overlapping ones do not
    assert assign_offsets([(0, 1), (2, 3), (4, 5)], [64, 64, 64]) == ([0, 0, 0], 64)
    assert assign_offsets([(0, 2), (1, 3)], [64, 64]) == ([0, 64], 128)
    # the checker finds an overlap between buffers live at the same time, and only those
    assert conflicts([(0, 2), (1, 3), (3, 4)], [64, 64, 64], [0, 32, 0]) == [(0, 1), (1, 2)]
    assert conflicts([(0, 2), (3, 4)], [64, 64], [0, 0]) == []
    # largest first; then best fit: the last buffer takes the 64-byte gap left by a dead
    # buffer (at 384), not the 256 bytes of the dead big one (at 0), which first fit would
    offsets, total = assign_offsets([(0, 9), (0, 1), (0, 9), (0, 1), (0, 9), (2, 3)], [64, 256, 64, 64, 64, 64])
    assert offsets == [256, 0, 320, 384, 448, 384] and total == 512


# --- loop.arena_view in the interpreter and the code generator --------------------------------

ARENA_IR = """
func.func @f(%x: memref<4xf32>, %out: memref<4xi32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %arena = memref.alloc() {alignment = 64 : i64} : memref<128xi8>
  %f = loop.arena_view %arena[64] : memref<128xi8> to memref<4xf32>
  %i = loop.arena_view %arena[64] : memref<128xi8> to memref<2x2xi32>
  %iv = loop.view %i : memref<2x2xi32> to memref<4xi32>
  loop.for %k = %c0 to %c4 step %c1 {
    %v = memref.load %x[%k] : memref<4xf32>
    memref.store %v, %f[%k] : memref<4xf32>
  }
  loop.for %k = %c0 to %c4 step %c1 {
    %v = memref.load %iv[%k] : memref<4xi32>
    memref.store %v, %out[%k] : memref<4xi32>
  }
  memref.dealloc %arena : memref<128xi8>
  func.return
}
"""


def test_arena_view_reinterprets_bytes():
    """Two views of the same bytes alias: floats written through one read back as their bits."""
    module = parse(ARENA_IR)
    x = np.array([1.0, -2.5, 0.0, 3.25], np.float32)
    (got,) = run_loop_function(module, [x])
    np.testing.assert_array_equal(got, x.view(np.int32))
    (jit,) = compile_module(module).run(x)
    np.testing.assert_array_equal(jit, x.view(np.int32))
    assert 'getelementptr inbounds i8, ptr %"arena", i64 64' in module_to_llvm_ir(module)


def test_arena_view_after_free_is_an_error():
    module = parse(
        ARENA_IR.replace("  memref.dealloc %arena : memref<128xi8>\n", "")
        .replace("  %f = loop.arena_view", "  memref.dealloc %arena : memref<128xi8>\n  %f = loop.arena_view")
    )
    with pytest.raises(StratiError, match="use of a deallocated buffer"):
        run_loop_function(module, [np.zeros(4, np.float32)])


def test_large_arena_is_heap_allocated():
    module = lower_to(load(EXAMPLES / "cnn.mlir"), "loop")
    p = plan(module, in_place=False)
    size = memory_plan(module, in_place=False)["cnn"]["arena_bytes"]
    assert size > 16 * 1024 and size % 64 == 0  # above the code generator's stack limit
    ir_text = module_to_llvm_ir(p)
    assert f'call ptr @"aligned_alloc"(i64 64, i64 {size})' in ir_text and 'call void @"free"(ptr %"arena")' in ir_text
