"""The NPU plug-in (examples/npu): matmul on the simulator against numpy (bit-exact for int8,
rtol 1e-4 for f32) over shapes that do and do not divide the tile, the loop interpreter
against the simulator bit for bit, the cycle model (double buffering overlaps the queues),
and the one-line errors for descriptions and programs that cannot run."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from helpers import parse

import strati
from strati.compiler import lower_to
from strati.diagnostics import StratiError
from strati.dialects.hw.ops import format_value
from strati.dialects.hw.target import get_target
from strati.runtime.loop_interpreter import run_loop_function

sys.path.insert(0, str(Path(__file__).parents[2] / "examples"))
import npu  # noqa: E402  (registers the npu target, as --load-plugin examples/npu does)
from npu.simulator import SIMULATOR  # noqa: E402

RNG = np.random.default_rng(3)


def matmul_module(m, k, n, element, **fields):
    desc = ", ".join(f"{key} = {format_value(value)}" for key, value in {"dtype": "f32" if element == "f32" else "int8", **fields}.items())
    return parse(f"""
builtin.module attributes {{hw.target = #hw.target<"npu", {desc}>}} {{
  func.func @mm(%x: tensor<{m}x{k}x{element}>, %w: tensor<{k}x{n}x{element}>) -> tensor<{m}x{n}x{element}> {{
    %y = graph.matmul %x, %w : (tensor<{m}x{k}x{element}>, tensor<{k}x{n}x{element}>) -> tensor<{m}x{n}x{element}>
    func.return %y : tensor<{m}x{n}x{element}>
  }}
}}""")


def operands(m, k, n, element):
    if element == "i8":
        return RNG.integers(-128, 128, (m, k)).astype(np.int8), RNG.integers(-128, 128, (k, n)).astype(np.int8)
    return RNG.standard_normal((m, k)).astype(np.float32), RNG.standard_normal((k, n)).astype(np.float32)


@pytest.mark.parametrize("shape", [(16, 16, 16), (33, 40, 17), (1, 70, 5), (48, 8, 32)])
def test_int8_matmul_is_bit_exact(shape):
    x, w = operands(*shape, "i8")
    got = strati.compile(matmul_module(*shape, "i8"), "npu")(x, w)
    want = (x.astype(np.int32) @ w.astype(np.int32)).astype(np.int8)  # int32 accumulation, two's-complement store
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(16, 16, 16), (40, 20, 24), (3, 50, 7)])
def test_f32_matmul_within_rtol(shape):
    x, w = operands(*shape, "f32")
    got = strati.compile(matmul_module(*shape, "f32"), "npu")(x, w)
    np.testing.assert_allclose(got, x @ w, rtol=1e-4, atol=1e-5)


def test_loop_interpreter_runs_the_npu_ops_as_the_simulator_does():
    x, w = operands(33, 40, 17, "i8")
    hw = lower_to(matmul_module(33, 40, 17, "i8"), "hw", target="npu")
    assert {"npu.dma_load", "npu.gemm", "npu.alu", "npu.dma_store", "npu.sync"} <= {op.name for op in hw.walk()}
    (interpreted,) = run_loop_function(hw, [x, w], "mm")
    np.testing.assert_array_equal(interpreted, strati.compile(hw)(x, w))


def simulate(module, *inputs):
    SIMULATOR.report()
    strati.compile(module, "npu")(*inputs)
    stats, cycles = {k: list(v) for k, v in SIMULATOR.stats.items()}, SIMULATOR.cycles()
    SIMULATOR.report()
    return stats, cycles


def test_cycle_model_counts_and_double_buffering_overlaps():
    x, w = operands(64, 64, 64, "i8")
    double, double_cycles = simulate(matmul_module(64, 64, 64, "i8"), x, w)
    single, single_cycles = simulate(matmul_module(64, 64, 64, "i8", inp_bytes=256), x, w)
    tiles = 4 * 4 * 4
    assert double["npu.gemm"] == single["npu.gemm"] == [tiles, tiles * 16, 0, tiles * 16 ** 3]
    assert double["npu.dma_load"][2] == 2 * 4 * 64 * 64  # x once per column of tiles, w once per row
    assert double["npu.dma_store"][2] == 64 * 64
    assert double_cycles < single_cycles
    busy = sum(v[1] for v in double.values())
    assert max(v[1] for v in double.values()) <= double_cycles < busy  # the queues overlap


def test_profile_report_and_deadlock():
    report = SIMULATOR.report()
    assert report.startswith("npu profile: 0 cycles")
    from npu.ops import SyncOp
    from xdsl.dialects.builtin import StringAttr

    pop = SyncOp.create(properties={"mode": StringAttr("pop"), "source": StringAttr("load"), "dest": StringAttr("compute")})
    SIMULATOR.execute(pop, get_target("npu").describe(), [])
    with pytest.raises(RuntimeError, match="npu: deadlock, 'compute' pops a token 'load' never pushed"):
        get_target("npu").after_call()


def test_strategy_applies_to_the_target_dtype_only():
    # An f32 matmul on an int8 NPU has no npu strategy: it is host code, and still right.
    x, w = operands(8, 8, 8, "f32")
    module = matmul_module(8, 8, 8, "f32", dtype="int8")
    assert not any(op.name.startswith("npu.") for op in lower_to(module.clone(), "hw", target="npu").walk())
    np.testing.assert_allclose(strati.compile(module, "npu")(x, w), x @ w, rtol=1e-4, atol=1e-5)


def test_tile_that_cannot_fit_is_one_line():
    with pytest.raises(Exception, match="a 16x16 f32 tile needs 1024 bytes, more than acc_bytes 512: the tile cannot fit"):
        matmul_module(4, 4, 4, "f32", acc_bytes=512)


def test_plugin_loads_as_a_directory(tmp_path):
    import subprocess

    out = subprocess.run([Path(sys.executable).parent / "strati-opt", "--load-plugin", str(Path(npu.__file__).parent),
                          "--list-targets"], capture_output=True, text=True, check=True).stdout
    assert "npu  [npu.target]" in out and "strategies for graph.matmul: npu_gemm" in out


def test_plugin_stays_small():
    files = list(Path(npu.__file__).parent.glob("*.py"))
    assert sum(len(f.read_text().splitlines()) for f in files) <= 600


# --- whole models: partitioned between the NPU and the host ------------------------------------


def on_npu(module, **fields):
    from strati.dialects.hw.ops import set_module_target

    set_module_target(module, get_target("npu").describe().replace(**fields))
    return module


def placements(module):
    from strati.transforms.partition import PartitionPass

    PartitionPass(notes=False).apply(None, module)
    return sorted((op.name, op.attributes["strati.placement"].data) for op in module.walk() if "strati.placement" in op.attributes)


def test_example_cnn_runs_partitioned_and_matches_the_interpreter(capfd):
    from strati.runtime.interpreter import run_function

    module = on_npu(strati.compiler.load(Path(__file__).parents[2] / "examples" / "cnn.mlir"), dtype="f32")
    inputs = [RNG.standard_normal(t.get_shape()).astype(np.float32) for t in module.ops.first.function_type.inputs.data]
    SIMULATOR.report()
    got = strati.compile(module)(*inputs)
    assert SIMULATOR.stats["npu.gemm"][0] > 0  # the convolutions ran on the NPU
    assert "note: @cnn: 2 ops in 2 partitions on npu; on the host cpu" in capfd.readouterr().err
    np.testing.assert_allclose(got, run_function(module, inputs)[0], rtol=1e-4, atol=1e-6)
    assert ("graph.conv2d", "npu") in placements(module.clone()) and ("graph.softmax", "cpu") in placements(module.clone())


def residual_cnn(channels=8, size=8):
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(5)
    weight = lambda name, *shape: numpy_helper.from_array((0.3 * rng.standard_normal(shape)).astype(np.float32), name)  # noqa: E731
    conv = lambda x, w, y: helper.make_node("Conv", [x, w, w + "_b"], [y], pads=[1, 1, 1, 1])  # noqa: E731
    nodes = [conv("x", "w0", "c0"), helper.make_node("Relu", ["c0"], ["r0"])]
    for i in (1, 3):  # two residual blocks: conv, relu, conv, add the block's input, relu
        a, b = f"r{i - 1}", f"r{i + 1}"
        nodes += [conv(a, f"w{i}", f"c{i}"), helper.make_node("Relu", [f"c{i}"], [f"r{i}"]), conv(f"r{i}", f"w{i + 1}", f"c{i + 1}"),
                  helper.make_node("Add", [f"c{i + 1}", a], [f"s{i}"]), helper.make_node("Relu", [f"s{i}"], [b])]
    nodes += [helper.make_node("GlobalAveragePool", ["r4"], ["g"]), helper.make_node("Flatten", ["g"], ["f"]),
              helper.make_node("Gemm", ["f", "fc", "fc_b"], ["y"], transB=1)]
    inits = [weight("w0", channels, 3, 3, 3), weight("w0_b", channels)]
    for i in range(1, 5):
        inits += [weight(f"w{i}", channels, channels, 3, 3), weight(f"w{i}_b", channels)]
    inits += [weight("fc", 10, channels), weight("fc_b", 10)]
    graph = helper.make_graph(nodes, "residual", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, size, size])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_onnx_residual_cnn_runs_partitioned_and_matches_the_interpreter():
    from strati.runtime.interpreter import run_function

    module = on_npu(strati.compiler.load(residual_cnn()), dtype="f32")
    x = RNG.standard_normal((1, 3, 8, 8)).astype(np.float32)
    SIMULATOR.report()
    got = strati.compile(module)(x)
    assert SIMULATOR.stats["npu.gemm"][0] > 0
    np.testing.assert_allclose(got, run_function(module, [x])[0], rtol=1e-4, atol=1e-6)
    placed = placements(module.clone())
    assert placed.count(("graph.conv2d", "npu")) == 5 and ("graph.add", "cpu") in placed


def test_strided_convolution_with_bias():
    module = on_npu(parse("""
