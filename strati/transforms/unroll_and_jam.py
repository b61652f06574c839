"""unroll-and-jam: unroll a loop and fuse the copies of its inner loops (register blocking).

``loop.for %i`` unrolled by ``U`` and jammed runs ``U`` consecutive iterations of ``%i`` in
one iteration of each loop inside it::

    loop.for %i = %lb to %ub step %c1 {          loop.for %i = %lb to %end step %cU {
      loop.for %k ... {                    =>      loop.for %k ... {
        S(%i, %k)                                    S(%i, %k)  S(%i + 1, %k) ... S(%i + U-1, %k)
      }                                            }
    }                                            }
                                                 loop.for %i = %end to %ub step %c1 { ... }   // remainder

so that the ``U`` copies share what they load in ``%k`` (a matmul's row of B) and keep
``U`` accumulators live.  A loop whose trip count is at most ``U`` is unrolled completely
(no loop is left).  Legal when the iterations of ``%i`` touch disjoint data
(:func:`iterations_disjoint`: every buffer the body writes is accessed at ``%i`` in one
and the same dimension in each of its accesses) and the inner loops' bounds do not
depend on ``%i``.

The pass unrolls and jams every ``loop.for`` carrying ``schedule.unroll_jam = U`` that is
legal, and removes the attribute (an illegal one is left as it was).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from strati.dialects.loop.analysis import IndexConstants, constant_index, depends, inside, trip_count
from strati.functions import functions
from strati.dialects.loop.ops import ForOp, buffer_root
from strati.dialects.loop.ops import YieldOp as LoopYieldOp

UNROLL_JAM = "schedule.unroll_jam"

ACCESSES = (memref.LoadOp, memref.StoreOp, vector.LoadOp, vector.StoreOp)


def access_parts(op: Operation) -> tuple[SSAValue, tuple[SSAValue, ...]]:
    """(buffer, indices) of a load or store, scalar or vector."""
    if isinstance(op, (memref.LoadOp, vector.LoadOp)):
        return op.operands[0], tuple(op.operands[1:])
    return op.operands[1], tuple(op.operands[2:])


def _uses_iv_at(index: SSAValue, iv: SSAValue) -> bool:
    return index is iv


def iterations_disjoint(loop: ForOp) -> bool:
    """Whether distinct iterations of ``loop`` touch distinct elements of every buffer it
    writes: each access to such a buffer has ``loop``'s variable itself as its index in one
    and the same dimension; and the body has no side effect other than loads and stores."""
    iv = loop.induction_var
    accesses: list[Operation] = []
    for op in loop.body.walk():
        if isinstance(op, ACCESSES):
            accesses.append(op)
        elif op.name.startswith(("memref.", "func.", "vector.transfer")) and op.name not in ("memref.get_global",):
            if op.name in ("memref.alloc", "memref.alloca", "memref.dealloc"):
                continue
            return False
    written = {buffer_root(access_parts(a)[0]) for a in accesses if isinstance(a, (memref.StoreOp, vector.StoreOp))}
    if None in written:
        return False
    dims: dict[object, set[int]] = {}
    for a in accesses:
        buffer, indices = access_parts(a)
        root = buffer_root(buffer)
        if root is None:
            return False  # might be a written buffer
        if root not in written:
            continue
        if inside(buffer, loop) and buffer.owner is not None:
            return False  # a view made in the body
        at = {d for d, x in enumerate(indices) if _uses_iv_at(x, iv)}
        if len(at) != 1:
            return False
        dims.setdefault(root, set()).update(at)
    return all(len(d) == 1 for d in dims.values())


def _jam(ops: list[Operation], maps: list[dict[SSAValue, SSAValue]], block: Block, before: Operation | None) -> None:
    """Emit ``ops`` once per value map, op by op, fusing the copies of each inner loop into one."""
    for op in ops:
        if isinstance(op, LoopYieldOp):
            continue
        if isinstance(op, ForOp):
            bounds = [maps[0].get(v, v) for v in op.operands]
            fused = ForOp(*bounds, parallel=op.is_parallel, vector_width=op.vector_width.value.data, unroll=op.unroll.value.data)
            fused.attributes.update(op.attributes)
            fused.induction_var.name_hint = op.induction_var.name_hint
            _insert(block, fused, before)
            for m in maps:
                m[op.induction_var] = fused.induction_var
            _jam(list(op.body.block.ops), maps, fused.body.block, fused.body.block.last_op)
            continue
        for m in maps:
            _insert(block, op.clone(value_mapper=m), before)


def _insert(block: Block, op: Operation, before: Operation | None) -> None:
    if before is None:
        block.add_op(op)
    else:
        block.insert_op_before(op, before)


def unroll_and_jam(loop: ForOp, factor: int, consts: IndexConstants) -> ForOp | None:
    """Unroll ``loop`` by ``factor`` and jam the copies; returns the unrolled loop (None when
    unrolled completely or not legal).  A remainder loop (``loop`` itself, starting where the
    unrolled one ends) runs the last iterations when the trip count is not a known multiple."""
    step = constant_index(loop.step)
    if step is None or factor < 2 or not iterations_disjoint(loop):
        return None
    iv = loop.induction_var
    for op in loop.body.walk():
        if isinstance(op, ForOp) and op is not loop and any(depends(v, iv, loop) for v in op.operands):
            return None
    block = loop.parent_block()
    assert block is not None
    trips = trip_count(loop)
    body_ops = list(loop.body.block.ops)
    if trips is not None and trips <= factor:
        maps = []
        for u in range(trips):
            at = arith.AddiOp(loop.lb, consts.get(u * step)) if u else None
            if at is not None:
                block.insert_op_before(at, loop)
            maps.append({iv: at.result if at is not None else loop.lb})
        _jam(body_ops, maps, block, loop)
        loop.detach()
        loop.erase()
        return None
    lb, ub = constant_index(loop.lb), constant_index(loop.ub)
    group = factor * step
    if lb is not None and ub is not None:
        end = consts.get(lb + max(0, ub - lb) // group * group)
        remainder = (ub - lb) % group != 0
    elif trips is not None:
        add = arith.AddiOp(loop.lb, consts.get(trips // factor * group))
        block.insert_op_before(add, loop)
        end, remainder = add.result, trips % factor != 0
    else:
        length = arith.SubiOp(loop.ub, loop.lb)
        rem = arith.RemSIOp(length.result, consts.get(group))
        last = arith.SubiOp(loop.ub, rem.result)
        for op in (length, rem, last):
            block.insert_op_before(op, loop)
        end, remainder = last.result, True
    main = ForOp(loop.lb, end, consts.get(group), parallel=loop.is_parallel, vector_width=loop.vector_width.value.data)
    main.attributes.update(loop.attributes)
    main.induction_var.name_hint = iv.name_hint
    block.insert_op_before(main, loop)
    body = main.body.block
    maps = []
    for u in range(factor):
        if u:
            at = arith.AddiOp(main.induction_var, consts.get(u * step))
            body.insert_op_before(at, body.last_op)
        maps.append({iv: at.result if u else main.induction_var})
    _jam(body_ops, maps, body, body.last_op)
    if remainder:
        loop.operands = [end, loop.ub, loop.step]
    else:
        loop.detach()
        loop.erase()
    return main



@dataclass(frozen=True)
class UnrollAndJamPass(ModulePass):
    """Unroll and jam every loop carrying ``schedule.unroll_jam = U``, where legal."""

    name = "unroll-and-jam"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            consts = IndexConstants(fn)
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and UNROLL_JAM in o.attributes]:
                factor = loop.attributes[UNROLL_JAM]
                if not isinstance(factor, IntegerAttr) or factor.value.data < 1:
                    raise VerifyException(f"{UNROLL_JAM} must be a positive integer, not {factor}")
                unroll_and_jam(loop, factor.value.data, consts)  # where not legal, the loop stays as it was
        for o in op.walk():
            if isinstance(o, ForOp):
                o.attributes.pop(UNROLL_JAM, None)


__all__ = ["UnrollAndJamPass", "iterations_disjoint", "unroll_and_jam"]
