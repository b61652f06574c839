"""Canonicalization with the rules (strati/dialects/graph/canonicalize.rules) against the
hand-written Python patterns they replaced, in one run, on the same modules.

The old patterns are read from git history (the last commit that had them) and kept only
inside this benchmark; both tables run under the same driver (xDSL's canonicalize:
greedy, folding, dead code removal), each on a fresh clone of each module.  Workloads:
the functions of tests/lit/transforms/canonicalize-graph.mlir (every rule fires there),
the same file repeated 20 times, and the example models (few rewrites, many ops to try).
The output IR of the two must be identical; the table says so.  The one pattern that
stayed in Python (constants folded through shape ops) is today's in both tables.

    .venv/bin/python bench/rules.py [--repeat N] [--commit REV]
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.transforms.dead_code_elimination import region_dce

from strati import registry
from strati.context import make_context
from strati.source import module_text, parse_module

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from machine import header  # noqa: E402

OLD_FILE = "strati/dialects/graph/attrs/canonicalize.py"
OLD_COMMIT = "dfd9212"  # the last commit with the Python patterns


def old_patterns(commit: str) -> dict[str, tuple[RewritePattern, ...]]:
    """The Python pattern table as it was at ``commit``, without registering it."""
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{OLD_FILE}"],
                            capture_output=True, text=True, check=True).stdout
    source = re.sub(r"\nfor _name, _patterns in CANONICALIZATIONS.items\(\):\n.*", "\n", source, flags=re.S)
    module = types.ModuleType("old_canonicalize")
    exec(compile(source, f"{commit}:{OLD_FILE}", "exec"), module.__dict__)
    # The constant folding through shape ops was not replaced by rules (and has changed since):
    # both tables use today's, so that the two differ only in what the rules replaced.
    from strati.dialects.graph.attrs.canonicalize import FOLD_SHAPE

    return {name: tuple(FOLD_SHAPE if type(p).__name__ == "FoldShapeOfConstant" else p for p in patterns)
            for name, patterns in module.CANONICALIZATIONS.items()}


def new_patterns() -> dict[str, tuple[RewritePattern, ...]]:
    import strati.dialects.graph  # noqa: F401  (registers the rules)

    return {op: tuple(registry.get_op_attr(op, "canonicalize")) for op in registry.registered_ops()
            if registry.has_op_attr(op, "canonicalize")}


class ByName(RewritePattern):
    """What xDSL's canonicalize does for a registered op: its patterns, in order."""

    def __init__(self, table: dict[str, tuple[RewritePattern, ...]]):
        self.table = {name: GreedyRewritePatternApplier(list(ps), dce_enabled=False) for name, ps in table.items()}

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        applier = self.table.get(op.name)
        if applier is not None:
            applier.match_and_rewrite(op, rewriter)


def canonicalize(module: ModuleOp, table: ByName, ctx: Context) -> None:
    applier = GreedyRewritePatternApplier([table], ctx=ctx, folding_enabled=True)
    PatternRewriteWalker(applier, post_walk_func=region_dce).rewrite_module(module)


def workloads(ctx: Context) -> list[tuple[str, ModuleOp]]:
    lit = (ROOT / "tests/lit/transforms/canonicalize-graph.mlir").read_text()
    body = "\n".join(line for line in lit.splitlines() if not line.startswith("//"))
    funcs = ["func.func " + f for f in body.split("func.func ")[1:]]
    repeated = "\n".join(re.sub(r"@(\w+)\(", rf"@\1_{i}(", f) for i in range(20) for f in funcs)
    found = [("canonicalize-graph.mlir", "\n".join(funcs)), ("canonicalize-graph.mlir x20", repeated)]
    found += [(p.name, p.read_text()) for p in sorted((ROOT / "examples").glob("*.mlir"))]
    return [(name, parse_module(ctx, text, name)) for name, text in found]


def ops_in(module: ModuleOp) -> int:
    return sum(1 for _ in module.walk()) - 1


def timed(module: ModuleOp, tables: list[ByName], ctx: Context, repeat: int) -> list[tuple[float, str]]:
    """Median time and output of each table on ``module``; the tables take turns, so that
    a change in the machine's load falls on both alike."""
    times: list[list[float]] = [[] for _ in tables]
    outs = [""] * len(tables)
    for _ in range(repeat):
        for i, table in enumerate(tables):
            clone = module.clone()
            start = time.perf_counter()
            canonicalize(clone, table, ctx)
            times[i].append(time.perf_counter() - start)
            outs[i] = module_text(clone)
    return [(statistics.median(t), out) for t, out in zip(times, outs)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=40)
    ap.add_argument("--commit", default=OLD_COMMIT, help="the revision to read the Python patterns from")
    args = ap.parse_args()
    ctx = make_context()
    try:
        old = ByName(old_patterns(args.commit))
    except (subprocess.CalledProcessError, FileNotFoundError) as err:
        sys.exit(f"bench/rules.py: error: cannot read {OLD_FILE} at {args.commit} from git: {err}")
    new = ByName(new_patterns())
    print(header(("xdsl", "lark")))
    print(f"# median of {args.repeat} runs of canonicalize on a fresh clone, the two tables taking turns; python = {OLD_FILE} at {args.commit}")
    rows = [("workload", "ops", "python ms", "rules ms", "rules/python", "same IR")]
    for name, module in workloads(ctx):
        (t_old, out_old), (t_new, out_new) = timed(module, [old, new], ctx, args.repeat)
        rows.append((name, str(ops_in(module)), f"{t_old * 1e3:.2f}", f"{t_new * 1e3:.2f}", f"{t_new / t_old:.2f}",
                     "yes" if out_old == out_new else "NO"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))


if __name__ == "__main__":
    main()
