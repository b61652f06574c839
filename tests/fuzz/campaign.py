"""A fuzzing campaign: cases from the three fuzzers in turn, each failure saved as a reproducer.

A failure is saved in ``OUT/<fuzzer>/<status>-<seed>.<ext>`` (the .mlir file or the ONNX
model) with ``<status>-<seed>.txt`` beside it: the command that shows it and what went
wrong.  Failures that match :data:`tests.fuzz.known.KNOWN` (bugs already filed) are
counted apart and saved under ``OUT/known/``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.fuzz import mutate_mlir, mutate_onnx, programs
from tests.fuzz.harness import FAILURES, Worker
from tests.fuzz.known import known_issue

FUZZERS = ("programs", "mlir", "onnx")
TIMEOUTS = {"programs": 90.0, "mlir": 20.0, "onnx": 20.0}


def program_case(seed: int, directory: Path) -> tuple[dict, Path]:
    text, _ = programs.generate(seed)
    path = directory / f"program-{seed}.mlir"
    path.write_text(text, encoding="utf-8")
    return {"kind": "program", "file": str(path), "seed": seed, "levels": [0, 1, 2, 3]}, path


MAKERS = {"programs": program_case, "mlir": mutate_mlir.case, "onnx": mutate_onnx.case}


def reproduce_command(case: dict, path: Path, level: int | None = None) -> str:
    if case["kind"] == "program":
        levels = case["levels"] if level is None else [level]
        return "; ".join(f"strati-run {path.name} --random-inputs {case['seed']} --check -O{k}" for k in levels)
    argv = [path.name if a == case["file_arg"] else a for a in case["argv"]] if "file_arg" in case else case["argv"]
    return " ".join(argv)


def save(out: Path, fuzzer: str, seed: int, case: dict, result: dict, path: Path, known: str | None) -> Path:
    folder = out / ("known" if known else fuzzer)
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{fuzzer}-{result['status']}-{seed}"
    target = folder / (stem + path.suffix)
    shutil.copyfile(path, target)
    case = dict(case, file_arg=str(path))
    case_text = reproduce_command(case, target, result.get("level")).replace(str(path), target.name)
    detail = result.get("detail", "").replace(str(path), target.name)
    note = [f"fuzzer: {fuzzer}, seed {seed}", f"status: {result['status']}", f"detail: {detail}",
            f"reproduce (in this folder): {case_text}"]
    if known:
        note.append(f"known: {known}")
    if "traceback" in result:
        note.append(result["traceback"])
    (folder / (stem + ".txt")).write_text("\n".join(note) + "\n", encoding="utf-8")
    return target


def run(fuzzers=FUZZERS, seed: int = 0, cases: int | None = None, seconds: float | None = None,
        out: Path | None = None, memory_mb: int = 4096, log=None) -> dict:
    """Run cases round-robin over ``fuzzers`` from ``seed`` until ``cases`` each or ``seconds`` pass.

    Returns the counts per fuzzer and outcome, and the failures (new and known)."""
    counts: dict[str, Counter] = {f: Counter() for f in fuzzers}
    failures: list[dict] = []
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="strati-fuzz-") as tmp, Worker(memory_mb) as worker:
        work = Path(tmp)
        n = 0
        while True:
            if cases is not None and n >= cases:
                break
            if seconds is not None and time.monotonic() - start > seconds:
                break
            for fuzzer in fuzzers:
                s = seed + n
                case, path = MAKERS[fuzzer](s, work)
                result = worker.run(case, TIMEOUTS[fuzzer])
                status = result["status"]
                known = known_issue(fuzzer, result, path) if status in FAILURES else None
                counts[fuzzer]["cases"] += 1
                counts[fuzzer][("known-" if known else "") + status] += 1
                if "exit" in result:  # a tool's run: how many inputs it accepted, how many it refused
                    counts[fuzzer][f"exit{result['exit']}"] += 1
                if status in FAILURES:
                    entry = {"fuzzer": fuzzer, "seed": s, "status": status, "detail": result.get("detail", ""),
                             "known": known}
                    if out is not None:
                        entry["reproducer"] = str(save(out, fuzzer, s, case, result, path, known))
                    failures.append(entry)
                    if log:
                        log(json.dumps(entry))
            n += 1
    return {"seconds": round(time.monotonic() - start, 1), "counts": {f: dict(c) for f, c in counts.items()},
            "failures": failures}
