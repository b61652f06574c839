"""What the optimisation levels buy, measured in one run.

For each example model (and, with --onnx N, the first N conformance models that import),
at -O0 and at the highest level: graph op count, kernel count (top-level loop nests at
the loop level), peak temporary memory (one buffer per temporary at -O0; the planned arena
at -O3), median time per inference, and the largest difference from the interpreter.

    .venv/bin/python bench/optimize.py [--onnx N] [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp

import strati
from strati.compiler import OPT_LEVELS, load, lower_to, optimizations_for
from strati.dense import to_dtype
from strati.runtime.interpreter import find_function, run_function
from strati.transforms.plan_memory import memory_plan

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from machine import header  # noqa: E402


def graph_ops(module: ModuleOp) -> int:
    """Top-level graph ops of the entry function (a fused group counts once; constants do not)."""
    fn = find_function(module)
    return sum(1 for op in fn.body.block.ops if op.name.startswith("graph.") and op.name != "graph.constant")


def loop_level(module: ModuleOp, level: int) -> ModuleOp:
    return lower_to(module.clone(), "loop", optimizations_for(level))


def kernels(loop_module: ModuleOp) -> int:
    fn = find_function(loop_module)
    return sum(1 for op in fn.body.block.ops if op.name in ("loop.for", "cpu.parallel"))


def temporaries(loop_module: ModuleOp) -> int:
    """Bytes of memory.alloc'd temporaries (an arena counts once)."""
    total = 0
    for op in loop_module.walk():
        if isinstance(op, memref.AllocOp):
            t = op.memref.type
            total += int(np.prod(t.get_shape())) * to_dtype(t.get_element_type()).itemsize
    return total


def peak_bytes(module: ModuleOp, level: int) -> int:
    loops = loop_level(module, level)
    if "plan-memory" in optimizations_for(level):
        return temporaries(loops)  # the arena
    plans = memory_plan(loops)
    return sum(p["naive_bytes"] for p in plans.values()) if plans else 0


def median_time(exe, inputs, repeat: int) -> float:
    exe(*inputs)
    times = []
    deadline = time.perf_counter() + 2.0
    while len(times) < repeat or (time.perf_counter() < deadline and len(times) < 20 * repeat):
        start = time.perf_counter()
        exe(*inputs)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def inputs_for(module: ModuleOp, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    fn = find_function(module)
    out = []
    for t in fn.function_type.inputs.data:
        dtype = to_dtype(t.get_element_type())
        x = rng.standard_normal(t.get_shape()) if dtype.kind == "f" else rng.integers(0, 3, t.get_shape())
        out.append(np.asarray(x).astype(dtype))
    return out


def models(n_onnx: int):
    for path in sorted((ROOT / "examples").glob("*.mlir")):
        yield path.stem, load(path)
    if n_onnx:
        import onnx.backend.test

        from strati.frontends.onnx import import_model

        data = Path(onnx.backend.test.__file__).parent / "data"
        count = 0
        for model_path in sorted(data.glob("pytorch-converted/*/model.onnx")):
            if count >= n_onnx:
                break
            try:
                module = import_model(str(model_path))
            except Exception:  # noqa: BLE001 - unsupported models are simply not measured
                continue
            count += 1
            yield model_path.parent.name, module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--onnx", type=int, default=8, help="also measure the first N conformance models")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    high = max(OPT_LEVELS)
    print(header(note=f"strati -O0 vs -O{high}; times are medians of >= {args.repeat} calls"))
    print(f"| model | ops O0 | ops O{high} | kernels O0 | kernels O{high} | peak bytes O0 | peak bytes O{high} "
          f"| ms O0 | ms O{high} | O0/O{high} | max err O{high} |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, module in models(args.onnx):
        fn = find_function(module)
        if any(not hasattr(t, "get_shape") for t in fn.function_type.inputs.data):
            continue
        inputs = inputs_for(module)
        want = run_function(module, inputs)
        row = {}
        for level in (0, high):
            exe = strati.compile(module, opt_level=level)
            got = exe.run(*inputs)
            err = max((float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))) if g.size else 0.0)
                      for g, w in zip(got, want))
            loops = loop_level(module, level)
            row[level] = (graph_ops(lower_to(module.clone(), "graph", optimizations_for(level))), kernels(loops),
                          peak_bytes(module, level), median_time(exe, inputs, args.repeat) * 1e3, err)
        (o0, k0, p0, t0, _), (o3, k3, p3, t3, e3) = row[0], row[high]
        print(f"| {name} | {o0} | {o3} | {k0} | {k3} | {p0} | {p3} | {t0:.4f} | {t3:.4f} | {t0 / t3:.2f} | {e3:.2g} |")


if __name__ == "__main__":
    main()
