"""Operator fusion, numerically and structurally: fuse-ops (graph.fused groups), fuse-generics
(tensor level) and fuse-loops (loop level).

The oracle is always the unfused reference interpreter at the graph level.  Each model is
checked after fuse-ops (interpreting graph.fused), after lowering the groups to the tensor
level (+ fuse-generics), after bufferization (+ fuse-loops, in the loop interpreter) and
compiled by the JIT with the fusion passes (``strati.compile(..., optimizations=FUSION)``),
at rtol 1e-4 / atol 1e-5.  Kernel counts (top-level loop nests at the loop level) are
recorded per example; the lit tests' tensor- and loop-level functions run before and after
their pass.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp

import strati
from strati import registry
from strati.compiler import FUSION, OPTIONAL_PASSES, load, lower_to, passes_between, run_pass
from strati.context import make_context
from strati.dense import to_dtype
from strati.diagnostics import StratiError
from strati.dialects.graph.ops import FusedOp
from strati.dialects.loop.ops import ForOp
from strati.dialects.shapes import shape_of
from strati.registry import OpPattern
from strati.runtime.interpreter import find_function, run_function
from strati.runtime.loop_interpreter import run_loop_function
from strati.source import parse_module
from strati.strategy import forced
from strati.transforms.fuse_ops import partition

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
LIT = ROOT / "tests" / "lit" / "transforms"
RTOL, ATOL = 1e-4, 1e-5


def parse(text: str) -> ModuleOp:
    module = parse_module(make_context(), text, "test.mlir")
    module.verify()
    return module


def random_inputs(module: ModuleOp, seed: int = 0, scale: float = 1.0) -> list[np.ndarray]:
    fn = find_function(module)
    rng = np.random.default_rng(seed)
    return [
        (scale * rng.standard_normal(shape_of(t))).astype(to_dtype(t.get_element_type()))
        for t in fn.function_type.inputs.data
    ]


def close(got, want) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=RTOL, atol=ATOL)


def kernels(module: ModuleOp) -> int:
    """Top-level loop nests of the (one) function at the loop level."""
    return sum(isinstance(op, ForOp) for op in find_function(module).body.block.ops)


def allocs(module: ModuleOp) -> int:
    return sum(isinstance(op, memref.AllocOp) for op in find_function(module).walk())


def fused_ops(module: ModuleOp) -> list[FusedOp]:
    return [op for op in module.walk() if isinstance(op, FusedOp)]



@pytest.fixture(autouse=True, scope="module")
def direct_convolutions():
    """These tests check the loops of the direct convolution (fusion, in-place memory): the
    CPU's other conv2d strategies are tested in test_targets.py."""
    with forced("graph.conv2d", "cpu", "direct"):
        yield


def check_all_levels(module: ModuleOp, inputs: list[np.ndarray], jit: bool = True) -> dict[str, int]:
    """Every stage of the fusion pipeline against the unfused interpreter; returns kernel counts."""
    want = run_function(module, inputs)

    grouped = module.clone()
    run_pass(grouped, "fuse-ops")
    close(run_function(grouped, inputs), want)

    tensor = grouped.clone()
    lower_to(tensor, "tensor")
    close(run_function(tensor, inputs), want)
    run_pass(tensor, "fuse-generics")
    close(run_function(tensor, inputs), want)

    plain_loop = lower_to(module.clone(), "loop")
    fused_loop = lower_to(module.clone(), "loop", FUSION)
    close(run_loop_function(fused_loop, inputs), want)
    if jit:
        exe = strati.compile(module, optimizations=FUSION)
        got = exe(*inputs)
        close(got if isinstance(got, (list, tuple)) else [got], want)
    return {"before": kernels(plain_loop), "after": kernels(fused_loop), "allocs_before": allocs(plain_loop), "allocs_after": allocs(fused_loop)}


# --- the examples ------------------------------------------------------------------------

