"""Level 4 on the CPU: the target description, convert-loop-to-hw, cpu.parallel code generation
and the thread pool, checked numerically against numpy (and the example models against the
reference interpreter)."""

from __future__ import annotations

import ctypes
import math
import os
import threading
from pathlib import Path

import numpy as np
import pytest

import strati
from strati.compiler import load, lower_to, module_level
from strati.context import make_context
from strati.dense import to_dtype
from strati.dialects.hw import TARGET_ATTR, TargetAttr, module_target
from strati.dialects.hw.cpu import ParallelOp
from strati.dialects.hw.cpu import threadpool
from strati.dialects.hw.cpu.target import host_caches, host_cpu
from strati.dialects.hw.target import Field, Target, describe, get_target, register_target, target_names, unregister_target
from strati.dialects.shapes import shape_of
from strati.diagnostics import StratiError
from strati.runtime.interpreter import find_function, run_function
from strati.runtime.jit import compile_module, host_vector_library
from strati.source import parse_module
from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass
from strati.transforms.vectorize import vector_lanes

EXAMPLES = Path(__file__).parents[2] / "examples"
RNG = np.random.default_rng(2024)
TOL = dict(rtol=1e-4, atol=1e-5)


def parse(text: str):
    module = parse_module(make_context(), text, "test.mlir")
    module.verify()
    return module


def fixed_target(lanes: int = 8, cores: int = 2, fma: bool = True) -> TargetAttr:
    return TargetAttr("cpu", vector_width=lanes, fma=fma, cores=cores, l1=32768, l2=524288, l3=16777216)


def to_hw(module, target: TargetAttr | None = None, parallel_threshold: int | None = None):
    """convert-loop-to-hw on a loop-level module, with a fixed description when given (and the
    CPU's pipeline with another cpu-parallelize threshold when given)."""
    if target is not None:
        module.attributes[TARGET_ATTR] = target
    pipeline = None if parallel_threshold is None else f"interchange,vectorize,cpu-parallelize{{threshold={parallel_threshold}}}"
    ConvertLoopToHwPass(pipeline=pipeline).apply(make_context(), module)
    module.verify()
    return module


