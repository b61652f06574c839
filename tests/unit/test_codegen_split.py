"""A large module compiled in two parts, the second by the LLVM worker process (strati.codegen.split,
strati.runtime.llvm_worker): each part is a valid module on its own, together they define
everything once, and the executable computes what the module compiled whole computes, bit for bit."""

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
    assert jit.PART_MARK not in whole.llvm_ir and split.llvm_ir.count(jit.PART_MARK) == cores
    assert split.assembly().count("\t.file") == cores  # every part's machine code, one after the other
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
