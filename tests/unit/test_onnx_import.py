"""The ONNX importer's IR, names, locations, refusals and tools (strati-import, strati-run on .onnx).

(A lit test cannot hold a binary model, so the printed IR is checked here.)
"""

from __future__ import annotations

import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from xdsl.dialects.builtin import NameLoc

from strati.dense import numpy_from_dense
from strati.diagnostics import StratiError, op_diagnostic
from strati.frontends.onnx import (
    ModelLoadError,
    UnsupportedModelError,
    bind_feeds,
    check_model,
    import_model,
    input_names,
    output_names,
    support_report,
)
from strati.runtime.interpreter import find_function, run_function
from strati.source import load_module, module_text
from helpers import onnx_model as model_of, tool



def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


@pytest.fixture
def conv_model():
    rng = np.random.default_rng(0)
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    fc = rng.standard_normal((10, 4 * 4 * 4)).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["input.1", "conv.w", "conv.b"], ["c"], name="conv1", pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("Relu", ["c"], ["r"], name="relu1"),
        helper.make_node("Flatten", ["r"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "fc.w"], ["logits"], name="fc", transB=1),
        helper.make_node("Softmax", ["logits"], ["probs"]),  # no name: located at Softmax_4
    ]
    inits = [numpy_helper.from_array(w, "conv.w"), numpy_helper.from_array(b, "conv.b"), numpy_helper.from_array(fc, "fc.w")]
    model = model_of(nodes, [vi("input.1", TensorProto.FLOAT, [2, 3, 8, 8])],
                     [vi("probs", TensorProto.FLOAT, [2, 10]), vi("r", TensorProto.FLOAT, None)], inits, name="tiny-cnn")
    return model, {"w": w, "b": b, "fc": fc}


# --- the IR -------------------------------------------------------------------------------


def test_printed_ir(conv_model):
    model, weights = conv_model
    text = module_text(import_model(model))
    assert (
        'func.func @tiny_cnn(%input.1: tensor<2x3x8x8xf32> {strati.name = "input.1"})'
        ' -> (tensor<2x10xf32> {strati.name = "probs"}, tensor<2x4x4x4xf32> {strati.name = "r"})'
    ) in text
    assert re.search(r"graph.conv2d %input.1, %conv.w, %conv.b \{strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>\}", text)
    assert "graph.relu" in text and "graph.flatten" in text
    assert re.search(r"graph.gemm %f, %fc.w \{trans_b = true\}", text)
    assert re.search(r"graph.softmax %logits : tensor<2x10xf32>", text)
    # Weights print as hex bytes (too many for decimals), exactly the initializer's bytes.
    hexes = re.findall(r'dense<"0x([0-9A-F]+)"> : tensor<4x3x3x3xf32>', text)
    assert hexes and bytes.fromhex(hexes[0]) == weights["w"].tobytes()


def test_weights_are_bytes_not_loops(conv_model):
    model, weights = conv_model
    fn = find_function(import_model(model))
    constants = {op.results[0].name_hint: op for op in fn.body.ops if op.name == "graph.constant"}
    np.testing.assert_array_equal(numpy_from_dense(constants["conv.w"].value), weights["w"])
    np.testing.assert_array_equal(numpy_from_dense(constants["fc.w"].value), weights["fc"])


def test_locations_name_the_nodes(conv_model):
    model, _ = conv_model
    fn = find_function(import_model(model))
    locations = {op.name: op.location for op in fn.body.ops}
    assert isinstance(locations["graph.conv2d"], NameLoc)
    assert locations["graph.conv2d"].desc.data == "conv1"
    assert locations["graph.gemm"].desc.data == "fc"
    assert locations["graph.softmax"].desc.data == "Softmax_4"
    assert locations["graph.constant"].desc.data in ("conv.w", "conv.b", "fc.w")


def test_print_debuginfo_and_round_trip(conv_model, tmp_path):
    model, _ = conv_model
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    out = tool("strati-import", str(path), "--print-debuginfo")
    assert out.returncode == 0, out.stderr
    assert 'loc("conv1"' in out.stdout and 'loc("Softmax_4"' in out.stdout
    # The printed module reads back (hex weights included) and runs the same.
    plain = tool("strati-import", str(path), "-o", str(tmp_path / "m.mlir"))
    assert plain.returncode == 0 and plain.stdout == ""
    text = (tmp_path / "m.mlir").read_text()
    again = load_module(text, "m.mlir")
    assert module_text(again) == text
    x = np.random.default_rng(1).standard_normal((2, 3, 8, 8)).astype(np.float32)
    for a, b in zip(run_function(import_model(model), [x]), run_function(again, [x])):
        np.testing.assert_array_equal(a, b)
    opt = tool("strati-opt", str(tmp_path / "m.mlir"))
    assert opt.returncode == 0, opt.stderr


