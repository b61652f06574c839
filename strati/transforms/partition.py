"""partition: which ops of a graph-level module go to an accelerator, and which stay on the host.

As TVM's BYOC does, the target's own patterns decide: an op goes to the target when one of
the target's strategies applies to it (:func:`strati.strategy.choose`), and every other op
stays on the host CPU, where its own ``lower`` implements it.  The pass writes the decision
on each op that has none yet, ``{strati.placement = "npu"}``, numbers the connected groups of ops placed on
the target (``strati.partition = N``), and notes on stderr what falls back to the host.
``convert-graph-to-tensor`` then honours the placement, so a person may move an op back to
the host by editing its attribute.  On the host target itself there is nothing to decide.

Options: ``target`` (default: the module's description's, else the host) and ``notes``.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, i64
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass

from strati.dialects.hw.target import DEFAULT_TARGET, target_of
from strati.strategy import PLACEMENT, choose

PARTITION = "strati.partition"


@dataclass(frozen=True)
class PartitionPass(ModulePass):
    """Place each graph op on the target (when one of its strategies applies) or on the host."""

    name = "partition"

    target: str | None = None
    notes: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, description = target_of(op, self.target)
        name = description.target_name
        if name == DEFAULT_TARGET:
            return
        for fn in op.walk():
            if isinstance(fn, FuncOp):
                self.place(fn, description, name)

    def place(self, fn: FuncOp, description, name: str) -> None:
        group: dict = {}  # op on the target -> the first op of its connected group

        def root(o):
            while group[o] is not o:
                o = group[o]
            return o

        fallback: Counter[str] = Counter()
        for inner in fn.walk():
            if inner.dialect_name() != "graph" or inner.regions or not inner.results or inner.name == "graph.constant":
                continue
            if choose(inner, description) is None:  # a placement already there (a person's) is kept
                inner.attributes[PLACEMENT] = StringAttr(DEFAULT_TARGET)
                fallback[inner.name] += 1
                continue
            inner.attributes[PLACEMENT] = StringAttr(name)
            group[inner] = inner
            for operand in inner.operands:
                if operand.owner in group:
                    group[root(operand.owner)] = root(inner)
        numbers: dict = {}
        for o in group:
            o.attributes[PARTITION] = IntegerAttr(numbers.setdefault(root(o), len(numbers)), i64)
        if self.notes and fallback:
            ops = ", ".join(f"{n} x{c}" if c > 1 else n for n, c in sorted(fallback.items()))
            sys.stderr.write(f"note: @{fn.sym_name.data}: {len(group)} ops in {len(numbers)} partitions on {name}; "
                             f"on the host {DEFAULT_TARGET} (no {name} strategy applies): {ops}\n")
