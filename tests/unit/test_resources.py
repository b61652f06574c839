"""Large constants in the text (strati.resources, docs/weights.md): dense_resource blobs,
external weights files, elided constants."""

from __future__ import annotations

import os

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

import strati
from strati.context import make_context
from strati.dense import numpy_from_dense
from strati.diagnostics import DiagnosticError, StratiError
from strati.frontends.onnx import import_model
from strati.resources import RESOURCE_THRESHOLD, ResourcePrinting
from strati.runtime.interpreter import run_function
from strati.source import load_module, module_text, parse_module
from helpers import tool



def constants(module) -> dict[str, object]:
    return {op.results[0].name_hint: op.value for op in module.walk() if op.name == "graph.constant"}


@pytest.fixture(scope="module")
def cnn():
    """conv (216 weights) -> batch norm -> relu -> flatten -> gemm (1280 weights)."""
    rng = np.random.default_rng(7)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    fc = rng.standard_normal((10, 128)).astype(np.float32)
    bn = [rng.uniform(0.5, 1.5, 8).astype(np.float32), rng.standard_normal(8).astype(np.float32),
          rng.standard_normal(8).astype(np.float32), rng.uniform(0.5, 2.0, 8).astype(np.float32)]
    nodes = [
        helper.make_node("Conv", ["x", "conv.w"], ["c"], pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c", "bn.s", "bn.b", "bn.m", "bn.v"], ["n"]),
        helper.make_node("Relu", ["n"], ["r"]),
        helper.make_node("Flatten", ["r"], ["f"]),
        helper.make_node("Gemm", ["f", "fc.w"], ["y"], transB=1),
    ]
    inits = [numpy_helper.from_array(w, "conv.w"), numpy_helper.from_array(fc, "fc.w")]
    inits += [numpy_helper.from_array(a, n) for a, n in zip(bn, ["bn.s", "bn.b", "bn.m", "bn.v"])]
    graph = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 8, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 10])], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float32)
    return model, {"conv.w": w, "fc.w": fc}, x


def test_default_threshold_keeps_small_constants_dense(cnn):
    model, weights, _ = cnn
    text = module_text(import_model(model))
    assert weights["fc.w"].size > RESOURCE_THRESHOLD >= weights["conv.w"].size
    assert "%fc.w = graph.constant dense_resource<fc.w> : tensor<10x128xf32>" in text
    assert '%conv.w = graph.constant dense<"0x' in text
    blob = text.split('fc.w: "0x', 1)[1].split('"', 1)[0]
    assert bytes.fromhex(blob) == (4).to_bytes(4, "little") + weights["fc.w"].tobytes()  # MLIR's alignment header


def test_resource_backed_model_computes_as_the_dense_one(cnn):
    """Interpreter and JIT (at -O3: batch norm folded into the resource-backed conv weights)
    give the dense module's results exactly."""
    model, weights, x = cnn
    dense = import_model(model)
    text = module_text(dense, resources=ResourcePrinting(threshold=4))
    assert "dense_resource<conv.w>" in text and "dense_resource<fc.w>" in text and 'dense<"0x' not in text
    parsed = load_module(text, "cnn.mlir")
    for name, array in weights.items():
        np.testing.assert_array_equal(numpy_from_dense(constants(parsed)[name]), array)
    want = run_function(dense, [x])[0]
    np.testing.assert_array_equal(run_function(parsed, [x])[0], want)
    for level in (0, 3):
        got = strati.compile(parsed, opt_level=level)(x)
        np.testing.assert_array_equal(got, strati.compile(dense, opt_level=level)(x))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert module_text(parsed, resources=ResourcePrinting(threshold=4)) == text  # printed again, the same


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "int8", "uint16", "int64", "bool"])
def test_blobs_are_bit_exact(dtype):
    rng = np.random.default_rng(1)
    if dtype == "bool":
        array = rng.random(40) < 0.5
    elif np.dtype(dtype).kind == "f":
        array = rng.standard_normal(40).astype(dtype)
        info = np.finfo(dtype)
        array[:6] = [np.nan, -0.0, np.inf, -np.inf, info.smallest_subnormal, info.max]
        bits = array.view(f"u{array.itemsize}")
        bits[6] = bits[0] | 1  # a NaN with a payload
    else:
        info = np.iinfo(dtype)
        array = rng.integers(info.min, info.max, 40, dtype=dtype, endpoint=True)
    from strati.dense import dense_from_numpy, tensor_type

    t = tensor_type(array.shape, array.dtype)
    zero = {"b": "false", "f": "0.0"}.get(array.dtype.kind, "0")
    source = f"func.func @f() -> {t} {{\n  %c = graph.constant dense<{zero}> : {t}\n  func.return %c : {t}\n}}\n"
    module = parse_module(make_context(), source)
    next(op for op in module.walk() if op.name == "graph.constant").properties["value"] = dense_from_numpy(array)
    text = module_text(module, resources=ResourcePrinting(threshold=1))
    assert "dense_resource<c>" in text
    back = numpy_from_dense(constants(load_module(text, "f.mlir"))["c"])
    assert back.dtype == array.dtype and back.tobytes() == array.tobytes()


