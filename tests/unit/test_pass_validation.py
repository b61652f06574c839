"""Translation validation per pass: strati.compile(..., check_passes=True) and strati.pass_validation.

The oracle is independent of the check: a wrong pass is shown to change the results by running
the module compiled without the check against the interpreter."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from helpers import parse

import strati
from strati.compiler import lower_to
from strati.diagnostics import StratiError
from strati.pass_validation import PassValidator, differs, random_inputs, validate_passes
from strati.runtime.interpreter import run_function
from strati.transforms import _PASSES, register_pass

PLUGIN = Path(__file__).parent / "plugins" / "wrong_passes.py"

TEXT = """
func.func @main(%x: tensor<3x5xf32>, %y: tensor<5xf32>) -> tensor<3x5xf32> {
  %a = graph.relu %x : tensor<3x5xf32>
  %b = graph.add %a, %y : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %c = graph.sigmoid %b : tensor<3x5xf32>
  func.return %c : tensor<3x5xf32>
}
"""


def wrong_passes():
    spec = importlib.util.spec_from_file_location("wrong_passes", PLUGIN)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as err:  # already registered by an earlier import of the plug-in
        if "already registered" not in str(err):
            raise
    return module


@pytest.fixture
def wrong_fuse_ops(monkeypatch):
    """The standard pipeline's fuse-ops replaced (at a higher level, as a plug-in would) by a wrong pass."""
    plugin = wrong_passes()

    class WrongFuseOps(plugin.AddToSubPass):
        name = "fuse-ops"

    monkeypatch.setitem(_PASSES._entries, "fuse-ops", _PASSES.entry("fuse-ops"))
    register_pass(WrongFuseOps, level=50)


def test_check_passes_keeps_a_correct_compile():
    module = parse(TEXT)
    inputs = random_inputs(module.body.block.first_op, 3)
    with pytest.warns(UserWarning, match="numerics are not checked after pass 'convert-loop-to-hw': op 'vector"):
        exe = strati.compile(module, opt_level=3, check_passes=True)  # the CPU's vector ops are beyond the interpreters
    np.testing.assert_allclose(exe(*inputs), run_function(module, inputs)[0], rtol=1e-5, atol=1e-6)


def test_check_passes_stops_at_the_wrong_pass_and_names_its_op(wrong_fuse_ops):
    module = parse(TEXT)
    inputs = random_inputs(module.body.block.first_op, 0)
    unchecked = strati.compile(module, opt_level=2)(*inputs)  # the wrong pass goes through unchecked...
    assert differs(unchecked, run_function(module, inputs)[0]) is not None  # ...and changes the results
    with pytest.raises(StratiError, match=r"has a different result after pass 'fuse-ops' \(@main output 0: max abs error") as err:
        strati.compile(module, opt_level=2, check_passes=True)
    assert err.value.op.name == "graph.sub"
    assert str(err.value.op.location).endswith(":4:3)")  # where the graph.add it replaced was


def test_loop_level_names_the_loop_nest_that_writes_the_changed_output():
    wrong_passes()
    module = lower_to(parse(TEXT), "loop")
    validator = PassValidator(module, seed=1)
    (shorten,) = strati.compiler.make_passes(["test-shorten-last-loop"])
    shorten.apply(None, module)
    with pytest.raises(StratiError, match="after pass 'test-shorten-last-loop'") as err:
        validator.check("test-shorten-last-loop", module)
    assert err.value.op.name == "loop.for" and ":5:3" in str(err.value.op.location)  # the sigmoid's nest


def test_the_first_changed_value_is_named_not_what_follows_it():
    """An op edited in place is named even though the ops after it change too."""
    module = parse(TEXT)
    validator = PassValidator(module)
    relu = next(op for op in module.walk() if op.name == "graph.relu")
    from strati.dialects.graph.ops import NegOp
    from xdsl.rewriter import Rewriter

    neg = NegOp.create(operands=[relu.x], result_types=[relu.result.type])
    Rewriter.replace_op(relu, neg)
    with pytest.raises(StratiError) as err:
        validator.check("edit", module)
    assert err.value.op is neg


def test_every_level_checks_on_the_standard_pipeline():
    module = parse(TEXT)
    validate_passes(module, strati.compiler.make_passes(strati.compiler.passes_between("graph", "loop", strati.compiler.OPT_LEVELS[3])))
    assert strati.compiler.module_level(module) == "loop"


def test_differs_is_exact_for_integers_and_matches_nan():
    assert differs(np.array([1, 2]), np.array([1, 3])) == "1 of 2 elements differ"
    assert differs(np.array([np.nan, 1.0], np.float32), np.array([np.nan, 1.0 + 1e-7], np.float32)) is None
    assert "max abs error" in differs(np.array([np.nan], np.float32), np.array([1.0], np.float32))
    assert differs(np.zeros((2,), np.float32), np.zeros((3,), np.float32)) == "float32[2] instead of float32[3]"


def test_a_module_that_cannot_run_is_refused_in_one_line():
    module = parse("func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {\n  func.return %x : tensor<?xf32>\n}\n")
    with pytest.raises(StratiError, match=r"cannot check numerics: argument 0 of @f has type tensor<\?xf32>"):
        PassValidator(module)
