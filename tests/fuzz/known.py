"""Failures the fuzzers find that are already filed, being fixed elsewhere (issue 12, part A).

Each entry names the fuzzer, the outcome, a test on the failure (its detail, and the input
file where the detail cannot tell) and the reason, with the issue it is filed under.  The
campaign counts them apart (``known-<status>``) and the test slice does not fail on them.
An entry goes when its fix lands, so that the fuzzers then guard the fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Known:
    fuzzer: str
    status: str
    reason: str
    detail: str = ""
    input: Callable[[Path], bool] | None = None

    def matches(self, fuzzer: str, result: dict, path: Path) -> bool:
        return (self.fuzzer == fuzzer and self.status == result["status"]
                and re.search(self.detail, result.get("detail", "")) is not None
                and (self.input is None or self.input(path)))


KNOWN: list[Known] = []
"""Empty: every failure filed so far is fixed (tests/unit/test_reproducers.py keeps them so)."""


def known_issue(fuzzer: str, result: dict, path: Path) -> str | None:
    for entry in KNOWN:
        if entry.matches(fuzzer, result, path):
            return entry.reason
    return None
