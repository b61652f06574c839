"""convert-graph-to-tensor: every op with a registered ``lower`` becomes tensor-level IR.

One rewrite pattern drives it: for each op it takes the target's cheapest applicable
strategy (:mod:`strati.strategy`), else the op's registered ``lower`` attribute, and
calls it with a :class:`TensorBuilder` that inserts through the pattern rewriter before
the op; the values it returns replace the op's results.  So an op defined outside
strati lowers by the same path once it registers ``lower``.  A graph op left without
one is an error naming it; ops of other dialects without one are left alone.

Options: ``target`` names the target whose strategies apply (default: the module's
``hw.target``, else the default target); ``print-strategy`` writes each choice and why
to stderr.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from strati.dialects.graph.lowering import lowered_values
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.tensor.build import TensorBuilder


@dataclass
class LowerThroughRegistry(RewritePattern):
    target: TargetAttr | None = None
    print_strategy: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        results = lowered_values(op, TensorBuilder(op, rewriter, self.target, self.print_strategy))
        if results is not None:
            rewriter.replace(op, [], results)


@dataclass(frozen=True)
class ConvertGraphToTensorPass(ModulePass):
    """Lower every op through its target strategy or registered lower, to tensor-level IR."""

    name = "convert-graph-to-tensor"

    target: str | None = None
    print_strategy: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, description = target_of(op, self.target)
        pattern = LowerThroughRegistry(description, self.print_strategy)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)