def test_external_weights_round_trip(cnn, tmp_path):
    model, weights, x = cnn
    import onnx

    onnx.save(model, tmp_path / "cnn.onnx")
    out = tmp_path / "out"
    out.mkdir()
    r = tool("strati-import", str(tmp_path / "cnn.onnx"), "-o", str(out / "cnn.mlir"), "--external-weights",
             "--resource-threshold", "4")
    assert r.returncode == 0, r.stderr
    text = (out / "cnn.mlir").read_text()
    assert 'file: "cnn.weights.bin"' in text and "dialect_resources" not in text
    data = (out / "cnn.weights.bin").read_bytes()
    place = text.split('conv.w: "offset=', 1)[1].split('"', 1)[0]
    offset, size = int(place.split(",")[0]), int(place.split("size=")[1])
    assert offset % 64 == 0 and data[offset : offset + size] == weights["conv.w"].tobytes()
    np.testing.assert_array_equal(strati.compile(out / "cnn.mlir")(x), strati.compile(model)(x))
    # strati-opt reads the weights file and writes the blobs into its output
    r = tool("strati-opt", str(out / "cnn.mlir"), "--resource-threshold", "16", "-o", str(tmp_path / "inline.mlir"))
    assert r.returncode == 0, r.stderr
    inline = (tmp_path / "inline.mlir").read_text()
    assert "dialect_resources" in inline and "external_resources" not in inline
    np.testing.assert_array_equal(run_function(load_module(inline, "inline.mlir"), [x])[0],
                                  run_function(import_model(model), [x])[0])


def test_external_weights_need_an_output_file(cnn, tmp_path):
    import onnx

    onnx.save(cnn[0], tmp_path / "cnn.onnx")
    r = tool("strati-import", str(tmp_path / "cnn.onnx"), "--external-weights")
    assert r.returncode == 1 and r.stderr.strip().splitlines() == [
        "strati-import: error: --external-weights needs -o OUT.mlir (the weights go to OUT.weights.bin beside it)"]


