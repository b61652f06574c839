"""Issue 12, part A: inputs that used to crash, hang, read outside the model's folder or give
wrong answers, each reproduced (run in a subprocess where a signal would kill pytest)."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import strati
from strati.diagnostics import StratiError
from strati.frontends.onnx import ModelLoadError, import_model
from strati.runtime.interpreter import run_function
from helpers import onnx_model as model_of, tool



def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def one_line_error(result: subprocess.CompletedProcess, tool_name: str) -> str:
    assert result.returncode == 1, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    return lines[0]


# --- gather ---------------------------------------------------------------------------------


def gather_model():
    return model_of(
        [helper.make_node("Gather", ["x", "i"], ["y"], axis=0)],
        [vi("x", TensorProto.FLOAT, [5, 4]), vi("i", TensorProto.INT64, [3])],
        [vi("y", TensorProto.FLOAT, [3, 4])],
    )


@pytest.mark.parametrize("opt_level", [0, 3])
def test_onnx_gather_run_time_indices_checked(opt_level):
    exe = strati.compile(gather_model(), opt_level=opt_level)
    x = np.arange(20, dtype=np.float32).reshape(5, 4)
    good = np.array([-1, 0, -5], np.int64)
    np.testing.assert_array_equal(exe(x, good), np.take(x, [4, 0, 0], axis=0))
    for bad in ([0, 5, 1], [-6, 0, 0], [2**40, 0, 0]):
        with pytest.raises(StratiError, match="an index is out of range for dimension 0 of size 5"):
            exe(x, np.array(bad, np.int64))
    np.testing.assert_array_equal(exe(x, good), np.take(x, [4, 0, 0], axis=0))  # alive, and the error cleared
    module = import_model(gather_model())
    with pytest.raises(StratiError, match="index 5 is out of range for dimension 0 of size 5"):
        run_function(module, [x, np.array([0, 5, 1], np.int64)])


# --- integer division -------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [TensorProto.INT32, TensorProto.INT64])
def test_onnx_integer_div_mod_by_zero_agree(dtype):
    nodes = [helper.make_node("Div", ["a", "b"], ["q"]), helper.make_node("Mod", ["a", "b"], ["r"], fmod=0)]
    model = model_of(nodes, [vi("a", dtype, [6]), vi("b", dtype, [6])], [vi("q", dtype, [6]), vi("r", dtype, [6])])
    np_type = np.int32 if dtype == TensorProto.INT32 else np.int64
    low = np.iinfo(np_type).min
    a = np.array([low, 7, -7, 5, 0, low], np_type)
    b = np.array([-1, 0, 2, 0, 0, 3], np_type)
    with pytest.warns(RuntimeWarning, match="integer division by zero gives 0"):
        expected = run_function(import_model(model), [a, b])
    np.testing.assert_array_equal(expected[0], [low, 0, -3, 0, 0, -(-low // 3)])  # x / 0 = 0; INT_MIN / -1 wraps
    for opt_level in (0, 3):
        got = strati.compile(model, opt_level=opt_level)(a, b)
        for e, g in zip(expected, got):
            np.testing.assert_array_equal(g, e)


# --- ONNX models that must not be read ----------------------------------------------------


def test_onnx_negative_declared_dimension_is_refused(tmp_path):
    starts = helper.make_tensor("s", TensorProto.INT64, [1], [1])
    ends = helper.make_tensor("e", TensorProto.INT64, [1], [3])
    model = model_of(
        [helper.make_node("Slice", ["x", "s", "e"], ["y"])],
        [vi("x", TensorProto.FLOAT, [-5, 8])],
        [vi("y", TensorProto.FLOAT, [2, 8])],
        [starts, ends],
    )
    path = tmp_path / "neg.onnx"
    onnx.save(model, path)
    line = one_line_error(tool("strati-import", str(path)), "strati-import")
    assert "graph input 'x' declares dimension 0 as -5 (dimensions are >= 0)" in line
    with pytest.raises(ModelLoadError, match="declares dimension 0 as -5"):
        import_model(model)


def external_constant_model(location: str) -> onnx.ModelProto:
    """A Constant node (not an initializer) whose tensor's data is in ``location``."""
    value = helper.make_tensor("c", TensorProto.FLOAT, [2], [0.0, 0.0])
    value.ClearField("float_data")
    value.data_location = TensorProto.EXTERNAL
    for k, v in (("location", location), ("offset", "0"), ("length", "8")):
        entry = value.external_data.add()
        entry.key, entry.value = k, v
    return model_of(
        [helper.make_node("Constant", [], ["c"], value=value), helper.make_node("Add", ["x", "c"], ["y"])],
        [vi("x", TensorProto.FLOAT, [2])],
        [vi("y", TensorProto.FLOAT, [2])],
    )


