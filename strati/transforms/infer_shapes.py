"""infer-shapes: result types from the registered ``infer_type``.

Every op that has an ``infer_type`` gets its inferred result types where the
declared ones are less precise (a ``?`` the inference can resolve), and the
enclosing function's signature follows its ``func.return``.  A declared type
that contradicts the inferred one is an error naming the op.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.shapes import types_compatible


@dataclass(frozen=True)
class InferShapesPass(ModulePass):
    """Refine result types (and dynamic dimensions) through each op's infer_type."""

    name = "infer-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                infer_function(fn)


def infer_function(fn: func.FuncOp) -> None:
    for op in fn.body.walk():
        infer = registry.get_op_attr(op.name, "infer_type")
        if infer is None:
            continue
        try:
            inferred = list(infer(op))
        except VerifyException as err:
            raise StratiError(str(err), op) from err
        for result, want in zip(op.results, inferred):
            if result.type == want:
                continue
            if not types_compatible(result.type, want):
                raise StratiError(f"result type {result.type} does not match the inferred type {want}", op)
            Rewriter.replace_value_with_new_type(result, want)
        if isinstance(op, func.ReturnOp):
            break
    returns = [op for op in fn.body.walk() if isinstance(op, func.ReturnOp)]
    if len(returns) == 1:
        outputs = [v.type for v in returns[0].arguments]
        if outputs != list(fn.function_type.outputs.data):
            fn.function_type = FunctionType.from_lists(list(fn.function_type.inputs.data), outputs)
