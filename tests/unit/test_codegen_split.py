"""A large module compiled in parts, by this process and LLVM worker processes (strati.codegen.split,
strati.runtime.llvm_worker): each part is a valid module on its own, together they define
everything once, and the executable computes what the module compiled whole computes, bit for bit;
the verification strati.compile runs meanwhile can fail without leaving a worker out of step."""

from __future__ import annotations

from pathlib import Path

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
import pytest

import strati
import strati.runtime.jit as jit
from strati.codegen.split import parse_entities, split_module
from strati.runtime.llvm_worker import CompilerProcess, InvalidModule

EXAMPLES = Path(__file__).parents[2] / "examples"
RNG = np.random.default_rng(5)


def translated(path: Path):
    """An example at -O3, as the JIT translates it (kernels outlined: several roots)."""
    from strati.codegen.llvm import translate_module
    from strati.compiler import load, lower_to, optimizations_for
    from strati.runtime.jit import host_vector_library

    module = lower_to(load(path), "hw", optimizations_for(3))
    return translate_module(module, embed_limit=jit.EMBED_LIMIT, vector_library=host_vector_library())


def test_parts_are_modules_of_their_own_and_define_everything_once():
    cnn = translated(EXAMPLES / "cnn.mlir")
    parts = split_module(cnn.module, 3)
    assert len(parts) == 3
    defined: list[str] = []
    for text in parts:
        part = llvm.parse_assembly(text, context=llvm.create_context())
        part.verify()
        defined += [f.name for f in part.functions if not f.is_declaration and f.linkage != llvm.Linkage.internal]
    assert len(defined) == len(set(defined)), "a function defined in two parts"
    _, entities, _ = parse_entities(str(cnn.module))
    public = {e.name for e in entities if e.kind == "define" and not e.internal}
    assert public <= set(defined)


def test_one_root_is_one_part():
    """A public function and the internal one it calls: nothing to split."""
    m = ir.Module()
    f32 = ir.FloatType()
    g = ir.Function(m, ir.FunctionType(f32, [f32]), "g")
    g.linkage = "internal"
    b = ir.IRBuilder(g.append_basic_block())
    b.ret(b.fadd(g.args[0], g.args[0]))
    f = ir.Function(m, ir.FunctionType(f32, [f32]), "f")
    b = ir.IRBuilder(f.append_basic_block())
    b.ret(b.call(g, [f.args[0]]))
    assert split_module(m, 4) == [str(m)]


@pytest.mark.parametrize("example, opt_level, cores", [("cnn.mlir", 3, 2), ("transformer_block.mlir", 2, 3)])
def test_parts_compute_what_the_whole_module_does(example, opt_level, cores, monkeypatch):
    whole = strati.compile(EXAMPLES / example, opt_level=opt_level)
    monkeypatch.setattr(jit, "SPLIT_SIZE", 1)
    monkeypatch.setattr(jit, "compile_cores", lambda: cores)
    split = strati.compile(EXAMPLES / example, opt_level=opt_level)
    parts = split.llvm_ir.count(jit.PART_MARK)
    assert jit.PART_MARK not in whole.llvm_ir and cores <= parts <= cores * jit.PARTS_PER_CORE
    assert split.assembly().count("\t.file") == parts  # every part's machine code, one after the other
    assert "verify" in split.compile_seconds  # done while the workers compiled
    inputs = [RNG.standard_normal(p.shape).astype(p.dtype) for p in whole.inputs]
    for a, b in zip(whole.run(*inputs), split.run(*inputs)):
        np.testing.assert_array_equal(a, b)


def test_the_worker_answers_an_invalid_module_and_survives_its_death():
    compiler = CompilerProcess()
    try:
        with pytest.raises(InvalidModule):
            compiler.result(compiler.submit("define void @f( {", 2))
        compiler.process.kill()
        compiler.process.wait()
        obj, text = compiler.result(compiler.submit("define void @f() {\n  ret void\n}\n", 2))  # started again
        assert obj and "define void @f()" in text
    finally:
        compiler.stop()


class Refused(Exception):
    pass


def test_a_failed_verification_stops_the_parts_and_the_workers_stay_in_step(monkeypatch):
    """``while_compiling`` raises after the parts went out: its error is the compile's, each worker's
    answer is read (the next compile gets its own parts' code, not the last one's)."""
    from strati.compiler import load, lower_to, optimizations_for

    monkeypatch.setattr(jit, "SPLIT_SIZE", 1)
    monkeypatch.setattr(jit, "compile_cores", lambda: 2)
    calls = []

    def refuse():
        calls.append(sum(w.process is not None and w.process.poll() is None for w in jit._WORKERS))
        raise Refused("the IR does not verify")

    with pytest.raises(Refused):
        jit.compile_module(lower_to(load(EXAMPLES / "cnn.mlir"), "hw", optimizations_for(3)), while_compiling=refuse)
    assert len(calls) == 1 and calls[0] >= 1  # once, with a worker at work
    whole = strati.compile(EXAMPLES / "transformer_block.mlir", opt_level=2)
    inputs = [RNG.standard_normal(p.shape).astype(p.dtype) for p in whole.inputs]
    monkeypatch.setattr(jit, "SPLIT_SIZE", 1 << 40)
    alone = strati.compile(EXAMPLES / "transformer_block.mlir", opt_level=2)
    for a, b in zip(whole.run(*inputs), alone.run(*inputs)):
        np.testing.assert_array_equal(a, b)


def test_an_error_of_translation_comes_after_the_verification(monkeypatch):
    """IR the code generator chokes on is first verified: the verifier's message is the clearer one."""
    from strati.compiler import load, lower_to, optimizations_for

    module = lower_to(load(EXAMPLES / "mlp.mlir"), "hw", optimizations_for(3))

    def choke(*args, **kwargs):
        raise KeyError("an op the code generator does not know")

    monkeypatch.setattr(jit, "translate_module", choke)
    with pytest.raises(Refused):
        jit.compile_module(module, while_compiling=lambda: (_ for _ in ()).throw(Refused("invalid IR")))
    with pytest.raises(KeyError):  # valid IR: the code generator's own error stands
        jit.compile_module(module, while_compiling=lambda: None)
