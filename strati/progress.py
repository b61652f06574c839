"""Progress of a long compile on the terminal: one line, rewritten in place, naming the step.

A compile that takes more than :data:`DELAY` seconds shows, on stderr,
``strati: [7/23] fuse-ops (1520 ops, 4.1 s)`` and clears it when done.  Nothing is
shown when stderr is not a terminal (logs, pipes, CI, tests) or inside
:func:`quiet` (the tools' ``--quiet``), so output that a program reads never
changes.  The compiler calls :func:`step` before each pass and stage; counting the
ops is only done for a line that is shown.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

DELAY = 2.0
"""Seconds into a compile before the first line is shown."""

_silenced = 0


@contextlib.contextmanager
def quiet(enabled: bool = True) -> Iterator[None]:
    """No progress lines within the block (when ``enabled``)."""
    global _silenced
    _silenced += enabled
    try:
        yield
    finally:
        _silenced -= enabled


def silence() -> None:
    """No progress lines from now on, in this process (the tools' ``--quiet``)."""
    global _silenced
    _silenced += 1


def top_level_ops(module: ModuleOp) -> int:
    """Ops directly in the functions' bodies: graph ops, or loop nests (cheap to count)."""
    return sum(len(block.ops) for fn in module.ops if isinstance(fn, func.FuncOp) for block in fn.body.blocks)


class Progress:
    """One compile's progress line; a no-op unless ``stream`` is a terminal and not silenced."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.count = 0
        self.start = time.perf_counter()
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = not _silenced and callable(isatty) and isatty()
        self.shown = False

    def step(self, name: str, module: ModuleOp | None = None) -> None:
        self.count += 1
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.start
        if elapsed < DELAY:
            return
        ops = f"{top_level_ops(module)} ops, " if module is not None else ""
        self.stream.write(f"\r\x1b[Kstrati: [{self.count}/{self.total}] {name} ({ops}{elapsed:.1f} s)")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


_current: Progress | None = None


@contextlib.contextmanager
def compiling(total: int) -> Iterator[Progress]:
    """The progress of one compile of ``total`` steps; within an outer compile, that one's."""
    global _current
    if _current is not None:
        yield _current
        return
    _current = Progress(total)
    try:
        yield _current
    finally:
        _current.done()
        _current = None


def step(name: str, module: ModuleOp | None = None) -> None:
    """The current compile starts step ``name`` (nothing outside :func:`compiling`)."""
    if _current is not None:
        _current.step(name, module)


__all__ = ["DELAY", "Progress", "compiling", "quiet", "silence", "step", "top_level_ops"]
