"""What the counters of ``profile-kernels`` measured, as a table: where a call's time goes.

An executable compiled with ``profile=True`` (``strati-run --profile``) owns an array of
counters (:mod:`strati.dialects.loop.profile`); :meth:`Executable.profile
<strati.runtime.jit.Executable.profile>` reads it into a :class:`Profile` and sets it to
zero.  Cycles become seconds at the cycle counter's rate, measured once per process against
``time.perf_counter`` (:func:`cycles_per_second`): on x86 the time-stamp counter, which runs
at a constant rate whatever the cores' clock.
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass

import numpy as np

from strati.dialects.loop.profile import SLOTS, WHOLE_CALL

_clock: dict[str, object] = {}  # "rate": cycles per second; "engine": the JIT owning the reader's code


def cycles_per_second() -> float:
    """The rate of ``llvm.readcyclecounter`` here, measured over 20 ms (once per process)."""
    if "rate" not in _clock:
        from strati.runtime.jit import _LOCK
        from strati.runtime.llvm_worker import host_target_machine, llvm_binding

        llvm = llvm_binding()
        with _LOCK:
            module = llvm.parse_assembly(
                "declare i64 @llvm.readcyclecounter()\n"
                "define i64 @strati.cycles() {\n  %t = call i64 @llvm.readcyclecounter()\n  ret i64 %t\n}\n"
            )
            engine = llvm.create_mcjit_compiler(module, host_target_machine(jit=True))
            engine.finalize_object()
            read = ctypes.CFUNCTYPE(ctypes.c_int64)(engine.get_function_address("strati.cycles"))
        c0, t0 = read(), time.perf_counter()
        while time.perf_counter() - t0 < 0.02:
            pass
        c1, t1 = read(), time.perf_counter()
        _clock["engine"] = engine
        _clock["rate"] = (c1 - c0) / (t1 - t0) if c1 > c0 else 1e9  # a counter that does not run: as 1 GHz
    return float(_clock["rate"])  # type: ignore[arg-type]


@dataclass(frozen=True)
class Row:
    label: str
    calls: int
    seconds: float
    """Summed over the calls."""


@dataclass(frozen=True)
class Profile:
    """The rows of the measured kernels (largest first) and the whole calls' row."""

    function: str
    rows: list[Row]
    total: Row

    def table(self, top: int | None = 20) -> str:
        """A table of the ``top`` largest rows (all: None): time per call, share of the call."""
        calls = max(1, self.total.calls)
        whole = self.total.seconds / calls
        unit, scale = ("ms", 1e3) if whole >= 1e-3 else ("us", 1e6)
        lines = [f"profile of @{self.function}: {self.total.calls} calls, {whole * scale:.3f} {unit} of native code per call"]
        if self.total.calls == 0:
            return lines[0] + " (nothing measured)"

        def line(seconds: float, what: str) -> str:
            per_call = seconds / calls
            return f"{per_call * scale:9.3f} {100 * per_call / whole if whole else 0:5.1f}%  {what}"

        lines.append(f"{unit + '/call':>9} {'share':>6}  kernel")
        shown = self.rows if top is None else self.rows[:top]
        lines += [line(row.seconds, row.label) for row in shown]
        if len(shown) < len(self.rows):
            lines.append(line(sum(r.seconds for r in self.rows[len(shown):]), f"({len(self.rows) - len(shown)} more rows)"))
        outside = self.total.seconds - sum(r.seconds for r in self.rows)
        lines.append(line(outside, "(between the kernels: allocation, views)"))
        return "\n".join(lines)


def read_profile(function: str, labels: list[str], counters: np.ndarray) -> Profile:
    """The counters as a :class:`Profile`, then zero (the next one counts from here)."""
    rate = cycles_per_second()
    slots = counters.reshape(-1, SLOTS)
    rows = [Row(label, int(slots[i, 2]), float(slots[i, 1]) / rate) for i, label in enumerate(labels)]
    counters[:] = 0
    whole = [r for r in rows if r.label == f"@{function} {WHOLE_CALL}"]
    total = whole[0] if whole else Row(f"@{function} {WHOLE_CALL}", 0, 0.0)
    kernels = sorted((r for r in rows if r.calls and not r.label.endswith(WHOLE_CALL)), key=lambda r: -r.seconds)
    return Profile(function, kernels, total)


__all__ = ["Profile", "Row", "cycles_per_second", "read_profile"]
