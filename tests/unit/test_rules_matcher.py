"""The compiled matcher of strati/parser/matcher.py: the rules of one op as one function.

What it promises beyond matching like the rules one by one: a native call that several
rules make on the same place is made once per op; the first rule that applies (highest
benefit, then file order) wins; a traceback through a native names the rules file; a rule
of an op with several results replaces all of them, with the values numpy computes.
"""

import traceback
from pathlib import Path

import numpy as np
import pytest
from helpers import parse
from xdsl.context import Context
from xdsl.pattern_rewriter import PatternRewriter

from strati.parser import RULES, load_rules
from strati.parser.natives import CONSTRAINTS, register_constraint
from strati.runtime.interpreter import run_function
from strati.transforms.apply_rules import ApplyRulesPass

TWO_NEGS = """\
func.func @main(%x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %a = graph.neg %x : tensor<5xf32>
  %b = graph.neg %a : tensor<5xf32>
  %c = graph.neg %y : tensor<5xf32>
  %d = graph.mul %c, %y : tensor<5xf32>
  func.return %b, %d : tensor<5xf32>, tensor<5xf32>
}
"""


@pytest.fixture
def counted():
    """A constraint that counts its calls per argument and never holds, and one that always holds."""
    calls: dict[str, int] = {}

    @register_constraint("test_counted")
    def test_counted(value):
        calls[value.name_hint] = calls.get(value.name_hint, 0) + 1
        return False

    @register_constraint("test_true")
    def test_true(value):
        return True

    yield calls
    CONSTRAINTS.unregister("test_counted")
    CONSTRAINTS.unregister("test_true")


def load(tmp_path: Path, text: str):
    path = tmp_path / "test.rules"
    path.write_text(text)
    return path, load_rules(path)


def unregister(rules):
    for rule in rules.rules:
        RULES.unregister(rule.name)


def test_a_native_call_shared_by_rules_is_made_once_per_op(tmp_path, counted):
    _, rules = load(tmp_path, """\
rule first benefit 2: graph.neg(x) -> x  where test_counted(x)
rule second: graph.neg(graph.neg(x) as inner) -> x  where test_counted(inner), same_type(x, result)
rule third: graph.neg(y) -> y  where test_counted(y)
""")
    try:
        (group,) = rules.patterns_for("graph.neg")
        assert [r.name for r in group.rules] == ["first", "second", "third"]
        module = parse(TWO_NEGS)
        negs = [op for op in module.walk() if op.name == "graph.neg"]
        for op in negs:
            rewriter = PatternRewriter(op)
            group.match_and_rewrite(op, rewriter)
            assert not rewriter.has_done_action
        # three rules ask about the operand of each neg (by three names): one call each
        assert counted == {"x": 1, "a": 1, "y": 1}
    finally:
        unregister(rules)


def test_a_rule_alone_and_a_group_rewrite_only_their_op(tmp_path):
    _, rules = load(tmp_path, "rule r: graph.neg(graph.neg(x)) -> x  where same_type(x, result)\n")
    try:
        module = parse(TWO_NEGS)
        mul = next(op for op in module.walk() if op.name == "graph.mul")
        (group,) = rules.patterns_for("graph.neg")
        for pattern in (rules.rules[0], group):
            rewriter = PatternRewriter(mul)
            pattern.match_and_rewrite(mul, rewriter)
            assert not rewriter.has_done_action
        b = [op for op in module.walk() if op.name == "graph.neg"][1]  # %b = graph.neg %a
        rules.rules[0].match_and_rewrite(b, PatternRewriter(b))
        ret = list(module.body.ops.first.body.ops)[-1]
        assert [op.name for op in module.body.ops.first.body.ops] == ["graph.neg", "graph.neg", "graph.mul", "func.return"]
        assert ret.operands[0].name_hint == "x"  # %b is %x now (the dead %a stays for the walker's DCE)
    finally:
        unregister(rules)


def test_the_first_rule_that_applies_wins_in_benefit_then_file_order(tmp_path, counted):
    path, rules = load(tmp_path, """\
rule low: graph.neg(graph.neg(x)) -> graph.relu(x)  where test_true(x)
rule high benefit 3: graph.neg(graph.neg(x)) -> graph.sigmoid(x)  where test_counted(x)
rule mid benefit 2: graph.neg(graph.neg(x)) -> graph.tanh(x)  where test_true(x)
rule mid_later benefit 2: graph.neg(graph.neg(x)) -> graph.exp(x)  where test_true(x)
""")
    try:
        module = parse(TWO_NEGS)
        ApplyRulesPass(file=str(path)).apply(Context(), module)
        names = [op.name for op in module.body.ops.first.body.ops]
        assert names == ["graph.tanh", "graph.neg", "graph.mul", "func.return"] and counted["x"] >= 1
    finally:
        unregister(rules)


def test_a_traceback_through_a_native_names_the_rules_file(tmp_path):
    @register_constraint("test_broken")
    def test_broken(value):
        raise ZeroDivisionError("a bug in a native")

    path, rules = load(tmp_path, "rule r: graph.neg(x) -> x  where test_broken(x)\n")
    try:
        with pytest.raises(ZeroDivisionError) as err:
            ApplyRulesPass(file=str(path)).apply(Context(), parse(TWO_NEGS))
        frames = traceback.extract_tb(err.value.__traceback__)
        (frame,) = [f for f in frames if f.filename.startswith("<rules ")]
        assert "test.rules: graph.neg" in frame.filename and "test_broken(x) at " in frame.line and "test.rules:1:" in frame.line
    finally:
        CONSTRAINTS.unregister("test_broken")
        unregister(rules)


SPLITS = """\
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x5xf32>, %z: tensor<4xf32>)
    -> (tensor<2x5xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c = graph.concat %x, %y {axis = -1} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %a, %b = graph.split %c {axis = -1, sizes = array<i64: 3, 5>} : (tensor<2x8xf32>) -> (tensor<2x3xf32>, tensor<2x5xf32>)
  %r = graph.relu %z : tensor<4xf32>
  %p, %q = graph.split %r {axis = 0} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %b, %a, %q, %p : tensor<2x5xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>
}
"""


def test_a_rule_replaces_all_results_of_an_op_with_the_same_values():
    rules_file = Path(__file__).parents[1] / "lit" / "parser" / "Inputs" / "split.rules"
    module = parse(SPLITS)
    rng = np.random.default_rng(3)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((2, 3), (2, 5), (4,))]
    expected = run_function(module, inputs)
    try:
        ApplyRulesPass(file=str(rules_file), verify_each=True).apply(Context(), module)
        names = [op.name for op in module.body.ops.first.body.ops]
        assert names == ["graph.slice", "graph.relu", "graph.slice", "graph.relu", "func.return"]
        got = run_function(module, inputs)
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(g, e)  # exact: the same elements, moved
    finally:
        for name in ("split_of_concat", "split_one", "split_relu"):
            RULES.unregister(name)