def test_results_match_onnxruntime(conv_model):
    import onnxruntime as ort

    model, _ = conv_model
    x = np.random.default_rng(2).standard_normal((2, 3, 8, 8)).astype(np.float32)
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"input.1": x})
    module = import_model(model)
    got = run_function(module, bind_feeds(find_function(module), {"input.1": x}))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_input_names_are_sanitised_and_kept():
    names = ["0", "input_1", "a/b:0", "x"]
    nodes = [helper.make_node("Sum", names, ["y_1"], name="sum")]
    model = model_of(nodes, [vi(n, TensorProto.FLOAT, [2]) for n in names], [vi("y_1", TensorProto.FLOAT, [2])], opset=13)
    module = import_model(model)
    fn = find_function(module)
    assert input_names(fn) == names
    assert output_names(fn) == ["y_1"]
    hints = [a.name_hint for a in fn.body.blocks[0].args]
    assert len(set(hints)) == 4 and all(re.fullmatch(r"[A-Za-z_$.-][\w$.-]*", h) for h in hints)
    assert not any(re.search(r"_\d+$", h) for h in hints)  # xDSL would strip such a suffix
    feeds = {n: np.full(2, i, np.float32) for i, n in enumerate(names)}
    (y,) = run_function(module, bind_feeds(fn, feeds))
    np.testing.assert_array_equal(y, [6, 6])
    load_module(module_text(module), "names.mlir")  # the names print and parse back


def test_graph_inputs_with_initializers_are_constants():
    w = np.arange(3, dtype=np.float32)
    nodes = [helper.make_node("Add", ["x", "w"], ["y"])]
    model = model_of(nodes, [vi("x", TensorProto.FLOAT, [3]), vi("w", TensorProto.FLOAT, [3])],
                     [vi("y", TensorProto.FLOAT, [3])], [numpy_helper.from_array(w, "w")])
    fn = find_function(import_model(model))
    assert input_names(fn) == ["x"]


