"""The ``bufferize`` rules of ``graph.if`` and ``graph.loop`` (run by convert-tensor-to-loop).

Each region is outlined into a private function of the module by the bufferizer
(``FunctionBufferizer.outline``: its block arguments, then the tensors it reads from above,
as arguments; constants it reads are copied in; its yield becomes the return), bufferized
like any function, in destination-passing style.  The op itself becomes control flow
around calls:

* ``graph.if``: the condition is loaded and ``loop.if`` calls one of the two functions,
  both writing the op's result buffers.
* ``graph.loop``: the iteration number and the condition live in one-element buffers,
  the carried values in the result buffers (initialised from the operands); a
  ``loop.while`` tests ``i < max_trip_count and cond`` and calls the body, which reads
  the state and writes fresh buffers that are then copied back (so no call writes a
  buffer it reads); each scan element is copied into row ``i`` of its output.  A scan
  output's length is static: the loop stops there at the latest, and rows a loop that
  stopped earlier did not write are zeros.
"""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, IntegerType, MemRefType, TensorType, i1, i64
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from strati.dialects.loop import control
from strati.dialects.loop.ops import YieldOp
from strati.registry import register_op_attr


def memref_of(t: TensorType) -> MemRefType:
    return MemRefType(t.get_element_type(), list(t.get_shape()))


def _call(name: str, args: list[SSAValue]) -> Block:
    return Block([func.CallOp(name, args, []), YieldOp()])


def _first(bz, buffer: SSAValue) -> SSAValue:
    """The one element of a one-element buffer."""
    return bz.load(buffer, [bz.index(0) for _ in buffer.type.get_shape()])  # type: ignore[attr-defined]


def bufferize_if(bz, op) -> None:
    outs = [bz.result_buffer(r) for r in op.outputs]
    cond = _first(bz, bz.buffer(op.cond))
    then_name, then_caps = bz.outline(op, op.then_region.block, "then")
    else_name, else_caps = bz.outline(op, op.else_region.block, "else")
    then_args = [bz.buffer(v) for v in then_caps]
    else_args = [bz.buffer(v) for v in else_caps]
    bz.emit(control.IfOp(cond, Region(_call(then_name, [*then_args, *outs])), Region(_call(else_name, [*else_args, *outs]))))


def _i64(bz, n: int) -> SSAValue:
    return bz.emit(arith.ConstantOp(IntegerAttr(n, i64))).results[0]


def _zero(t) -> arith.ConstantOp:
    if isinstance(t, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, t))
    return arith.ConstantOp(FloatAttr(0.0, t))


def bufferize_loop(bz, op) -> None:
    k = op.n_carried
    trip = bz.buffer(op.max_trip_count)
    cond0 = bz.buffer(op.cond)
    inits = [bz.buffer(v) for v in op.carried]
    results = [bz.result_buffer(r) for r in op.outputs]
    carried, scans = results[:k], results[k:]
    yielded = list(op.body.block.last_op.operands)
    name, caps = bz.outline(op, op.body.block, "body")
    cap_bufs = [bz.buffer(v) for v in caps]

    i_buf = bz.alloc(MemRefType(i64, []))
    i_buf.name_hint = "iteration"
    c_buf = bz.alloc(MemRefType(i1, []))
    c_buf.name_hint = "cond"
    next_c = bz.alloc(MemRefType(i1, []))
    next_carried = [bz.alloc(memref_of(v.type), r) for v, r in zip(yielded[1 : 1 + k], op.outputs)]
    elements = [bz.alloc(memref_of(v.type)) for v in yielded[1 + k :]]

    bz.store(_i64(bz, 0), i_buf, [])
    bz.copy(cond0, c_buf)
    for src, dst in zip(inits, carried):
        bz.copy(src, dst)
    limit = bz.load(trip, [])
    if scans:
        for s in scans:
            bz.fill(bz.emit(_zero(s.type.get_element_type())).results[0], s)  # type: ignore[attr-defined]
        length = scans[0].type.get_shape()[0]  # type: ignore[attr-defined]
        limit = bz.emit(arith.MinSIOp(limit, _i64(bz, length))).results[0]

    loop = control.WhileOp(Region(Block()), Region(Block([YieldOp()])))
    bz.emit(loop)
    saved = bz.insert_at
    bz.insert_at = InsertPoint.at_end(loop.before.block)
    i = bz.load(i_buf, [])
    c = bz.load(c_buf, [])
    below = bz.emit(arith.CmpiOp(i, limit, "slt")).results[0]
    go = bz.emit(arith.AndIOp(below, c)).results[0]
    bz.emit(control.ConditionOp(go))

    bz.insert_at = InsertPoint.before(loop.after.block.last_op)  # type: ignore[arg-type]
    bz.emit(func.CallOp(name, [i_buf, c_buf, *carried, *cap_bufs, next_c, *next_carried, *elements], []))
    bz.copy(next_c, c_buf)
    for src, dst in zip(next_carried, carried):
        bz.copy(src, dst)
    i = bz.load(i_buf, [])
    if scans:
        row = bz.emit(arith.IndexCastOp(i, IndexType())).results[0]
        for element, scan in zip(elements, scans):
            shape = list(element.type.get_shape())  # type: ignore[attr-defined]

            def body(ivs, element=element, scan=scan) -> None:
                bz.store(bz.load(element, ivs), scan, [row, *ivs])

            bz.loops(shape, [True] * len(shape), body)
    bz.store(bz.emit(arith.AddiOp(i, _i64(bz, 1))).results[0], i_buf, [])
    bz.insert_at = saved


register_op_attr("graph.if", "bufferize", bufferize_if)
register_op_attr("graph.loop", "bufferize", bufferize_loop)
