"""Compile time against graph size: does it grow about linearly?

Two shapes of graph, each at sizes N and 2N (parsed once, then ``strati.compile``d):

* chain  -- N ``graph.relu`` in a row (one fusion group at -O3: N generics fuse into one);
* concat -- one ``graph.concat`` of N ``tensor<1xf32>`` arguments.

The table gives seconds per phase (wall clock, and the process's CPU time, which a loaded
machine disturbs less) and the ratio time(2N) / time(N): about 2 is linear, about 4 quadratic.
Informative only (nothing is asserted; tests/unit/test_compile_scaling.py guards the class with
counts); run on a quiet machine::

    .venv/bin/python bench/compile_scaling.py [--sizes 500,1000] [--graph chain|concat] [-O 3]
    .venv/bin/python bench/compile_scaling.py --graph chain --sizes 25000,50000
    .venv/bin/python bench/compile_scaling.py --graph concat --sizes 5000,10000
"""

from __future__ import annotations

import argparse
import time

import strati
from strati.context import make_context
from strati.source import parse_module


def chain(n: int) -> str:
    lines = ["func.func @f(%x: tensor<16xf32>) -> tensor<16xf32> {"]
    prev = "%x"
    for i in range(n):
        lines.append(f"  %r{i} = graph.relu {prev} : tensor<16xf32>")
        prev = f"%r{i}"
    lines.append(f"  func.return {prev} : tensor<16xf32>\n}}")
    return "\n".join(lines)


def concat(n: int) -> str:
    args = ", ".join(f"%a{i}: tensor<1xf32>" for i in range(n))
    operands = ", ".join(f"%a{i}" for i in range(n))
    types = ", ".join("tensor<1xf32>" for _ in range(n))
    return (
        f"func.func @f({args}) -> tensor<{n}xf32> {{\n"
        f"  %c = graph.concat {operands} {{axis = 0}} : ({types}) -> tensor<{n}xf32>\n"
        f"  func.return %c : tensor<{n}xf32>\n}}"
    )


def measure(make, n: int, opt_level: int) -> tuple[float, float, float]:
    """Seconds to parse, to compile, and the CPU seconds of the compile."""
    text = make(n)
    start = time.perf_counter()
    module = parse_module(make_context(), text, "bench.mlir")
    parsed = time.perf_counter()
    cpu = time.process_time()
    strati.compile(module, opt_level=opt_level)
    return parsed - start, time.perf_counter() - parsed, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,1000", help="N,2N")
    ap.add_argument("--graph", choices=("chain", "concat"), help="only this graph (default: both)")
    ap.add_argument("-O", dest="opt_level", type=int, default=3)
    args = ap.parse_args()
    small, large = (int(s) for s in args.sizes.split(","))
    print("| graph | N | parse (s) | compile (s) | CPU (s) | 2N | parse (s) | compile (s) | CPU (s) | compile ratio | CPU ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, make in (("chain", chain), ("concat", concat)):
        if args.graph not in (None, name):
            continue
        p1, c1, u1 = measure(make, small, args.opt_level)
        p2, c2, u2 = measure(make, large, args.opt_level)
        print(f"| {name} | {small} | {p1:.2f} | {c1:.2f} | {u1:.2f} | {large} | {p2:.2f} | {c2:.2f} | {u2:.2f} "
              f"| {c2 / c1:.2f} | {u2 / u1:.2f} |", flush=True)


if __name__ == "__main__":
    main()