def ops_named(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def elementwise(n: int, body: str, n_in: int = 1, t: str = "f32", parallel: bool = True) -> str:
    """``out[i] = body(x0[i], ...)`` over ``n`` elements; the body defines ``%r``."""
    mt = f"memref<{n}x{t}>"
    args = ", ".join(f"%x{k}: {mt}" for k in range(n_in))
    loads = "\n".join(f"    %v{k} = memref.load %x{k}[%i] : {mt}" for k in range(n_in))
    schedule = " {parallel = true}" if parallel else ""
    return f"""
func.func @ew({args}, %out: {mt}) attributes {{strati.outputs = 1 : i64}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {n} : index
  %half = arith.constant 0.5 : {t}
  loop.for %i = %c0 to %n step %c1 {{
{loads}
    {body}
    memref.store %r, %out[%i] : {mt}
  }}{schedule}
  func.return
}}
"""


# --- the target description ------------------------------------------------------------------


def test_host_description_is_sane():
    t = host_cpu()
    assert t.target_name == "cpu"
    assert t["vector_width"] in (4, 8, 16)
    assert t["cores"] >= 1
    assert all(t[level] > 0 for level in ("l1", "l2", "l3"))
    assert describe("cpu") == t and get_target("cpu").describe() == t
    assert vector_lanes(t, 64) == t["vector_width"] // 2 and vector_lanes(t, 32) == t["vector_width"]


def test_cache_sizes_from_sysfs_and_defaults(tmp_path):
    for index, (level, kind, size) in enumerate([(1, "Data", "48K"), (1, "Instruction", "32K"), (2, "Unified", "2048K"), (3, "Unified", "64M")]):
        d = tmp_path / f"index{index}"
        d.mkdir()
        (d / "level").write_text(f"{level}\n")
        (d / "type").write_text(f"{kind}\n")
        (d / "size").write_text(f"{size}\n")
    assert host_caches(str(tmp_path)) == (48 * 1024, 2048 * 1024, 64 * 1024**2)
    assert host_caches(str(tmp_path / "absent")) == (32 * 1024, 512 * 1024, 8 * 1024**2)


class ScalarTarget(Target):
    """A target without vectors or threads: its pipeline is empty, so loop nests stay as they are."""

    name = "test-scalar"
    fields = (Field("cores", int, default=1),)


def test_target_registry_and_unknown_target():
    register_target(ScalarTarget())
    try:
        assert "test-scalar" in target_names()
        assert describe("test-scalar") == TargetAttr("test-scalar", cores=1)
        module = parse(elementwise(64, "%r = arith.negf %v0 : f32"))
        ConvertLoopToHwPass(target="test-scalar").apply(make_context(), module)
        assert module_target(module) == TargetAttr("test-scalar", cores=1)
        assert not ops_named(module, "vector.load") and not ops_named(module, "cpu.parallel")
        with pytest.raises(StratiError, match="is already registered"):
            register_target(type("Other", (ScalarTarget,), {"__module__": "elsewhere"})())
    finally:
        unregister_target("test-scalar")
    with pytest.raises(StratiError, match=r"unknown target 'nope' \(targets: cpu"):
        get_target("nope")
    with pytest.raises(StratiError, match="convert-loop-to-hw: unknown target 'nope'"):
        ConvertLoopToHwPass(target="nope").apply(make_context(), parse(elementwise(8, "%r = arith.negf %v0 : f32")))


def test_pass_attaches_the_host_description_and_keeps_a_given_one():
    module = to_hw(parse(elementwise(64, "%r = arith.negf %v0 : f32")))
    assert module_target(module) == host_cpu()
    assert module_level(module) == "hw"
    given = to_hw(parse(elementwise(64, "%r = arith.negf %v0 : f32")), fixed_target(lanes=4))
    assert module_target(given) == fixed_target(lanes=4)
    assert {op.result.type.get_shape()[0] for op in ops_named(given, "vector.load")} == {4}


# --- vectorised kernels ------------------------------------------------------------------------

SIZES = [1, 3, 4, 7, 8, 15, 16, 17, 33, 100, 1001]


@pytest.mark.parametrize("lanes", [4, 8, 16])
@pytest.mark.parametrize("n", SIZES)
def test_vectorised_elementwise(n, lanes):
    body = "%p = arith.mulf %v0, %v1 : f32\n    %q = arith.addf %p, %half : f32\n    %r = arith.maximumf %q, %v0 : f32"
    module = to_hw(parse(elementwise(n, body, n_in=2)), fixed_target(lanes))
    vectors = ops_named(module, "vector.store")
    assert bool(vectors) == (n >= min(lanes, 4))
    x, y = RNG.standard_normal(n).astype(np.float32), RNG.standard_normal(n).astype(np.float32)
    got = compile_module(module)(x, y)
    want = np.maximum(x.astype(np.float64) * y + 0.5, x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


MATH = [
    ("exp", "math.exp", np.exp, lambda n: RNG.uniform(-20, 20, n)),
    ("log", "math.log", np.log, lambda n: RNG.uniform(1e-3, 1e3, n)),
    ("tanh", "math.tanh", np.tanh, lambda n: RNG.uniform(-6, 6, n)),
    ("erf", "math.erf", np.vectorize(math.erf), lambda n: RNG.uniform(-4, 4, n)),
    ("sqrt", "math.sqrt", np.sqrt, lambda n: RNG.uniform(0, 100, n)),
]


@pytest.mark.parametrize("name, op, ref, sample", MATH, ids=[m[0] for m in MATH])
@pytest.mark.parametrize("t", ["f32", "f64"])
def test_vector_math(name, op, ref, sample, t):
    n = 203
    module = to_hw(parse(elementwise(n, f"%r = {op} %v0 : {t}", t=t)))
    assert any(o.name == op and "vector" in str(o.results[0].type) for o in module.walk())
    exe = compile_module(module)
    dtype = np.float32 if t == "f32" else np.float64
    x = sample(n).astype(dtype)
    want = ref(x.astype(np.float64))
    np.testing.assert_allclose(exe(x), want, rtol=2e-6 if t == "f32" else 1e-12, atol=1e-7 if t == "f32" else 1e-14)


def test_vector_math_calls_the_vector_library():
    library = host_vector_library()
    if library is None or "tanhf" not in library.variants:
        pytest.skip("no libmvec tanhf in this process")
    module = to_hw(parse(elementwise(256, "%r = math.tanh %v0 : f32")))
    k, symbol = max(library.variants["tanhf"])  # every call uses the widest variant
    assert f'call <{k} x float> @"{symbol}"' in compile_module(module).llvm_ir_unoptimized


def test_scalar_math_is_the_vector_variant_on_a_splat():
    """A scalar call (a remainder, a loop LLVM vectorizes itself) computes the same lanes as the vector code."""
    from strati.codegen.llvm import VectorLibrary, translate_module

    library = VectorLibrary("test", {"acosf": ((4, "_ZGVbN4v_acosf"), (8, "_ZGVdN8v_acosf"))})
    module = to_hw(parse(elementwise(13, "%r = math.acos %v0 : f32", parallel=False)), fixed_target(8))
    text = str(translate_module(module, vector_library=library).module)
    wrapper = text[text.index('define internal float @"strati.acosf"') :].split("}")[0]
    assert '"vector-function-abi-variant"="_ZGV_LLVM_N8v_strati.acosf(_ZGVdN8v_acosf)"' in wrapper and "noinline" in wrapper
    assert "<8 x i32> zeroinitializer" in wrapper or "<i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0, i32 0>" in wrapper
    assert 'call <8 x float> @"_ZGVdN8v_acosf"' in text and "_ZGVbN4v_acosf" not in text
    assert 'call float @"strati.acosf"' in text and '@"acosf"' not in text  # the 5 left after one vector of 8


def test_vector_math_narrower_than_the_variant_repeats_lanes():
    from strati.codegen.llvm import VectorLibrary, translate_module

    module = to_hw(parse(elementwise(12, "%r = math.erf %v0 : f32", parallel=False)), fixed_target(4))
    library = VectorLibrary("test", {"erff": ((8, "_ZGVdN8v_erff"),)})
    text = str(translate_module(module, vector_library=library).module)
    assert "shufflevector <4 x float> %" in text and "<8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 0, i32 1, i32 2, i32 3>" in text
    assert 'call <8 x float> @"_ZGVdN8v_erff"' in text


def test_scalar_math_with_a_constant_argument_keeps_its_signature():
    """lrn's powf(x, constant): dead-argument elimination must not drop the constant from the scalar
    function, whose vector-function-abi-variant names two arguments (fuzz seed 20029, this change's own)."""
    text = elementwise(13, "%e = arith.constant 0.75 : f32\n    %r = math.powf %v0, %e : f32", parallel=False)
    exe = compile_module(to_hw(parse(text)))
    x = RNG.uniform(0.1, 4, 13).astype(np.float32)
    np.testing.assert_allclose(exe(x), np.power(x.astype(np.float64), 0.75), rtol=2e-6)


@pytest.mark.parametrize("fn", ["acos", "asin", "tan", "tanh", "erf", "exp", "log", "sin", "cos", "atan", "cosh"])
def test_equal_inputs_give_equal_results_in_every_lane(fn):
    """Fuzz programs 11332/13049: an argmax over ties of acos broke them elsewhere than numpy, because the
    vector lanes (libmvec) and the scalar remainder (libm) rounded the same input differently."""
    n = 8 * 4 + 5  # vectors of 8 or 16 lanes and a remainder
    module = to_hw(parse(elementwise(n, f"%r = math.{fn} %v0 : f32", parallel=False)))
    exe = compile_module(module)
    values = np.concatenate([RNG.uniform(-0.999, 0.999, 40), [-0.99, 0.7, 0.123456, 0.5, -0.25]]).astype(np.float32)
    if fn == "log":
        values = np.abs(values) + np.float32(0.01)
    for v in values:
        out = exe(np.full(n, v, np.float32))
        assert np.unique(out).size == 1, (fn, float(v), np.unique(out))


def test_vector_math_wider_than_the_variants_is_split():
    from strati.codegen.llvm import VectorLibrary, translate_module

    module = to_hw(parse(elementwise(64, "%r = math.erf %v0 : f32")), fixed_target(16))
    library = VectorLibrary("test", {"erff": ((4, "_ZGVbN4v_erff"),)})
    text = str(translate_module(module, vector_library=library).module)
    assert text.count('call <4 x float> @"_ZGVbN4v_erff"') == 4  # one vector<16xf32> in four pieces
    assert "shufflevector <4 x float>" in text  # put back together
    no_library = str(translate_module(module).module)
    assert no_library.count('call float @"erff"') == 16  # lane by lane (64 = 4 x 16: no remainder)


def test_vector_width_schedule_of_any_size():
    """vector_width = 12 (set by a schedule): vector<12xf32>, whose exp is 3 pieces of 4 lanes or lane by lane."""
    text = elementwise(40, "%r = math.exp %v0 : f32", parallel=False).replace("  }\n  func.return", "  } {vector_width = 12}\n  func.return")
    module = to_hw(parse(text), fixed_target(8))
    # 36 elements 12 at a time, the remaining 4 with 4 lanes
    assert sorted(op.result.type.get_shape()[0] for op in ops_named(module, "vector.load")) == [4, 12]
    x = RNG.uniform(-5, 5, 40).astype(np.float32)
    np.testing.assert_allclose(compile_module(module)(x), np.exp(x.astype(np.float64)), rtol=2e-6)


def test_casts_and_invariant_select_vectorise():
    body = (
        "%d = arith.extf %v0 : f32 to f64\n    %e = arith.truncf %d : f64 to f32\n"
        "    %t = arith.constant true\n    %r = arith.select %t, %e, %half : f32"
    )
    module = to_hw(parse(elementwise(77, body)), fixed_target(8))
    assert ops_named(module, "vector.store")
    x = RNG.standard_normal(77).astype(np.float32)
    np.testing.assert_array_equal(compile_module(module)(x), x)


def test_lane_wise_comparison_stays_scalar():
    body = "%c = arith.cmpf olt, %v0, %half : f32\n    %r = arith.select %c, %v0, %half : f32"
    module = to_hw(parse(elementwise(77, body)), fixed_target(8))
    assert not ops_named(module, "vector.store")
    x = RNG.standard_normal(77).astype(np.float32)
    np.testing.assert_array_equal(compile_module(module)(x), np.minimum(x, np.float32(0.5)))


def test_int_float_casts_stay_scalar():
    """xDSL 0.75 defines sitofp/fptosi/extsi/trunci on scalars only: such a loop is left to LLVM."""
    body = "%k = arith.fptosi %v0 : f32 to i32\n    %r = arith.sitofp %k : i32 to f32"
    module = to_hw(parse(elementwise(50, body)), fixed_target(8))
    assert not ops_named(module, "vector.store")
    x = (RNG.standard_normal(50) * 10).astype(np.float32)
    np.testing.assert_array_equal(compile_module(module)(x), np.trunc(x))


def matmul_text(m: int, k: int, n: int) -> str:
    return f"""
func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %c = graph.matmul %a, %b : (tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32>
  func.return %c : tensor<{m}x{n}xf32>
}}"""


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (3, 5, 7), (16, 8, 16), (17, 33, 19), (64, 64, 64), (5, 300, 41)])
def test_matmul_interchanged_and_vectorised(m, k, n):
    module = lower_to(parse(matmul_text(m, k, n)), "hw")
    fmas = ops_named(module, "vector.fma")
    assert bool(fmas) == (n >= 4), "the rotated j loop is vectorised with FMAs"
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    got = compile_module(module)(a, b)
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4 * math.sqrt(k))


