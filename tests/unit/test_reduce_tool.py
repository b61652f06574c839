"""strati-reduce (strati/tools/reduce.py): the result still passes the test, is 1-minimal for the
reductions, and the input is never overwritten unless asked."""

from __future__ import annotations

import pytest

from strati.source import load_module
from strati.tools.common import ToolError
from strati.tools.reduce import Reducer, run

TEXT = """func.func @main(%x: tensor<6x4xf32>, %y: tensor<4xf32>, %w: tensor<4x3xf32>) -> (tensor<6x3xf32>, tensor<6x4xf32>) {
  %a = graph.relu %x : tensor<6x4xf32>
  %e = graph.exp %y : tensor<4xf32>
  %b = graph.add %a, %e : (tensor<6x4xf32>, tensor<4xf32>) -> tensor<6x4xf32>
  %c = graph.tanh %b : tensor<6x4xf32>
  %d = graph.matmul %c, %w : (tensor<6x4xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %s = graph.softmax %d : tensor<6x3xf32>
  func.return %s, %b : tensor<6x3xf32>, tensor<6x4xf32>
}
"""
TEST = "grep -q graph.matmul {} && grep -q graph.exp {}"


def reduce(text: str, test: str) -> tuple[str, int]:
    reducer = Reducer(text, test, timeout=30, allow_unregistered=False, log=lambda _: None)
    with reducer.tmp:
        return reducer.reduce(), reducer.tests


def test_the_result_is_valid_smaller_still_interesting_and_one_minimal(tmp_path):
    reduced, _ = reduce(TEXT, TEST)
    load_module(reduced, "reduced.mlir")  # parses and verifies
    assert "graph.matmul" in reduced and "graph.exp" in reduced
    for gone in ("graph.relu", "graph.add", "graph.tanh", "graph.softmax"):
        assert gone not in reduced
    assert "6x" not in reduced and "x4x" not in reduced  # shapes shrank
    again, tests = reduce(reduced, TEST)
    assert again == reduced and tests > 1  # 1-minimal: no single reduction still passes the test


def test_the_input_is_kept_and_the_output_goes_beside_it(tmp_path):
    source = tmp_path / "bug.mlir"
    source.write_text(TEXT)
    assert run([str(source), "--test", TEST, "-q"]) == 0
    assert source.read_text() == TEXT
    assert "graph.matmul" in (tmp_path / "bug.reduced.mlir").read_text()
    with pytest.raises(ToolError, match="exists; give -o OUT"):
        run([str(source), "--test", TEST, "-q"])
    with pytest.raises(ToolError, match="is the input; give --in-place"):
        run([str(source), "--test", TEST, "-o", str(source), "-q"])
    assert run([str(source), "--test", TEST, "--in-place", "-q"]) == 0
    assert source.read_text() == (tmp_path / "bug.reduced.mlir").read_text()


def test_a_test_that_fails_on_the_input_is_an_error(tmp_path):
    source = tmp_path / "bug.mlir"
    source.write_text(TEXT)
    with pytest.raises(ToolError, match="the test command does not succeed on the input"):
        run([str(source), "--test", "false", "-o", str(tmp_path / "out.mlir")])
    assert not (tmp_path / "out.mlir").exists()


def test_a_slow_test_counts_as_uninteresting():
    reducer = Reducer(TEXT, "sleep 5", timeout=0.2, allow_unregistered=False, log=lambda _: None)
    with reducer.tmp:
        assert not reducer.interesting(TEXT)


def test_a_module_with_external_weights_reads_them_beside_the_input(tmp_path, monkeypatch):
    """The weights file is found beside the input, not the candidate (nor the working
    directory); the result carries the weights in its text and stands alone."""
    import numpy as np

    from strati.resources import ResourcePrinting
    from strati.source import module_text

    weights = np.arange(2 * 1031, dtype=np.float32).reshape(2, 1031) / 7
    module = load_module(
        f"""func.func @f(%x: tensor<2x1031xf32>) -> tensor<2x1031xf32> {{
  %w = graph.constant dense<"0x{weights.tobytes().hex()}"> : tensor<2x1031xf32>
  %y = graph.add %x, %w : tensor<2x1031xf32>
  %z = graph.relu %y : tensor<2x1031xf32>
  func.return %z : tensor<2x1031xf32>
}}""",
        "m.mlir",
    )
    home = tmp_path / "home"
    home.mkdir()
    printing = ResourcePrinting(weights_file="m.weights.bin")
    (home / "m.mlir").write_text(module_text(module, resources=printing))
    (home / "m.weights.bin").write_bytes(bytes(printing.external))
    monkeypatch.chdir(tmp_path)  # not the input's directory
    out = tmp_path / "reduced.mlir"
    assert run([str(home / "m.mlir"), "--test", "grep -q graph.add {} && grep -q graph.constant {}", "-o", str(out), "-q"]) == 0
    reduced = out.read_text()
    assert "graph.relu" not in reduced and "external_resources" not in reduced
    (constant,) = [op for op in load_module(reduced, "elsewhere.mlir").walk() if op.name == "graph.constant"]
    from strati.dense import numpy_from_dense

    values = numpy_from_dense(constant.value)
    assert values.size and np.isin(values, weights).all()  # the weights' values (the shapes may shrink)
