"""Compile time of whole ONNX models: import -> executable, wall and CPU seconds, per stage.

The models are ResNet-50 and DenseNet-121 of the onnx package's ``light`` set (weights made
by ConstantOfShape, see tests/conformance/run.py).  Each is imported and ``strati.compile``d at
``-O3`` (after one small warm-up compile, so that no row pays for one-time start-up).  The
table gives the total wall and CPU seconds (CPU: this process's and its fork's, not the LLVM
worker processes'; on a shared, loaded machine it does not count the time other processes
took the cores), then the stages of ``Executable.compile_seconds`` (wall): ``passes`` (the
Python passes), ``apart`` (the share of the kernels lowered and translated in a fork,
:mod:`strati.runtime.apart`, meanwhile), ``translate`` (building LLVM IR with llvmlite),
``verify`` (of the hw-level module, while LLVM worker processes compile it in parts),
``parse``, ``optimize`` (LLVM's pipeline, with the parts' machine code) and ``codegen``
(machine code, or linking the parts').  The row of each model is its fastest compile (wall).
Informative only: nothing is asserted.  From the repository root::

    .venv/bin/python bench/compile_time.py [--models resnet50,densenet121] [--repeat 1] [--passes]

``--passes`` also prints every pass's seconds.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from machine import header  # noqa: E402

GOALS = {"resnet50": 3.0, "densenet121": 6.0}
"""Seconds the compile should stay within (issue 9)."""

CODEGEN_STAGES = ("translate", "verify", "parse", "optimize", "codegen")
APART = "apart"
"""The stage of the kernels compiled in a fork: ``compile_seconds``' keys that start so."""


def light_model(name: str):
    import onnx

    path = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light" / f"light_{name}.onnx"
    if not path.exists():
        raise SystemExit(f"{path}: not found (the onnx package's light models)")
    return onnx.load(str(path))


def cpu_seconds() -> float:
    """CPU seconds of this process (all threads) and of its children that ended (the fork)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def compile_once(model) -> tuple[float, float, dict[str, float]]:
    """Wall seconds, CPU seconds, and the executable's per-stage times."""
    import strati
    from strati.frontends.onnx import import_model

    wall, cpu = time.perf_counter(), cpu_seconds()
    imported = time.perf_counter()
    module = import_model(model)
    imported = time.perf_counter() - imported
    exe = strati.compile(module)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    return wall, cpu, {"import": imported, **exe.compile_seconds}


def group(stages: dict[str, float]) -> dict[str, float]:
    """Per-pass seconds summed into: import, passes (all Python passes), and each code generator stage."""
    out = {"import": stages.get("import", 0.0)}
    out["passes"] = sum(v for k, v in stages.items() if k not in CODEGEN_STAGES and k != "import" and not k.startswith("kernels apart"))
    out[APART] = sum(v for k, v in stages.items() if k.startswith("kernels apart"))
    for k in CODEGEN_STAGES:
        out[k] = stages.get(k, 0.0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default=",".join(GOALS))
    ap.add_argument("--repeat", type=int, default=1, help="compiles per model (the fastest is shown)")
    ap.add_argument("--passes", action="store_true", help="also print every pass's seconds")
    args = ap.parse_args()
    import numpy as np

    import strati

    print(header(note="compile times from a shared machine: CPU s is the fairer figure") + "\n")
    warm = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  %y = graph.relu %x : tensor<4xf32>\n  func.return %y : tensor<4xf32>\n}"
    from strati.context import make_context
    from strati.source import parse_module

    strati.compile(parse_module(make_context(), warm, "warm.mlir"))(np.zeros(4, np.float32))
    stage_names = ("import", "passes", APART, *CODEGEN_STAGES)
    print("| model | wall s | CPU s | goal s | " + " | ".join(stage_names) + " |")
    print("|---|---|---|---|" + "---|" * len(stage_names))
    details = []
    for name in args.models.split(","):
        model = light_model(name)
        runs = [compile_once(model) for _ in range(args.repeat)]
        wall, cpu, stages = min(runs, key=lambda r: r[0])
        grouped = group(stages)
        cells = " | ".join(f"{grouped[k]:.2f}" for k in stage_names)
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {GOALS.get(name, float('nan')):.0f} | {cells} |")
        details.append((name, stages))
    if args.passes:
        for name, stages in details:
            print(f"\n{name}: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(stages.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
