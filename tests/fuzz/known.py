"""Failures the fuzzers find that are already filed (issue 12, part A) and being fixed elsewhere.

Each entry is (fuzzer or None for any, status, a regular expression on the detail, the
reason).  The campaign counts these apart (``known-<status>``) and the test slice does not
fail on them; an entry goes when its fix lands, so that the fuzzers guard the fix.
"""

from __future__ import annotations

import re

KNOWN: list[tuple[str | None, str, str, str]] = []


def known_issue(fuzzer: str, result: dict) -> str | None:
    detail = result.get("detail", "")
    for who, status, pattern, reason in KNOWN:
        if (who is None or who == fuzzer) and status == result["status"] and re.search(pattern, detail):
            return reason
    return None