func.func @conv(%x: tensor<1x5x9x9xf32>, %k: tensor<20x5x3x3xf32>, %b: tensor<20xf32>) -> tensor<1x20x5x5xf32> {
  %y = graph.conv2d %x, %k, %b {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x5x9x9xf32>, tensor<20x5x3x3xf32>, tensor<20xf32>) -> tensor<1x20x5x5xf32>
  func.return %y : tensor<1x20x5x5xf32>
}"""), dtype="f32")
    from strati.runtime.interpreter import run_function

    inputs = [RNG.standard_normal(shape).astype(np.float32) for shape in ((1, 5, 9, 9), (20, 5, 3, 3), (20,))]
    SIMULATOR.report()
    got = strati.compile(module)(*inputs)
    assert SIMULATOR.stats["npu.gemm"][0] == 2 * 3 * 2  # 20 channels x 45 patch rows x 25 pixels in 16-tiles
    np.testing.assert_allclose(got, run_function(module, inputs)[0], rtol=1e-4, atol=1e-5)


# --- quantised models: the NPU against the CPU, bit for bit ---------------------------------


def test_quantized_onnx_model_on_the_npu_is_bit_exact():
    import onnxruntime as ort
    from test_quantization import quantized_onnx

    model = quantized_onnx()
    x = (RNG.standard_normal((1, 3, 8, 8)) * 2).astype(np.float32)
    want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    module = strati.compiler.load(model)
    SIMULATOR.report()
    got = strati.compile(module, "npu")(x)
    assert SIMULATOR.stats["npu.alu"][0] > 0 and SIMULATOR.stats["npu.gemm"][0] > 0  # the shift and clip ran on it
    np.testing.assert_array_equal(got, strati.compile(module, "cpu")(x))
    np.testing.assert_array_equal(got, want)


def test_calibrated_residual_cnn_on_the_npu_is_bit_exact_with_the_cpu():
    from strati.quantization import accuracy, calibrate

    model = strati.compiler.load(residual_cnn())
    samples = [RNG.standard_normal((1, 3, 8, 8)).astype(np.float32) for _ in range(6)]
    quantized = calibrate(model, samples)
    assert [op.name for op in quantized.walk()].count("graph.qconv2d") == 5
    report = accuracy(model, quantized, samples)
    assert "same argmax" in report
    on_npu, on_cpu = strati.compile(quantized, "npu"), strati.compile(quantized, "cpu")
    for x in samples[:2]:
        SIMULATOR.report()
        got = on_npu(x)
        assert SIMULATOR.stats["npu.gemm"][0] > 0
        np.testing.assert_array_equal(got, on_cpu(x))
