"""Open ops: a dialect defined outside strati (tests/unit/plugins/custom_op.py) joins it with no change to strati.

demo.softplus parses and prints in the uniform graph syntax, verifies through its
registered infer_type, runs in the reference interpreter, and is listed in the
support matrix.
"""

import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import parse, run_ir
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.registry import OpPattern
from strati.source import module_text

# Imported under the name "custom_op", the module name `strati-opt --load-plugin
# tests/unit/plugins/custom_op.py` gives it too: the registry records the registering
# module, and the same registrations from a module of another name would conflict.
sys.path.insert(0, str(Path(__file__).parent / "plugins"))
import custom_op  # noqa: E402

RNG = np.random.default_rng(7)

SOFTPLUS = """\
func.func @main(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %y = demo.softplus %x : tensor<3x5xf32>
  func.return %y : tensor<3x5xf32>
}
"""

MIXED = """\
func.func @main(%x: tensor<4x6xf32>, %b: tensor<6xf32>) -> tensor<4xf32> {
  %s = graph.add %x, %b : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %y = demo.softplus %s : tensor<4x6xf32>
  %r = graph.reduce_sum %y {axes = array<i64: 1>, keepdims = false} : (tensor<4x6xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
"""


def softplus_formula(x):
    """The textbook formula, in float64: independent of the plug-in's stable form."""
    return np.log1p(np.exp(x.astype(np.float64)))


def the_op(module, name="demo.softplus"):
    (op,) = [o for o in module.walk() if o.name == name]
    return op


def test_it_is_a_graph_op_defined_outside_strati():
    op = the_op(parse(SOFTPLUS))
    assert type(op) is custom_op.SoftplusOp
    assert not type(op).__module__.startswith("strati")


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_round_trip(generic):
    module = parse(SOFTPLUS)
    text = module_text(module, generic=generic)
    if generic:
        assert '"demo.softplus"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>' in text
    else:
        assert "%y = demo.softplus %x : tensor<3x5xf32>" in text
    again = parse(text)
    assert module_text(again) == module_text(module)
    assert module_text(again, generic=True) == module_text(module, generic=True)


def test_the_long_type_form_parses_and_prints_short():
    long_form = SOFTPLUS.replace("demo.softplus %x : tensor<3x5xf32>",
                                 "demo.softplus %x : (tensor<3x5xf32>) -> tensor<3x5xf32>")
    assert "%y = demo.softplus %x : tensor<3x5xf32>" in module_text(parse(long_form))


def test_verifier_uses_the_registered_infer_type():
    wrong = SOFTPLUS.replace("%y = demo.softplus %x : tensor<3x5xf32>",
                             "%y = demo.softplus %x : (tensor<3x5xf32>) -> tensor<3x4xf32>")
    wrong = wrong.replace("-> tensor<3x5xf32> {", "-> tensor<3x4xf32> {").replace("%y : tensor<3x5xf32>", "%y : tensor<3x4xf32>")
    with pytest.raises(VerifyException, match=r"result type tensor<3x4xf32> does not match the inferred type tensor<3x5xf32>"):
        parse(wrong)
    ints = SOFTPLUS.replace("f32", "i32")
    with pytest.raises(VerifyException, match=r"expects a floating-point tensor, got tensor<3x5xi32>"):
        parse(ints)


@pytest.mark.parametrize("shape", [(3, 5), (7,), (2, 0, 4), ()])
def test_interpreter_runs_it(shape):
    x = np.asarray(RNG.standard_normal(shape) * 4, np.float32)
    text = SOFTPLUS.replace("3x5xf32", f"{'x'.join(map(str, shape))}xf32" if shape else "f32")
    (got,) = run_ir(text, x)
    assert got.dtype == np.float32 and got.shape == x.shape
    np.testing.assert_allclose(got, softplus_formula(x), rtol=1e-6, atol=1e-7)


def test_large_inputs_do_not_overflow():
    x = np.array([-100.0, -20.0, 0.0, 20.0, 100.0], np.float32)
    text = SOFTPLUS.replace("3x5xf32", "5xf32")
    (got,) = run_ir(text, x)
    want = np.array([np.log1p(np.exp(v)) if v < 30 else v for v in x.astype(np.float64)])  # log1p(e^x) = x + O(e^-x)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-40)  # e^-100 is a float32 subnormal


def test_it_runs_between_graph_ops():
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    b = RNG.standard_normal(6).astype(np.float32)
    (got,) = run_ir(MIXED, x, b)
    np.testing.assert_allclose(got, softplus_formula(x + b).sum(axis=1), rtol=1e-5)


def test_it_is_in_the_support_matrix():
    module = parse(SOFTPLUS)
    op = the_op(module)
    assert registry.get_op_attr("demo.softplus", "pattern") == OpPattern.ELEMWISE
    assert registry.get_op_attr("demo.softplus", "flops")(op) == 4 * 15
    assert {"infer_type", "reference", "pattern", "flops"} <= set(registry.op_attrs("demo.softplus"))
    assert all(r.origin == "custom_op" for r in registry.op_attrs("demo.softplus").values())
    table = registry.format_table()
    (row,) = [line for line in table.splitlines() if line.split()[0] == "demo.softplus"]
    cells = dict(zip(table.splitlines()[0].split(), row.split()))
    assert cells["infer_type"] == cells["reference"] == cells["flops"] == "x" and cells["pattern"] == "elemwise"


# --- folding and strati-opt -----------------------------------------------------------------


def test_fold_constants_folds_it_through_its_reference():
    from xdsl.context import Context

    from strati.dense import numpy_from_dense
    from strati.transforms.fold_constants import FoldConstantsPass

    module = parse(
        """
func.func @f() -> tensor<3xf32> {
  %c = graph.constant dense<[-2.000000e+00, 0.000000e+00, 3.000000e+00]> : tensor<3xf32>
  %y = demo.softplus %c : tensor<3xf32>
  func.return %y : tensor<3xf32>
}
"""
    )
    FoldConstantsPass().apply(Context(), module)
    ops = [op.name for op in module.walk()]
    assert "demo.softplus" not in ops and ops.count("graph.constant") == 1
    (const,) = [op for op in module.walk() if op.name == "graph.constant"]
    want = softplus_formula(np.array([-2.0, 0.0, 3.0], np.float32))
    np.testing.assert_allclose(numpy_from_dense(const.value), want, rtol=1e-6)


def test_strati_opt_loads_it_as_a_plugin(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    plugin = Path(__file__).parent / "plugins" / "custom_op.py"
    opt = [sys.executable, "-m", "strati.tools.opt", "--load-plugin", str(plugin)]
    source = tmp_path / "softplus.mlir"
    source.write_text(SOFTPLUS)
    printed = subprocess.run([*opt, str(source)], capture_output=True, text=True, check=True).stdout
    assert "demo.softplus" in printed
    again = subprocess.run([*opt, "-"], input=printed, capture_output=True, text=True, check=True).stdout
    assert again == printed
    table = subprocess.run([*opt, "--list-op-attrs"], capture_output=True, text=True, check=True).stdout
    assert any(line.split()[:2] == ["demo.softplus", "x"] for line in table.splitlines())
