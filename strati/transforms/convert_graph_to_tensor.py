"""convert-graph-to-tensor: every op with a registered ``lower`` becomes tensor-level IR.

One rewrite pattern drives it: for each op it takes the target's cheapest applicable
strategy (:mod:`strati.strategy`), else the op's registered ``lower`` attribute, and
calls it with a :class:`TensorBuilder` that inserts through the pattern rewriter before
the op; the values it returns replace the op's results.  So an op defined outside
strati lowers by the same path once it registers ``lower``.  A graph op left without
one is an error naming it; ops of other dialects without one are left alone.  ``graph.if`` and
``graph.loop`` stay, their regions' ops lowered in place (their ``graph.yield`` too stays).

Lowering needs static shapes.  A function whose types still have ``?`` dimensions is
first refined by shape inference (a ``?`` that inference resolves was only imprecise);
a dynamic dimension that remains (from a dynamic argument, or a result no inference
fixes) is an error naming the first op that has it.  ``strati.compile`` specialises
functions with dynamic arguments on each call's input shapes (``docs/names-and-shapes.md``).

Options: ``target`` names the target whose strategies apply (default: the module's
``hw.target``, else the default target); ``print-strategy`` writes each choice and why
to stderr.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.traits import IsTerminator

from strati.diagnostics import StratiError
from strati.dialects.graph.lowering import lowered_values
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.tensor.build import TensorBuilder
from strati.functions import functions
from strati.resources import require_values
from strati.transforms.infer_shapes import infer_function


@dataclass
class LowerThroughRegistry(RewritePattern):
    target: TargetAttr | None = None
    print_strategy: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.has_trait(IsTerminator):
            return  # graph.yield stays: it ends the body of a graph.if or graph.loop
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
        require_values(op)
        for fn in functions(op):
            if any(o.name.startswith("graph.") for o in fn.walk()):
                require_static_shapes(fn)
        _, description = target_of(op, self.target)
        pattern = LowerThroughRegistry(description, self.print_strategy)
        PatternRewriteWalker(pattern, apply_recursively=False).rewrite_module(op)


def _is_dynamic(t: Attribute) -> bool:
    return isinstance(t, TensorType) and DYNAMIC_INDEX in t.get_shape()


def require_static_shapes(fn: func.FuncOp) -> None:
    """Infer the shapes of a function with ``?`` dimensions; a StratiError naming the first op
    that still has one (the message of the nn lowerings' own check)."""
    types = (t for o in fn.walk() for t in (*o.result_types, *(a.type for r in o.regions for b in r.blocks for a in b.args)))
    if not any(_is_dynamic(t) for t in types):
        return
    infer_function(fn)
    for o in fn.body.walk():
        for value in (*o.operands, *o.results):
            if _is_dynamic(value.type):
                raise StratiError(
                    f"cannot lower with the dynamic shape {value.type}: the tensor level needs static shapes "
                    "(strati.compile specialises a function with dynamic arguments on the shapes of each call)",
                    o,
                )
