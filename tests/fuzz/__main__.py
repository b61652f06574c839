"""``python -m tests.fuzz [--minutes M | --cases N] [--seed S] [--fuzzers programs,mlir,onnx] --out DIR``

Runs a campaign (:mod:`tests.fuzz.campaign`), prints every failure as it is found (one
JSON line) and the counts at the end; exit status 1 when a failure is not a known one.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tests.fuzz.campaign import FUZZERS, run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description="Run strati's fuzzers; save every failure.")
    ap.add_argument("--minutes", type=float, help="run for this long (default: 1 minute unless --cases)")
    ap.add_argument("--cases", type=int, help="run this many cases per fuzzer")
    ap.add_argument("--seed", type=int, default=0, help="the first seed (cases use seed, seed+1, ...)")
    ap.add_argument("--fuzzers", default=",".join(FUZZERS), help=f"a comma-separated subset of {','.join(FUZZERS)}")
    ap.add_argument("--out", required=True, help="the folder reproducers are saved in")
    ap.add_argument("--memory-mb", type=int, default=4096, help="the worker's address-space limit (0: none)")
    args = ap.parse_args(argv)
    fuzzers = [f for f in args.fuzzers.split(",") if f]
    if unknown := [f for f in fuzzers if f not in FUZZERS]:
        ap.error(f"unknown fuzzer '{unknown[0]}' (fuzzers: {', '.join(FUZZERS)})")
    if (args.minutes is not None and args.minutes <= 0) or (args.cases is not None and args.cases <= 0):
        ap.error("--minutes and --cases must be positive")
    seconds = args.minutes * 60 if args.minutes is not None else (None if args.cases else 60.0)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = run(fuzzers, args.seed, args.cases, seconds, out, args.memory_mb, log=print)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({"seconds": summary["seconds"], "counts": summary["counts"]}, indent=2))
    new = [f for f in summary["failures"] if not f["known"]]
    print(f"{len(summary['failures'])} failures ({len(new)} new), reproducers in {out}/", file=sys.stderr)
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