def test_onnx_external_data_resolved_in_the_model_directory(tmp_path):
    model_dir, elsewhere = tmp_path / "model", tmp_path / "elsewhere"
    model_dir.mkdir()
    elsewhere.mkdir()
    np.array([1, 2], np.float32).tofile(model_dir / "w.bin")
    np.array([666, 666], np.float32).tofile(elsewhere / "w.bin")
    onnx.save(external_constant_model("w.bin"), model_dir / "m.onnx")
    out = tool("strati-import", "../model/m.onnx", cwd=elsewhere)
    assert out.returncode == 0, out.stderr
    assert "666" not in out.stdout and "1.000000e+00, 2.000000e+00" in out.stdout
    got = strati.compile(str(model_dir / "m.onnx"))(np.zeros(2, np.float32))
    np.testing.assert_array_equal(got, [1, 2])


@pytest.mark.parametrize(
    "location, message",
    [
        ("/etc/passwd", "is absolute"),
        ("../secret.bin", "leaves the model's directory"),
        ("sub/../../secret.bin", "leaves the model's directory"),
        ("link.bin", "leads out of the model's directory"),
        ("dev", "leads out of the model's directory"),
        ("fifo", "is not a regular file"),
        ("subdir", "is not a regular file"),
        ("missing.bin", "cannot read 'missing.bin'"),
        ("short.bin", "has 4 bytes, the tensor needs bytes 0 to 8"),
    ],
)
def test_onnx_external_data_outside_is_refused(tmp_path, location, message):
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    (tmp_path / "secret.bin").write_bytes(b"\0" * 8)
    (model_dir / "link.bin").symlink_to(tmp_path / "secret.bin")
    (model_dir / "dev").symlink_to("/dev/zero")
    os.mkfifo(model_dir / "fifo")
    (model_dir / "subdir").mkdir()
    (model_dir / "short.bin").write_bytes(b"\0" * 4)
    onnx.save(external_constant_model(location), model_dir / "m.onnx")
    with pytest.raises(ModelLoadError, match=f"tensor 'c'.*{message}"):
        import_model(str(model_dir / "m.onnx"))
    if location == "link.bin":  # the tool: one line
        line = one_line_error(tool("strati-import", str(model_dir / "m.onnx")), "strati-import")
        assert line.startswith("strati-import: error: ") and message in line, line


def test_onnx_external_data_of_an_in_memory_model_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    np.array([1, 2], np.float32).tofile(tmp_path / "w.bin")  # never read from the current directory
    with pytest.raises(ModelLoadError, match="has external data, which is read only for a model given by its path"):
        import_model(external_constant_model("w.bin"))


# --- ONNX edge cases: one line each, naming the node -------------------------------------------


def _scalar_constant(name, value, dtype=TensorProto.INT64):
    return helper.make_node("Constant", [], [name], value=helper.make_tensor(name + "_v", dtype, [], [value]))


def range_model(start, limit, delta, dtype=TensorProto.INT64):
    nodes = [
        _scalar_constant("s", start, dtype),
        _scalar_constant("l", limit, dtype),
        _scalar_constant("d", delta, dtype),
        helper.make_node("Range", ["s", "l", "d"], ["r"], name="range"),
        helper.make_node("Cast", ["r"], ["rf"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["rf", "x"], ["y"]),
    ]
    return model_of(nodes, [vi("x", TensorProto.FLOAT, [1])], [vi("y", TensorProto.FLOAT, None)])


def concat_without_inputs():
    return model_of([helper.make_node("Concat", [], ["y"], axis=0, name="cat")], [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, None)])


def concat_string_axis():
    node = helper.make_node("Concat", ["x", "x"], ["y"], name="cat")
    node.attribute.append(helper.make_attribute("axis", "zero"))
    return model_of([node], [vi("x", TensorProto.FLOAT, [2])], [vi("y", TensorProto.FLOAT, None)])


