"""unroll-windows: unroll the short reduction loops of a window completely, in order, and keep
what they accumulate in a register.

Max and min pooling (and integer reductions) lower to nests whose innermost loops walk a window
(``kh, kw``: the 9 taps of a 3x3 max pool) and fold each tap into one output element::

    loop.for %ow ... {                            loop.for %ow ... {
      loop.for %kh = 0 to 3 {                       %a = memref.load %out[.., %ow]
        loop.for %kw = 0 to 3 {            =>       %x0 = memref.load %x[.., %h0, %w0]
          %a = memref.load %out[.., %ow]            %m0 = arith.maximumf %a, %x0
          %m = arith.maximumf %a, %x                ... the 8 other taps, in order ...
          memref.store %m, %out[.., %ow]            memref.store %m8, %out[.., %ow]
    }}}                                           }

Window loops have constant trip counts, are not parallel, hold no loop but window loops, no
store's address depends on their variable (they reduce), and they fold with ops that give the
same bits in any order (max, min, integer ops; a float sum stays a loop: :data:`INEXACT`).  A
chain of them is unrolled when it runs at most ``max-trips`` iterations and ``max-ops`` ops in
all (those that stay: not index arithmetic, not the accumulator's loads and stores); the
copies follow one another in the loops' order.
In the unrolled block a load of an address just stored reads the stored value, and a store
overwritten before any read goes (:func:`forward_stores`): the accumulator stays in a register
instead of going through memory at every tap.  The loop around the window is then an ordinary
loop over outputs, which ``vectorize`` turns into vector loads of shifted rows (stride 1).

On the CPU this is the pooling schedule that LLVM's loop unroller half found on its own (it
unrolled the window around the vector loop over the row, which then went through memory at
every tap); now it is ours, printed at ``--emit=hw``.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import is_side_effect_free
from xdsl.transforms.common_subexpression_elimination import cse

from strati.dialects.loop.analysis import IndexConstants, constant_index, depends, innermost_loops, trip_count
from strati.functions import functions
from strati.dialects.loop.ops import ForOp, buffer_root
from strati.dialects.loop.ops import YieldOp as LoopYieldOp
from strati.transforms.interchange import is_header_op
from strati.transforms.unroll_and_jam import ACCESSES, access_parts

MAX_TRIPS = 64
"""Iterations of a window chain unrolled at most (a 7x7 max pool's 49 taps)."""
MAX_OPS = 256
"""Ops of an unrolled window at most, besides index arithmetic and the accumulator's accesses
(:func:`_cost`; LLVM's own full-unroll threshold is of that order)."""



INEXACT = frozenset({"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "math.fma", "vector.fma"})
"""Float ops whose results depend on the order they run in.  Our adds carry ``reassoc`` (see
:mod:`strati.codegen.llvm`), so LLVM may reassociate an unrolled chain of them as it likes (and
differently in two functions that compute the same): a sum stays a loop, for ``interchange``
and ``vectorize`` to schedule in order."""


def is_window_loop(loop: ForOp) -> bool:
    """A sequential loop of constant trip count whose variable no store's address uses, and
    whose body folds its taps with ops exact in any order (max, min, integers: not
    :data:`INEXACT`)."""
    if loop.is_parallel or trip_count(loop) is None or constant_index(loop.step) is None:
        return False
    iv = loop.induction_var
    for op in loop.body.walk():
        if isinstance(op, (memref.StoreOp, vector.StoreOp)):
            buffer, indices = access_parts(op)
            if any(depends(v, iv, loop) for v in (buffer, *indices)):
                return False
        elif op.name in INEXACT:
            return False
        elif not isinstance(op, (*ACCESSES, ForOp, LoopYieldOp)) and not is_side_effect_free(op):
            return False
    return True


def window_chain(innermost: ForOp, max_trips: int = MAX_TRIPS, max_ops: int = MAX_OPS) -> list[ForOp]:
    """The window loops from ``innermost`` outward that unroll within the bounds (innermost
    first; empty when ``innermost`` itself is not one or is too long)."""
    chain: list[ForOp] = []
    trips, size = 1, 0  # the iterations and the ops of the chain unrolled so far
    loop: Operation | None = innermost
    while isinstance(loop, ForOp) and is_window_loop(loop):
        body = [o for o in loop.body.block.ops if not isinstance(o, LoopYieldOp)]
        if chain and not all(o is chain[-1] or is_header_op(o) for o in body):
            break
        n = trip_count(loop)
        assert n is not None
        per = size if chain else sum(_cost(o, loop) for o in body)
        if trips * n > max_trips or per * n > max_ops:
            break
        trips, size = trips * n, per * n
        chain.append(loop)
        loop = loop.parent_op()
    return chain


def _cost(op: Operation, loop: ForOp) -> int:
    """An op of a window's body as it counts against ``max-ops`` once unrolled: index arithmetic
    folds or is shared, and the accesses to the accumulator (an address that does not move with
    the loop) are forwarded away; the rest stays, once per tap."""
    if isinstance(op, ACCESSES):
        buffer, indices = access_parts(op)
        return int(any(depends(v, loop.induction_var, loop) for v in (buffer, *indices)))
    return int(not (is_header_op(op) and all(isinstance(t, IndexType) for t in op.result_types)))


def unroll_completely(loop: ForOp, consts: IndexConstants) -> None:
    """Replace ``loop`` (constant trip count) by a copy of its body per iteration, in order."""
    trips, step = trip_count(loop), constant_index(loop.step)
    assert trips is not None and step is not None
    block = loop.parent_block()
    assert block is not None
    lb = constant_index(loop.lb)
    for u in range(trips):
        if lb is not None:
            at = consts.get(lb + u * step)
        elif u:
            add = arith.AddiOp(loop.lb, consts.get(u * step))
            block.insert_op_before(add, loop)
            at = add.result
        else:
            at = loop.lb
        mapper: dict[SSAValue, SSAValue] = {loop.induction_var: at}
        for op in loop.body.block.ops:
            if isinstance(op, LoopYieldOp):
                continue
            if (folded := _fold_index(op, mapper, consts)) is not None:
                mapper[op.results[0]] = folded
                continue
            block.insert_op_before(op.clone(value_mapper=mapper), loop)
    loop.detach()
    loop.erase()


def _fold_index(op: Operation, mapper: dict[SSAValue, SSAValue], consts: IndexConstants) -> SSAValue | None:
    """The value of an index ``addi``/``muli`` whose operands became constants (or ``x + 0``,
    ``x * 1``) in a copy, so that the unrolled taps read ``%x[%h, %w + 1]``, not sums of zeros."""
    if not isinstance(op, (arith.AddiOp, arith.MuliOp)) or not isinstance(op.results[0].type, IndexType):
        return None
    a, b = (mapper.get(v, v) for v in op.operands)
    ca, cb = constant_index(a), constant_index(b)
    if ca is not None and cb is not None:
        return consts.get(ca + cb if isinstance(op, arith.AddiOp) else ca * cb)
    unit = 0 if isinstance(op, arith.AddiOp) else 1
    if cb == unit:
        return a
    if ca == unit:
        return b
    return None


def forward_stores(block: Block) -> int:
    """In straight-line stretches of ``block``: a load of the address last stored (same buffer,
    same index values, same type) reads the stored value; a store overwritten before anything
    reads its buffer goes (buffers as :func:`~strati.dialects.loop.ops.buffer_root` tells them
    apart: arguments marked ``strati.may_alias`` are one).  Any other op that may touch memory
    ends the stretch.  Returns the loads and stores removed."""
    stored: dict[tuple, SSAValue] = {}
    unread: dict[tuple, Operation] = {}
    removed = 0

    def forget(table: dict, root, keep: tuple | None = None) -> None:
        for k in [k for k in table if k[0] == root and k != keep]:
            del table[k]

    for op in list(block.ops):
        if isinstance(op, ACCESSES):
            buffer, indices = access_parts(op)
            root = buffer_root(buffer)
            is_load = isinstance(op, (memref.LoadOp, vector.LoadOp))
            key = (root, buffer, indices, op.results[0].type if is_load else op.operands[0].type)
            if root is None:
                stored.clear()
                unread.clear()
                continue
            if is_load:
                if key in stored:
                    op.results[0].replace_all_uses_with(stored[key])
                    op.detach()
                    op.erase()
                    removed += 1
                else:
                    forget(unread, root)
                continue
            forget(stored, root, keep=key)
            forget(unread, root, keep=key)
            if key in unread:
                dead = unread.pop(key)
                dead.detach()
                dead.erase()
                removed += 1
            stored[key], unread[key] = op.operands[0], op
        elif op.regions or not is_side_effect_free(op):
            stored.clear()
            unread.clear()
    return removed


def unroll_windows(fn: Operation, consts: IndexConstants, max_trips: int = MAX_TRIPS, max_ops: int = MAX_OPS) -> int:
    """Unroll every window chain of ``fn`` within the bounds; returns the chains unrolled."""
    done = 0
    for loop in innermost_loops(fn):
        chain = window_chain(loop, max_trips, max_ops)
        if not chain:
            continue
        block, around = chain[-1].parent_block(), chain[-1].parent_op()
        for w in chain:
            unroll_completely(w, consts)
        assert block is not None and around is not None
        forward_stores(block)
        cse(around)  # the taps' shared index sums
        done += 1
    return done


@dataclass(frozen=True)
class UnrollWindowsPass(ModulePass):
    """Unroll short window reduction loops completely (in order) and forward their accumulators."""

    name = "unroll-windows"

    max_trips: int = MAX_TRIPS
    max_ops: int = MAX_OPS

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            unroll_windows(fn, IndexConstants(fn), self.max_trips, self.max_ops)


__all__ = ["UnrollWindowsPass", "forward_stores", "is_window_loop", "unroll_completely", "unroll_windows", "window_chain"]
