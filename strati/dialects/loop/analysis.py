"""What the loop-level passes of every target ask of a loop nest: constant bounds and trip
counts, the innermost loops, the work a nest does, index constants to reuse.

Loops are any :class:`~strati.dialects.loop.ops.IndexLoop` (``loop.for`` and the targets'
own loops alike), so a target's passes and the generic ones share one view of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import Float16Type, Float32Type, IndexType, IntegerAttr, IntegerType, VectorType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from strati.dialects.loop.ops import ForOp, IndexLoop

LIBRARY_CALL_COST = 10
"""The cost model's weight of a transcendental function (a libm or libmvec call) or a call."""
LIBRARY_CALLS = frozenset(
    f"math.{n}" for n in (
        "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt", "sin", "cos", "tan", "tanh", "sinh",
        "cosh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "powf",
    )
)  # fmt: skip

UNKNOWN_TRIP_COUNT = 1
"""The trip count assumed for a loop whose bounds are not constants (conservative: no task)."""


class IndexConstants:
    """``arith.constant N : index`` at the top of a function, reused when already there."""

    def __init__(self, fn: func.FuncOp):
        self.block = fn.body.block
        self.known: dict[int, SSAValue] = {}
        self.last: Operation | None = None
        for op in self.block.ops:
            if isinstance(op, arith.ConstantOp) and isinstance(op.result.type, IndexType):
                value = op.value
                assert isinstance(value, IntegerAttr)
                self.known.setdefault(value.value.data, op.result)
                self.last = op
            else:
                break

    def get(self, n: int) -> SSAValue:
        if n in self.known and self.known[n].owner.parent is None:  # erased since (a cse of the function)
            del self.known[n]
        if self.last is not None and self.last.parent is None:
            self.last = None
        if n not in self.known:
            c = arith.ConstantOp(IntegerAttr(n, IndexType()))
            c.result.name_hint = f"c{n}" if n >= 0 else f"cneg{-n}"
            if self.last is None:
                first = self.block.first_op
                if first is None:
                    self.block.add_op(c)
                else:
                    self.block.insert_op_before(c, first)
            else:
                self.block.insert_op_after(c, self.last)
            self.last = c
            self.known[n] = c.result
        return self.known[n]


def constant_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def trip_count(loop: IndexLoop) -> int | None:
    """Iterations of a loop with constant bounds, or of a full tile ``%i = %x to %x + C``."""
    lb, ub, step = constant_index(loop.lb), constant_index(loop.ub), constant_index(loop.step)
    if step is None or step < 1:
        return None
    if lb is None or ub is None:
        span = offset_from(loop.ub, loop.lb)
        return None if span is None else max(0, -(-span // step))
    return max(0, -(-(ub - lb) // step))


def offset_from(value: SSAValue, base: SSAValue) -> int | None:
    """``C`` when ``value`` is ``base + C`` (``arith.addi`` with a constant), 0 when it is ``base``."""
    if value is base:
        return 0
    owner = value.owner
    if isinstance(owner, arith.AddiOp):
        for x, y in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if x is base and (c := constant_index(y)) is not None:
                return c
    return None


def max_trip_count(loop: IndexLoop) -> int | None:
    """An upper bound of a loop's iterations: its trip count, or ``C`` for a partial tile
    ``%i = %x to min(%x + C, %n)``."""
    trips = trip_count(loop)
    if trips is not None:
        return trips
    step, owner = constant_index(loop.step), loop.ub.owner
    if step is None or step < 1 or not isinstance(owner, arith.MinSIOp):
        return None
    spans = [s for s in (offset_from(owner.lhs, loop.lb), offset_from(owner.rhs, loop.lb)) if s is not None]
    return max(0, -(-min(spans) // step)) if spans else None


def innermost_loops(fn: func.FuncOp) -> list[ForOp]:
    """The ``loop.for`` ops of ``fn`` with no loop of any kind inside, in order (one walk)."""
    found: list[ForOp] = []

    def visit(op: Operation) -> bool:  # whether op is or holds a loop
        holds = False
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    holds |= visit(inner)
        if isinstance(op, ForOp) and not holds:
            found.append(op)
        return holds or isinstance(op, IndexLoop)

    visit(fn)
    return found


def depends(value: SSAValue, iv: SSAValue, loop: Operation) -> bool:
    """Whether ``value`` is ``iv`` or computed from it by ops inside ``loop``."""
    if value is iv:
        return True
    owner = value.owner
    return isinstance(owner, Operation) and inside(value, loop) and any(depends(v, iv, loop) for v in owner.operands)


def inside(value: SSAValue, op: Operation) -> bool:
    """Whether ``value`` is defined inside ``op``'s regions."""
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    while block is not None:
        parent = block.parent_op()
        if parent is op:
            return True
        if parent is None:
            return False
        block = parent.parent_block()
    return False


def ancestors(op: Operation) -> Iterable[Operation]:
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


def element_bits(t: Attribute) -> int:
    if isinstance(t, VectorType):
        t = t.get_element_type()
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, Float16Type):
        return 16
    if isinstance(t, Float32Type):
        return 32
    return 64


def work(ops: Iterable[Operation]) -> int:
    """Ops executed by a list of ops, inner loops counted by their trip counts; a function
    computed by a library call (exp, tanh, ...) counts :data:`LIBRARY_CALL_COST`."""
    total = 0
    for op in ops:
        if op.has_trait(IsTerminator):
            continue
        if isinstance(op, IndexLoop):
            trips = trip_count(op)
            total += (UNKNOWN_TRIP_COUNT if trips is None else trips) * work(op.body.block.ops)
        elif op.regions:
            total += 1 + sum(work(b.ops) for r in op.regions for b in r.blocks)
        elif op.name in LIBRARY_CALLS or isinstance(op, func.CallOp):
            total += LIBRARY_CALL_COST
        else:
            total += 1
    return total


__all__ = [
    "IndexConstants",
    "ancestors",
    "constant_index",
    "depends",
    "element_bits",
    "innermost_loops",
    "inside",
    "max_trip_count",
    "offset_from",
    "trip_count",
    "work",
]
