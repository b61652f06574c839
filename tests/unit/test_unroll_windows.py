"""unroll-windows: max pools with their windows unrolled (sums left loops), bit for bit in the
loop interpreter, and compiled through the CPU's whole pipeline (AVX2 and AVX-512 descriptions)
against the graph interpreter's numpy reference."""

from __future__ import annotations

import numpy as np
import pytest

from strati.compiler import lower_to
from strati.context import make_context
from strati.dialects.hw import TARGET_ATTR, TargetAttr
from strati.dialects.loop.analysis import constant_index
from strati.dialects.loop.ops import ForOp
from strati.runtime.interpreter import run_function
from strati.runtime.jit import compile_module
from strati.runtime.loop_interpreter import run_loop_function
from strati.source import parse_module
from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass
from strati.transforms.unroll_windows import MAX_TRIPS, UnrollWindowsPass

AVX512 = TargetAttr("cpu", vector_width=16, fma=True, cores=2, l1=32768, l2=1 << 20, l3=1 << 24)
AVX2 = TargetAttr("cpu", vector_width=8, fma=True, cores=2, l1=32768, l2=1 << 19, l3=1 << 24)
RNG = np.random.default_rng(7)


def op_text(op: str, attrs: str, shape: tuple[int, ...], out: tuple[int, ...]) -> str:
    t = lambda s: "tensor<" + "x".join(map(str, s)) + "xf32>"  # noqa: E731
    return (f"func.func @f(%x: {t(shape)}) -> {t(out)} {{\n"
            f"  %y = {op} %x {{{attrs}}} : ({t(shape)}) -> {t(out)}\n"
            f"  func.return %y : {t(out)}\n}}\n")  # fmt: skip


# (op, attributes, input shape, output shape): max pools of stride 1 with padding (vector loops
# and their remainders), stride 2 on odd sizes, ceil mode, a 7x7 window (49 taps); sums, which
# stay loops (averages with and without the padding, LRN's window over channels); and a 9x9 max
# window (81 taps, more than MAX_TRIPS: only its rows unroll).
CASES = [
    ("graph.max_pool2d", "kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>", (1, 3, 13, 13), (1, 3, 13, 13)),
    ("graph.max_pool2d", "kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>", (1, 2, 15, 11), (1, 2, 7, 5)),
    ("graph.max_pool2d", "kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true", (1, 2, 7, 7), (1, 2, 4, 4)),
    ("graph.avg_pool2d", "kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>", (2, 2, 9, 10), (2, 2, 9, 10)),
    ("graph.avg_pool2d", "kernel = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = true", (1, 3, 5, 5), (1, 3, 5, 5)),
    ("graph.max_pool2d", "kernel = array<i64: 7, 7>", (1, 5, 7, 7), (1, 5, 1, 1)),
    ("graph.lrn", "size = 5, alpha = 1.0e-4, beta = 0.75, bias = 1.0", (1, 7, 6, 6), (1, 7, 6, 6)),
    ("graph.max_pool2d", "kernel = array<i64: 9, 9>", (1, 2, 9, 12), (1, 2, 1, 4)),
]  # fmt: skip
IDS = ["max_s1_pad", "max_s2_odd", "max_ceil", "avg_pad", "avg_include_pad", "max_7x7", "lrn", "max_9x9"]


def loop_count(module) -> int:
    return sum(isinstance(o, ForOp) for o in module.walk())


@pytest.mark.parametrize("op, attrs, shape, out", CASES, ids=IDS)
def test_windows_unrolled_bit_for_bit(op, attrs, shape, out):
    """The taps run in the loops' order: the same results, bit for bit, with fewer loops (max
    pools); the sums keep their loops."""
    module = lower_to(parse_module(make_context(), op_text(op, attrs, shape, out)), "loop")
    x = RNG.standard_normal(shape).astype(np.float32)
    want = run_loop_function(module, [x])[0]
    loops = loop_count(module)
    UnrollWindowsPass().apply(make_context(), module)
    module.verify()
    assert (loop_count(module) < loops) == ("max_pool" in op)
    if "9, 9" in attrs:  # 81 taps: the rows (kw) unroll, the window's loop over them (kh) stays
        assert any(isinstance(o, ForOp) and constant_index(o.ub) == 9 for o in module.walk())
    np.testing.assert_array_equal(run_loop_function(module, [x])[0], want)


@pytest.mark.parametrize("target", [AVX512, AVX2], ids=["avx512", "avx2"])
@pytest.mark.parametrize("op, attrs, shape, out", CASES, ids=IDS)
def test_windows_compiled_match_the_reference(op, attrs, shape, out, target):
    text = op_text(op, attrs, shape, out)
    x = RNG.standard_normal(shape).astype(np.float32)
    want = run_function(parse_module(make_context(), text), [x])[0]
    module = lower_to(parse_module(make_context(), text), "loop")
    module.attributes[TARGET_ATTR] = target
    ConvertLoopToHwPass().apply(make_context(), module)  # the target's pipeline, unroll-windows in it
    got = compile_module(module)(x)
    if "max_pool" in op:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_max_trips_bounds_the_chain():
    """A window of more taps than ``max-trips`` keeps its outer loop."""
    assert MAX_TRIPS < 81
    text = op_text(*CASES[-1])
    module = lower_to(parse_module(make_context(), text), "loop")
    UnrollWindowsPass(max_trips=100).apply(make_context(), module)
    assert not any(isinstance(o, ForOp) and constant_index(o.ub) == 9 for o in module.walk())
