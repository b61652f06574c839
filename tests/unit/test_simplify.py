"""Graph-level simplification: canonicalize (the patterns registered under "canonicalize"),
simplify-inference and fold-constants, each checked numerically with the interpreter:
the function's results before and after the pass agree at rtol 1e-4, atol 1e-5."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import parse, tensor_type
from xdsl.dialects.builtin import TensorType
from xdsl.interfaces import HasCanonicalizationPatternsInterface
from xdsl.ir import Dialect, Operation
from xdsl.irdl import irdl_op_definition, operand_def, result_def
from xdsl.passes import PassPipeline
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from strati import registry
from strati.context import make_context, register_dialect
from strati.dialects.graph.base import GraphOp
from strati.dialects.graph.ops import AddOp, BatchNormOp
from strati.runtime.interpreter import run_function
from strati.transforms import available_passes

EXAMPLES = Path(__file__).parents[2] / "examples"
RTOL, ATOL = 1e-4, 1e-5


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def const(name: str, array: np.ndarray) -> str:
    """A graph.constant holding ``array`` exactly (hex bytes)."""
    data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes().hex().upper()
    return f'  %{name} = graph.constant dense<"0x{data}"> : {tensor_type(array.shape, array.dtype)}\n'


def bn_params(c: int, r: np.random.Generator, dtype=np.float32) -> dict[str, np.ndarray]:
    return {
        "scale": r.uniform(0.5, 2.0, c).astype(dtype),
        "shift": r.normal(size=c).astype(dtype),
        "mean": r.normal(size=c).astype(dtype),
        "var": r.uniform(0.1, 3.0, c).astype(dtype),
    }


def bn_consts(p: dict[str, np.ndarray]) -> str:
    return "".join(const(k, v) for k, v in p.items())


def bn_line(result: str, x: str, shape, c: int, eps: float = 1e-5) -> str:
    t, v = tensor_type(shape, np.float32), tensor_type((c,), np.float32)
    return (
        f"  %{result} = graph.batch_norm %{x}, %scale, %shift, %mean, %var {{epsilon = {eps:.6e}}} : "
        f"({t}, {v}, {v}, {v}, {v}) -> {t}\n"
    )


def apply(module, pipeline: str):
    PassPipeline.parse_spec(available_passes(), pipeline).apply(make_context(), module)
    module.verify()
    return module


def ops_named(module, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def check_numerics(text: str, pipeline: str, inputs: list[np.ndarray]):
    """Run the function before and after ``pipeline``; the results agree. Returns the module after."""
    module = parse(text)
    before = run_function(module, inputs)
    apply(module, pipeline)
    after = run_function(module, inputs)
    assert len(before) == len(after)
    for b, a in zip(before, after):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=ATOL)
    return module


# --- simplify-inference -------------------------------------------------------------------


@pytest.mark.parametrize(
    "groups, bias, props",
    [
        (1, True, ""),
        (1, False, " {pads = array<i64: 1, 1, 1, 1>}"),
        (2, True, " {strides = array<i64: 2, 2>, pads = array<i64: 1, 0, 1, 0>, groups = 2}"),
    ],
)
def test_conv_bn_relu_folds_into_the_conv(groups, bias, props):
    r = rng(groups + 10 * bias)
    n, c, o, h = 2, 4, 6, 7
    w = r.normal(size=(o, c // groups, 3, 3)).astype(np.float32)
    b = r.normal(size=o).astype(np.float32)
    x = r.normal(size=(n, c, h, h)).astype(np.float32)
    conv = parse(  # the conv alone, with a dynamic result type, gives the output shape
        f"func.func @main(%x: {tensor_type(x.shape, np.float32)}, %w: {tensor_type(w.shape, np.float32)}) -> tensor<?x?x?x?xf32> {{\n"
        f"  %c = graph.conv2d %x, %w{props} : ({tensor_type(x.shape, np.float32)}, {tensor_type(w.shape, np.float32)}) -> tensor<?x?x?x?xf32>\n"
        f"  func.return %c : tensor<?x?x?x?xf32>\n}}\n"
    )
    (out,) = run_function(conv, [x, w])
    ot = tensor_type(out.shape, np.float32)
    operands = "%x, %w, %b" if bias else "%x, %w"
    types = f"{tensor_type(x.shape, np.float32)}, {tensor_type(w.shape, np.float32)}" + (
        f", {tensor_type(b.shape, np.float32)}" if bias else ""
    )
    text = (
        f"func.func @main(%x: {tensor_type(x.shape, np.float32)}) -> {ot} {{\n"
        + const("w", w)
        + (const("b", b) if bias else "")
        + bn_consts(bn_params(o, r))
        + f"  %c = graph.conv2d {operands}{props} : ({types}) -> {ot}\n"
        + bn_line("n", "c", out.shape, o)
        + f"  %r = graph.relu %n : {ot}\n"
        + f"  func.return %r : {ot}\n}}\n"
    )
    after = check_numerics(text, "simplify-inference", [x])
    assert not ops_named(after, "graph.batch_norm")
    (conv_op,) = ops_named(after, "graph.conv2d")
    assert len(conv_op.operands) == 3 and all(v.owner.name == "graph.constant" for v in conv_op.operands[1:])
    assert conv_op.param("groups") == groups
    assert len(ops_named(after, "graph.constant")) == 2  # the old weights and parameters are gone


@pytest.mark.parametrize("trans_b", [False, True])
@pytest.mark.parametrize("with_c, props", [(True, ", alpha = 0.5, beta = 2.0"), (False, ""), (True, ", beta = 0.0")])
def test_gemm_bn_folds_into_the_gemm(trans_b, with_c, props):
    r = rng(3 + trans_b)
    m, k, n = 5, 4, 3
    a = r.normal(size=(m, k)).astype(np.float32)
    b = r.normal(size=(n, k) if trans_b else (k, n)).astype(np.float32)
    c = r.normal(size=(n,)).astype(np.float32)
    if props == ", beta = 0.0":
        c[0] = np.inf  # with beta = 0, c is not read, before or after
    ot = tensor_type((m, n), np.float32)
    operands = "%a, %b, %cc" if with_c else "%a, %b"
    types = f"{tensor_type(a.shape, np.float32)}, {tensor_type(b.shape, np.float32)}" + (
        f", {tensor_type(c.shape, np.float32)}" if with_c else ""
    )
    text = (
        f"func.func @main(%a: {tensor_type(a.shape, np.float32)}) -> {ot} {{\n"
        + const("b", b)
        + (const("cc", c) if with_c else "")
        + bn_consts(bn_params(n, r))
        + f"  %g = graph.gemm {operands} {{trans_b = {str(trans_b).lower()}{props}}} : ({types}) -> {ot}\n"
        + bn_line("y", "g", (m, n), n)
        + f"  func.return %y : {ot}\n}}\n"
    )
    after = check_numerics(text, "simplify-inference", [a])
    assert not ops_named(after, "graph.batch_norm")
    (gemm,) = ops_named(after, "graph.gemm")
    assert gemm.param("beta") == 1.0 and len(gemm.operands) == 3


def test_gemm_bn_with_a_matrix_c():
    r = rng(5)
    a = r.normal(size=(3, 4)).astype(np.float32)
    b = r.normal(size=(4, 2)).astype(np.float32)
    c = r.normal(size=(3, 1)).astype(np.float32)
    text = (
        "func.func @main(%a: tensor<3x4xf32>) -> tensor<3x2xf32> {\n"
        + const("b", b)
        + const("cc", c)
        + bn_consts(bn_params(2, r))
        + "  %g = graph.gemm %a, %b, %cc : (tensor<3x4xf32>, tensor<4x2xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>\n"
        + bn_line("y", "g", (3, 2), 2)
        + "  func.return %y : tensor<3x2xf32>\n}\n"
    )
    after = check_numerics(text, "simplify-inference", [a])
    assert not ops_named(after, "graph.batch_norm")


@pytest.mark.parametrize("shape", [(2, 3, 5, 4), (4, 3), (2, 3, 6), (1, 3, 2, 2, 2)])
def test_standalone_bn_becomes_one_mul_and_one_add(shape):
    r = rng(len(shape))
    x = r.normal(size=shape).astype(np.float32)
    t = tensor_type(shape, np.float32)
    text = (
        f"func.func @main(%x: {t}) -> {t} {{\n"
        + bn_consts(bn_params(shape[1], r))
        + bn_line("y", "x", shape, shape[1], eps=1e-3)
        + f"  func.return %y : {t}\n}}\n"
    )
    after = check_numerics(text, "simplify-inference", [x])
    assert not ops_named(after, "graph.batch_norm")
    (mul,) = ops_named(after, "graph.mul")
    (add,) = ops_named(after, "graph.add")
    per_channel = (shape[1],) + (1,) * (len(shape) - 2)
    assert tuple(mul.operands[1].type.get_shape()) == per_channel
    assert tuple(add.operands[1].type.get_shape()) == per_channel
    assert add.operands[0] is mul.results[0]


def test_float64_bn_folds_in_float64():
    r = rng(8)
    x = r.normal(size=(2, 3, 4, 4))
    w = r.normal(size=(3, 3, 1, 1))
    p = bn_params(3, r, np.float64)
    t, wt, v = tensor_type(x.shape, x.dtype), tensor_type(w.shape, w.dtype), tensor_type((3,), np.float64)
    text = (
        f"func.func @main(%x: {t}) -> {t} {{\n"
        + const("w", w)
        + "".join(const(k, a) for k, a in p.items())
        + f"  %c = graph.conv2d %x, %w : ({t}, {wt}) -> {t}\n"
        + f"  %n = graph.batch_norm %c, %scale, %shift, %mean, %var : ({t}, {v}, {v}, {v}, {v}) -> {t}\n"
        + f"  func.return %n : {t}\n}}\n"
    )
    after = check_numerics(text, "simplify-inference", [x])
    (conv,) = ops_named(after, "graph.conv2d")
    assert conv.operands[1].type.get_element_type() == conv.operands[0].type.get_element_type()


def test_bn_not_folded_into_a_conv_with_two_users():
    r = rng(9)
    x = r.normal(size=(1, 2, 4, 4)).astype(np.float32)
    w = r.normal(size=(3, 2, 1, 1)).astype(np.float32)
    t = "tensor<1x3x4x4xf32>"
    text = (
        "func.func @main(%x: tensor<1x2x4x4xf32>) -> (" + t + ", " + t + ") {\n"
        + const("w", w)
        + bn_consts(bn_params(3, r))
        + f"  %c = graph.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> {t}\n"
        + bn_line("n", "c", (1, 3, 4, 4), 3)
        + f"  func.return %n, %c : {t}, {t}\n}}\n"
    )
    after = check_numerics(text, "simplify-inference", [x])
    (conv,) = ops_named(after, "graph.conv2d")
    np.testing.assert_array_equal(np.frombuffer(conv.operands[1].owner.value.data.data, np.float32), w.ravel())
    assert ops_named(after, "graph.mul") and ops_named(after, "graph.add")


def test_bn_with_a_non_constant_parameter_is_kept():
    r = rng(10)
    x = r.normal(size=(1, 2, 3, 3)).astype(np.float32)
    mean = r.normal(size=2).astype(np.float32)
    p = bn_params(2, r)
    del p["mean"]
    text = (
        "func.func @main(%x: tensor<1x2x3x3xf32>, %mean: tensor<2xf32>) -> tensor<1x2x3x3xf32> {\n"
        + bn_consts(p)
        + bn_line("n", "x", (1, 2, 3, 3), 2)
        + "  func.return %n : tensor<1x2x3x3xf32>\n}\n"
    )
    after = check_numerics(text, "simplify-inference", [x, mean])
    assert len(ops_named(after, "graph.batch_norm")) == 1


def test_cnn_example_folds_only_the_standalone_bn():
    """examples/cnn.mlir: constant batch-norm parameters, but the conv weights are function
    arguments, so the conv fold must not fire; the scale-and-shift rewrite does."""
    text = (EXAMPLES / "cnn.mlir").read_text()
    module = parse(text)
    fn = next(op for op in module.walk() if op.name == "func.func")
    r = rng(11)
    inputs = [r.normal(size=a.type.get_shape()).astype(np.float32) for a in fn.body.blocks[0].args]
    convs_before = [len(op.operands) for op in ops_named(module, "graph.conv2d")]
    after = check_numerics(text, "simplify-inference", inputs)
    assert not ops_named(after, "graph.batch_norm")
    convs = ops_named(after, "graph.conv2d")
    args = list(next(op for op in after.walk() if op.name == "func.func").body.blocks[0].args)
    assert [op.operands[1] for op in convs] == [args[1], args[2]]  # still %k1 and %k2, untouched
    assert [len(op.operands) for op in convs] == convs_before
    (mul,) = ops_named(after, "graph.mul")
    (add,) = ops_named(after, "graph.add")
    assert mul.operands[0].owner is convs[0] and add.operands[0] is mul.results[0]
    assert tuple(mul.operands[1].type.get_shape()) == (8, 1, 1)
    # canonicalize and fold-constants leave it equal too.
    check_numerics(text, "simplify-inference,canonicalize,fold-constants,cse", inputs)


# --- canonicalize ---------------------------------------------------------------------------


def test_chains_of_transposes_and_reshapes():
    r = rng(12)
    x = r.normal(size=(2, 3, 4)).astype(np.float32)
    text = """\