# --- parallel kernels and the thread pool ------------------------------------------------------------


def rows_text(rows: int, cols: int) -> str:
    """out[i, j] = tanh(x[i, j]) * 2 + i, with the row index in the arithmetic."""
    t = f"memref<{rows}x{cols}xf32>"
    return f"""
func.func @rows(%x: {t}, %out: {t}) attributes {{strati.outputs = 1 : i64}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant {rows} : index
  %c = arith.constant {cols} : index
  %two = arith.constant 2.0 : f32
  loop.for %i = %c0 to %r step %c1 {{
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    loop.for %j = %c0 to %c step %c1 {{
      %v = memref.load %x[%i, %j] : {t}
      %h = math.tanh %v : f32
      %m = arith.mulf %h, %two : f32
      %s = arith.addf %m, %fi : f32
      memref.store %s, %out[%i, %j] : {t}
    }} {{parallel = true}}
  }} {{parallel = true}}
  func.return
}}"""


def rows_ref(x: np.ndarray) -> np.ndarray:
    return np.tanh(x.astype(np.float64)) * 2 + np.arange(x.shape[0])[:, None]


@pytest.mark.parametrize("rows, cols", [(1, 1), (2, 3), (3, 17), (5, 64), (100, 9), (257, 33)])
def test_parallel_results_identical_with_one_and_two_threads(rows, cols, monkeypatch):
    module = to_hw(parse(rows_text(rows, cols)), parallel_threshold=1)
    assert ops_named(module, "cpu.parallel") or rows < 2
    exe = compile_module(module)
    assert ("strati_parallel_for" in exe.llvm_ir) == (rows >= 2)
    x = RNG.standard_normal((rows, cols)).astype(np.float32)
    results = {}
    for threads in ("1", "2", "3"):
        monkeypatch.setenv(threadpool.ENV, threads)
        results[threads] = exe(x)
        if rows >= 2:
            assert len(threadpool.last_region()) == min(int(threads), rows)
            covered = sorted((r.begin, r.end) for r in threadpool.last_region())
            assert covered[0][0] == 0 and covered[-1][1] == rows
            assert all(a[1] == b[0] for a, b in zip(covered, covered[1:]))
    np.testing.assert_array_equal(results["1"], results["2"])
    np.testing.assert_array_equal(results["1"], results["3"])
    np.testing.assert_allclose(results["1"], rows_ref(x), rtol=1e-5, atol=1e-5)


