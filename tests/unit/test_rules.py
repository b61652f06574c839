"""The rule language (strati/parser): rules rewrite exactly, natives come from registries,
types are checked, debug verification and the iteration bound stop bad rule sets.

Numerics: a module and its rewritten form run through the reference interpreter on the
same random inputs must agree bit for bit for the in-tree canonicalizations (they claim
exactness) and within float32 rounding for the plug-in's mathematical identity.
"""

import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import parse
from xdsl.context import Context
from xdsl.dialects.builtin import DenseArrayBase, f32, i64
from xdsl.transforms.canonicalize import CanonicalizePass

from strati import registry
from strati.diagnostics import StratiError
from strati.parser import RULES, load_rules, register_canonicalization
from strati.parser.natives import CONSTRAINTS, FUNCTIONS, register_constraint, register_function
from strati.parser.syntax import RuleError
from strati.runtime.interpreter import run_function
from strati.transforms.apply_rules import ApplyRulesPass

CANONICALIZE_TESTS = Path(__file__).parents[1] / "lit" / "transforms" / "canonicalize-graph.mlir"
PLUGINS = Path(__file__).parent / "plugins"
RNG = np.random.default_rng(11)


def functions(text: str) -> list[str]:
    """The functions of a lit test file, one module text each."""
    body = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    chunks = body.split("func.func ")[1:]
    return ["func.func " + c.strip() for c in chunks]


def random_inputs(module) -> list[np.ndarray]:
    from strati.dense import to_dtype

    (func,) = module.body.ops
    arrays = []
    for t in func.function_type.inputs.data:
        dtype = to_dtype(t.get_element_type())
        shape = t.get_shape()
        values = RNG.standard_normal(shape) * 4
        # -0.0, +0.0, inf and nan among the floats: the rewrites must keep them all
        if dtype.kind == "f":
            specials = [-0.0, 0.0, np.inf, np.nan][: values.size]
            values.flat[: len(specials)] = specials
        arrays.append(values.astype(dtype))
    return arrays


@pytest.mark.filterwarnings("ignore:invalid value encountered in cast")  # nan -> int in @same_type, both sides
@pytest.mark.parametrize("text", functions(CANONICALIZE_TESTS.read_text()), ids=lambda t: t.split("(")[0][10:])
def test_canonicalize_rules_are_exact(text):
    module = parse(text)
    inputs = random_inputs(module)
    before = run_function(module, inputs)
    CanonicalizePass().apply(Context(), module)
    module.verify()
    after = run_function(module, inputs)
    for b, a in zip(before, after):
        assert b.dtype == a.dtype and b.shape == a.shape
        assert np.ascontiguousarray(b).tobytes() == np.ascontiguousarray(a).tobytes(), (b, a)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


NEG_NEG = """\
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %a = graph.neg %x : tensor<5xf32>
  %b = graph.neg %a : tensor<5xf32>
  %c = graph.relu %b : tensor<5xf32>
  func.return %c : tensor<5xf32>
}
"""


def test_native_constraint_and_function_from_python(tmp_path):
    calls = []

    @register_constraint("test_is_negation")
    def is_negation(value):
        calls.append(value)
        return value.owner.name == "graph.neg"

    @register_function("test_slope")
    def slope(value):
        return 0.25 if value.type.get_element_type() == f32 else 0.5

    try:
        rules = load_rules(write(tmp_path, "native.rules",
                                 "rule r: graph.relu(graph.neg(x) as n) -> graph.leaky_relu(n) {alpha = test_slope(x)} "
                                 "where test_is_negation(n)\n"))
        module = parse(NEG_NEG)
        ApplyRulesPass(file=str(tmp_path / "native.rules")).apply(Context(), module)
        ops = [op.name for op in module.body.ops.first.body.ops]
        assert ops == ["graph.neg", "graph.neg", "graph.leaky_relu", "func.return"]
        leaky = list(module.body.ops.first.body.ops)[2]
        assert leaky.param("alpha") == 0.25 and calls
        assert RULES.entry("r").origin.endswith("native.rules") and rules.rules[0].origin.endswith("native.rules:1")
    finally:
        CONSTRAINTS.unregister("test_is_negation")
        FUNCTIONS.unregister("test_slope")
        RULES.unregister("r")


