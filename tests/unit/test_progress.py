"""The progress line of a long compile: shown on a terminal only, one step per pass, cleared at the
end, silenced by --quiet; never on a pipe (what a program reads does not change)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import strati
from strati import progress
from strati.compiler import optimizations_for, passes_between
from strati.tools import run as strati_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch) -> Terminal:
    """stderr is a terminal and the line shows at once (set in the test body: pytest's capture
    replaces sys.stderr between a fixture's set-up and the test)."""
    stream = Terminal()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    return stream


def steps(text: str) -> list[str]:
    return [line for line in text.split("\r\x1b[K") if line]


def test_compile_shows_each_pass_then_clears(monkeypatch):
    terminal = on_terminal(monkeypatch)
    exe = strati.compile(EXAMPLES / "mlp.mlir", opt_level=2)
    shown = steps(terminal.getvalue())
    names = ["infer-shapes", *passes_between("graph", "hw", optimizations_for(2)),
             "LLVM: translate, optimize, generate code"]  # fmt: skip
    assert [s.split("] ", 1)[1].split(" (")[0] for s in shown] == names
    assert shown[0].startswith(f"strati: [1/{len(names)}] infer-shapes (") and " ops, " in shown[0]
    assert terminal.getvalue().endswith("\r\x1b[K")  # the line is cleared when the compile is done
    assert exe.compile_seconds.keys() >= set(names[:-1])  # the steps shown are the passes that ran


def test_not_a_terminal_or_before_the_delay_shows_nothing(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stderr", pipe)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    strati.compile(EXAMPLES / "mlp.mlir")
    assert pipe.getvalue() == ""
    tty = Terminal()
    monkeypatch.setattr("sys.stderr", tty)
    monkeypatch.setattr(progress, "DELAY", 3600.0)
    strati.compile(EXAMPLES / "mlp.mlir")
    assert tty.getvalue() == ""


def test_quiet(monkeypatch):
    terminal = on_terminal(monkeypatch)
    with progress.quiet():
        strati.compile(EXAMPLES / "mlp.mlir")
    assert terminal.getvalue() == ""
    strati.compile(EXAMPLES / "mlp.mlir")
    assert terminal.getvalue() != ""


@pytest.mark.parametrize("quiet", [False, True])
def test_strati_run_quiet_flag(monkeypatch, capsys, quiet):
    terminal = on_terminal(monkeypatch)
    monkeypatch.setattr(progress, "_silenced", 0)  # --quiet silences the whole process: undo it after
    args = [str(EXAMPLES / "mlp.mlir"), "--random-inputs", "0"] + (["--quiet"] if quiet else [])
    assert strati_run.run(args) == 0
    assert ("strati: [" in terminal.getvalue()) != quiet
    assert "output0: float32[4, 10]" in capsys.readouterr().out
