"""The compile driver verifies once, names the pass at fault when the IR goes bad, and
reports each pass's time."""

from pathlib import Path

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

import strati
from strati import compiler
from strati.diagnostics import StratiError
from strati.compiler import OPT_LEVELS, load, module_level, passes_between
from strati.runtime.interpreter import find_function, run_function
from strati.transforms import register_pass, unregister_pass

MLP = Path(__file__).parents[2] / "examples" / "mlp.mlir"


class DropReturnPass(ModulePass):
    """Erases every func.return: IR that no longer verifies (a buggy plug-in pass)."""

    name = "test-drop-return"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for ret in [o for o in op.walk() if isinstance(o, func.ReturnOp)]:
            ret.detach()
            ret.erase()


@pytest.fixture
def buggy_graph_pass(monkeypatch):
    register_pass(DropReturnPass)
    optional = dict(compiler.OPTIONAL_PASSES)
    optional["graph"] = (*optional["graph"], DropReturnPass.name)
    monkeypatch.setattr(compiler, "OPTIONAL_PASSES", tuple(optional.items()))
    yield DropReturnPass.name
    unregister_pass(DropReturnPass.name)


@pytest.mark.parametrize("verify_each", [False, True])
def test_the_pass_that_breaks_the_ir_is_named(buggy_graph_pass, verify_each):
    with pytest.raises(RuntimeError, match=f"internal error.*'{buggy_graph_pass}'"):
        strati.compile(MLP, optimizations=[buggy_graph_pass], verify_each=verify_each)


def test_compile_seconds_has_every_pass_then_the_code_generator():
    exe = strati.compile(MLP)
    module = load(MLP)
    expected = passes_between(module_level(module), "hw", OPT_LEVELS[3])
    assert list(exe.compile_seconds) == ["infer-shapes", *dict.fromkeys(expected), "translate", "verify", "parse", "optimize", "codegen"]
    assert all(s >= 0 for s in exe.compile_seconds.values())


def test_verifying_once_gives_the_same_code():
    rng = np.random.default_rng(0)
    inputs = [rng.standard_normal(t.get_shape()).astype(np.float32)
              for t in find_function(load(MLP)).function_type.inputs.data]
    once = strati.compile(MLP)
    each = strati.compile(MLP, verify_each=True)
    assert once.llvm_ir == each.llvm_ir
    assert "verify" in once.compile_seconds and "verify" not in each.compile_seconds
    (expected,) = run_function(load(MLP), inputs)
    np.testing.assert_allclose(once(*inputs), expected, rtol=1e-5, atol=1e-6)


class RefusePass(ModulePass):
    """Refuses every module, as a pass refuses an op it does not support; counts its runs."""

    name = "test-refuse"
    runs = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        RefusePass.runs += 1
        raise StratiError("refused")


def test_an_error_of_the_first_pass_is_not_lowered_again(monkeypatch):
    register_pass(RefusePass)
    monkeypatch.setattr(compiler, "OPTIONAL_PASSES", (("graph", (RefusePass.name,)), *compiler.OPTIONAL_PASSES[1:]))
    try:
        RefusePass.runs = 0
        with pytest.raises(StratiError, match="refused"):
            strati.compile(MLP, optimizations=[RefusePass.name])
        assert RefusePass.runs == 1  # it saw the verified input: nothing earlier to blame
    finally:
        unregister_pass(RefusePass.name)



class GcStatePass(ModulePass):
    """Records the garbage collector's thresholds while a pass runs."""

    name = "test-gc-state"
    seen: list[tuple[int, int, int]] = []

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        import gc

        GcStatePass.seen.append(gc.get_threshold())


def test_the_garbage_collector_runs_rarely_during_a_compile_and_is_restored(monkeypatch):
    import gc

    register_pass(GcStatePass)
    register_pass(RefusePass)
    names = (GcStatePass.name, RefusePass.name)
    monkeypatch.setattr(compiler, "OPTIONAL_PASSES", (("graph", names), *compiler.OPTIONAL_PASSES[1:]))
    was = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        GcStatePass.seen = []
        strati.compile(MLP, optimizations=[GcStatePass.name])
        assert GcStatePass.seen == [compiler.GC_THRESHOLD]
        assert gc.get_threshold() == (700, 10, 10)
        with pytest.raises(StratiError, match="refused"):  # a failed compile restores them too
            strati.compile(MLP, optimizations=names)
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*was)
        unregister_pass(GcStatePass.name)
        unregister_pass(RefusePass.name)


def test_the_compile_collects_its_garbage_while_llvm_compiles(monkeypatch):
    """A module compiled in parts: a generation-1 collection runs in another thread than the
    compile's (while it is in LLVM, which holds no GIL), not only when the thresholds are restored."""
    import gc
    import threading

    import strati.runtime.jit as jit

    monkeypatch.setattr(jit, "SPLIT_SIZE", 0)  # any module compiled in parts
    monkeypatch.setattr(jit, "compile_cores", lambda: 2)
    threads: list[str] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] >= 1:
            threads.append(threading.current_thread().name)

    gc.callbacks.append(seen)
    try:
        exe = strati.compile(MLP)
    finally:
        gc.callbacks.remove(seen)
    assert any(name != threading.main_thread().name for name in threads), threads
    x = np.random.default_rng(0).standard_normal(tuple(exe.inputs[0].type.get_shape())).astype(np.float32)
    inputs = [x, *(np.random.default_rng(1).standard_normal(tuple(p.type.get_shape())).astype(np.float32) for p in exe.inputs[1:])]
    want = run_function(load(MLP), inputs)[0]
    np.testing.assert_allclose(exe(*inputs), want, rtol=1e-5, atol=1e-5)
