"""docs/hardware-dialect.md cannot rot: each chapter's file under examples/dsp runs, and
prints what the tutorial shows; the DSP target stays within 200 lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DSP = Path(__file__).parents[2] / "examples" / "dsp"
DOC = Path(__file__).parents[2] / "docs" / "hardware-dialect.md"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("chapter, shows", [
    ("ch1_target.py", '#hw.target<"dsp", lanes = 4>'),
    ("ch2_dialect.py", "dsp.mac %x, %w into %y[%c0, %c0, %c0] lanes 8 : memref<2x8xf32>, memref<8x3xf32> into memref<2x3xf32>"),
    ("ch3_lowering.py", "dsp.mac %x, %w into %out[%3, %4, %6] lanes 8"),
    ("ch4_run.py", "dsp.mac instructions in the program: 2; the results match"),
])
def test_chapter_runs_and_shows_what_the_tutorial_says(chapter, shows):
    done = run(sys.executable, str(DSP / chapter))
    assert done.returncode == 0, done.stderr
    assert shows in done.stdout
    assert shows in DOC.read_text(encoding="utf-8")  # the tutorial quotes it


def test_a_malformed_mac_is_one_line():
    text = """func.func @f(%x: memref<2x6xf32>, %w: memref<6x3xf32>, %y: memref<2x3xf32>, %c0: index) {
  dsp.mac %x, %w into %y[%c0, %c0, %c0] lanes 4 : memref<2x6xf32>, memref<6x3xf32> into memref<2x3xf32>
  func.return
}"""
    done = subprocess.run([Path(sys.executable).parent / "strati-opt", "--load-plugin", str(DSP / "ch3_lowering.py"), "-"],
                          input=text, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "6 columns are not a whole number of 4-lane vectors" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_dsp_stays_within_200_lines():
    assert sum(len(f.read_text().splitlines()) for f in DSP.glob("ch*.py")) <= 200
