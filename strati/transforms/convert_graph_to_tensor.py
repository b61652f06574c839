"""convert-graph-to-tensor: every op with a registered ``lower`` becomes tensor-level IR.

One rewrite pattern drives it: it looks up the op's ``lower`` attribute in the
registry and calls it with a :class:`TensorBuilder` placed before the op; the
values it returns replace the op's results.  So an op defined outside strati
lowers by the same path once it registers ``lower``.  A graph op left without
one is an error naming it; ops of other dialects without one are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.tensor.build import TensorBuilder


def lowered_values(op: Operation) -> list[SSAValue] | None:
    """Build the tensor-level IR of ``op`` before it through its registered ``lower``; the values
    that replace its results (None for an op of another dialect without one)."""
    lower = registry.get_op_attr(op.name, "lower")
    if lower is None:
        if op.dialect_name() == "graph":
            raise StratiError("has no 'lower' attribute: it cannot be converted to the tensor level", op)
        return None
    results = lower(op, TensorBuilder(op))
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    if len(results) != len(op.results):
        raise StratiError(f"'lower' returned {len(results)} values for {len(op.results)} results", op)
    for old, new in zip(op.results, results):
        if old.type != new.type:
            raise StratiError(f"'lower' produced {new.type} for a result of type {old.type}", op)
    return results


class LowerThroughRegistry(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        results = lowered_values(op)
        if results is not None:
            rewriter.replace(op, [], results)


@dataclass(frozen=True)
class ConvertGraphToTensorPass(ModulePass):
    name = "convert-graph-to-tensor"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(LowerThroughRegistry(), apply_recursively=False).rewrite_module(op)
