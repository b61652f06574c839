"""The final verification (strati.diagnostics.verify_module): ops whose verifier is local are
verified once per signature, and nothing it would catch op by op goes unreported."""

from __future__ import annotations

import pytest
from xdsl.ir import Operation

from strati.context import make_context
from strati.diagnostics import verify_module
from strati.registry import get_op_attr
from strati.source import parse_module
from strati.verify_extra import LOCAL_VERIFIERS


def parse(text: str):
    return parse_module(make_context(), text, "input.mlir")


@pytest.fixture
def verified(monkeypatch) -> list[str]:
    """The names of the ops xDSL's verifier is called on, in order."""
    calls: list[str] = []
    real = Operation.verify

    def counting(self, verify_nested_ops: bool = True) -> None:
        calls.append(self.name)
        real(self, verify_nested_ops)

    monkeypatch.setattr(Operation, "verify", counting)
    return calls


LOADS = """
func.func @f(%m: memref<4x16xf32>, %i: index) -> vector<16xf32> {
  %0 = vector.load %m[%i, %i] : memref<4x16xf32>, vector<16xf32>
  %1 = vector.load %m[%i, %i] : memref<4x16xf32>, vector<16xf32>
  %2 = vector.load %m[%i, %i] : memref<4x16xf32>, vector<16xf32>
  %3 = vector.load %m[%i, %i] {nontemporal = true} : memref<4x16xf32>, vector<16xf32>
  %4 = arith.addf %0, %1 : vector<16xf32>
  %5 = arith.addf %4, %2 : vector<16xf32>
  %6 = arith.addf %5, %3 : vector<16xf32>
  func.return %6 : vector<16xf32>
}
"""


def test_a_local_verifier_runs_once_per_signature(verified):
    assert "vector.load" in LOCAL_VERIFIERS and get_op_attr("vector.load", "local_verifier") is True
    assert verify_module(parse(LOADS)) is None
    # three loads alike and one nontemporal; three additions alike
    assert verified.count("vector.load") == 2
    assert verified.count("arith.addf") == 1
    assert verified.count("func.func") == verified.count("func.return") == 1


def test_ops_without_the_mark_are_verified_each(verified):
    text = """
    func.func private @g(index) -> index
    func.func @f(%i: index) -> index {
      %0 = func.call @g(%i) : (index) -> index
      %1 = func.call @g(%0) : (index) -> index
      func.return %1 : index
    }
    """
    assert verify_module(parse(text)) is None
    assert verified.count("func.call") == 2
    # the second call, alike but for its callee, names a function that is not there
    diag = verify_module(parse(text.replace("func.call @g(%0)", "func.call @h(%0)")))
    assert diag is not None and diag.line == 5 and "@h" in diag.message


def test_the_first_failing_op_is_reported():
    text = LOADS.replace("%1 = vector.load %m[%i, %i]", "%1 = vector.load %m[%i]").replace(
        "%2 = vector.load %m[%i, %i]", "%2 = vector.load %m[%i]")
    diag = verify_module(parse(text))
    assert diag is not None and (diag.file, diag.line) == ("input.mlir", 4)
    assert "index for each dimension" in diag.message


def test_the_last_op_of_a_block_is_verified_as_such():
    # the second addition is the first's signature, but it ends a block that needs a terminator
    text = """
    func.func @f(%a: index) -> index {
      %0 = arith.addi %a, %a : index
      %1 = arith.addi %a, %a : index
    }
    """
    diag = verify_module(parse(text))
    assert diag is not None and diag.line == 4 and "terminat" in diag.message
