"""tile: strip-mine a loop into tiles, one level per size (multi-level tiling).

``loop.for %i = %lb to %ub step %s`` tiled by ``T`` becomes::

    loop.for %t = %lb to %ub step %(T*s) {
      %e = arith.addi %t, %(T*s)
      %m = arith.minsi %e, %ub          // absent when T divides the trip count
      loop.for %i = %t to %m step %s { body }
    } {schedule.tile_size = T}

Strip-mining alone never changes the order of iterations, so it is always legal; it is
what :func:`~strati.transforms.interchange.hoist_loop` then moves outward to block a nest
for the caches.  :func:`separate_full_tiles` splits a tile loop into its full tiles,
whose inner loop has the constant trip count ``T`` (``%t to %t + T``, so it can be
vectorised and unrolled completely), and the last partial tile.

The pass tiles every ``loop.for`` that carries ``schedule.tile = [T1, T2, ...]`` (outermost
first: ``[64, 8]`` makes three loops) and removes the attribute.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from strati.dialects.loop.analysis import IndexConstants, constant_index, offset_from, trip_count
from strati.functions import functions
from strati.dialects.loop.ops import ForOp

TILE = "schedule.tile"


def knob(op: Operation, name: str, value: int) -> None:
    """Record a schedule knob on a loop (``schedule.NAME = value``), visible in the printed IR."""
    op.attributes[f"schedule.{name}"] = IntegerAttr(value, i64)


def tile_loop(loop: ForOp, size: int, consts: IndexConstants, name: str = "tile_size") -> ForOp:
    """Strip-mine ``loop`` by ``size`` iterations; returns the new outer (tile) loop, whose
    body holds the bound computation and ``loop`` itself."""
    step = constant_index(loop.step)
    if step is None or step < 1 or size < 1:
        raise ValueError("tile_loop needs a constant positive step and size")
    block = loop.parent_block()
    assert block is not None
    span = size * step
    outer = ForOp(loop.lb, loop.ub, consts.get(span), parallel=loop.is_parallel)
    knob(outer, name, size)
    hint = loop.induction_var.name_hint
    if hint:
        outer.induction_var.name_hint = f"{hint}_{name}"
    block.insert_op_before(outer, loop)
    body = outer.body.block
    t = outer.induction_var
    end = arith.AddiOp(t, consts.get(span))
    body.insert_op_before(end, body.last_op)
    trips = trip_count(loop)
    ub: SSAValue = end.result
    if trips is None or trips % size:
        m = arith.MinSIOp(end.result, loop.ub)
        body.insert_op_before(m, body.last_op)
        ub = m.result
    loop.detach()
    body.insert_op_before(loop, body.last_op)
    loop.operands = [t, ub, loop.step]
    return outer


def tile_of(inner: ForOp) -> ForOp | None:
    """The tile loop whose iterations ``inner`` runs (``%t to %t + T`` or ``min(%t + T, ub)``), if any."""
    owner = inner.lb.owner
    outer = owner.parent_op() if isinstance(owner, Block) else None
    if not isinstance(outer, ForOp) or inner.lb is not outer.induction_var:
        return None
    span = constant_index(outer.step)
    ub = inner.ub
    if offset_from(ub, outer.induction_var) == span:
        return outer
    owner = ub.owner
    if isinstance(owner, arith.MinSIOp) and offset_from(owner.lhs, outer.induction_var) == span and owner.rhs is outer.ub:
        return outer
    return None


def separate_full_tiles(outer: ForOp, consts: IndexConstants) -> ForOp | None:
    """Split a tile loop made by :func:`tile_loop` into its full tiles (a copy whose
    ``min(%t + T, %ub)`` bounds are ``%t + T``) and the last partial one; returns the loop
    of full tiles, or None when the tile loop has no ``minsi`` bound."""
    mins = [op for op in outer.body.block.ops if isinstance(op, arith.MinSIOp) and op.rhs is outer.ub]
    span = constant_index(outer.step)
    if len(mins) != 1 or span is None or offset_from(mins[0].lhs, outer.induction_var) != span:
        return None
    block = outer.parent_block()
    assert block is not None
    lb, ub = constant_index(outer.lb), constant_index(outer.ub)
    if lb is not None and ub is not None:
        end = consts.get(lb + max(0, ub - lb) // span * span)
    else:
        length = arith.SubiOp(outer.ub, outer.lb)
        rem = arith.RemSIOp(length.result, consts.get(span))
        last = arith.SubiOp(outer.ub, rem.result)
        for op in (length, rem, last):
            block.insert_op_before(op, outer)
        end = last.result
    full = outer.clone()
    block.insert_op_before(full, outer)
    full.operands = [outer.lb, end, outer.step]
    (m,) = [op for op in full.body.block.ops if isinstance(op, arith.MinSIOp) and op.rhs is outer.ub]
    m.result.replace_all_uses_with(m.lhs)
    m.detach()
    m.erase()
    outer.operands = [end, outer.ub, outer.step]
    return full


@dataclass(frozen=True)
class TilePass(ModulePass):
    """Strip-mine every loop that carries ``schedule.tile = [T1, ...]`` (outermost first)."""

    name = "tile"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            consts = IndexConstants(fn)
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and TILE in o.attributes]:
                sizes = loop.attributes.pop(TILE)
                values = [s.value.data for s in sizes.data] if isinstance(sizes, ArrayAttr) else None
                if not values or any(not isinstance(s, IntegerAttr) or s.value.data < 1 for s in sizes.data):
                    raise VerifyException(f"{TILE} must be a list of positive integers, not {sizes}")
                if constant_index(loop.step) is None:
                    raise VerifyException("tile: a tiled loop needs a constant step")
                target = loop
                for size in values:
                    tile_loop(target, size, consts)


__all__ = ["TilePass", "knob", "separate_full_tiles", "tile_loop", "tile_of"]