def test_large_parallel_loop_chosen_by_the_cost_model():
    big = to_hw(parse(rows_text(512, 512)), fixed_target(8))
    small = to_hw(parse(rows_text(8, 8)), fixed_target(8))
    one_core = to_hw(parse(rows_text(512, 512)), fixed_target(8, cores=1))
    assert len(ops_named(big, "cpu.parallel")) == 1
    assert not ops_named(small, "cpu.parallel")
    assert not ops_named(one_core, "cpu.parallel")


def test_parallel_regions_really_overlap():
    """Two chunks, each long enough (some 5 ms) for the worker to wake on a busy machine: they run at the same time."""
    rows, cols = 2, 1 << 22
    module = to_hw(parse(rows_text(rows, cols)), parallel_threshold=1)
    exe = compile_module(module)
    x = RNG.standard_normal((rows, cols)).astype(np.float32)
    threadpool.set_num_threads(2)
    try:
        overlapped = False
        for _ in range(20):  # the machine may be busy: tries until the scheduler lets them meet
            exe(x)
            records = threadpool.last_region()
            assert len(records) == 2
            if len({r.thread for r in records}) == 2 and max(r.start for r in records) < min(r.stop for r in records):
                overlapped = True
                break
        assert overlapped, f"chunks did not overlap: {records}"
        assert 0 in {r.thread for r in records}, "the calling thread runs a chunk itself"
    finally:
        threadpool.set_num_threads(None)


