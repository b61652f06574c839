"""Compile time grows linearly with the graph (issue 12): counts that do not depend on the
machine, at sizes N and 4N, and the numerics of what keeps them linear.

A chain of relus and a concat of many inputs (bench/compile_scaling.py times them at full
size).  Wall time is never asserted; instead:

* the operations built while lowering (every ``Operation.__init__``, clones included) grow
  about 4x from N to 4N (a pass that clones or rebuilds a growing body per op, as fuse-generics
  once did, grows 16x);
* no LLVM function grows with the graph: the largest one, its loops and the arguments of the
  largest call are the same at N and 4N (``split-functions`` and the entry wrapper of a function
  of many arguments), while the module's instructions grow at most about 4x (less where
  ``merge-kernels`` makes parts alike one parametric kernel).

The reference for the numerics is numpy (exact: the ops only move or clamp values).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import parse
from xdsl.ir import Operation

import strati
from strati.codegen.llvm import translate_module
from strati.compiler import lower_to, optimizations_for, run_pass

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from compile_scaling import chain, concat  # noqa: E402

SMALL, LARGE = 100, 400


def lowered(text: str, opt_level: int):
    """The module at the hw level, and the number of operations built on the way."""
    module = parse(text)
    count = [0]
    original = Operation.__init__

    def counting(self, *args, **kwargs):
        count[0] += 1
        original(self, *args, **kwargs)

    Operation.__init__ = counting
    try:
        run_pass(module, "infer-shapes")
        lower_to(module, "hw", optimizations_for(opt_level), verify_each=False)
    finally:
        Operation.__init__ = original
    return module, count[0]


def llvm_counts(module) -> dict[str, int]:
    """Instructions of the module and of its largest function, loops of the loopiest function,
    arguments of the largest call, in the unoptimised LLVM IR, entry wrappers left out (they load
    one pointer per argument: linear, and no loops)."""
    text = str(translate_module(module).module)
    functions = [f for f in re.split(r"\ndefine ", text)[1:] if "_entry\"(" not in f.split("\n", 1)[0]]
    sizes = [sum(1 for line in f.splitlines() if line.startswith("  ")) for f in functions]
    loops = [len(re.findall(r'^[^:\s]*\.header[^:]*:', f, re.M)) for f in functions]
    calls = [m.count("ptr ") + m.count("float ") for m in re.findall(r"call \w+ @[^(]*\(([^)]*)\)", text)]
    return {"total": sum(sizes), "largest": max(sizes), "loops": max(loops), "functions": len(functions),
            "call_args": max(calls, default=0)}


@pytest.mark.parametrize("graph,opt_level", [(chain, 3), (chain, 0), (concat, 3), (concat, 0)])
def test_compile_work_grows_linearly(graph, opt_level):
    small, ops_small = lowered(graph(SMALL), opt_level)
    large, ops_large = lowered(graph(LARGE), opt_level)
    assert 3.0 < ops_large / ops_small < 4.6, (ops_small, ops_large)
    a, b = llvm_counts(small), llvm_counts(large)
    assert b["total"] < 4.6 * a["total"], (a, b)
    if graph is concat or opt_level == 0:  # one nest per input (per op): split into parts of bounded size
        assert b["largest"] <= 1.1 * a["largest"], (a, b)
        assert b["loops"] <= 64 and b["call_args"] <= 65, b
        assert b["functions"] > a["functions"]


@pytest.mark.parametrize("opt_level", [0, 3])
def test_concat_of_many_inputs_numerics(opt_level):
    n = 150  # > 64 nests (parts) and > 64 arguments (the table entry)
    exe = strati.compile(parse(concat(n)), opt_level=opt_level)
    assert 'define internal void @"f"' in exe.llvm_ir_unoptimized
    rng = np.random.default_rng(opt_level)
    xs = [rng.standard_normal(1).astype(np.float32) for _ in range(n)]
    np.testing.assert_array_equal(exe(*xs), np.concatenate(xs))


def test_chain_split_into_parts_numerics():
    exe = strati.compile(parse(chain(150)), opt_level=0)  # 150 nests, allocations and frees across parts
    assert '@"f.part1"' in exe.llvm_ir_unoptimized
    x = np.random.default_rng(1).standard_normal(16).astype(np.float32)
    np.testing.assert_array_equal(exe(x), np.maximum(x, 0))


def test_scalar_arguments_and_result_through_the_table():
    n = 70
    args = ", ".join(f"%s{i}: f32" for i in range(n))
    body = ["  %t0 = arith.addf %s0, %s1 : f32"]
    body += [f"  %t{i - 1} = arith.addf %t{i - 2}, %s{i} : f32" for i in range(2, n)]
    text = f"func.func @total({args}) -> f32 {{\n" + "\n".join(body) + f"\n  func.return %t{n - 2} : f32\n}}"
    exe = strati.compile(parse(text))
    values = np.random.default_rng(2).standard_normal(n).astype(np.float32)
    expected = values[0]
    for v in values[1:]:
        expected = np.float32(expected + v)  # the same order of additions
    assert exe(*values) == expected