# Groups fuse-ops forms, and the most kernels (top-level loop nests) each example may have
# once fused (measured: cnn 26 -> 12, mlp 13 -> 4, transformer_block 47 -> 25).
EXPECTED = {
    "cnn": (["fused_conv2d_batch_norm_relu", "fused_conv2d_relu"], 12),
    "mlp": (["fused_gemm_relu"], 4),
    "transformer_block": (
        ["fused_reshape_transpose"] * 3
        + ["fused_matmul_mul", "fused_transpose_reshape", "fused_matmul_add_add", "fused_matmul_add_gelu", "fused_matmul_add_add"],
        25,
    ),
}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_groups(path):
    module = load(path)
    before = Counter(op.name for op in find_function(module).body.block.ops)
    run_pass(module, "fuse-ops")
    groups = fused_ops(module)
    assert [g.kernel_name.data for g in groups] == EXPECTED[path.stem][0]
    # Nothing is duplicated or lost: the ops inside and outside the groups are the original ones.
    after = Counter(op.name for op in find_function(module).walk() if op.parent_op() is not None and op.name not in ("graph.fused", "graph.yield"))
    after -= Counter({"func.func": after["func.func"]})
    assert after == before
    # Constants stay outside the groups.
    assert not any(op.name == "graph.constant" for g in groups for op in g.body.walk())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_numerics_and_kernel_counts(path):
    module = load(path)
    counts = check_all_levels(module, random_inputs(module, seed=3))
    print(f"{path.stem}: kernels {counts['before']} -> {counts['after']}, allocs {counts['allocs_before']} -> {counts['allocs_after']}")
    assert counts["after"] < counts["before"]
    assert counts["after"] <= EXPECTED[path.stem][1]
    assert counts["allocs_after"] < counts["allocs_before"]


# --- small models with shared values -----------------------------------------------------

