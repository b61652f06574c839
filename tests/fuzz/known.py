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


def _unterminated_string(path: Path) -> bool:
    text = path.read_text(encoding="utf-8", errors="replace")
    return any(line.count('"') % 2 for line in text.splitlines())


def _huge_dimension(path: Path) -> bool:
    import onnx

    try:
        model = onnx.load(str(path), load_external_data=False)
    except Exception:  # noqa: BLE001
        return False
    dims = [d.dim_value for v in model.graph.input for d in v.type.tensor_type.shape.dim]
    dims += [d for init in model.graph.initializer for d in init.dims]
    return any(d >= 2**31 for d in dims)


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


KNOWN = [
    Known("programs", "compile-error", "issue 12: fusion bugs (a broadcast, gather or edge pad feeding a reduction "
          "fails in fuse-generics at -O2/-O3)", detail=r"-O[23]: .*no operand gives the extent of loop"),
    Known("mlir", "hang", "issue 12: an unterminated string literal lexes in exponential time (xDSL's string regex)",
          input=_unterminated_string),
    Known("mlir", "internal-error", "issue 12: use before definition is accepted (SSA dominance is not verified)",
          detail=r"Forward declared values do not have an owner|KeyError: <OpResult"),
    Known("mlir", "internal-error", "issue 12: malformed IR fails in a verifier with an internal error (an arith op "
          "on the wrong type, an integer literal out of its type's range)",
          detail=r"VerifyException: (Unexpected attribute|Integer value .* is out of range for type)"),
    Known("onnx", "signal", "issue 12: onnx's C++ shape inference aborts on a negative or odd declared dimension",
          detail="SIGABRT"),
    Known("onnx", "hang", "issue 12: no limit on elements per tensor (a 2**40 input dimension)", input=_huge_dimension),
    Known("onnx", "internal-error", "issue 12: ONNX edge cases give internal errors (initializer dims that do not "
          "match its data)", detail=r"ValueError: cannot reshape array of size"),
    Known("onnx", "internal-error", "issue 12: ONNX edge cases give internal errors (an attribute of the wrong type "
          "or a missing dimension)", detail=r"int\(\) argument must be|has no attribute 'HasField'"),
    Known("onnx", "internal-error", "issue 12: ONNX edge cases give internal errors (a node with too few inputs)",
          detail=r"IndexError: list index out of range|IndexError: tuple index out of range"),
]


def known_issue(fuzzer: str, result: dict, path: Path) -> str | None:
    for entry in KNOWN:
        if entry.matches(fuzzer, result, path):
            return entry.reason
    return None
