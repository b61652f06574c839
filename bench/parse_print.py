"""Throughput of parse, verify and print: strati (graph dialect) beside plain xDSL (arith/math).

Generates one ``func.func`` holding a random but seeded DAG of N ops on small
tensors, twice:

* strati: ``graph.add``, ``graph.mul``, ``graph.relu``, ``graph.exp`` and
  ``graph.matmul`` on ``tensor<4x8xf32>`` (the matmul's right operand is an
  ``8x8`` weight, so it is written with the long ``(..) -> ..`` type form);
* xDSL:   the same DAG with ``arith.addf``, ``arith.mulf``, ``math.absf``,
  ``math.exp`` and ``arith.subf`` (upstream has no one-op tensor matmul, so
  subf stands in for it, with a ``4x8`` weight), parsed with a plain
  ``xdsl.context.Context`` holding builtin, func, arith and math.

Each phase runs in-process and is timed separately; the table gives the median
over the repetitions as ops/s, where ops = N (the generated ops; the
module/func/return are not counted):

* parse  -- ``strati.source.parse_module(make_context(), text)`` vs
  ``xdsl.parser.Parser(ctx, text).parse_module()``
* verify -- ``strati.diagnostics.verify_module(module)`` vs ``module.verify()``
* print  -- ``strati.source.module_text(module)`` vs ``str(module)``
* cli    -- end-to-end wall time of ``strati-opt FILE -o /dev/null`` vs
  ``xdsl-opt FILE -o /dev/null`` (a subprocess: includes interpreter start-up
  and imports; median of 3)

Ratio = strati ops/s / xdsl ops/s (above 1: strati is faster).  Informative only:
nothing is asserted.  Run from the repository root::

    .venv/bin/python bench/parse_print.py [--sizes 1000,10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.arith import Arith
from xdsl.dialects.builtin import Builtin
from xdsl.dialects.func import Func
from xdsl.dialects.math import Math
from xdsl.parser import Parser

from strati.context import make_context
from strati.diagnostics import verify_module
from strati.source import module_text, parse_module

sys.path.insert(0, str(Path(__file__).parent))
from machine import header  # noqa: E402

T = "tensor<4x8xf32>"
W_STRATI = "tensor<8x8xf32>"
# kind -> (strati op, xdsl op, arity)
KINDS = {
    "add": ("graph.add", "arith.addf", 2),
    "mul": ("graph.mul", "arith.mulf", 2),
    "relu": ("graph.relu", "math.absf", 1),
    "exp": ("graph.exp", "math.exp", 1),
    "matmul": ("graph.matmul", "arith.subf", 2),
}
BIN_DIR = Path(sys.executable).parent


def generate(n: int, seed: int = 0) -> tuple[str, str]:
    """The strati and the xDSL text of the same n-op DAG.

    Op i takes the previous value and, if binary, a random one of the last 16
    values (or ``%w`` for matmul), so the graph is a chain with skip edges.
    """
    rng = random.Random(seed)
    strati, xdsl = [], []
    values = ["%a", "%b"]
    for i in range(n):
        kind = rng.choice(list(KINDS))
        s_op, x_op, arity = KINDS[kind]
        args = [values[-1]]
        if arity == 2:
            args.append("%w" if kind == "matmul" else rng.choice(values[-16:]))
        res, operands = f"%v{i}", ", ".join(args)
        s_type = f"({T}, {W_STRATI}) -> {T}" if kind == "matmul" else T
        strati.append(f"    {res} = {s_op} {operands} : {s_type}")
        xdsl.append(f"    {res} = {x_op} {operands} : {T}")
        values.append(res)

    def wrap(body: list[str], w_type: str) -> str:
        head = f"builtin.module {{\n  func.func @g(%a: {T}, %b: {T}, %w: {w_type}) -> {T} {{"
        tail = f"    func.return {values[-1]} : {T}\n  }}\n}}\n"
        return "\n".join([head, *body, tail])

    return wrap(strati, W_STRATI), wrap(xdsl, T)


def xdsl_context() -> Context:
    ctx = Context()
    for dialect in (Builtin, Func, Arith, Math):
        ctx.load_dialect(dialect)
    return ctx


def median_time(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of fn() over repeat runs, each after a full garbage collection."""
    times = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_time(tool: str, path: str, repeat: int = 3) -> float:
    cmd = [str(BIN_DIR / tool), path, "-o", os.devnull]
    return median_time(lambda: subprocess.run(cmd, check=True), repeat)


def measure(n: int, repeat: int) -> list[tuple[str, float, float]]:
    """(phase, strati seconds, xdsl seconds) for an n-op module."""
    s_text, x_text = generate(n)
    s_mod = parse_module(make_context(), s_text)
    x_mod = Parser(xdsl_context(), x_text).parse_module()
    assert verify_module(s_mod) is None
    x_mod.verify()
    rows = [
        ("parse",
         median_time(lambda: parse_module(make_context(), s_text), repeat),
         median_time(lambda: Parser(xdsl_context(), x_text).parse_module(), repeat)),
        ("verify", median_time(lambda: verify_module(s_mod), repeat), median_time(x_mod.verify, repeat)),
        ("print", median_time(lambda: module_text(s_mod), repeat), median_time(lambda: str(x_mod), repeat)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        s_path, x_path = Path(tmp, "strati.mlir"), Path(tmp, "xdsl.mlir")
        s_path.write_text(s_text)
        x_path.write_text(x_text)
        rows.append(("cli", cli_time("strati-opt", str(s_path)), cli_time("xdsl-opt", str(x_path))))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000", help="comma-separated op counts (default 1000,10000)")
    ap.add_argument("--repeat", type=int, default=5,
                    help="in-process repetitions per phase (default 5; at most 3 for sizes above 5000)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    print(header(("xdsl",)))
    print()
    print("| size | phase | strati ops/s | xdsl ops/s | strati/xdsl | strati s | xdsl s |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for n in sizes:
        repeat = max(1, min(args.repeat, 3) if n > 5000 else args.repeat)
        for phase, s, x in measure(n, repeat):
            print(f"| {n} | {phase} | {n / s:,.0f} | {n / x:,.0f} | {x / s:.2f} | {s:.3f} | {x:.3f} |", flush=True)


if __name__ == "__main__":
    main()
