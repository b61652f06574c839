"""A share of the kernels lowered and compiled in a fork (strati.runtime.apart): the executable
computes what it computes without the fork, bit for bit; a fork that fails is made up for here,
and an error in the lowering is raised as it would be without a fork."""

from __future__ import annotations

import os
import re
import time

import numpy as np
import pytest
from helpers import onnx_model, parse
from onnx import TensorProto, helper, numpy_helper

import strati
import strati.runtime.jit as jit
from strati.compiler import lower_to, module_level, optimizations_for, run_pass
from strati.runtime import apart
from strati.runtime.interpreter import run_function

TOL = dict(rtol=1e-5, atol=1e-6)
APART = "kernels apart (in a fork)"
HERE = "kernels apart (here: the fork failed)"


def layers(n: int = 5, size: int = 9) -> str:
    """``n`` conv 3x3 + relu layers of growing channel counts: ``n`` distinct conv kernels."""
    channels = [3 + 4 * i for i in range(n + 1)]
    ts = [f"tensor<1x{c}x{size}x{size}xf32>" for c in channels]
    ws = [f"tensor<{channels[i + 1]}x{channels[i]}x3x3xf32>" for i in range(n)]
    lines = [f"func.func @net(%x: {ts[0]}, " + ", ".join(f"%w{i}: {w}" for i, w in enumerate(ws)) + f") -> {ts[-1]} {{"]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %c{i} = graph.conv2d {prev}, %w{i} {{pads = array<i64: 1, 1, 1, 1>}} : ({ts[i]}, {ws[i]}) -> {ts[i + 1]}")
        lines.append(f"  %r{i} = graph.relu %c{i} : {ts[i + 1]}")
        prev = f"%r{i}"
    lines.append(f"  func.return {prev} : {ts[-1]}\n}}")
    return "\n".join(lines)


def inputs(n: int = 5, size: int = 9) -> list[np.ndarray]:
    rng = np.random.default_rng(n)
    channels = [3 + 4 * i for i in range(n + 1)]
    x = rng.standard_normal((1, channels[0], size, size)).astype(np.float32)
    return [x] + [(rng.standard_normal((channels[i + 1], channels[i], 3, 3)) / 8).astype(np.float32) for i in range(n)]


def lower(module) -> None:
    run_pass(module, "convert-loop-to-hw", verify=False)


@pytest.fixture
def fork_always(monkeypatch):
    """Any module with kernels is split, on a machine of any core count."""
    monkeypatch.setattr(apart, "MIN_OPS", 0)
    monkeypatch.setattr(jit, "compile_cores", lambda: 2)


def test_kernels_apart_compute_what_they_compute_here(fork_always, fork_claims_first, monkeypatch):
    xs = inputs()
    forked = strati.compile(parse(layers()))
    assert APART in forked.compile_seconds and HERE not in forked.compile_seconds
    assert f"{jit.PART_MARK}apart\n" in forked.llvm_ir_unoptimized
    monkeypatch.setattr(apart, "MIN_OPS", 10**9)
    whole = strati.compile(parse(layers()))
    assert APART not in whole.compile_seconds and jit.PART_MARK not in whole.llvm_ir_unoptimized
    np.testing.assert_array_equal(forked(*xs), whole(*xs))
    np.testing.assert_allclose(forked(*xs), run_function(parse(layers()), xs)[0], **TOL)


@pytest.fixture
def fork_claims_first(monkeypatch):
    """This process starts claiming groups of kernels once the fork has taken some."""
    real = apart.Apart.lower_here

    def later(self, module):
        time.sleep(0.3)
        return real(self, module)

    monkeypatch.setattr(apart.Apart, "lower_here", later)


def claims_one_group(job: apart.Apart) -> None:
    """In place of a fork: the first group of kernels claimed, then nothing (a fork that died)."""
    next(iter(job.claims()))


def test_groups_of_alike_kernels_are_claimed_by_one_side_or_the_other(fork_always, monkeypatch):
    monkeypatch.setattr(apart, "_fork", claims_one_group)
    module = lower_to(parse(layers(6)), "loop", optimizations_for(3))
    kernels = {f.sym_name.data for f in module.ops if apart._is_kernel(f)}
    job = apart.split_off(module, lower)
    try:
        assert job is not None and len(job.groups) >= 2
        assert sorted(f.sym_name.data for fns in job.groups for f in fns) == sorted(kernels)
        assert all(len({apart._alike(f) for f in fns}) == 1 for fns in job.groups)
        assert not any(f.body.blocks for f in module.ops if f.sym_name.data in kernels)  # declared while claimed
        job.lower_here(module)
        theirs = {f.sym_name.data for f in job.module.ops}
        assert theirs == {f.sym_name.data for f in job.groups[0]}  # the group the "fork" claimed
        declared = {f.sym_name.data for f in module.ops if f.name == "func.func" and not f.body.blocks}
        assert declared == theirs
        assert module_level(module) == "hw" and kernels - theirs <= {f.sym_name.data for f in module.ops if f.body.blocks}
        assert job.answer() is None and job.failed  # no fork answered: its kernels are lowered here
        job.compile_here()
        assert all(f'@"{name}"(' in job.unoptimized or f"@{name}(" in job.unoptimized for name in theirs)
    finally:
        job.close()