def test_type_change_is_checked_where_it_applies(tmp_path):
    path = write(tmp_path, "cast.rules", "rule cast_away: graph.cast(x) -> x\n")
    module = parse("""\
func.func @main(%x: tensor<2xf32>) -> tensor<2xi32> {
  %c = graph.cast %x : (tensor<2xf32>) -> tensor<2xi32>
  func.return %c : tensor<2xi32>
}
""")
    try:
        with pytest.raises(StratiError, match="would replace a value of type tensor<2xi32> by one of type tensor<2xf32>"):
            ApplyRulesPass(file=str(path)).apply(Context(), module)
    finally:
        RULES.unregister("cast_away")


def test_type_change_proven_by_the_rule_is_rejected_when_loaded(tmp_path):
    path = write(tmp_path, "bad.rules", "rule r: graph.cast(x : T) : tensor<2xi32> -> x where T == tensor<2xf32>\n")
    with pytest.raises(RuleError) as err:
        load_rules(path)
    assert str(err.value.diagnostic) == (f"{path}:1:46: error: rule 'r' replaces a result of type tensor<2xi32> "
                                         "by a value of type tensor<2xf32>")


def test_verify_each_catches_a_native_that_breaks_the_ir(tmp_path):
    @register_function("test_sabotage")
    def sabotage(value):  # a buggy native: it changes the op it was only asked about
        value.owner.properties["perm"] = DenseArrayBase.from_list(i64, [0, 1])
        return 0.5

    path = write(tmp_path, "sabotage.rules",
                 "rule r: graph.relu(graph.transpose(x) as t) -> graph.leaky_relu(t) {alpha = test_sabotage(t)}"
                 " : type(result)\n")
    text = """\
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %t = graph.transpose %x : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = graph.relu %t : tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}
"""
    try:
        with pytest.raises(StratiError, match="rule 'r' .* produced IR that does not verify: .*inferred type"):
            ApplyRulesPass(file=str(path), verify_each=True).apply(Context(), parse(text))
        module = parse(text)  # without the debug mode the damage goes unnoticed by the pass
        ApplyRulesPass(file=str(path)).apply(Context(), module)
        with pytest.raises(Exception, match="inferred type"):
            module.verify()
    finally:
        FUNCTIONS.unregister("test_sabotage")
        RULES.unregister("r")


def test_a_rule_set_that_does_not_converge_stops(tmp_path):
    path = write(tmp_path, "loop.rules", "rule there: graph.neg(graph.relu(x)) -> graph.neg(graph.relu(x))\n")
    try:
        with pytest.raises(StratiError, match=r"did not converge after 5 iterations; still applying: 'there'"):
            ApplyRulesPass(file=str(path), max_iterations=5).apply(Context(), parse("""\
func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
  %a = graph.relu %x : tensor<5xf32>
  %b = graph.neg %a : tensor<5xf32>
  func.return %b : tensor<5xf32>
}
"""))
    finally:
        RULES.unregister("there")


def test_plugin_rules_extend_canonicalize_and_keep_the_values():
    sys.path.insert(0, str(PLUGINS))
    import custom_op  # noqa: F401  (demo.softplus)

    before = registry.op_attrs("graph.sub")["canonicalize"]
    try:
        register_canonicalization(load_rules(PLUGINS / "softplus.rules"))
        patterns = registry.get_op_attr("graph.sub", "canonicalize")
        assert patterns[: len(before.value)] == before.value and [r.name for r in patterns[-1].rules] == ["softplus_difference"]
        module = parse("""\
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a = demo.softplus %x : tensor<64xf32>
  %n = graph.neg %x : tensor<64xf32>
  %b = demo.softplus %n : tensor<64xf32>
  %d = graph.sub %a, %b : tensor<64xf32>
  func.return %d : tensor<64xf32>
}
""")
        x = (RNG.standard_normal(64) * 5).astype(np.float32)
        (expected,) = run_function(module, [x])
        CanonicalizePass().apply(Context(), module)
        assert [op.name for op in module.body.ops.first.body.ops] == ["func.return"]
        (got,) = run_function(module, [x])
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    finally:
        registry.unregister_op_attr("graph.sub", "canonicalize")
        registry.register_op_attr("graph.sub", "canonicalize", before.value, level=before.level)
        RULES.unregister("softplus_difference")