NESTED = """
func.func @inner(%x: memref<6x40xf32>, %out: memref<6x40xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  cpu.parallel %j = %c0 to %c40 step %c1 {
    %v = memref.load %x[%i, %j] : memref<6x40xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %out[%i, %j] : memref<6x40xf32>
  }
  func.return
}
func.func @outer(%x: memref<6x40xf32>, %out: memref<6x40xf32>) attributes {strati.outputs = 1 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  cpu.parallel %i = %c0 to %c6 step %c1 {
    func.call @inner(%x, %out, %i) : (memref<6x40xf32>, memref<6x40xf32>, index) -> ()
  }
  func.return
}
"""


def test_nested_regions_run_sequentially():
    exe = compile_module(parse(NESTED), "outer")
    x = RNG.standard_normal((6, 40)).astype(np.float32)
    threadpool.set_num_threads(2)
    try:
        for _ in range(20):
            np.testing.assert_array_equal(exe(x), x * 2)
    finally:
        threadpool.set_num_threads(None)


def test_pool_chunks_cover_the_range_exactly_once():
    """strati_parallel_for called directly (a Python task through ctypes): every index once, one chunk per thread."""
    parallel_for = threadpool.PARALLEL_FOR(threadpool.address())
    try:
        for threads in (1, 2, 3, 4):
            threadpool.set_num_threads(threads)
            for n in (0, 1, 2, 3, 5, 100):
                seen: list[tuple[int, int]] = []
                lock = threading.Lock()

                def task(ctx, begin, end):
                    with lock:
                        seen.append((begin, end))

                callback = threadpool.TASK(task)
                before = threadpool.regions()
                parallel_for(ctypes.cast(callback, ctypes.c_void_p), None, n)
                covered = sorted(i for b, e in seen for i in range(b, e))
                assert covered == list(range(n))
                assert len(seen) == (min(threads, n) if n else 0)
                assert threadpool.regions() == before + (n > 0)
    finally:
        threadpool.set_num_threads(None)


