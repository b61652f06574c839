"""Attributes of ``graph.if`` and ``graph.loop`` (``strati.dialects.graph.ops_control``).

- ``infer_type``: the types the then-region yields; the carried values' types, then each
  scan output's element type with a leading dimension of the trip count when the maximum
  trip count is a ``graph.constant`` (else ``?``).
- ``reference``: the regions run op by op by the reference interpreter, reading the values
  defined above them (``captures``).  A loop whose scan outputs have a static length and
  that stops earlier (on its condition) is an error naming both counts.
- ``pattern``: ``opaque``; ``fuse-ops`` fuses neither across nor inside them.
- ``flops``: the regions' (a loop's body times its constant trip count).
- ``lower``: the op stays, its regions move to a new op whose body ops
  ``convert-graph-to-tensor`` lowers in place: at the tensor level the op holds tensor IR.
- ``bufferize``: in ``control_bufferize`` (regions outlined into functions, called from
  ``loop.if`` / ``loop.while``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.dense import numpy_from_dense
from strati.diagnostics import StratiError
from strati.dialects.graph.ops_control import IfOp, LoopOp, yielded
from strati.registry import OpPattern, register_op_attr


def infer_if(op: IfOp) -> list:
    return [v.type for v in yielded(op.then_region.block).operands]


def constant_trip_count(op: LoopOp) -> int | None:
    """The maximum trip count when it is a constant (at least 0), else None."""
    owner = op.max_trip_count.owner
    if getattr(owner, "name", None) == "graph.constant" or getattr(owner, "name", None) == "arith.constant":
        value = numpy_from_dense(owner.properties.get("value") or owner.attributes["value"])  # type: ignore[union-attr]
        return max(int(np.asarray(value).reshape(-1)[0]), 0)
    return None


def infer_loop(op: LoopOp) -> list:
    values = yielded(op.body.block).operands
    k = op.n_carried
    if len(values) < 1 + k:
        raise VerifyException(f"the body yields {len(values)} values: the condition and {k} carried values at least")
    n = constant_trip_count(op)
    scans = []
    for v in values[1 + k :]:
        t = v.type
        assert isinstance(t, TensorType)
        scans.append(TensorType(t.get_element_type(), [DYNAMIC_INDEX if n is None else n, *t.get_shape()]))
    return [v.type for v in op.carried] + scans


def run_block(op, block: Block, args: Sequence[np.ndarray], captures: Mapping[SSAValue, np.ndarray]) -> list[np.ndarray]:
    """A region's block run by the reference interpreter; the values it yields."""
    from strati.runtime.interpreter import Interpreter

    interpreter = Interpreter(op.get_toplevel_object())
    env: dict[SSAValue, np.ndarray] = dict(captures)
    env.update(zip(block.args, args))
    for inner in block.ops:
        if inner.name == "graph.yield":
            return [env[v] for v in inner.operands]
        results = interpreter.run_op(inner, [env[v] for v in inner.operands], env)
        env.update(zip(inner.results, results))
    raise StratiError("the region has no graph.yield", op)


def if_reference(op: IfOp, cond: np.ndarray, captures: Mapping[SSAValue, np.ndarray] | None = None):
    region = op.then_region if bool(np.asarray(cond).reshape(-1)[0]) else op.else_region
    return tuple(run_block(op, region.block, [], captures or {}))


def loop_reference(op: LoopOp, trip: np.ndarray, cond: np.ndarray, *carried: np.ndarray, captures=None):
    k = op.n_carried
    n, go = int(trip), bool(cond)
    values = list(carried)
    rows: list[list[np.ndarray]] = [[] for _ in op.scan_outputs]
    i = 0
    while i < n and go:
        outs = run_block(op, op.body.block, [np.array(i, np.int64), np.array(go), *values], captures or {})
        go, values = bool(outs[0]), outs[1 : 1 + k]
        for r, v in zip(rows, outs[1 + k :]):
            r.append(v)
        i += 1
    scans = []
    for r, result in zip(rows, op.scan_outputs):
        t = result.type
        assert isinstance(t, TensorType)
        length = t.get_shape()[0]
        if length != DYNAMIC_INDEX and length != i:
            raise StratiError(f"the loop ran {i} iterations, but its scan outputs have a static length of {length}", op)
        from strati.dense import to_dtype

        scans.append(np.stack(r) if r else np.zeros([0, *t.get_shape()[1:]], to_dtype(t.get_element_type())))
    return tuple([*values, *scans])


def region_flops(block: Block) -> int:
    total = 0
    for inner in block.ops:
        flops = registry.get_op_attr(inner.name, "flops")
        if flops is not None:
            total += flops(inner)
    return total


def if_flops(op: IfOp) -> int:
    return max(region_flops(op.then_region.block), region_flops(op.else_region.block))


def loop_flops(op: LoopOp) -> int:
    return region_flops(op.body.block) * (constant_trip_count(op) or 1)


def _moved(op, new) -> list[SSAValue]:
    for old_region, new_region in zip(op.regions, new.regions):
        old_region.move_blocks(new_region)
    new.attributes.update(op.attributes)
    new.location = op.location
    return list(new.results)


def _insert(b, new):
    if b.rewriter is not None:
        b.rewriter.insert(new, InsertPoint.before(b.anchor))
    else:
        Rewriter.insert_op(new, InsertPoint.before(b.anchor))
    return new


def lower_if(op: IfOp, b) -> list[SSAValue]:
    new = _insert(b, IfOp(op.cond, [r.type for r in op.outputs], Region(), Region()))
    return _moved(op, new)


def lower_loop(op: LoopOp, b) -> list[SSAValue]:
    new = _insert(b, LoopOp(op.max_trip_count, op.cond, list(op.carried), [r.type for r in op.outputs], Region()))
    return _moved(op, new)


register_op_attr("graph.if", "infer_type", infer_if)
register_op_attr("graph.if", "reference", if_reference)
register_op_attr("graph.if", "pattern", OpPattern.OPAQUE)
register_op_attr("graph.if", "flops", if_flops)
register_op_attr("graph.if", "lower", lower_if)
register_op_attr("graph.loop", "infer_type", infer_loop)
register_op_attr("graph.loop", "reference", loop_reference)
register_op_attr("graph.loop", "pattern", OpPattern.OPAQUE)
register_op_attr("graph.loop", "flops", loop_flops)
register_op_attr("graph.loop", "lower", lower_loop)

from strati.dialects.graph.attrs import control_bufferize  # noqa: E402,F401  (the 'bufferize' rules)
