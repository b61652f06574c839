"""canonicalize: xDSL's canonicalization, with a bound on the sweeps.

The same rewrites as xDSL's ``canonicalize`` (every op's registered ``canonicalize``
patterns and rules, the folders, dead-code removal), one sweep over the IR at a time.
xDSL's driver repeats until nothing changes, which never ends when a plug-in's rules
undo each other; here a sweep that still changes the IR after ``max_iterations`` is an
error naming what still fires.  strati's pass takes the name, so pipelines (``-p
canonicalize``, the compile driver's -O1 and up) get the bounded one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from strati.transforms.apply_rules import apply_bounded


@dataclass(frozen=True)
class CanonicalizePass(ModulePass):
    """Every op's canonicalize patterns, the folders and dead-code removal, greedily, at most max_iterations sweeps."""

    name = "canonicalize"

    max_iterations: int = 32

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_bounded(op, ctx, None, self.max_iterations)
