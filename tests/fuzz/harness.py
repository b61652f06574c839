"""Runs fuzz cases in a worker process with a time limit and a memory limit.

A case that kills the worker (a signal), outlives its time limit (a hang) or makes it
exceed its memory limit is reported as such, and the worker is restarted for the next
case: one process serves many cases, so a case costs milliseconds, not an interpreter
start-up.
"""

from __future__ import annotations

import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAILURES = {"signal", "hang", "internal-error", "bad-exit", "no-diagnostic", "mismatch", "compile-error",
            "worker-exception"}
"""Outcomes that are bugs; ``ok`` and ``invalid`` (a case the generator got wrong) are not."""


class Worker:
    """One ``python -m tests.fuzz.worker`` process, restarted after each crash or hang."""

    def __init__(self, memory_mb: int = 4096):
        self.memory_mb = memory_mb
        self.proc: subprocess.Popen | None = None
        self.buffer = b""

    def _limit(self) -> None:  # in the child, before exec
        os.setsid()
        if self.memory_mb:
            limit = self.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
               "PYTHONDONTWRITEBYTECODE": "1"}
        env.pop("STRATI_TRACEBACK", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=env, cwd=ROOT, preexec_fn=self._limit,
        )
        self.buffer = b""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def run(self, case: dict, timeout: float) -> dict:
        """The case's outcome: the worker's answer, or ``signal``/``hang`` with the details."""
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        start = time.monotonic()
        try:
            self.proc.stdin.write((json.dumps(case) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        fd = self.proc.stdout.fileno()
        deadline = start + timeout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.stop()
                return {"status": "hang", "detail": f"no answer after {timeout:g} s"}
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:  # the worker died
                    code = self.proc.wait()
                    self.proc = None
                    if code < 0:
                        name = signal.Signals(-code).name
                        return {"status": "signal", "detail": f"killed by {name}"}
                    return {"status": "bad-exit", "detail": f"the worker exited with status {code}"}
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        result = json.loads(line)
        result["seconds"] = round(time.monotonic() - start, 3)
        return result

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