def resize_nan_scale():
    scales = helper.make_tensor("sc", TensorProto.FLOAT, [4], [1, 1, float("nan"), 2])
    node = helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest", name="resize")
    return model_of([node], [vi("x", TensorProto.FLOAT, [1, 1, 2, 2])], [vi("y", TensorProto.FLOAT, None)], [scales])


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: range_model(0, 10**12, 1), r"node 'range' \(Range\): the range's number of elements 1000000000000 exceeds the limit of 268435456 \(--max-constant-elements=N raises it\)"),
        (lambda: range_model(0, 10, 0), r"node 'range' \(Range\): delta is 0"),
        (lambda: range_model(0.0, float("nan"), 1.0, TensorProto.FLOAT), r"node 'range' \(Range\): start, limit and delta must be finite"),
        (concat_without_inputs, r"node 'cat' \(Concat\) has 0 inputs, at least 1 expected"),
        (concat_string_axis, r"node 'cat' \(Concat\): attribute 'axis' is of type STRING, the operator takes INT"),
        (resize_nan_scale, r"node 'resize' \(Resize, opset 13\): scales must be finite and positive"),
    ],
    ids=["range-1e12", "range-delta-0", "range-nan", "concat-no-inputs", "string-axis", "nan-scale"],
)
def test_onnx_edge_cases_are_one_line_errors(make, message):
    with pytest.raises(StratiError, match=message) as info:
        import_model(make())
    assert "\n" not in str(info.value)


def test_range_limit_is_raised_by_the_flag(tmp_path):
    path = tmp_path / "range.onnx"
    onnx.save(range_model(0, 300, 1), path)
    line = one_line_error(tool("strati-import", str(path), "--max-constant-elements", "100"), "strati-import")
    assert "exceeds the limit of 100 (--max-constant-elements=N raises it)" in line


# --- ConvTranspose attributes: one line naming the attribute ---------------------------------


def conv_transpose_model(nsp, **attrs):
    w = helper.make_tensor("w", TensorProto.FLOAT, [2, 1] + [2] * nsp, [1.0] * (2 * 2**nsp))
    node = helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="ct", **attrs)
    return model_of([node], [vi("x", TensorProto.FLOAT, [1, 2] + [3] * nsp)], [vi("y", TensorProto.FLOAT, None)], [w])


@pytest.mark.parametrize(
    "nsp, attrs, message",
    [
        (2, {"strides": [2]}, "'strides' has 1 values, 2 expected for a kernel of 2 dimensions"),
        (1, {"strides": [1, 1, 1]}, "'strides' has 3 values, 1 expected for a kernel of 1 dimensions"),
        (2, {"dilations": [1]}, "'dilations' has 1 values, 2 expected"),
        (1, {"pads": [0, 0, 0]}, "'pads' has 3 values, 2 expected"),
        (2, {"pads": [1]}, "'pads' has 1 values, 4 expected"),
        (2, {"output_padding": [1]}, "'output_padding' has 1 values, 2 expected"),
        (2, {"output_shape": [5]}, "'output_shape' has 1 values, 2 or 4 expected"),
        (1, {"output_shape": [5, 5]}, "'output_shape' has 2 values, 1 or 3 expected"),
        (2, {"auto_pad": "SAME_UPPER", "strides": [1]}, "'strides' has 1 values, 2 expected"),
        (2, {"strides": [0, 1]}, r"'strides' \[0, 1\] must be at least 1"),
        (2, {"dilations": [-1, 1]}, r"'dilations' \[-1, 1\] must be at least 1"),
        (2, {"output_padding": [-1, 0]}, r"'output_padding' \[-1, 0\] must be at least 0"),
        (2, {"strides": [2, 2], "output_padding": [2, 0]}, r"'output_padding' \[2, 0\] must be less than the stride or the dilation"),
        (2, {"output_shape": [-3, 5]}, r"'output_shape' \[-3, 5\] must be positive"),
        (2, {"group": 0}, "group 0 does not divide the 2 input channels"),
        (2, {"kernel_shape": [3, 3]}, r"kernel_shape \[3, 3\] differs from the weight's \[2, 2\]"),
    ],
)
def test_onnx_conv_transpose_attributes_are_checked(nsp, attrs, message):
    with pytest.raises(StratiError, match=r"node 'ct' \(ConvTranspose, opset 13\): " + message) as info:
        import_model(conv_transpose_model(nsp, **attrs))
    assert "\n" not in str(info.value)


def test_onnx_conv_transpose_1d_output_shape_with_batch_and_channels():
    """A 1-D output_shape may name all three dimensions (N, C, W) or only W; the total padding
    (natural size 6 minus 5) goes to the start, as the ONNX spec says for NOTSET."""
    x = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    full = np.zeros((1, 1, 6), np.float32)  # stride 2, a kernel of ones of width 2, summed over 2 channels
    for i in range(3):
        full[0, 0, 2 * i : 2 * i + 2] += x[0, :, i].sum()
    for output_shape in ([5], [1, 1, 5]):
        got = strati.compile(conv_transpose_model(1, output_shape=output_shape, strides=[2]))(x)
        np.testing.assert_allclose(got, full[:, :, 1:], rtol=1e-6)


