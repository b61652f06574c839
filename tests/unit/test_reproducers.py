"""The fuzzers' reproducers (tests/fuzz/reproducers, each row of its README) are regression
tests: each command now ends with exit status 0 or a one-line diagnostic (1), in time, never
an internal error, a traceback, a signal or a hang."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).parents[1] / "fuzz" / "reproducers"
ROWS = re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", (FOLDER / "README.md").read_text(encoding="utf-8"), re.MULTILINE)
BIN = Path(sys.executable).parent


def test_every_reproducer_has_a_row():
    assert sorted(f for f, _ in ROWS) == sorted(p.name for p in FOLDER.iterdir() if p.suffix in (".mlir", ".onnx"))


@pytest.mark.parametrize("file, command", ROWS, ids=[f for f, _ in ROWS])
def test_reproducer_gets_a_clean_answer(file, command):
    argv = [a if a != "F" else file for a in shlex.split(command.replace("\\|", "|"))]
    argv[0] = str(BIN / argv[0])
    done = subprocess.run(argv, cwd=FOLDER, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"})
    assert done.returncode in (0, 1), (done.returncode, done.stderr[-2000:])
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-2000:]
    if done.returncode == 1:
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
