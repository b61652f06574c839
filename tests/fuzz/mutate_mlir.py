"""Mutated .mlir files: the inputs of tests/lit, changed at random, through strati's tools.

Each seed file is one ``// -----`` chunk of a tests/lit input (RUN and CHECK lines
dropped).  A mutation changes tokens (numbers to extremes, element types, dimensions,
SSA names, op names), deletes, duplicates or swaps lines, or inserts and truncates
characters.  The mutant goes through ``strati-opt`` with a random pipeline (or
``strati-run``, or ``strati-translate``): whatever the input, the tool must exit 0, or
exit 1 with a diagnostic; an ``internal error``, a traceback, a signal or a hang is a bug.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

LIT = Path(__file__).resolve().parents[1] / "lit"
SPLIT = re.compile(r"^// -----[ \t]*$", re.MULTILINE)
NUMBER = re.compile(r"(?<![\w%#@.])-?\d+(\.\d+)?(e[+-]?\d+)?")
DIM = re.compile(r"(?<=[<x])\d+(?=x)")
ELEMENT = re.compile(r"\b(f16|f32|f64|i1|i8|i32|i64|index)\b")
SSA = re.compile(r"%[\w.$-]+")
OPNAME = re.compile(r"\b(graph|tensor|loop|hw|cpu|arith|math|memref|func)\.\w+")
EXTREMES = ["0", "-1", "1", "2", "-2147483648", "2147483647", "9223372036854775807", "-9223372036854775808",
            "99999999999999999999", "1.0e+300", "-0.0", "0x7FC00000", "65536", "3"]
JUNK = ['"', "{", "}", "(", ")", "<", ">", "[", "]", ",", ":", "=", "%", "#", "@", "^", "x", "?", "*", "\\", "\x00",
        "dense<", "tensor<", "-> ", "// -----", "loc(", "\"\\", "é"]
PIPELINES = [
    [], ["--emit=tensor"], ["--emit=loop"], ["--emit=hw"], ["--emit=llvm"], ["--emit=llvm", "-O3"],
    ["--emit=loop", "-O2"], ["-p", "infer-shapes"], ["-p", "fold-constants"], ["-p", "canonicalize"],
    ["-p", "simplify-inference"], ["-p", "fuse-ops"], ["-p", "canonicalize,cse,dce"], ["--print-op-generic"],
    ["-p", "fuse-generics"], ["-p", "fuse-loops"], ["-p", "plan-memory"],
]


@lru_cache(maxsize=1)
def seeds() -> tuple[str, ...]:
    """Every chunk of every .mlir input under tests/lit, without its RUN and CHECK lines."""
    chunks = []
    for path in sorted(LIT.rglob("*.mlir")):
        if "Output" in path.parts:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for chunk in SPLIT.split(text):
            lines = [line for line in chunk.splitlines() if not re.match(r"\s*//\s*(RUN|CHECK|COM)", line)]
            body = "\n".join(lines).strip()
            if body and ("func.func" in body or "builtin.module" in body or "graph." in body):
                chunks.append(body + "\n")
    return tuple(chunks)


def _replace_one(rng: random.Random, text: str, pattern: re.Pattern, choices) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    new = choices(m.group(0)) if callable(choices) else rng.choice(choices)
    return text[: m.start()] + new + text[m.end() :]


KINDS = [0] * 20 + [1] * 15 + [2] * 10 + [3] * 5 + [4] * 10 + [5] * 5 + [6] * 5 + [7] * 5 + [8] * 3 + [9] * 10 + [10] * 12
"""Mutation kinds, weighted towards those that keep the file parsing (so that passes see it);
kind 10 leaves the file as it is (a lit input through a random pipeline)."""


def mutate(text: str, rng: random.Random) -> str:
    """One random mutation of ``text``, sometimes two or three."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        kind = rng.choice(KINDS)
        lines = text.splitlines(keepends=True)
        if kind == 0:
            text = _replace_one(rng, text, NUMBER, EXTREMES)
        elif kind == 1:
            text = _replace_one(rng, text, DIM, lambda d: rng.choice(["0", "1", "?", str(int(d) + 1), "2", "1000000"]))
        elif kind == 2:
            text = _replace_one(rng, text, ELEMENT, ["f16", "f32", "f64", "i1", "i8", "i32", "i64", "index", "bf16"])
        elif kind == 3:
            names = sorted(set(SSA.findall(text)))
            text = _replace_one(rng, text, SSA, names + ["%undefined"]) if names else text
        elif kind == 4 and lines:
            del lines[rng.randrange(len(lines))]
            text = "".join(lines)
        elif kind == 5 and lines:
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            text = "".join(lines)
        elif kind == 6 and len(lines) > 1:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "".join(lines)
        elif kind == 7:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(JUNK) + text[at:]
        elif kind == 8:
            text = text[: rng.randrange(len(text) + 1)]
        elif kind == 9:
            text = _replace_one(rng, text, OPNAME, lambda _: rng.choice([m.group(0) for m in OPNAME.finditer(text)]))
    return text


def command(path: str, rng: random.Random) -> list[str]:
    """The tool invocation a mutant goes through."""
    roll = rng.random()
    if roll < 0.1:
        return ["strati-run", path, "--random-inputs", "0", "--backend", rng.choice(["interp", "jit"])]
    if roll < 0.15:
        return ["strati-translate", path, "--to", rng.choice(["llvm-ir", "dot"])]
    return ["strati-opt", path, *rng.choice(PIPELINES), "-o", "/dev/null"]


def case(seed: int, directory: Path) -> tuple[dict, Path]:
    """A mutant of a tests/lit input, written into ``directory``, and its tool run."""
    rng = random.Random(seed)
    valid = [s for s in seeds() if "expected-" not in s]  # most of those verify: mutants reach the passes
    text = mutate(rng.choice(valid if rng.random() < 0.75 else seeds()), rng)
    path = directory / f"mlir-{seed}.mlir"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return {"kind": "tool", "argv": command(str(path), rng)}, path
