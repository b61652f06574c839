"""merge-kernels (strati.transforms.merge_kernels): kernels alike but for their index constants
and the sizes of their buffers become calls of one kernel, parametric in them; the executable
computes what the interpreter computes, on AVX2- and AVX-512-wide descriptions, and a kernel
whose accesses leave its buffers is not merged (the verifier still reports it)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import parse
from xdsl.dialects import func

import strati
from strati.compiler import lower_to, optimizations_for, run_pass
from strati.context import make_context
from strati.diagnostics import verify_module
from strati.dialects.hw import TARGET_ATTR
from strati.dialects.hw.cpu.target import host_cpu
from strati.runtime import apart
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.source import parse_module
from strati.transforms.merge_kernels import FAMILY_SUFFIX, family_members

TOL = dict(rtol=1e-4, atol=1e-5)


def dense_block(layers: int, channels: int, growth: int, size: int) -> str:
    """DenseNet's pattern: each layer a 1x1 convolution and a relu of the concatenation of all
    before it, so that each reads ``growth`` channels more than the last."""
    t = lambda c: f"tensor<1x{c}x{size}x{size}xf32>"  # noqa: E731
    ws = [f"tensor<{growth}x{channels + i * growth}x1x1xf32>" for i in range(layers)]
    lines = [f"func.func @block(%x: {t(channels)}, " + ", ".join(f"%w{i}: {w}" for i, w in enumerate(ws)) + f") -> {t(channels + layers * growth)} {{"]
    cat, c = "%x", channels
    for i in range(layers):
        lines.append(f"  %c{i} = graph.conv2d {cat}, %w{i} : ({t(c)}, {ws[i]}) -> {t(growth)}")
        lines.append(f"  %r{i} = graph.relu %c{i} : {t(growth)}")
        lines.append(f"  %cat{i} = graph.concat {cat}, %r{i} {{axis = 1 : i64}} : ({t(c)}, {t(growth)}) -> {t(c + growth)}")
        cat, c = f"%cat{i}", c + growth
    lines.append(f"  func.return {cat} : {t(c)}\n}}")
    return "\n".join(lines)


def block_inputs(layers: int, channels: int, growth: int, size: int) -> list[np.ndarray]:
    rng = np.random.default_rng(layers * 100 + growth)
    x = rng.standard_normal((1, channels, size, size)).astype(np.float32)
    ws = [(rng.standard_normal((growth, channels + i * growth, 1, 1)) / 4).astype(np.float32) for i in range(layers)]
    return [x, *ws]


CASES = [
    (5, 16, 16, 7),  # whole blocks of 16 channels, a 7x7 image
    (4, 13, 5, 5),  # prime channel counts: partial blocks
    (3, 3, 7, 1),  # a 1x1 image
]


@pytest.mark.parametrize("lanes", [8, 16])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "l{}_c{}_g{}_{}x{}".format(*c, c[-1]))
def test_a_dense_block_merges_its_kernels_and_computes_what_it_did(case, lanes, monkeypatch):
    monkeypatch.setattr(apart, "MIN_OPS", 10**9)  # the whole module lowered here
    module = parse(dense_block(*case))
    module.attributes[TARGET_ATTR] = host_cpu().replace(vector_width=lanes)
    exe = strati.compile(module, opt_level=3)
    xs = block_inputs(*case)
    want = run_function(parse(dense_block(*case)), xs)[0]
    np.testing.assert_allclose(exe(*xs), want, **TOL)
    if case[0] >= 4:
        assert FAMILY_SUFFIX + "(" in exe.llvm_ir_unoptimized.replace('"', "")


def test_the_layers_of_a_dense_block_call_one_family():
    module = lower_to(parse(dense_block(6, 16, 16, 7)), "hw", optimizations_for(3))
    assert verify_module(module) is None
    families = family_members(module)
    assert families and max(len(members) for members in families.values()) >= 4
    for family, members in families.items():
        fn = next(f for f in module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == family)
        assert "strati.kernel" in fn.attributes and fn.sym_visibility.data == "private"
        by_name = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
        assert all("strati.kernel" not in by_name[m].attributes for m in members)  # calls now: inlined by LLVM
        params = [t for t in fn.function_type.inputs.data if t.name == "index"]  # type: ignore[attr-defined]
        assert params, "the members differ in some size"


def test_the_loop_interpreter_runs_the_families():
    """Loop-level kernels merged (the pass takes any kernels), flat buffers and ``memref.cast``
    included, run by the loop interpreter (``strati-run --check``'s reference) as the graph's
    interpreter runs the block."""
    case = (4, 13, 5, 5)
    module = lower_to(parse(dense_block(*case)), "loop", optimizations_for(3))
    run_pass(module, "merge-kernels", verify=False)
    assert family_members(module) and verify_module(module) is None
    xs = block_inputs(*case)
    got = run_loop_function(module, xs)[0]
    np.testing.assert_allclose(got, run_function(parse(dense_block(*case)), xs)[0], **TOL)


OUT_OF_BOUNDS = """
func.func private @k0(%x: memref<400xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 401 : index
  loop.for %i = %c0 to %c5 step %c1 {
    %a = memref.load %x[%i] : memref<400xf32>
    memref.store %a, %x[%i] : memref<400xf32>
  }
  func.return
}
func.func private @k1(%x: memref<600xf32>) attributes {strati.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 600 : index
  loop.for %i = %c0 to %c6 step %c1 {
    %a = memref.load %x[%i] : memref<600xf32>
    memref.store %a, %x[%i] : memref<600xf32>
  }
  func.return
}
"""


def test_a_kernel_whose_accesses_leave_its_buffer_is_not_merged():
    module = parse_module(make_context(), OUT_OF_BOUNDS, "bad.mlir")  # (not verified: the access is out of bounds)
    run_pass(module, "merge-kernels", verify=False)
    assert not family_members(module)
    diag = verify_module(module)
    assert diag is not None and "goes out of bounds" in str(diag)
    fixed = parse_module(make_context(), OUT_OF_BOUNDS.replace("%c5 = arith.constant 401", "%c5 = arith.constant 400"), "ok.mlir")
    run_pass(fixed, "merge-kernels", verify=False)
    assert family_members(fixed) == {"k0" + FAMILY_SUFFIX: ["k0", "k1"]}
