"""cpu-parallelize: the outermost worthwhile parallel loops become ``cpu.parallel`` tasks.

A loop marked ``parallel`` becomes ``cpu.parallel`` (tasks for the thread pool) when
the target has more than one core and the loop is worth a task: its estimated work,
``trip count x body size`` (:func:`strati.dialects.loop.analysis.work`: ops executed,
inner loops counted by their own trip counts, a vector op as one, a transcendental
function or a call as ten), must reach ``threshold`` (default
:data:`PARALLEL_WORK_THRESHOLD`, about 2 us of work on one core, a few times the cost of
a region of the native thread pool).  A parallel loop with fewer iterations than cores hands
the job to the parallel loops inside it if they are worth it; a sequential loop, or a loop
of one iteration, is looked into.  The number of cores is the description's ``cores`` field.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from strati.dialects.hw.cpu.ops import ParallelOp
from strati.dialects.hw.cpu.ops import YieldOp as CpuYieldOp
from strati.dialects.hw.target import target_of
from strati.dialects.loop.analysis import UNKNOWN_TRIP_COUNT, trip_count, work
from strati.functions import functions
from strati.dialects.loop.ops import ForOp
from strati.dialects.loop.ops import YieldOp as LoopYieldOp

PARALLEL_WORK_THRESHOLD = 1 << 13
"""Ops executed (a vector op counts one) below which a parallel loop stays sequential:
4096 ops is about 2 us on one core (2.45 GHz), a few times what a region of the native pool
costs (under 1 us while its workers spin; the Python pool before it took 15-30 us, and its
threshold was 64 times this).  ShuffleNet went from 35 regions a call to 160, 5.3 -> 3.7 ms."""


@dataclass(frozen=True)
class CpuParallelizePass(ModulePass):
    """Outermost worthwhile parallel loops become cpu.parallel tasks for the thread pool."""

    name = "cpu-parallelize"

    threshold: int = PARALLEL_WORK_THRESHOLD

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, target = target_of(op, "cpu")
        cores = target["cores"]
        if cores < 2:
            return
        for fn in functions(op):
            for loop in [o for o in fn.body.block.ops if isinstance(o, ForOp)]:
                parallelize(loop, cores, self.threshold)


def parallelize(loop: ForOp, cores: int, threshold: int) -> None:
    """Map the outermost worthwhile parallel loops in ``loop`` (inclusive) to cpu.parallel."""
    trips = trip_count(loop)
    inner = [op for op in loop.body.block.ops if isinstance(op, ForOp)]
    if not loop.is_parallel or trips == 1:  # (one iteration: a matmul's column blocks when the rows split)
        for op in inner:
            parallelize(op, cores, threshold)
        return
    total = (UNKNOWN_TRIP_COUNT if trips is None else trips) * work(loop.body.block.ops)
    if total < threshold:
        return  # inner loops do less work still
    if trips is not None and trips < cores:
        # Too few iterations to keep every core busy: an inner parallel loop may do better.
        if any(op.is_parallel and (trip_count(op) or 0) >= cores for op in inner):
            for op in inner:
                parallelize(op, cores, threshold)
            return
    to_parallel(loop)


def to_parallel(loop: ForOp) -> ParallelOp:
    body = loop.detach_region(loop.body)
    block = body.block
    terminator = block.last_op
    assert isinstance(terminator, LoopYieldOp)
    terminator.detach()
    terminator.erase()
    block.add_op(CpuYieldOp())
    par = ParallelOp(loop.lb, loop.ub, loop.step, body)
    par.attributes.update(loop.attributes)
    parent = loop.parent_block()
    assert parent is not None
    parent.insert_op_before(par, loop)
    loop.detach()
    loop.erase()
    return par


__all__ = ["PARALLEL_WORK_THRESHOLD", "CpuParallelizePass", "parallelize", "to_parallel"]
