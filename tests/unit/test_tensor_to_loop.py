"""convert-tensor-to-loop, numerically: every function of the pass's lit test is bufferized
and run by the loop interpreter, and compared with an independent numpy formula and with
the tensor-level interpreter; plus the DPS conventions, the interpreter's buffer checks,
and the pass's errors."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp

from strati.context import make_context
from strati.diagnostics import StratiError
from strati.dialects.loop.ops import ForOp
from strati.runtime.interpreter import run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.source import parse_module
from strati.transforms.convert_graph_to_tensor import ConvertGraphToTensorPass
from strati.transforms.convert_tensor_to_loop import ConvertTensorToLoopPass

LIT = Path(__file__).resolve().parents[1] / "lit" / "transforms" / "convert-tensor-to-loop.mlir"


def parse(text: str) -> ModuleOp:
    module = parse_module(make_context(), text, "test.mlir")
    module.verify()
    return module


def bufferize(text: str) -> ModuleOp:
    module = parse(text)
    ConvertTensorToLoopPass().apply(make_context(), module)
    module.verify()
    return module


def chunks() -> dict[str, str]:
    """The lit file's functions by name: each maps to its whole ``// -----`` chunk."""
    found: dict[str, str] = {}
    for chunk in LIT.read_text().split("// -----"):
        for name in re.findall(r"^func\.func (?:private )?@(\w+)", chunk, re.M):
            found[name] = chunk
    return found


# --- inputs and independent formulas ------------------------------------------------------

rng = np.random.default_rng(7)