MODELS = {
    # The residual: %r feeds the conv and the add after it (two users in one group, from outside).
    "residual": """
func.func @main(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %r = graph.relu %x : tensor<1x4x6x6xf32>
  %c = graph.conv2d %r, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %y = graph.add %c, %r : tensor<1x4x6x6xf32>
  func.return %y : tensor<1x4x6x6xf32>
}""",
    # %e is read by a reduction and by the division after it: two groups read it.
    "shared_reduce": """
func.func @main(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %a = graph.add %x, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %e = graph.exp %a : tensor<4x8xf32>
  %s = graph.reduce_sum %e {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = graph.div %e, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}""",
    # A diamond post-dominated by the add: one group, %e read twice inside it.
    "diamond": """
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = graph.tanh %x : tensor<4x8xf32>
  %n = graph.neg %e : tensor<4x8xf32>
  %t = graph.sigmoid %e : tensor<4x8xf32>
  %y = graph.mul %n, %t : tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}""",
    # A value returned and used: it escapes, so it is not fused into its user (its producer is).
    "escapes": """
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %m = graph.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = graph.relu %m : tensor<4x8xf32>
  %y = graph.tanh %r : tensor<4x8xf32>
  func.return %r, %y : tensor<4x8xf32>, tensor<4x8xf32>
}""",
    # Two matmuls read the same relu output; the relu is one group's tail.
    "fan_out": """
func.func @main(%x: tensor<4x8xf32>, %w1: tensor<8x8xf32>, %w2: tensor<8x8xf32>, %w3: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %h = graph.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = graph.relu %h : tensor<4x8xf32>
  %a = graph.matmul %r, %w2 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = graph.matmul %r, %w3 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %s = graph.add %a, %b : tensor<4x8xf32>
  %y = graph.sigmoid %s : tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}""",
    # Multi-result split feeding elementwise ops and a concat (injective group).
    "split_concat": """
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p:2 = graph.split %x {axis = 1} : (tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  %a = graph.relu %p#0 : tensor<4x4xf32>
  %b = graph.tanh %p#1 : tensor<4x4xf32>
  %y = graph.concat %b, %a {axis = 1} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  func.return %y : tensor<4x8xf32>
}""",
    # Softmax (opaque) between elementwise ops, and a reduction that absorbs its producer.
    "opaque_reduce": """
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %r = graph.relu %x : tensor<4x8xf32>
  %s = graph.softmax %r : tensor<4x8xf32>
  %e = graph.exp %s : tensor<4x8xf32>
  %m = graph.reduce_mean %e {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = graph.sqrt %m : tensor<4x1xf32>
  func.return %y : tensor<4x1xf32>
}""",
    # conv -> batch_norm -> relu with constant parameters, batch norm not folded.
    "conv_bn_relu": """
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %gamma = graph.constant dense<[1.0, 0.5, 2.0, 1.5]> : tensor<4xf32>
  %beta = graph.constant dense<[0.0, 0.1, -0.1, 0.2]> : tensor<4xf32>
  %mean = graph.constant dense<[0.1, 0.0, -0.1, 0.2]> : tensor<4xf32>
  %var = graph.constant dense<[1.0, 2.0, 0.5, 1.5]> : tensor<4xf32>
  %c = graph.conv2d %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %n = graph.batch_norm %c, %gamma, %beta, %mean, %var : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = graph.relu %n : tensor<1x4x8x8xf32>
  func.return %r : tensor<1x4x8x8xf32>
}""",
    # Transposes around elementwise ops (producers with permuted output maps).
    "transposes": """
func.func @main(%x: tensor<2x3x4xf32>, %b: tensor<3xf32>) -> tensor<4x2x3xf32> {
  %t = graph.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %a = graph.add %t, %b : (tensor<4x2x3xf32>, tensor<3xf32>) -> tensor<4x2x3xf32>
  %y = graph.tanh %a : tensor<4x2x3xf32>
  func.return %y : tensor<4x2x3xf32>
}""",
    # gemm -> relu with the relu output used twice (by a gemm and by the final add).
    "mlp_skip": """
func.func @main(%x: tensor<4x16xf32>, %w1: tensor<16x16xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16xf32>) -> tensor<4x16xf32> {
  %h = graph.gemm %x, %w1, %b1 {trans_b = true} : (tensor<4x16xf32>, tensor<16x16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %r = graph.relu %h : tensor<4x16xf32>
  %z = graph.gemm %r, %w2 {trans_b = true} : (tensor<4x16xf32>, tensor<16x16xf32>) -> tensor<4x16xf32>
  %y = graph.add %z, %r : tensor<4x16xf32>
  func.return %y : tensor<4x16xf32>
}""",
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_small_models(name):
    module = parse(MODELS[name])
    counts = check_all_levels(module, random_inputs(module, seed=11))
    assert counts["after"] <= counts["before"]


def test_groups_of_small_models():
    names = {}
    for name, text in MODELS.items():
        module = parse(text)
        run_pass(module, "fuse-ops")
        names[name] = [g.kernel_name.data for g in fused_ops(module)]
    assert names["residual"] == ["fused_conv2d_add"]
    assert names["shared_reduce"] == ["fused_add_exp"]
    assert names["diamond"] == ["fused_tanh_neg_sigmoid_mul"]
    assert names["escapes"] == ["fused_matmul_relu"]  # relu is returned: tanh does not take it
    assert names["fan_out"] == ["fused_matmul_relu", "fused_matmul_add_sigmoid"]
    assert names["split_concat"] == ["fused_split_relu_tanh_concat"]
    assert names["opaque_reduce"] == ["fused_exp_reduce_mean"]
    assert names["conv_bn_relu"] == ["fused_conv2d_batch_norm_relu"]
    assert names["transposes"] == ["fused_transpose_add_tanh"]
    assert names["mlp_skip"] == ["fused_gemm_relu", "fused_gemm_add"]


def test_shared_value_is_computed_once():
    """%r is used by the conv inside a group and by the add: it is not copied into the group."""
    module = parse(MODELS["residual"])
    run_pass(module, "fuse-ops")
    relus = [op for op in module.walk() if op.name == "graph.relu"]
    assert len(relus) == 1 and relus[0].parent_op().name == "func.func"
    (group,) = fused_ops(module)
    assert list(group.inputs).count(relus[0].results[0]) == 1  # one operand, read twice inside


def test_conv_relu_is_one_kernel_without_temporaries():
    module = parse("""
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  %c = graph.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %r = graph.relu %c : tensor<1x4x6x6xf32>
  func.return %r : tensor<1x4x6x6xf32>
}""")
    counts = check_all_levels(module, random_inputs(module))
    assert (counts["before"], counts["after"]) == (3, 1)
    assert (counts["allocs_before"], counts["allocs_after"]) == (1, 0)


# --- random DAGs with shared values ------------------------------------------------------


def random_model(seed: int) -> str:
    """A random function of (4, 8) tensors: elementwise ops, reductions broadcast back,
    softmax, matmuls and transposes, each reading any earlier value (so values are shared)."""
    rng = np.random.default_rng(seed)
    lines: list[str] = []
    values = ["%x"]
    t = "tensor<4x8xf32>"
    n = 0

    def new() -> str:
        nonlocal n
        n += 1
        return f"%v{n}"

    def pick() -> str:
        # Prefer recent values, but reach back often enough to share.
        k = len(values)
        return values[max(0, k - 1 - int(rng.integers(0, min(k, 4))))]

    for _ in range(int(rng.integers(6, 14))):
        kind = rng.choice(["unary", "unary", "binary", "binary", "reduce", "softmax", "matmul", "transpose"])
        v = new()
        if kind == "unary":
            op = rng.choice(["relu", "tanh", "sigmoid", "neg", "abs"])
            lines.append(f"{v} = graph.{op} {pick()} : {t}")
        elif kind == "binary":
            op = rng.choice(["add", "mul", "sub", "maximum"])
            lines.append(f"{v} = graph.{op} {pick()}, {pick()} : {t}")
        elif kind == "reduce":
            op = rng.choice(["reduce_sum", "reduce_max", "reduce_mean"])
            r = new()
            lines.append(f"{r} = graph.{op} {pick()} {{axes = array<i64: 1>}} : ({t}) -> tensor<4x1xf32>")
            lines.append(f"{v} = graph.sub {pick()}, {r} : ({t}, tensor<4x1xf32>) -> {t}")
        elif kind == "softmax":
            lines.append(f"{v} = graph.softmax {pick()} : {t}")
        elif kind == "matmul":
            lines.append(f"{v} = graph.matmul {pick()}, %w : ({t}, tensor<8x8xf32>) -> {t}")
        else:
            a = new()
            lines.append(f"{a} = graph.transpose {pick()} : ({t}) -> tensor<8x4xf32>")
            lines.append(f"{v} = graph.transpose {a} : (tensor<8x4xf32>) -> {t}")
        values.append(v)
    outs = [values[-1]] + ([values[len(values) // 2]] if rng.random() < 0.5 and len(values) > 2 else [])
    body = "\n  ".join(lines)
    types = ", ".join([t] * len(outs))
    return (
        f"func.func @main(%x: {t}, %w: tensor<8x8xf32>) -> ({types}) {{\n  {body}\n"
        f"  func.return {', '.join(outs)} : {types}\n}}\n"
    )


@pytest.mark.parametrize("seed", range(24))
def test_random_dags(seed):
    module = parse(random_model(seed))
    check_all_levels(module, random_inputs(module, seed=seed, scale=0.5), jit=seed % 4 == 0)


# --- graph.fused's registered attributes -------------------------------------------------


def test_fused_op_attributes():
    module = parse(MODELS["conv_bn_relu"])
    flops_before = sum(
        registry.get_op_attr(op.name, "flops")(op) for op in find_function(module).body.block.ops if registry.has_op_attr(op.name, "flops")
    )
    run_pass(module, "fuse-ops")
    (group,) = fused_ops(module)
    assert registry.get_op_attr("graph.fused", "flops")(group) == flops_before
    assert registry.get_op_attr("graph.fused", "infer_type")(group) == [r.type for r in group.results]
    assert registry.get_op_attr("graph.fused", "pattern") == OpPattern.OPAQUE
    assert group.pattern.data == "out_elemwise_fusable"
    assert callable(registry.get_op_attr("graph.fused", "lower"))


def test_fusion_is_idempotent():
    module = load(EXAMPLES[0])
    run_pass(module, "fuse-ops")
    text = str(module)
    run_pass(module, "fuse-ops")
    assert str(module) == text


def test_max_depth_limits_groups():
    from strati.transforms.fuse_ops import FuseOpsPass

    module = parse(MODELS["diamond"])
    FuseOpsPass(max_depth=2).apply(make_context(), module)
    assert all(len(list(g.body.block.ops)) - 1 <= 2 for g in fused_ops(module))
    close(run_function(module, random_inputs(module)), run_function(parse(MODELS["diamond"]), random_inputs(module)))


def test_partition_covers_every_op_once():
    module = load(EXAMPLES[-1])
    block = find_function(module).body.block
    groups = partition(block)
    members = [op for ops, _ in groups for op in ops]
    expected = [op for op in block.ops if op.name not in ("graph.constant", "func.return")]
    assert sorted(map(id, members)) == sorted(map(id, expected))


# --- the pipeline ------------------------------------------------------------------------


def test_pipeline_places_the_fusion_passes():
    assert passes_between("graph", "hw", FUSION) == [
        "fuse-ops", "partition", "convert-graph-to-tensor", "fuse-generics", "convert-tensor-to-loop", "fuse-loops", "split-functions",
        "convert-loop-to-hw",
    ]
    assert passes_between("graph", "tensor", FUSION) == ["fuse-ops", "partition", "convert-graph-to-tensor", "fuse-generics"]
    assert passes_between("loop", "loop", FUSION) == ["fuse-loops", "split-functions"]
    assert passes_between("graph", "graph", FUSION) == ["fuse-ops", "partition"]  # the placement shows at --emit=graph
    assert passes_between("graph", "hw") == [
        "partition", "convert-graph-to-tensor", "convert-tensor-to-loop", "split-functions", "convert-loop-to-hw",
    ]
    assert {n for _, names in OPTIONAL_PASSES for n in names} >= set(FUSION)
    with pytest.raises(StratiError, match="unknown optimisation pass 'fuse-everything'"):
        passes_between("graph", "hw", ["fuse-everything"])


# --- the lit tests' functions, numerically -----------------------------------------------


def lit_functions(path: Path) -> list[tuple[str, str]]:
    found = []
    for chunk in path.read_text().split("// -----"):
        text = "\n".join(line for line in chunk.splitlines() if not line.lstrip().startswith("//"))
        for name in re.findall(r"^func\.func @(\w+)", text, re.M):
            found.append((name, text))
    return found


@pytest.mark.parametrize("name,text", [f for f in lit_functions(LIT / "fuse-generics.mlir") if "graph." not in f[1]], ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_fuse_generics_lit_functions(name, text):
    module = parse(text)
    inputs = random_inputs(module, seed=5)
    want = run_function(module, inputs, name)
    run_pass(module, "fuse-generics")
    close(run_function(module, inputs, name), want)


@pytest.mark.parametrize("name,text", [f for f in lit_functions(LIT / "fuse-loops.mlir") if "memref" in f[1] and "@observe" not in f[1]], ids=lambda v: v if isinstance(v, str) and "\n" not in v else "")
def test_fuse_loops_lit_functions(name, text):
    module = parse(text)
    inputs = random_inputs_loop(module, name)
    want = run_loop_function(module, inputs, name)
    run_pass(module, "fuse-loops")
    close(run_loop_function(module, inputs, name), want)


def random_inputs_loop(module: ModuleOp, name: str) -> list[np.ndarray]:
    fn = next(f for f in module.walk() if isinstance(f, func.FuncOp) and f.sym_name.data == name)
    n_out = fn.attributes["strati.outputs"].value.data
    types = list(fn.function_type.inputs.data)[: len(fn.function_type.inputs.data) - n_out]
    rng = np.random.default_rng(1)
    return [rng.standard_normal(t.get_shape()).astype(to_dtype(t.get_element_type())) for t in types]