func.func @main(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>) {
  %a = graph.transpose %x {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %b = graph.transpose %a {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %c = graph.transpose %b {perm = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %d = graph.reshape %c : (tensor<4x3x2xf32>) -> tensor<24xf32>
  %e = graph.unsqueeze %d {axes = array<i64: 0>} : (tensor<24xf32>) -> tensor<1x24xf32>
  %f = graph.reshape %e : (tensor<1x24xf32>) -> tensor<4x6xf32>
  %g = graph.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %h = graph.transpose %g {perm = array<i64: 0, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x4x2xf32>
  %i = graph.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %j = graph.reshape %i : (tensor<2x12xf32>) -> tensor<2x3x4xf32>
  %k = graph.identity %j : tensor<2x3x4xf32>
  func.return %f, %h, %k : tensor<4x6xf32>, tensor<3x4x2xf32>, tensor<2x3x4xf32>
}
"""
    after = check_numerics(text, "canonicalize", [x])
    names = [op.name for op in after.walk() if op.name.startswith("graph.")]
    assert sorted(names) == ["graph.reshape", "graph.transpose", "graph.transpose"]


def test_neutral_elements_with_random_constants():
    r = rng(13)
    x = r.normal(size=(2, 3)).astype(np.float32)
    x[0, 0] = -0.0
    x[0, 1] = np.nan
    x[0, 2] = -np.inf
    text = (
        "func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>) {\n"
        + const("nz", np.full((3,), -0.0, np.float32))
        + const("z", np.zeros((2, 1), np.float32))
        + const("one", np.ones((4, 1, 3), np.float32))
        + const("k", r.normal(size=(3,)).astype(np.float32))
        + "  %a = graph.add %nz, %x : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
        + "  %b = graph.sub %a, %z : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>\n"
        + "  %c = graph.div %b, %one : (tensor<2x3xf32>, tensor<4x1x3xf32>) -> tensor<4x2x3xf32>\n"
        + "  %d = graph.mul %b, %k : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
        + "  %e = graph.add %d, %z : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>\n"
        + "  func.return %b, %e, %c : tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x2x3xf32>\n}\n"
    )
    module = parse(text)
    before = run_function(module, [x])
    apply(module, "canonicalize")
    after = run_function(module, [x])
    for b, a in zip(before, after):  # bit for bit: NaN, infinities and the sign of zero
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
    names = sorted(op.name for op in module.walk() if op.name.startswith("graph.") and op.name != "graph.constant")
    assert names == ["graph.add", "graph.broadcast_to", "graph.mul"]  # + (+0.0) is kept


def test_the_registry_is_where_canonicalize_finds_patterns():
    from strati.dialects.graph.ops import TransposeOp

    assert issubclass(AddOp, HasCanonicalizationPatternsInterface)
    assert AddOp.get_canonicalization_patterns() == registry.get_op_attr("graph.add", "canonicalize")
    assert TransposeOp.get_canonicalization_patterns()
    assert BatchNormOp.get_canonicalization_patterns() == ()
    assert "canonicalize" in registry.STANDARD_ATTRS


# --- a plug-in's own canonicalization ---------------------------------------------------


@irdl_op_definition
class TwiceOp(GraphOp):
    """plug.twice: 2 * x, defined outside strati."""

    name = "plug.twice"
    x = operand_def(TensorType)
    result = result_def(TensorType)


@irdl_op_definition
class HalfOp(GraphOp):
    """plug.half: x / 2, defined outside strati."""

    name = "plug.half"
    x = operand_def(TensorType)
    result = result_def(TensorType)


class HalfOfTwice(RewritePattern):
    """half(twice(x)) -> x (exact in binary floating point, barring overflow in twice)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        inner = op.operands[0].owner
        if isinstance(inner, TwiceOp) and op.operands[0].type == inner.operands[0].type:
            rewriter.replace(op, [], [inner.operands[0]])


register_dialect(Dialect("plug", [TwiceOp, HalfOp]))
for _op, _fn in (("plug.twice", lambda op, x: x * x.dtype.type(2)), ("plug.half", lambda op, x: x / x.dtype.type(2))):
    registry.register_op_attr(_op, "infer_type", lambda op: [op.operands[0].type])
    registry.register_op_attr(_op, "reference", _fn)
registry.register_op_attr("plug.half", "canonicalize", (HalfOfTwice(),))

PLUGIN = """\
func.func @main(%x: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %t = plug.twice %x : tensor<5xf32>
  %h = plug.half %t : tensor<5xf32>
  %u = plug.half %x : tensor<5xf32>
  func.return %h, %u : tensor<5xf32>, tensor<5xf32>
}
"""


def test_a_plugin_op_registers_its_own_canonicalization():
    x = rng(14).normal(size=5).astype(np.float32)
    after = check_numerics(PLUGIN, "canonicalize", [x])
    assert [op.name for op in after.walk() if op.name.startswith("plug.")] == ["plug.half"]
    ret = next(op for op in after.walk() if op.name == "func.return")
    assert ret.operands[0] is next(op for op in after.walk() if op.name == "func.func").body.blocks[0].args[0]


def test_a_higher_level_registration_overrides_the_plugin_patterns():
    registry.register_op_attr("plug.half", "canonicalize", (), level=registry.DEFAULT_LEVEL + 1)
    try:
        x = rng(15).normal(size=5).astype(np.float32)
        after = check_numerics(PLUGIN, "canonicalize", [x])
        assert len(ops_named(after, "plug.half")) == 2
    finally:
        registry.unregister_op_attr("plug.half", "canonicalize")
        registry.register_op_attr("plug.half", "canonicalize", (HalfOfTwice(),))