# --- onnx's data propagation is bounded ---------------------------------------------------------


def unsqueeze_of_declared_int(n):
    node = helper.make_node("Unsqueeze", ["x", "a"], ["y"], name="u")
    axes = helper.make_tensor("a", TensorProto.INT64, [1], [0])
    return model_of([node], [vi("x", TensorProto.INT64, [n])], [vi("y", TensorProto.INT64, None)], [axes])


@pytest.mark.parametrize("n, data_prop", [(16, True), (1 << 24, False)])
def test_onnx_data_propagation_only_over_short_integer_vectors(monkeypatch, n, data_prop):
    """onnx's data propagation makes a dimension of every element of a 1-D integer tensor: an
    int64[2**24] input into an Unsqueeze took 3 s there, so it runs only over short ones."""
    calls = []
    infer = onnx.shape_inference.infer_shapes
    monkeypatch.setattr(onnx.shape_inference, "infer_shapes", lambda m, **kw: calls.append(kw.get("data_prop", False)) or infer(m, **kw))
    exe = strati.compile(unsqueeze_of_declared_int(n)) if n < 100 else import_model(unsqueeze_of_declared_int(n))
    assert calls[-1] is data_prop and calls.count(True) == int(data_prop)
    if n < 100:
        x = np.arange(n, dtype=np.int64)
        np.testing.assert_array_equal(exe(x), x[None])


# --- the gather check names the index, and its record belongs to the call --------------------------


def big_gather_model(rows=1000, cols=64, n=4096):
    return model_of(
        [helper.make_node("Gather", ["x", "i"], ["y"], axis=0)],
        [vi("x", TensorProto.FLOAT, [rows, cols]), vi("i", TensorProto.INT64, [n])],
        [vi("y", TensorProto.FLOAT, [n, cols])],
    )


@pytest.mark.parametrize("opt_level", [0, 3])
@pytest.mark.parametrize("bad", [1000, -1001, 2**40])
def test_gather_run_time_error_names_the_index(opt_level, bad):
    exe = strati.compile(big_gather_model(), opt_level=opt_level)
    x = np.arange(64000, dtype=np.float32).reshape(1000, 64)
    i = np.arange(4096, dtype=np.int64) % 1000 - 500  # negative ones count from the end
    np.testing.assert_array_equal(exe(x, i), x[i])
    i[2345] = bad
    with pytest.raises(StratiError, match=rf"an index is out of range for dimension 0 of size 1000 \(got {bad}\)$"):
        exe(x, i)


def test_gather_check_record_is_per_call():
    """Two threads call one executable; only the one with a bad index gets an error, every time."""
    import threading

    exe = strati.compile(big_gather_model(), opt_level=3)
    x = np.arange(64000, dtype=np.float32).reshape(1000, 64)
    good = np.arange(4096, dtype=np.int64) % 1000
    bad = good.copy()
    bad[7] = 5000
    wrong: list[str] = []

    def calls(indices, must_fail):
        for _ in range(40):
            try:
                exe(x, indices)
                failed = False
            except StratiError as err:
                failed = "(got 5000)" in str(err)
            if failed != must_fail:
                wrong.append(f"must_fail={must_fail}")

    threads = [threading.Thread(target=calls, args=(good, False)), threading.Thread(target=calls, args=(bad, True))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not wrong, wrong[:3]


# --- memory ---------------------------------------------------------------------------------


def test_a_buffer_larger_than_memory_is_one_line(tmp_path):
    """An output of 2**31 floats (8 GiB) where the process may have 3 GiB: strati-run's
    allocation fails, and the answer is one line naming it, not an internal error (the mlir
    fuzzer's seed 20809, with a cap as its harness sets)."""
    import resource
    import sys
    from pathlib import Path

    path = tmp_path / "big.mlir"
    path.write_text("func.func @host(%x: memref<64xf32>, %out: memref<2147483647xf32>) {\n  func.return\n}\n")
    cap = 3 << 30

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    env = {k: v for k, v in os.environ.items() if k != "STRATI_TRACEBACK"}
    done = subprocess.run([str(Path(sys.executable).parent / "strati-run"), str(path), "--random-inputs", "0"],
                          capture_output=True, text=True, env=env, timeout=120, preexec_fn=limit)  # fmt: skip
    assert one_line_error(done, "strati-run").startswith("strati-run: error: out of memory: ")
