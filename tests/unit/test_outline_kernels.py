"""outline-kernels (at -O2 and up, for the CPU): identical loop nests share one kernel
function, the numerics do not move, and a buffer that may share bytes with another argument
loses ``noalias``.

The reference is the same lowered module compiled without the pass (its nests inline in one
function) and the graph interpreter; the CNN of repeated blocks shows that the code grows
with the number of distinct layers, not with the number of layers.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from helpers import parse

import strati
from strati.codegen.llvm import module_to_llvm_ir
from strati.compiler import lower_to, optimizations_for, run_pass
from strati.runtime.interpreter import run_function
from strati.runtime.jit import compile_module
from strati.transforms.outline_kernels import OutlineKernelsPass

TOL = dict(rtol=1e-5, atol=1e-6)


def blocks(n: int, channels: int = 8, size: int = 7) -> str:
    """``n`` identical conv 3x3 + relu blocks (their own weights) on a prime-sized image."""
    t = f"tensor<1x{channels}x{size}x{size}xf32>"
    w = f"tensor<{channels}x{channels}x3x3xf32>"
    args = ", ".join(f"%w{i}: {w}" for i in range(n))
    lines = [f"func.func @net(%x: {t}, {args}) -> {t} {{"]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %c{i} = graph.conv2d {prev}, %w{i} {{pads = array<i64: 1, 1, 1, 1>}} : ({t}, {w}) -> {t}")
        lines.append(f"  %r{i} = graph.relu %c{i} : {t}")
        prev = f"%r{i}"
    lines.append(f"  func.return {prev} : {t}\n}}")
    return "\n".join(lines)


def inputs(n: int, channels: int = 8, size: int = 7) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    x = rng.standard_normal((1, channels, size, size)).astype(np.float32)
    return [x] + [(rng.standard_normal((channels, channels, 3, 3)) / 8).astype(np.float32) for _ in range(n)]


@pytest.mark.parametrize("opt_level", [2, 3])
def test_numerics_unchanged(opt_level):
    text, xs = blocks(4), inputs(4)
    outlined = strati.compile(parse(text), opt_level=opt_level)
    without = [p for p in optimizations_for(opt_level) if p != "outline-kernels"]
    inline = compile_module(lower_to(parse(text), "hw", without))
    reference = run_function(parse(text), xs)[0]
    np.testing.assert_allclose(outlined(*xs), inline(*xs), **TOL)
    np.testing.assert_allclose(outlined(*xs), reference, **TOL)
    assert "strati.kernel" not in inline.llvm_ir_unoptimized and "noinline" in outlined.llvm_ir_unoptimized


def kernel_definitions(exe) -> int:
    return len(re.findall(r'^define internal void @"net\.kernel\d+"', exe.llvm_ir_unoptimized, re.M))


def test_code_size_follows_distinct_layers():
    """Two blocks or six: the same kernels, each called more often."""
    two, six = (strati.compile(parse(blocks(n))) for n in (2, 6))
    assert kernel_definitions(two) == kernel_definitions(six) > 0
    calls = lambda exe: len(re.findall(r'call void @"net\.kernel\d+"', exe.llvm_ir_unoptimized))  # noqa: E731
    assert calls(six) > calls(two)
    np.testing.assert_allclose(six(*inputs(6)), run_function(parse(blocks(6)), inputs(6))[0], **TOL)


IN_PLACE = """
func.func @f(%x: memref<16xf32>, %y: memref<16xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64} : memref<64xi8>
  %a = loop.arena_view %arena[0] : memref<64xi8> to memref<16xf32>
  %b = loop.arena_view %arena[0] : memref<64xi8> to memref<16xf32>
  loop.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %a[%i] : memref<16xf32>
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %a[%i] : memref<16xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %b[%i] : memref<16xf32>
  }
  loop.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %b[%i] : memref<16xf32>
    %w = arith.addf %v, %one : f32
    memref.store %w, %y[%i] : memref<16xf32>
  }
  memref.dealloc %arena : memref<64xi8>
  func.return
}
"""


def test_in_place_arguments_are_not_noalias():
    module = parse(IN_PLACE)
    run_pass(module, OutlineKernelsPass(min_ops=1))
    ir = module_to_llvm_ir(module)
    headers = {m.group(1): m.group(2) for m in re.finditer(r'^define internal void @"(f\.kernel\d+)"\((.*)\)', ir, re.M)}
    assert len(headers) == 3
    in_place = [h for h in headers.values() if "noalias" not in h]
    assert len(in_place) == 1 and in_place[0].count("ptr") == 2  # the nest that reads a and writes b
    assert all(h.count("noalias") == 2 for h in headers.values() if h not in in_place)
    x = np.arange(16, dtype=np.float32)
    np.testing.assert_array_equal(compile_module(module)(x), x + 2)