def test_each_ticket_is_claimed_once():
    job = apart.Apart([[], [], [], []], lower, {})
    read, write = os.pipe()
    os.write(write, b"".join(apart._TICKET.pack(g) for g in range(4)))
    os.close(write)
    job.tickets = read
    a, b = job.claims(), job.claims()  # two claimants in turn
    taken = [next(a)[0], next(b)[0], next(b)[0], next(a)[0]]
    assert taken == [0, 1, 2, 3] and next(a, None) is None and next(b, None) is None
    job.close()


def test_a_module_of_few_kernel_ops_or_one_core_is_not_split(monkeypatch):
    module = lower_to(parse(layers()), "loop", optimizations_for(3))
    monkeypatch.setattr(jit, "compile_cores", lambda: 2)
    assert apart.split_off(module, lower) is None  # fewer than MIN_OPS
    monkeypatch.setattr(apart, "MIN_OPS", 0)
    monkeypatch.setattr(jit, "compile_cores", lambda: 1)
    assert apart.split_off(module, lower) is None
    assert all(f.body.blocks for f in module.ops if f.name == "func.func")


def test_a_failed_fork_is_made_up_for_here(fork_always, fork_claims_first, monkeypatch):
    parent, real = os.getpid(), apart.lower_kernels

    def dies_in_the_fork(modules, lower, vector_library):
        if os.getpid() != parent:
            next(iter(modules))  # a group of kernels claimed, and never lowered
            raise MemoryError("the fork ran out of memory")
        return real(modules, lower, vector_library)

    monkeypatch.setattr(apart, "lower_kernels", dies_in_the_fork)
    exe = strati.compile(parse(layers()))
    assert HERE in exe.compile_seconds and APART not in exe.compile_seconds
    xs = inputs()
    np.testing.assert_allclose(exe(*xs), run_function(parse(layers()), xs)[0], **TOL)


def test_an_error_in_the_lowering_apart_is_raised_as_without_a_fork(fork_always, monkeypatch):
    def fails(modules, lower, vector_library):
        raise RuntimeError("internal error in pass 'convert-loop-to-hw': ValueError: boom")

    monkeypatch.setattr(apart, "lower_kernels", fails)
    with pytest.raises(RuntimeError, match="boom"):
        strati.compile(parse(layers()))


def classifier():
    """Two convolutions, a fully connected layer and a softmax, their weights constants: the
    matmul schedule packs the FC weights from the kernel's call site."""
    rng = np.random.default_rng(3)
    w1 = numpy_helper.from_array((rng.standard_normal((16, 3, 3, 3)) / 4).astype(np.float32), "w1")
    w2 = numpy_helper.from_array((rng.standard_normal((32, 16, 3, 3)) / 8).astype(np.float32), "w2")
    fc = numpy_helper.from_array((rng.standard_normal((32 * 4 * 4, 1000)) / 32).astype(np.float32), "fc")
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("Flatten", ["r2"], ["f"]),
        helper.make_node("MatMul", ["f", "fc"], ["m"]),
        helper.make_node("Softmax", ["m"], ["y"]),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1000])
    return onnx_model(nodes, [x], [y], [w1, w2, fc])


def definitions(ir: str) -> dict[str, str]:
    """Each function defined in the IR, by name, whatever its linkage."""
    found = re.finditer(r'^define (?:internal )?(.*?@"?([^"(]+)"?\(.*?^})', ir, re.M | re.S)
    return {m.group(2): m.group(1) for m in found}


def test_kernels_apart_are_lowered_as_they_are_here(fork_always, fork_claims_first, monkeypatch):
    """Each kernel's IR is the same whichever process lowered it: what reads across functions
    (the FC weights packed from the call site) ran on the whole module before the fork."""
    forked = strati.compile(classifier())
    monkeypatch.setattr(apart, "MIN_OPS", 10**9)
    whole = strati.compile(classifier())
    assert "packed" in whole.llvm_ir_unoptimized  # the weights packed at compile time
    moved = definitions(forked.llvm_ir_unoptimized.split(f"{jit.PART_MARK}apart\n")[1])
    assert moved and all(name.endswith((*"0123456789", ".family")) or ".parallel" in name for name in moved)
    here = definitions(whole.llvm_ir_unoptimized)
    for name, text in moved.items():
        assert text == here[name], name
    x = np.random.default_rng(0).standard_normal((1, 3, 4, 4)).astype(np.float32)
    np.testing.assert_array_equal(forked(x), whole(x))


def test_groups_beyond_max_groups_go_with_the_last(fork_always, monkeypatch):
    monkeypatch.setattr(apart, "_fork", lambda job: None)  # no fork: every group is claimed here
    module = lower_to(parse(layers(6)), "loop", optimizations_for(3))
    kernels = sorted(f.sym_name.data for f in module.ops if apart._is_kernel(f))
    whole = apart.split_off(lower_to(parse(layers(6)), "loop", optimizations_for(3)), lower)
    assert whole is not None and len(whole.groups) >= 3
    whole.close()
    monkeypatch.setattr(apart, "MAX_GROUPS", 2)
    job = apart.split_off(module, lower)
    try:
        assert job is not None and len(job.groups) == 2
        assert sorted(f.sym_name.data for fns in job.groups for f in fns) == kernels
        assert [g for g, _ in job.claims()] == [0, 1]
    finally:
        job.close()