@pytest.mark.parametrize("system, machine, triple, sleep, relax", [
    ("Linux", "x86_64", "x86_64-unknown-linux-gnu", '@"syscall"(i64 202', "llvm.x86.sse2.pause"),
    ("Linux", "aarch64", "aarch64-unknown-linux-gnu", '@"syscall"(i64 98', "llvm.aarch64.hint"),
    ("Darwin", "arm64", "arm64-apple-darwin", '@"usleep"', "llvm.aarch64.hint"),
])
def test_pool_module_for_each_host(system, machine, triple, sleep, relax):
    """The pool's IR: a futex where the system call is known, usleep elsewhere; valid LLVM IR either way."""
    import llvmlite.binding as llvm

    text = str(threadpool.pool_module(triple, system, machine))
    assert sleep in text and relax in text
    assert f'define void @"{threadpool.SYMBOL}"(ptr' in text and '@"pthread_create"' in text
    assert "cmpxchg" in text and "atomicrmw add" in text and '@"sched_yield"()' in text
    llvm.parse_assembly(text, context=llvm.create_context()).verify()


def test_python_threads_calling_at_once_share_the_pool():
    """A region started while another thread's runs takes its whole range on its own thread."""
    module = to_hw(parse(rows_text(64, 256)), parallel_threshold=1)
    exe = compile_module(module)
    xs = [RNG.standard_normal((64, 256)).astype(np.float32) for _ in range(4)]
    wants = [rows_ref(x) for x in xs]
    failures: list[str] = []

    def calls(k: int) -> None:
        for _ in range(50):
            got = exe(xs[k])
            if not np.allclose(got, wants[k], rtol=1e-5, atol=1e-5):
                failures.append(f"thread {k}")
                return

    threadpool.set_num_threads(2)
    try:
        threads = [threading.Thread(target=calls, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert not any(t.is_alive() for t in threads) and not failures, failures
    finally:
        threadpool.set_num_threads(None)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_child_starts_its_own_workers():
    module = to_hw(parse(rows_text(64, 256)), parallel_threshold=1)
    exe = compile_module(module)
    x = RNG.standard_normal((64, 256)).astype(np.float32)
    threadpool.set_num_threads(2)
    try:
        exe(x)  # the parent's workers exist; the child's do not
        pid = os.fork()
        if pid == 0:
            ok = np.allclose(exe(x), rows_ref(x), rtol=1e-5, atol=1e-5) and {r.thread for r in threadpool.last_region()} <= {0, 1}
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        threadpool.set_num_threads(None)


def test_num_threads_from_environment(monkeypatch):
    monkeypatch.setenv(threadpool.ENV, "3")
    assert threadpool.num_threads() == 3
    monkeypatch.setenv(threadpool.ENV, "zero")
    assert threadpool.num_threads() == host_cpu()["cores"]
    monkeypatch.delenv(threadpool.ENV)
    assert threadpool.num_threads() == host_cpu()["cores"]
    with pytest.raises(ValueError):
        threadpool.set_num_threads(0)


def test_task_function_keeps_noalias_and_rematerialises_constants():
    module = to_hw(parse(rows_text(64, 64)), fixed_target(8), parallel_threshold=1)
    exe = compile_module(module)
    ir = exe.llvm_ir_unoptimized
    assert 'define internal void @"rows.parallel1"(ptr %"ctx", i64 %"begin", i64 %"end")' in ir
    assert 'define internal void @"rows.parallel1.body"(ptr noalias %"x", ptr noalias %"out", i64 %"lb", i64 %"step", i64 %"begin", i64 %"end")' in ir
    assert 'call void @"strati_parallel_for"(ptr @"rows.parallel1"' in ir


# --- whole models -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.mlir")))
def test_example_models_compiled_match_the_interpreter(name):
    module = load(EXAMPLES / name)
    fn = find_function(module)
    rng = np.random.default_rng(7)
    inputs = [(0.5 * rng.standard_normal(shape_of(t))).astype(to_dtype(t.get_element_type())) for t in fn.function_type.inputs.data]
    want = run_function(module, inputs)
    exe = strati.compile(module)
    got = exe.run(*inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, **TOL)


def test_compile_lowers_to_the_hw_level():
    module = lower_to(load(EXAMPLES / "mlp.mlir"), "hw")
    assert module_level(module) == "hw"
    assert module_target(module) == host_cpu()
    assert ops_named(module, "vector.load")
    # its 4 x 64 x 64 layer (some 3 us of work) is worth a task at the native pool's 1 us a region; the rest is not
    assert len([op for op in module.walk() if isinstance(op, ParallelOp)]) == 1
