"""The fuzzers (tests/fuzz) themselves, and a short seeded slice of each (issue 12).

The slices run a few dozen cases in a worker process with time and memory limits; they
fail on any failure that is not already filed in ``tests/fuzz/known.py``.  A long campaign
is ``python -m tests.fuzz --minutes 30 --out DIR`` (docs/tools.md).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # tests.fuzz, as `python -m tests.fuzz` finds it from the checkout

from tests.fuzz import campaign, mutate_mlir, mutate_onnx, programs  # noqa: E402
from tests.fuzz.harness import Worker  # noqa: E402

from strati.dialects.graph.ops import ALL_OPS  # noqa: E402
from strati.source import load_module  # noqa: E402


def new_failures(summary: dict) -> list[dict]:
    return [f for f in summary["failures"] if not f["known"]]


def test_every_graph_op_has_a_proposal():
    assert set(programs.PROPOSALS) == {cls.name.removeprefix("graph.") for cls in ALL_OPS}


def test_random_programs_cover_every_op_and_verify():
    seen: Counter = Counter()
    for seed in range(200):  # 142 seeds reach all 76 proposals (graph.greater is a rare one)
        text, ops = programs.generate(seed)
        seen.update(ops)
        if seed % 20 == 0:
            load_module(text, f"program-{seed}.mlir")  # parses and verifies, or raises
    assert set(seen) == set(programs.PROPOSALS), set(programs.PROPOSALS) - set(seen)


def test_a_convolution_of_an_empty_image_is_generated():
    """Seed 10342 proposes a conv2d on an image of 0 channels: its groups are 1 or 2, not a
    modulo by zero that ended the third 30-minute campaign of 2026-12-03 after 12 minutes."""
    text, ops = programs.generate(10342)
    assert "conv2d" in ops and "graph.conv2d" in text
    load_module(text, "program-10342.mlir")


def test_argmax_of_a_rounded_value_reads_it_tie_free():
    """Seed 20282: argmax over a conv2d of clipped values, tied in numpy, rounded a few ulp apart
    by the native code (vector body against remainder): the index differed. A rounded operand
    now gets a ramp along the axis; an exact one (an argument, a clip of one) keeps its ties."""
    import random

    p = programs.Program(random.Random(0))
    x = p.argument((3, 5))
    assert programs.tie_free(p, x, 1) is x and not x.rounded
    (clipped,) = p.emit("clip", [x], ["min = -1.0", "max = 1.0"])
    assert programs.tie_free(p, clipped, 1) is clipped
    (summed,) = p.emit("add", [clipped, clipped])
    free = programs.tie_free(p, summed, 1)
    assert summed.rounded and free is not summed and p.ops[-2:] == ["clip", "add"]
    ramp = p.values[-2]
    assert ramp.shape == (1, 5)
    text, _ = programs.generate(20282)
    argmax_operand = re.search(r"graph\.argmax (%\w+)", text).group(1)
    assert re.search(rf"{argmax_operand} = graph\.add %\w+, %c\d+", text), text


def test_generation_is_deterministic():
    assert programs.generate(7) == programs.generate(7)
    rng_a, rng_b = (__import__("random").Random(3) for _ in range(2))
    seed_text = mutate_mlir.seeds()[0]
    assert mutate_mlir.mutate(seed_text, rng_a) == mutate_mlir.mutate(seed_text, rng_b)


def test_mutation_seeds_come_from_the_lit_tests_and_onnx():
    assert len(mutate_mlir.seeds()) > 100
    directive = re.compile(r"^\s*//\s*(RUN|CHECK)", re.MULTILINE)
    assert not any(directive.search(s) for s in mutate_mlir.seeds())
    assert len(mutate_onnx.seeds()) > 100


def test_worker_survives_a_signal_and_a_hang():
    with Worker() as worker:
        assert worker.run({"kind": "selftest", "do": "signal"}, 30)["status"] == "signal"
        hang = worker.run({"kind": "selftest", "do": "hang"}, 2)
        assert hang["status"] == "hang" and "2 s" in hang["detail"]
        assert worker.run({"kind": "selftest", "do": "answer"}, 30)["status"] == "ok"


def test_a_tool_case_is_judged_by_its_diagnostics(tmp_path):
    good = tmp_path / "good.mlir"
    good.write_text("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  func.return %x : tensor<2xf32>\n}\n")
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n  %y = graph.relu %z : tensor<2xf32>\n")
    with Worker() as worker:
        assert worker.run({"kind": "tool", "argv": ["strati-opt", str(good)]}, 30) | {"seconds": 0} == {
            "status": "ok", "exit": 0, "seconds": 0}
        assert worker.run({"kind": "tool", "argv": ["strati-opt", str(bad)]}, 30)["status"] == "ok"


def test_a_miscompile_is_caught_and_the_pass_named(tmp_path):
    """A wrong fuse-ops (a plug-in overriding it: every graph.add a graph.sub) on a program with an add."""
    plugin = tmp_path / "wrong_fuse_ops.py"
    plugin.write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'tests' / 'unit' / 'plugins')!r})\n"
        "from wrong_passes import AddToSubPass\nfrom strati.transforms import register_pass\n"
        "class WrongFuseOps(AddToSubPass):\n    name = 'fuse-ops'\n"
        "register_pass(WrongFuseOps, level=50)\n"
    )
    program = tmp_path / "program.mlir"
    program.write_text(programs.generate(0, only=["add"])[0])
    with Worker() as worker:
        case = {"kind": "program", "file": str(program), "seed": 0, "levels": [0, 2]}
        assert worker.run(case, 120)["status"] == "ok"  # without the plug-in
        result = worker.run(dict(case, plugins=[str(plugin)]), 120)
    assert result["status"] == "mismatch" and result["level"] == 2
    assert result["detail"].startswith("-O2: output ")
    assert "check_passes: " in result["detail"] and "'graph.sub' op has a different result after pass 'fuse-ops'" in result["detail"]


@pytest.mark.parametrize("fuzzer, cases, seed", [("programs", 6, 1), ("mlir", 40, 1), ("onnx", 30, 1)])
def test_seeded_slice(fuzzer, cases, seed, tmp_path):
    summary = campaign.run([fuzzer], seed=seed, cases=cases, out=tmp_path)
    counts = summary["counts"][fuzzer]
    assert counts["cases"] == cases
    assert new_failures(summary) == [], json.dumps(new_failures(summary), indent=1)
    assert counts.get("ok", 0) + sum(v for k, v in counts.items() if k.startswith("known-")) + counts.get("invalid", 0) == cases


def test_a_failure_is_saved_with_the_command_that_shows_it(tmp_path):
    case, path = campaign.program_case(4, tmp_path)
    result = {"status": "mismatch", "level": 2, "detail": "-O2: output 0: max abs error 3"}
    saved = campaign.save(tmp_path / "out", "programs", 4, case, result, path, None)
    assert saved.read_text() == path.read_text()
    note = saved.with_suffix(".txt").read_text()
    assert "status: mismatch" in note and f"reproduce (in this folder): strati-run {saved.name} --random-inputs 4 --check -O2\n" in note


def test_campaign_command(tmp_path):
    out = tmp_path / "campaign"
    done = subprocess.run([sys.executable, "-m", "tests.fuzz", "--cases", "2", "--fuzzers", "mlir", "--seed", "3",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["counts"]["mlir"]["cases"] == 2
    assert done.returncode == (1 if new_failures(summary) else 0), done.stderr
    bad = subprocess.run([sys.executable, "-m", "tests.fuzz", "--fuzzers", "nope", "--out", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown fuzzer 'nope'" in bad.stderr
