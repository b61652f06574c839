"""Attributes of ``graph.fused`` (a fusion group made by ``fuse-ops``) and ``graph.yield``.

- ``infer_type``: the types its body yields.
- ``reference``: the body run op by op by the reference interpreter.
- ``pattern``: ``opaque`` in the registry: a group is a finished kernel, which
  ``fuse-ops`` never fuses further (as TVM marks fused functions primitive).  The
  group's own kind (that of its anchor) is the op's ``pattern`` property.
- ``flops``: the sum over the body.
- ``lower``: the body's ops lowered through their own strategy or ``lower`` (as
  convert-graph-to-tensor does), then the resulting generics fused producer into
  consumer (:func:`strati.dialects.tensor.fusion.fuse_generics`) among
  themselves, so the group is as few generics as fusion allows; an elementwise
  consumer of a reduction joins its loop nest after bufferization (``fuse-loops``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.graph.ops import FusedOp, YieldOp
from strati.registry import OpPattern, register_op_attr


def infer_fused(op: FusedOp) -> list:
    """The types the body yields, once the body is refined: where an operand's type is more
    precise than its argument's (infer-shapes resolved a ``?``), the argument takes it, and
    the body's ops take their inferred types where those are more precise, as infer-shapes
    does for a function.  With types that already agree, nothing changes."""
    from xdsl.utils.exceptions import VerifyException

    from strati.dialects.shapes import types_compatible

    block = op.body.block
    last = block.last_op
    if not isinstance(last, YieldOp):
        raise VerifyException("the body must end with graph.yield")
    for arg, operand in zip(list(block.args), op.inputs):
        if arg.type != operand.type and types_compatible(arg.type, operand.type):
            Rewriter.replace_value_with_new_type(arg, operand.type)
    for inner in block.ops:
        infer = registry.get_op_attr(inner.name, "infer_type")
        if infer is None or inner is last:
            continue
        for result, want in zip(list(inner.results), infer(inner)):
            if result.type != want and types_compatible(result.type, want):
                Rewriter.replace_value_with_new_type(result, want)
    return [v.type for v in last.values]


def fused_reference(op: FusedOp, *values: np.ndarray, captures: Mapping[SSAValue, np.ndarray] | None = None):
    from strati.runtime.interpreter import Interpreter

    interpreter = Interpreter(op.get_toplevel_object())  # type: ignore[arg-type]
    block = op.body.block
    env: dict[SSAValue, np.ndarray] = dict(captures or {})
    env.update(zip(block.args, values))
    for inner in block.ops:
        if isinstance(inner, YieldOp):
            return tuple(env[v] for v in inner.values)
        results = interpreter.run_op(inner, [env[v] for v in inner.operands], env)
        env.update(zip(inner.results, results))
    raise StratiError("the body has no graph.yield", op)


def fused_flops(op: FusedOp) -> int:
    total = 0
    for inner in op.body.block.ops:
        flops = registry.get_op_attr(inner.name, "flops")
        if flops is not None:
            total += flops(inner)
    return total


def lower_one(op: Operation, b) -> None:
    """Lower ``op`` in place as convert-graph-to-tensor does (strategy or ``lower``), with a
    builder like ``b`` (same rewriter and target) placed before it."""
    from strati.dialects.graph.lowering import lowered_values

    results = lowered_values(op, b.at(op))
    if results is None:
        return
    for old, new in zip(op.results, results):
        if new.name_hint is None:
            new.name_hint = old.name_hint
    if b.rewriter is not None:
        b.rewriter.replace(op, [], results)
    else:
        Rewriter.replace_op(op, [], results)


def lower_fused(op: FusedOp, b) -> list[SSAValue]:
    """The body inlined before the op, each of its ops lowered, the generics fused."""
    from strati.dialects.tensor.fusion import fuse_generics

    block = op.body.block
    mapper: dict[SSAValue, SSAValue] = dict(zip(block.args, op.inputs))
    clones: list[Operation] = []
    yielded: list[SSAValue] = []
    for inner in block.ops:
        if isinstance(inner, YieldOp):
            yielded = [mapper.get(v, v) for v in inner.values]
            break
        clones.append(_insert(b, inner.clone(value_mapper=mapper), op))
    # A holder keeps the group's results up to date while its ops are replaced.
    holder = _insert(b, UnrealizedConversionCastOp.get(yielded, [v.type for v in yielded]), op)
    first = clones[0].prev_op if clones else holder.prev_op
    for clone in clones:
        lower_one(clone, b)
    start = first.next_op if first is not None else op.parent_block().first_op  # type: ignore[union-attr]
    lowered: list[Operation] = []
    while start is not None and start is not holder:
        lowered.append(start)
        start = start.next_op
    fuse_generics(lowered)
    results = list(holder.operands)
    if b.rewriter is not None:
        b.rewriter.erase(holder)
    else:
        Rewriter.erase_op(holder)
    return results


def _insert(b, new: Operation, before: Operation) -> Operation:
    if b.rewriter is not None:
        return b.rewriter.insert(new, InsertPoint.before(before))
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new


register_op_attr("graph.fused", "infer_type", infer_fused)
register_op_attr("graph.fused", "reference", fused_reference)
register_op_attr("graph.fused", "pattern", OpPattern.OPAQUE)
register_op_attr("graph.fused", "flops", fused_flops)
register_op_attr("graph.fused", "lower", lower_fused)

# graph.yield only ends a graph.fused body; graph.fused's reference and lower read it directly.
register_op_attr("graph.yield", "infer_type", lambda op: [])
register_op_attr("graph.yield", "reference", lambda op, *values: ())
register_op_attr("graph.yield", "pattern", OpPattern.OPAQUE)
register_op_attr("graph.yield", "flops", lambda op: 0)