def test_shape_computations_fold():
    """Shape -> Gather -> Unsqueeze -> Concat -> Reshape: only the reshape is left."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "axes"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="flat"),
        helper.make_node("ConstantOfShape", ["target_c"], ["z"], value=numpy_helper.from_array(np.array([2.0], np.float32))),
        helper.make_node("Add", ["y", "z"], ["out"]),
    ]
    inits = [
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
        numpy_helper.from_array(np.array([0], np.int64), "axes"),
        numpy_helper.from_array(np.array([-1], np.int64), "minus1"),
        numpy_helper.from_array(np.array([2, 12], np.int64), "target_c"),
    ]
    model = model_of(nodes, [vi("x", TensorProto.FLOAT, [2, 3, 4])], [vi("out", TensorProto.FLOAT, None)], inits)
    module = import_model(model)
    ops = [op.name for op in find_function(module).body.ops]
    assert ops == ["graph.reshape", "graph.constant", "graph.add", "func.return"], ops
    text = module_text(module)
    assert "graph.constant dense<2.000000e+00> : tensor<2x12xf32>" in text
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (out,) = run_function(module, [x])
    np.testing.assert_array_equal(out, x.reshape(2, 12) + 2)


def test_legacy_broadcast_with_axis():
    """Opset 6: b of shape (3,) broadcast to a (2, 3, 4) at axis 1."""
    nodes = [helper.make_node("Add", ["a", "b"], ["y"], broadcast=1, axis=1)]
    model = model_of(nodes, [vi("a", TensorProto.FLOAT, [2, 3, 4]), vi("b", TensorProto.FLOAT, [3])],
                     [vi("y", TensorProto.FLOAT, [2, 3, 4])], opset=6)
    a = np.zeros((2, 3, 4), np.float32)
    b = np.array([1, 2, 3], np.float32)
    (y,) = run_function(import_model(model), [a, b])
    np.testing.assert_array_equal(y, a + b[:, None])


def test_constant_inputs():
    nodes = [helper.make_node("Expand", ["x", "shape"], ["y"], name="expand")]
    model = model_of(nodes, [vi("x", TensorProto.FLOAT, [3, 1]), vi("shape", TensorProto.INT64, [2])],
                     [vi("y", TensorProto.FLOAT, None)])
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert info.value.needs_constant == ("shape",)
    module = import_model(model, constant_inputs={"shape": np.array([2, 3, 4], np.int64)})
    fn = find_function(module)
    assert input_names(fn) == ["x"]
    (y,) = run_function(module, [np.arange(3, dtype=np.float32).reshape(3, 1)])
    assert y.shape == (2, 3, 4)


# --- refusals -------------------------------------------------------------------------------


def unsupported_model():
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("NonZero", ["r"], ["s"]),
        helper.make_node("GridSample", ["r", "grid"], ["g"], padding_mode="mirror"),
        helper.make_node("Resize", ["g", "", "scales"], ["z"], mode="linear", antialias=1),
        helper.make_node("NonZero", ["z"], ["z2"]),
        helper.make_node("Pad", ["z", "pads"], ["p"], mode="wrap"),
    ]
    inits = [
        numpy_helper.from_array(np.zeros((1, 4, 4, 2), np.float32), "grid"),
        numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"),
        numpy_helper.from_array(np.zeros(8, np.int64), "pads"),
    ]
    return model_of(nodes, [vi("x", TensorProto.FLOAT, [1, 1, 4, 4])], [vi("p", TensorProto.FLOAT, None)], inits, opset=19)


def test_unsupported_model_lists_everything():
    with pytest.raises(UnsupportedModelError) as info:
        import_model(unsupported_model())
    message = str(info.value)
    assert message == (
        "unsupported: NonZero (opset 19); GridSample (opset 19) padding_mode=mirror; Resize (opset 19) antialias=1; Pad (opset 19) mode=wrap"
    )
    assert not info.value.out_of_scope
    # check_model gives every occurrence, node by node.
    assert [str(p) for p in check_model(unsupported_model())] == [
        "NonZero (opset 19)", "GridSample (opset 19) padding_mode=mirror", "Resize (opset 19) antialias=1", "NonZero (opset 19)",
        "Pad (opset 19) mode=wrap",
    ]


def test_out_of_scope_models_are_flagged():
    nodes = [helper.make_node("StringNormalizer", ["x"], ["y"], case_change_action="LOWER")]
    model = model_of(nodes, [vi("x", TensorProto.STRING, [2])], [vi("y", TensorProto.STRING, None)], opset=10)
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert info.value.out_of_scope and info.value.categories == ["string tensors"]
    nodes = [helper.make_node("Gradient", ["x"], ["dx"], domain="ai.onnx.preview.training", xs=["x"], y="x")]
    graph = helper.make_graph(nodes, "g", [vi("x", TensorProto.FLOAT, [2])], [vi("dx", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("ai.onnx.preview.training", 1)])
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert info.value.categories == ["training operators"]


def test_opsets_before_6():
    """Before opset 6, an operator is accepted when it has not changed since (Not), refused
    otherwise (Relu-1 had consumed_inputs)."""
    model = model_of([helper.make_node("Relu", ["x"], ["y"])], [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, None)], opset=5)
    with pytest.raises(UnsupportedModelError) as info:
        import_model(model)
    assert str(info.value) == "unsupported: Relu (opset 5) (version 1; strati follows opsets 6 to 21 and later)"
    model = model_of([helper.make_node("Not", ["x"], ["y"])], [vi("x", TensorProto.BOOL, [2])], [vi("y", TensorProto.BOOL, None)], opset=1)
    (y,) = run_function(import_model(model), [np.array([True, False])])
    np.testing.assert_array_equal(y, [False, True])


def test_node_errors_name_the_node():
    nodes = [helper.make_node("Reshape", ["x", "shape"], ["y"], name="bad_reshape")]
    model = model_of(nodes, [vi("x", TensorProto.FLOAT, [2, 3])], [vi("y", TensorProto.FLOAT, None)],
                     [numpy_helper.from_array(np.array([4, 2], np.int64), "shape")])
    with pytest.raises(StratiError, match=r"node 'bad_reshape' \(Reshape, opset 13\): .*reshape"):
        import_model(model)


def test_run_time_errors_name_the_node():
    nodes = [helper.make_node("Gather", ["x", "i"], ["y"], name="lookup")]
    model = model_of(nodes, [vi("x", TensorProto.FLOAT, [3]), vi("i", TensorProto.INT64, [1])], [vi("y", TensorProto.FLOAT, None)])
    module = import_model(model)
    with pytest.raises(StratiError) as info:
        run_function(module, [np.zeros(3, np.float32), np.array([7])])
    assert '(at "lookup")' in str(op_diagnostic(info.value.message, info.value.op))


# --- the tools ------------------------------------------------------------------------------


def test_report(tmp_path, conv_model):
    path = tmp_path / "u.onnx"
    onnx.save(unsupported_model(), path)
    out = tool("strati-import", str(path), "--report")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["op", "type", "opset", "nodes", "status"]
    rows = {line.split()[0]: line for line in lines[1:-1]}
    assert re.fullmatch(r"Relu\s+19\s+1\s+supported", rows["Relu"])
    assert re.fullmatch(r"NonZero\s+19\s+2\s+unsupported: operator not supported", rows["NonZero"])
    assert rows["Resize"].endswith("unsupported: antialias=1")
    assert rows["Pad"].endswith("unsupported: mode=wrap")
    assert lines[-1] == "5 op types, 6 nodes: the model does not import (4 of 5 op types unsupported)"
    good = tmp_path / "good.onnx"
    onnx.save(conv_model[0], good)
    assert support_report(good).splitlines()[-1] == "5 op types, 5 nodes: the model imports"


def test_unsupported_model_is_one_line(tmp_path):
    path = tmp_path / "u.onnx"
    onnx.save(unsupported_model(), path)
    for name in ("strati-import", "strati-run"):
        out = tool(name, str(path))
        assert out.returncode == 1 and out.stdout == ""
        assert out.stderr == (
            f"{name}: error: unsupported: NonZero (opset 19); GridSample (opset 19) padding_mode=mirror; Resize (opset 19) antialias=1; "
            "Pad (opset 19) mode=wrap\n"
        )


@pytest.mark.parametrize("kind", ["truncated", "garbage", "empty", "missing", "directory"])
def test_bad_files_are_one_line(tmp_path, conv_model, kind):
    good = conv_model[0].SerializeToString()
    path = tmp_path / "bad.onnx"
    if kind == "truncated":
        path.write_bytes(good[: len(good) // 3])
    elif kind == "garbage":
        path.write_bytes(b"func.func @f() { this is not protobuf }\n" * 3)
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "directory":
        path.mkdir()
    for name in ("strati-import", "strati-run"):
        out = tool(name, str(path))
        assert out.returncode == 1, (kind, name, out)
        assert out.stdout == "" and "Traceback" not in out.stderr
        assert len(out.stderr.splitlines()) == 1, out.stderr
        assert out.stderr.startswith(f"{name}: error: ") and "internal error" not in out.stderr
    with pytest.raises(ModelLoadError):
        import_model(path)


def test_output_written_only_on_success(tmp_path):
    path = tmp_path / "u.onnx"
    onnx.save(unsupported_model(), path)
    out = tool("strati-import", str(path), "-o", str(tmp_path / "out.mlir"))
    assert out.returncode == 1 and not (tmp_path / "out.mlir").exists()


def test_strati_run_takes_onnx_input_names(tmp_path, conv_model):
    model, _ = conv_model
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    x = np.random.default_rng(3).standard_normal((2, 3, 8, 8)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    out = tool("strati-run", str(path), "--backend", "interp", "--input", f"input.1={tmp_path / 'x.npy'}",
               "--output-dir", str(tmp_path / "out"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("probs: float32[2, 10]")  # the ONNX output name
    expected = run_function(import_model(model), [x])
    np.testing.assert_array_equal(np.load(tmp_path / "out" / "probs.npy"), expected[0])
    bad = tool("strati-run", str(path), "--backend", "interp", "--input", f"x={tmp_path / 'x.npy'}")
    assert bad.returncode == 1
    assert bad.stderr == "strati-run: error: unknown input 'x' (inputs of @tiny_cnn: input.1)\n"
    np.save(tmp_path / "small.npy", x[:1])
    bad = tool("strati-run", str(path), "--backend", "interp", "--input", f"input.1={tmp_path / 'small.npy'}")
    assert bad.stderr == "strati-run: error: input 'input.1' has shape [1, 3, 8, 8], expected tensor<2x3x8x8xf32>\n"


def test_compile_takes_a_model_proto():
    """strati.compile accepts an onnx.ModelProto directly; inputs keep their ONNX names."""
    import strati

    node = helper.make_node("Relu", ["x"], ["y"])
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [5])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    x = np.array([-2, -0.5, 0, 0.5, 2], np.float32)
    np.testing.assert_array_equal(strati.compile(model)(x), np.maximum(x, 0))
