"""Compiled kernels against numpy (and onnxruntime): time per call and compile time, in one run.

Each kernel is a graph-level module compiled with ``strati.compile`` (the compile
time is that call: lowering, LLVM IR, O3 and machine code), and the same
computation in numpy:

* ``matmul N`` (256, 512, 1024, 2048): ``graph.matmul`` of two N x N float32 matrices;
  numpy ``a @ b`` (BLAS);
* ``gemv 1x4096x9216``: AlexNet's first fully connected layer, ``graph.gemm`` with ``trans_b``
  (M = 1: the small-M schedule); numpy ``x @ w.T``;
* ``conv``: ``graph.conv2d`` in ResNet-50's shapes: 3x3 on 64ch 56x56, 256ch 14x14 and
  512ch 7x7; 3x3 stride 2 (64 -> 128ch, 56x56); the 7x7 stride-2 stem (224x224); 1x1
  (1024 -> 256ch, 14x14); MobileNet-v2's 3x3 depthwise (144ch 56x56, strides 1 and 2) and
  ShuffleNet's grouped 1x1 (272ch 14x14, 4 groups); numpy as a padded ``sliding_window_view``
  contracted with ``tensordot`` (im2col + BLAS), one group at a time (depthwise: ``einsum``);
* ``chain``: five elementwise ops on 4M (2048 x 2048) float32,
  ``tanh(relu((a + b) * c) - a)``; numpy with its temporaries;
* ``examples/*.mlir``: the example models on seeded standard-normal inputs; the
  numpy column is strati's reference interpreter (numpy op by op).

onnxruntime (CPU provider, ``intra_op_num_threads=2``, one session per kernel)
runs the same computation as a single-node model (the chain: five nodes); it is
left out for the example models.  Every time is the median over repetitions after
one warm-up call: at least ``--repeat`` calls, more while the kernel's time budget
(``--budget`` seconds) lasts, at most 1000.  The ratio columns are
``other / strati`` (above 1: strati is faster).  ``GFLOP/s`` is strati's (matmul and conv:
2 flops per multiply-add), ``peak`` its share of the machine's peak: cores x f32 lanes x 2
(FMA) x 2 FMA pipes (assumed) x the clock the kernel reports (``cpu MHz`` in
/proc/cpuinfo), from the host's target description.  ``err`` is max |strati - numpy|
/ max |numpy|.  Informative only: nothing is asserted.  From the repository root::

    .venv/bin/python bench/kernels.py [--quick] [--repeat N] [--budget SECONDS] [--only TEXT] [--constant-weights]

``--constant-weights`` makes the convolutions' and the gemv's weights constants of the model on both
sides (onnxruntime initializers, ``graph.constant`` in strati), as they are in a network:
each side may then re-lay them out once, at compile time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import strati
from strati.context import make_context
from strati.dense import to_dtype
from strati.dialects.shapes import shape_of
from strati.runtime.interpreter import find_function, run_function
from strati.source import parse_module

sys.path.insert(0, str(Path(__file__).parent))
from machine import header  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RNG = np.random.default_rng(0)


def median_time(fn: Callable[[], object], repeat: int, budget: float, cap: int = 1000) -> float:
    """Median seconds per call of ``fn``: one warm-up, then >= ``repeat`` calls, more while ``budget`` lasts."""
    fn()
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < repeat or (time.perf_counter() - start < budget and len(times) < cap):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def tt(shape) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + "f32>"


# --- onnxruntime ------------------------------------------------------------------------------------


def ort_session(nodes, inputs: dict[str, np.ndarray], output: str, constants: frozenset[str] = frozenset()):
    """An onnxruntime session for a graph of ONNX ``nodes`` (None if onnxruntime or onnx is missing);
    the inputs named in ``constants`` are initializers of the model (as a model's weights are)."""
    try:
        import onnx
        import onnxruntime as ort
        from onnx import helper
    except ImportError:
        return None
    graph = helper.make_graph(
        nodes,
        "bench",
        [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape) for n, x in inputs.items() if n not in constants],
        [onnx.ValueInfoProto(name=output)],
        [onnx.numpy_helper.from_array(x, n) for n, x in inputs.items() if n in constants],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feed = {n: x for n, x in inputs.items() if n not in constants}
    return lambda: session.run(None, feed)[0]


# --- kernels -----------------------------------------------------------------------------------------


@dataclass
class Kernel:
    name: str
    module_text: str | None  # or a path
    inputs: list[np.ndarray]
    numpy: Callable[[], np.ndarray]
    onnx: Callable[[], Callable[[], np.ndarray] | None] | None = None
    path: Path | None = None
    numpy_label: str = "numpy"
    flops: float | None = None
    weights: int = 0
    """How many of the last inputs are weights (constants of the model with ``--constant-weights``)."""


def matmul(n: int) -> Kernel:
    a, b = RNG.standard_normal((n, n), np.float32), RNG.standard_normal((n, n), np.float32)
    text = (
        f"func.func @matmul(%a: {tt((n, n))}, %b: {tt((n, n))}) -> {tt((n, n))} {{\n"
        f"  %y = graph.matmul %a, %b : {tt((n, n))}\n"
        f"  func.return %y : {tt((n, n))}\n}}\n"
    )

    def onnx():
        from onnx import helper

        return ort_session([helper.make_node("MatMul", ["a", "b"], ["y"])], {"a": a, "b": b}, "y")

    return Kernel(f"matmul {n}", text, [a, b], lambda: a @ b, onnx, flops=2.0 * n**3)


def gemv(m: int = 1, n: int = 4096, k: int = 9216) -> Kernel:
    """A fully connected layer as in AlexNet's classifier: ``graph.gemm`` of an ``m x k`` input and
    ``n x k`` weights (``trans_b``, ONNX's Gemm of a Linear layer); numpy ``x @ w.T``."""
    x = RNG.standard_normal((m, k), np.float32)
    w = (RNG.standard_normal((n, k)) / np.sqrt(k)).astype(np.float32)
    text = (
        f"func.func @gemv(%x: {tt(x.shape)}, %w: {tt(w.shape)}) -> {tt((m, n))} {{\n"
        f"  %y = graph.gemm %x, %w {{trans_b = true}} : ({tt(x.shape)}, {tt(w.shape)}) -> {tt((m, n))}\n"
        f"  func.return %y : {tt((m, n))}\n}}\n"
    )

    def onnx(constant: bool = False):
        from onnx import helper

        node = helper.make_node("Gemm", ["x", "w"], ["y"], transB=1)
        return ort_session([node], {"x": x, "w": w}, "y", frozenset({"w"}) if constant else frozenset())

    return Kernel(f"gemv {m}x{n}x{k}", text, [x, w], lambda: x @ w.T, onnx, flops=2.0 * m * n * k, weights=1)


def conv(channels: int, size: int, kernel: int = 3, stride: int = 1, out_channels: int | None = None, groups: int = 1) -> Kernel:
    """A ``kernel x kernel`` convolution padded to keep ``size / stride`` (``groups`` groups:
    depthwise when it is ``channels``); numpy as im2col + BLAS, one group at a time."""
    o = out_channels or channels
    pad = kernel // 2
    cg, og = channels // groups, o // groups
    x = RNG.standard_normal((1, channels, size, size), np.float32)
    w = (RNG.standard_normal((o, cg, kernel, kernel)) / np.sqrt(kernel * kernel * cg)).astype(np.float32)
    side = (size + 2 * pad - kernel) // stride + 1
    out = (1, o, side, side)
    props = f"strides = array<i64: {stride}, {stride}>, pads = array<i64: {pad}, {pad}, {pad}, {pad}>"
    if groups > 1:
        props += f", groups = {groups} : i64"
    text = (
        f"func.func @conv(%x: {tt(x.shape)}, %w: {tt(w.shape)}) -> {tt(out)} {{\n"
        f"  %y = graph.conv2d %x, %w {{{props}}} : ({tt(x.shape)}, {tt(w.shape)}) -> {tt(out)}\n"
        f"  func.return %y : {tt(out)}\n}}\n"
    )

    def numpy():
        padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        windows = np.lib.stride_tricks.sliding_window_view(padded, (kernel, kernel), axis=(2, 3))[:, :, ::stride, ::stride]
        if groups == 1:
            y = np.tensordot(windows, w, axes=([1, 4, 5], [1, 2, 3]))  # N H W O
            return np.ascontiguousarray(y.transpose(0, 3, 1, 2))
        if cg == 1 and og == 1:  # depthwise: one tap at a time over all the channels
            return np.einsum("nchwij,cij->nchw", windows, w[:, 0], optimize=True)
        parts = [np.tensordot(windows[:, g * cg : (g + 1) * cg], w[g * og : (g + 1) * og], axes=([1, 4, 5], [1, 2, 3])) for g in range(groups)]
        return np.ascontiguousarray(np.concatenate(parts, axis=3).transpose(0, 3, 1, 2))

    def onnx(constant: bool = False):
        from onnx import helper

        node = helper.make_node("Conv", ["x", "w"], ["y"], kernel_shape=[kernel, kernel], pads=[pad] * 4, strides=[stride] * 2, group=groups)
        return ort_session([node], {"x": x, "w": w}, "y", frozenset({"w"}) if constant else frozenset())

    kind = "" if groups == 1 else " dw" if groups == channels == o else f" g{groups}"
    name = f"conv{kernel}x{kernel}{f' s{stride}' if stride > 1 else ''}{kind} {channels}->{o}ch {size}x{size}"
    return Kernel(name, text, [x, w], numpy, onnx, flops=2.0 * o * cg * kernel * kernel * side * side, weights=1)


def chain(n: int) -> Kernel:
    shape = (n // 2048, 2048) if n >= 2048 else (1, n)
    a, b, c = (RNG.standard_normal(shape, np.float32) for _ in range(3))
    t = tt(shape)
    text = (
        f"func.func @chain(%a: {t}, %b: {t}, %c: {t}) -> {t} {{\n"
        f"  %s = graph.add %a, %b : {t}\n"
        f"  %m = graph.mul %s, %c : {t}\n"
        f"  %r = graph.relu %m : {t}\n"
        f"  %d = graph.sub %r, %a : {t}\n"
        f"  %y = graph.tanh %d : {t}\n"
        f"  func.return %y : {t}\n}}\n"
    )

    def onnx():
        from onnx import helper

        nodes = [
            helper.make_node("Add", ["a", "b"], ["s"]),
            helper.make_node("Mul", ["s", "c"], ["m"]),
            helper.make_node("Relu", ["m"], ["r"]),
            helper.make_node("Sub", ["r", "a"], ["d"]),
            helper.make_node("Tanh", ["d"], ["y"]),
        ]
        return ort_session(nodes, {"a": a, "b": b, "c": c}, "y")

    label = f"{n / 2**20:g}M" if n >= 2**20 else f"{n // 1024}K"
    return Kernel(f"chain of 5 ({label} f32)", text, [a, b, c], lambda: np.tanh(np.maximum((a + b) * c, 0) - a), onnx)


def example(path: Path) -> Kernel:
    module = parse_module(make_context(), path.read_text(), str(path))
    rng = np.random.default_rng(0)
    fn = find_function(module)
    inputs = [rng.standard_normal(shape_of(t)).astype(to_dtype(t.get_element_type())) for t in fn.function_type.inputs.data]
    return Kernel(f"example {path.stem}", None, inputs, lambda: run_function(module, inputs)[0], path=path,
                  numpy_label="interpreter")  # fmt: skip


# --- running -----------------------------------------------------------------------------------------


def with_constant_arguments(module, values: list[np.ndarray]):
    """The module with its function's last arguments replaced by ``graph.constant``s of ``values``."""
    from strati.dense import dense_from_numpy
    from strati.dialects.graph.ops import ConstantOp
    from xdsl.dialects.builtin import FunctionType

    fn = find_function(module)
    block = fn.body.block
    first = len(block.args) - len(values)
    for arg, value in reversed(list(zip(block.args[first:], values))):
        c = ConstantOp(dense_from_numpy(value))
        block.insert_op_before(c, block.first_op)
        arg.replace_all_uses_with(c.result)
        block.erase_arg(arg)
    inputs = fn.function_type.inputs.data[:first]
    fn.function_type = FunctionType.from_lists(list(inputs), list(fn.function_type.outputs.data))
    return module


def measure(kernel: Kernel, repeat: int, budget: float, constant_weights: bool = False) -> tuple[str, ...]:
    constant = constant_weights and kernel.weights > 0
    start = time.perf_counter()
    module = kernel.path if kernel.path else parse_module(make_context(), kernel.module_text)
    inputs = kernel.inputs
    if constant:
        module = with_constant_arguments(module, inputs[-kernel.weights :])
        inputs = inputs[: -kernel.weights]
    exe = strati.compile(module)
    compile_s = time.perf_counter() - start
    got = exe(*inputs)
    got = got[0] if isinstance(got, tuple) else got
    want = kernel.numpy()
    err = float(np.max(np.abs(got - want)) / max(float(np.max(np.abs(want))), 1e-30))
    t_strati = median_time(lambda: exe(*inputs), repeat, budget)
    t_numpy = median_time(kernel.numpy, repeat, budget)
    ort_cells = ("n/a", "n/a")
    if kernel.onnx is not None and (run_ort := (kernel.onnx(True) if constant else kernel.onnx())) is not None:
        t_ort = median_time(run_ort, repeat, budget)
        ort_cells = (ms(t_ort), f"{t_ort / t_strati:.2f}")
    numpy_cell = ms(t_numpy) + ("" if kernel.numpy_label == "numpy" else f" ({kernel.numpy_label})")
    rate = ("", "") if kernel.flops is None else (f"{kernel.flops / t_strati / 1e9:.0f}", f"{kernel.flops / t_strati / 1e9 / peak_gflops():.0%}")
    return (kernel.name, ms(t_strati), numpy_cell, f"{t_numpy / t_strati:.2f}", *ort_cells, *rate,
            f"{compile_s:.2f}", f"{err:.1e}")  # fmt: skip


def clock_ghz() -> float | None:
    """The clock the kernel reports (``cpu MHz`` of CPU 0 in /proc/cpuinfo), or None."""
    try:
        with open("/proc/cpuinfo") as f:
            return next(float(line.split(":", 1)[1]) for line in f if line.startswith("cpu MHz")) / 1000
    except (OSError, StopIteration, ValueError):
        return None


FMA_PIPES = 2
"""FMA units per core assumed for the peak (two on the x86 server cores of the last decade)."""


def peak_gflops() -> float:
    """f32 GFLOP/s of this machine from its target description: cores x lanes x 2 (FMA) x pipes x clock."""
    from strati.dialects.hw.cpu.target import host_cpu

    d = host_cpu()
    return d["cores"] * d["vector_width"] * (2 if d["fma"] else 1) * FMA_PIPES * (clock_ghz() or 1.0)


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}" if seconds < 0.01 else f"{seconds * 1e3:.1f}"


def host_cpu_line() -> str:
    from strati.dialects.hw.cpu.target import host_cpu

    d = host_cpu()
    clock = clock_ghz()
    return (f"{d['cores']} cores x {d['vector_width']} f32 lanes x {2 if d['fma'] else 1} (FMA) x {FMA_PIPES} pipes x "
            f"{'%.2f GHz' % clock if clock else '1 GHz (clock unknown)'}")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes only (matmul 128/256, conv 16ch 28x28, chain 256K)")
    parser.add_argument("--repeat", type=int, default=5, help="at least this many timed calls per measurement (default 5)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per measurement before stopping above --repeat")
    parser.add_argument("--only", metavar="TEXT", help="only the kernels whose name contains TEXT (e.g. 'matmul')")
    parser.add_argument("--constant-weights", action="store_true",
                        help="convolution and gemv weights are constants of the model (both sides), as in a real network")  # fmt: skip
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.quick:
        kernels = [matmul(128), matmul(256), conv(16, 28), conv(48, 28, groups=48), chain(256 * 1024)]
    else:
        kernels = [matmul(256), matmul(512), matmul(1024), matmul(2048), gemv(), conv(64, 56), conv(256, 14), conv(512, 7)]
        kernels += [conv(64, 56, stride=2, out_channels=128), conv(3, 224, kernel=7, stride=2, out_channels=64)]
        kernels += [conv(1024, 14, kernel=1, out_channels=256), chain(4 * 1024 * 1024)]
        # MobileNet-v2's 3x3 depthwise (144 channels, 56x56, strides 1 and 2) and ShuffleNet's grouped 1x1 (4 groups)
        kernels += [conv(144, 56, groups=144), conv(144, 56, stride=2, groups=144), conv(272, 14, kernel=1, groups=4)]
    kernels += [example(p) for p in sorted(EXAMPLES.glob("*.mlir"))]
    if args.only:
        kernels = [k for k in kernels if args.only in k.name]
    print(header(("numpy", "llvmlite", "xdsl", "onnxruntime")))
    print(f"# {' '.join(['bench/kernels.py', *(argv if argv is not None else sys.argv[1:])])}: median of >= {args.repeat} "
          f"calls (time budget {args.budget:g} s each); ratio = other / strati (above 1: strati faster)")  # fmt: skip
    print(f"# peak {peak_gflops():.0f} GFLOP/s = {host_cpu_line()}")
    print()
    print("| kernel | strati ms | numpy ms | numpy/strati | onnxruntime ms | ort/strati | GFLOP/s | peak | compile s | err |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for kernel in kernels:
        print("| " + " | ".join(measure(kernel, args.repeat, args.budget, args.constant_weights)) + " |", flush=True)


if __name__ == "__main__":
    main()