def test_strati_opt_writes_external_weights(cnn, tmp_path):
    """strati-opt --external-weights, as strati-import's: after the passes, the blobs go to
    OUT.weights.bin beside -o OUT (another directory than the input's)."""
    from strati.tools.common import ToolError
    from strati.tools.opt import run

    model, weights, x = cnn
    source = tmp_path / "m.mlir"
    source.write_text(module_text(import_model(model), resources=ResourcePrinting(threshold=4)))
    (tmp_path / "sub").mkdir()
    out = tmp_path / "sub" / "n.mlir"
    assert run([str(source), "-p", "simplify-inference", "--resource-threshold", "4", "--external-weights", "-o", str(out)]) == 0
    text = out.read_text()
    assert 'file: "n.weights.bin"' in text and "dialect_resources" not in text and "graph.batch_norm" not in text
    data = (tmp_path / "sub" / "n.weights.bin").read_bytes()
    place = text.split('fc.w: "offset=', 1)[1].split('"', 1)[0]
    offset, size = int(place.split(",")[0]), int(place.split("size=")[1])
    assert offset % 64 == 0 and data[offset : offset + size] == weights["fc.w"].tobytes()
    np.testing.assert_allclose(strati.compile(out)(x), strati.compile(model)(x), rtol=1e-5, atol=1e-5)
    # read back (from its own directory) and written again: the same weights file
    again = tmp_path / "sub" / "again.mlir"
    assert run([str(out), "--resource-threshold", "4", "--external-weights", "-o", str(again)]) == 0
    assert (tmp_path / "sub" / "again.weights.bin").read_bytes() == data
    with pytest.raises(ToolError, match="not --split-input-file"):
        run([str(source), "--external-weights", "--split-input-file", "-o", str(tmp_path / "x.mlir")])
    r = tool("strati-opt", str(source), "--external-weights")
    assert r.returncode == 1 and r.stderr.strip().splitlines() == [
        "strati-opt: error: --external-weights needs -o OUT.mlir (the weights go to OUT.weights.bin beside it)"]


EXTERNAL = """func.func @f() -> tensor<2xf32> {{
  %w = graph.constant dense_resource<w> : tensor<2xf32>
  func.return %w : tensor<2xf32>
}}
{{-# external_resources: {{ strati_weights: {{ file: "{file}", w: "offset={offset},size=8" }} }} #-}}
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symbolic links")
@pytest.mark.parametrize("location, reason", [
    ("../outside.bin", "leaves the .mlir's directory"),
    ("{outside}", "is absolute"),
    ("link.bin", "leads out of the .mlir's directory (a symbolic link)"),
    ("null.bin", "leads out of the .mlir's directory (a symbolic link)"),
    ("fifo.bin", "is not a regular file"),
    ("sub", "is not a regular file"),
    ("missing.bin", "cannot read 'missing.bin'"),
])
def test_weights_file_stays_in_the_directory(tmp_path, location, reason):
    outside = tmp_path / "outside.bin"
    outside.write_bytes(np.arange(2, dtype=np.float32).tobytes())
    home = tmp_path / "home"
    (home / "sub").mkdir(parents=True)
    (home / "link.bin").symlink_to(outside)
    (home / "null.bin").symlink_to("/dev/null")
    os.mkfifo(home / "fifo.bin")
    path = home / "m.mlir"
    path.write_text(EXTERNAL.format(file=location.format(outside=outside), offset=0))
    with pytest.raises(DiagnosticError) as err:
        load_module(path.read_text(), str(path))
    message = str(err.value)
    assert reason in message and message.startswith(f"{path}:5:") and "\n" not in message


def test_weights_file_offsets_checked(tmp_path):
    (tmp_path / "w.bin").write_bytes(np.arange(3, dtype=np.float32).tobytes())
    path = tmp_path / "m.mlir"
    path.write_text(EXTERNAL.format(file="w.bin", offset=0))
    np.testing.assert_array_equal(run_function(load_module(path.read_text(), str(path)), [])[0], [0, 1])
    path.write_text(EXTERNAL.format(file="w.bin", offset=8))
    with pytest.raises(DiagnosticError, match=r"bytes 8 to 16 are past the end of the weights file \(12 bytes\)"):
        load_module(path.read_text(), str(path))


def test_elided_constants_are_refused_by_the_python_api(cnn):
    model, _, x = cnn
    text = module_text(import_model(model), resources=ResourcePrinting(elide_above=100))
    assert text.count("dense_resource<__elided__>") == 2
    module = load_module(text, "elided.mlir")  # parses and verifies, for inspection
    for run in (lambda: strati.compile(module), lambda: run_function(module, [x])):
        with pytest.raises(StratiError, match="has an elided value"):
            run()