def f32(*shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def relu(x):
    return np.maximum(x, 0)


def insert(dest, src, offsets, strides):
    """``dest`` with ``src`` written at ``offsets + i * strides`` (strides may be negative)."""
    out = dest.copy()
    out[np.ix_(*[o + np.arange(n) * s for o, n, s in zip(offsets, src.shape, strides)])] = src
    return out


def _gather_inputs():
    return [f32(5), rng.integers(0, 5, (2, 3)).astype(np.int32)]


def _integers(x, y):
    s = x * 3 + y
    q = (np.sign(s) * (np.abs(s) // 2)).astype(np.int32)  # division truncating toward zero
    return [np.where(x < y, q, x).astype(np.int32)]


def _insert_keeps_dest(x, s):
    d = x + x
    i = insert(d, s, (2, 2), (1, -2))
    return [i - d.T]


CASES: dict[str, tuple] = {
    # name: (inputs, formula(*inputs) -> list of outputs)
    "bias_relu": (lambda: [f32(2, 3), f32(3)], lambda x, b: [relu(x + b)]),
    "row_sum": (lambda: [f32(3, 4)], lambda x: [x.sum(1)]),
    "matmul": (lambda: [f32(2, 3), f32(3, 4)], lambda a, b: [a @ b]),
    "gather_plus_index": (_gather_inputs, lambda t, i: [t[i] + np.arange(3, dtype=np.float32)]),
    "reshape_view": (lambda: [f32(2, 3)], lambda x: [-x.reshape(6)]),
    "reshape_input": (lambda: [f32(6)], lambda x: [x.reshape(2, 3).T]),
    "concat": (lambda: [f32(2, 2), f32(2, 3)], lambda a, b: [np.concatenate([a, b], 1)]),
    "reverse_slice": (lambda: [f32(3, 6)], lambda x: [x[1:3, 5::-2]]),
    "insert": (lambda: [f32(2, 2), f32(3, 4)], lambda s, x: [insert(x * x, s, (1, 0), (1, 3))]),
    "pad": (lambda: [f32(2, 2)], lambda x: [np.pad(x, ((1, 0), (2, 1)), constant_values=-1.0)]),
    "passthrough": (lambda: [f32(2)], lambda x: [x, np.array([1.5, -2.0], np.float32), x]),
    "temporary": (lambda: [f32(4)], lambda x: [np.exp(np.roll(x * np.arange(1, 5, dtype=np.float32), 1))]),
    "inplace_conflict": (lambda: [f32(4)], lambda x: [(x + x) - ((x + x) + x)]),
    "fill_shared": (lambda: [f32(2, 3)], lambda x: [x.sum(1) + (x * x).sum(1), np.zeros(2, np.float32)]),
    "min_max": (lambda: [f32(3, 4)], lambda x: [x.max(1), x.min(1)]),
    "calls": (lambda: [f32(3)], lambda x: [(x * x) * (x * x)]),
    "square": (lambda: [f32(3)], lambda x: [x * x]),
    "total": (lambda: [f32(2, 3), np.float32(1.5)], lambda x, k: [np.array(x.sum() * k, np.float32)]),
    "roll": (lambda: [f32(4)], lambda x: [np.roll(x, 1), x[[0, 0, 1, 1]], x[[0, 0, 1, 1]]]),
    "partial_output": (lambda: [f32(1, 3), f32(2, 3)], lambda x, y: [np.concatenate([x, y[1:]])]),
    "insert_keeps_dest": (lambda: [f32(3, 3), f32(1, 2)], _insert_keeps_dest),
    "reshapes": (lambda: [f32(2, 3)], lambda x: [-x, -x.reshape(6), (x * x).reshape(3, 2)]),
    "accumulate": (lambda: [f32(2, 3), f32(2)], lambda x, a: [a + x.sum(1)]),
    "integers": (lambda: [rng.integers(-50, 50, 5).astype(np.int32), rng.integers(-50, 50, 5).astype(np.int32)], _integers),
    "constants": (lambda: [f32(3)], lambda x: [x * np.array([1, 2, 3], np.float32), np.array([1, 2, 3], np.float32)]),
    "shared_empty": (lambda: [f32(2, 2)], lambda x: [np.concatenate([x + x, x, x * x], 1), np.full(3, x[1, 1], np.float32)]),
}


SCALAR_ARGUMENTS = {"total"}


def test_every_lit_function_has_a_formula():
    assert sorted(chunks()) == sorted(CASES)


def compare(got: list[np.ndarray], want: list[np.ndarray]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("use_registry", [True, False], ids=["registry", "local"])
def test_numerics(name: str, use_registry: bool):
    make_inputs, formula = CASES[name]
    inputs = make_inputs()
    text = chunks()[name]
    saved = [np.array(x, copy=True) for x in inputs]
    module = bufferize(text)
    got = run_loop_function(module, inputs, name, use_registry=use_registry)
    compare(got, formula(*inputs))
    for before, after in zip(saved, inputs):  # inputs are never written
        np.testing.assert_array_equal(before, after)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_tensor_level(name: str):
    """One level down gives what the level above gives (the tensor-level interpreter)."""
    if name in SCALAR_ARGUMENTS:
        pytest.skip("the tensor-level interpreter takes tensor arguments only")
    make_inputs, _ = CASES[name]
    inputs = make_inputs()
    text = chunks()[name]
    expected = run_function(parse(text), inputs, name)
    got = run_loop_function(bufferize(text), inputs, name)
    compare(got, [np.asarray(e) for e in expected])


@pytest.mark.parametrize("name", sorted(CASES))
def test_conventions(name: str):
    """DPS signature, no tensors left, one dealloc per alloc after it, output count recorded."""
    text = chunks()[name]
    before = {f.sym_name.data: f.function_type for f in parse(text).walk() if isinstance(f, func.FuncOp)}
    module = bufferize(text)
    for fn in (f for f in module.walk() if isinstance(f, func.FuncOp)):
        old = before[fn.sym_name.data]
        ft = fn.function_type
        assert list(ft.outputs.data) == []
        assert fn.attributes["strati.outputs"].value.data == len(old.outputs.data)
        assert len(ft.inputs.data) == len(old.inputs.data) + len(old.outputs.data)
        assert "tensor" not in str(fn)
        block = fn.body.block
        ops = list(block.ops)
        allocs = [op for op in ops if isinstance(op, memref.AllocOp)]
        deallocs = [op for op in ops if isinstance(op, memref.DeallocOp)]
        assert sorted(id(d.memref) for d in deallocs) == sorted(id(a.memref) for a in allocs)
        for d in deallocs:
            assert ops.index(d) > ops.index(d.memref.owner)
        assert all(isinstance(op, memref.AllocOp) or op.parent_op() is fn for op in allocs)
    # Round trip: prints and parses back to the same text.
    text_out = str(module)
    assert str(parse(text_out)) == text_out


def test_graph_to_loop_end_to_end():
    """graph -> tensor -> loop, against the graph-level interpreter."""
    text = """
func.func @main(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %y = graph.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %r = graph.relu %y : tensor<2x3xf32>
  %m = graph.mul %r, %s : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  func.return %m : tensor<2x3xf32>
}
"""
    x, b, s = f32(2, 3), f32(3), f32(2, 1)
    (want,) = run_function(parse(text), [x, b, s])
    module = parse(text)
    ConvertGraphToTensorPass().apply(make_context(), module)
    ConvertTensorToLoopPass().apply(make_context(), module)
    module.verify()
    (got,) = run_loop_function(module, {"x": x, "b": b, "s": s})
    np.testing.assert_allclose(got, want, rtol=1e-6)
    np.testing.assert_allclose(got, relu(x + b) * s, rtol=1e-6)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("example", ["mlp.mlir", "transformer_block.mlir"])
def test_example_models_through_three_levels(example: str):
    """A whole model lowered graph -> tensor -> loop gives what the tensor level gives."""
    module = parse((EXAMPLES / example).read_text())
    fn = next(f for f in module.walk() if isinstance(f, func.FuncOp))
    gen = np.random.default_rng(3)
    inputs = [gen.standard_normal(tuple(t.get_shape())).astype(np.float32) for t in fn.function_type.inputs.data]
    graph_level = run_function(module, inputs)
    ConvertGraphToTensorPass().apply(make_context(), module)
    tensor_level = run_function(module, inputs)
    ConvertTensorToLoopPass().apply(make_context(), module)
    module.verify()
    got = run_loop_function(module, inputs)
    compare(got, tensor_level)
    for g, w in zip(got, graph_level):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


def test_parallel_marks():
    module = bufferize(chunks()["matmul"])
    nests = [op for op in module.walk() if isinstance(op, ForOp)]
    # the fill nest (2 parallel loops), then i, j parallel and k (the reduction) not
    assert [op.is_parallel for op in nests] == [True, True, True, True, False]


def test_second_application_changes_nothing():
    module = bufferize(chunks()["temporary"])
    text = str(module)
    ConvertTensorToLoopPass().apply(make_context(), module)
    assert str(module) == text


# --- errors -------------------------------------------------------------------------------


def test_dynamic_shapes_are_rejected():
    text = """
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  func.return %x : tensor<?xf32>
}
"""
    with pytest.raises(StratiError, match="static"):
        bufferize(text)


def test_unknown_tensor_op_is_named():
    text = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = graph.relu %x : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""
    with pytest.raises(StratiError) as err:
        bufferize(text)
    assert err.value.op is not None and err.value.op.name == "graph.relu"


def test_scalar_results_are_rejected():
    text = """
func.func @f(%x: f32) -> f32 {
  func.return %x : f32
}
func.func @g(%x: tensor<2xf32>) -> (tensor<2xf32>, f32) {
  %c = arith.constant 1.0 : f32
  func.return %x, %c : tensor<2xf32>, f32
}
"""
    with pytest.raises(StratiError, match="only tensor results"):
        bufferize(text)


# --- the loop interpreter's checks --------------------------------------------------------


LOOP_HEADER = 'func.func @f(%x: memref<2xf32>, %out: memref<2xf32>) attributes {strati.outputs = 1 : i64} {\n'


def run_loop_text(body: str, *inputs):
    return run_loop_function(parse(LOOP_HEADER + body + "  func.return\n}\n"), list(inputs))


def test_interpreter_rejects_writes_to_inputs():
    body = """
  %c0 = arith.constant 0 : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %x[%c0] : memref<2xf32>
"""
    with pytest.raises(StratiError, match="read only"):
        run_loop_text(body, f32(2))


def test_interpreter_rejects_use_after_free_and_double_free():
    use_after_free = """
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<2xf32>
  memref.dealloc %a : memref<2xf32>
  %v = memref.load %a[%c0] : memref<2xf32>
"""
    with pytest.raises(StratiError, match="deallocated"):
        run_loop_text(use_after_free, f32(2))
    double_free = """
  %a = memref.alloc() : memref<2xf32>
  memref.dealloc %a : memref<2xf32>
  memref.dealloc %a : memref<2xf32>
"""
    with pytest.raises(StratiError, match="twice"):
        run_loop_text(double_free, f32(2))
    foreign = """
  memref.dealloc %x : memref<2xf32>
"""
    with pytest.raises(StratiError, match="did not make"):
        run_loop_text(foreign, f32(2))


def test_interpreter_poisons_unwritten_outputs():
    (out,) = run_loop_text("", f32(2))
    assert np.isnan(out).all()


def test_interpreter_checks_inputs():
    with pytest.raises(StratiError, match="shape"):
        run_loop_text("", f32(3))
    with pytest.raises(StratiError, match="dtype"):
        run_loop_text("", np.zeros(2, np.float64))
    with pytest.raises(StratiError, match="expected 1 inputs"):
        run_loop_text("", f32(2), f32(2))


@pytest.mark.parametrize("use_registry", [True, False], ids=["registry", "local"])
def test_interpreter_scalar_semantics(use_registry: bool):
    """Integer division and remainder truncate, floor variants floor, i8 wraps, casts."""
    text = """
func.func @f(%out: memref<9xi32>) attributes {strati.outputs = 1 : i64} {
  %a = arith.constant -7 : i32
  %b = arith.constant 2 : i32
  %q = arith.divsi %a, %b : i32
  %r = arith.remsi %a, %b : i32
  %fq = arith.floordivsi %a, %b : i32
  %cq = arith.ceildivsi %a, %b : i32
  %big = arith.constant 127 : i8
  %one = arith.constant 1 : i8
  %w = arith.addi %big, %one : i8
  %we = arith.extsi %w : i8 to i32
  %u = arith.divui %a, %b : i32
  %f = arith.constant -2.5 : f32
  %fi = arith.fptosi %f : f32 to i32
  %m = arith.maxsi %a, %b : i32
  %values = arith.constant 0 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  memref.store %q, %out[%c0] : memref<9xi32>
  memref.store %r, %out[%c1] : memref<9xi32>
  memref.store %fq, %out[%c2] : memref<9xi32>
  memref.store %cq, %out[%c3] : memref<9xi32>
  memref.store %we, %out[%c4] : memref<9xi32>
  memref.store %u, %out[%c5] : memref<9xi32>
  memref.store %fi, %out[%c6] : memref<9xi32>
  memref.store %m, %out[%c7] : memref<9xi32>
  %idx = arith.index_cast %c8 : index to i32
  memref.store %idx, %out[%c8] : memref<9xi32>
  func.return
}
"""
    (out,) = run_loop_function(parse(text), [], use_registry=use_registry)
    assert out.tolist() == [-3, -1, -4, -3, -128, (2**32 - 7) // 2, -2, 2, 8]
