"""interchange: rotate a loop nest so that its innermost loop vectorises, for any target.

An innermost loop that cannot be vectorised (typically a reduction: matmul's ``k`` in
``i, j, k``) is rotated with the loops of its perfect nest: the loop ``p`` whose
induction variable is the last index of every store moves innermost (``i, j, k ->
i, k, j``).  Legal when the loops from ``p`` down are perfectly nested, the innermost
body has no side effect but loads and stores, every store's address uses ``p``'s
variable as its last index and none of the loops below ``p``, each stored buffer is
read and written at that one address only, and the loops' bounds do not depend on each
other's variables.  Then two iterations of ``p`` touch distinct elements and, for one
``p``, the inner iterations keep their order: the results are bit-identical.  It is
done only when the rotated nest vectorises (:func:`strati.transforms.vectorize.analyse`
with the target's description), and only when a parallel loop still encloses ``p``
(so rotation never trades the cores for lanes).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.loop.analysis import ancestors, constant_index, innermost_loops, inside
from strati.functions import functions
from strati.dialects.loop.ops import VIEW_OPS, ForOp
from strati.dialects.loop.ops import YieldOp as LoopYieldOp
from strati.transforms.vectorize import UNIFORM_SAFE_DIALECTS, analyse, independent


@dataclass(frozen=True)
class InterchangePass(ModulePass):
    """Rotate a loop nest so that its innermost loop vectorises (a reduction moves out)."""

    name = "interchange"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _, target = target_of(op)
        for fn in functions(op):
            for loop in innermost_loops(fn):
                try_interchange(loop, target)


def perfect_chain(loop: ForOp) -> list[ForOp]:
    """The loops around ``loop`` that hold nothing but the next loop, outermost first, ``loop`` last."""
    chain = [loop]
    while True:
        parent = chain[0].parent_op()
        if not isinstance(parent, ForOp):
            break
        ops = list(parent.body.block.ops)
        if len(ops) != 2 or ops[0] is not chain[0] or not isinstance(ops[1], LoopYieldOp):
            break
        chain.insert(0, parent)
    return chain


def depends_on(value: SSAValue, ivs: set[SSAValue], body: Block, memo: dict[SSAValue, bool]) -> bool:
    if value in ivs:
        return True
    if value in memo:
        return memo[value]
    owner = value.owner
    result = False
    if isinstance(owner, Operation) and owner.parent_block() is body:
        result = any(depends_on(v, ivs, body, memo) for v in owner.operands)
    memo[value] = result
    return result


def try_interchange(loop: ForOp, target: TargetAttr) -> bool:
    """Rotate the loop whose variable is the stores' last index innermost, when legal and useful."""
    body = loop.body.block
    if constant_index(loop.step) == 1 and analyse(body, loop.induction_var) is not None:
        return False  # already vectorisable
    stores = [op for op in body.ops if isinstance(op, memref.StoreOp)]
    if not stores:
        return False
    for op in body.ops:
        if op.regions or not (
            isinstance(op, (memref.LoadOp, memref.StoreOp, LoopYieldOp))
            or op.name.split(".", 1)[0] in UNIFORM_SAFE_DIALECTS
            or op.name in VIEW_OPS
        ):
            return False
    chain = perfect_chain(loop)
    ivs = [lp.induction_var for lp in chain]
    last = stores[0].indices[-1] if stores[0].indices else None
    if last not in ivs[:-1]:
        return False
    p = ivs.index(last)
    pivot = chain[p]
    if constant_index(pivot.step) != 1:
        return False
    if any(not s.indices or s.indices[-1] is not last for s in stores):
        return False
    inner_ivs = set(ivs[p + 1 :])
    memo: dict[SSAValue, bool] = {}
    for s in stores:
        if any(depends_on(i, inner_ivs, body, memo) for i in s.indices):
            return False
    loads = [op for op in body.ops if isinstance(op, memref.LoadOp)]
    if not independent(loads, stores):
        return False
    for lp in chain[p:]:
        if any(v in ivs for v in lp.operands):
            return False  # bounds that depend on another loop of the nest
    # Only when a parallel loop still encloses the pivot (or the pivot was not parallel anyway).
    enclosing_parallel = any(lp.is_parallel for lp in chain[:p]) or any(
        isinstance(a, ForOp) and a.is_parallel for a in ancestors(chain[0])
    )
    if pivot.is_parallel and not enclosing_parallel:
        return False
    if analyse(body, pivot.induction_var, target) is None:
        return False
    for k in range(p, len(chain) - 1):
        swap_headers(chain[k], chain[k + 1])
    return True


def swap_headers(outer: ForOp, inner: ForOp) -> None:
    """Exchange two perfectly nested loops: bounds, schedule and the roles of their variables."""
    a, b = outer.induction_var, inner.induction_var
    a_uses, b_uses = list(a.uses), list(b.uses)
    o_ops, i_ops = list(outer.operands), list(inner.operands)
    outer.operands = i_ops
    inner.operands = o_ops
    for name in ("parallel", "vector_width", "unroll"):
        outer.properties[name], inner.properties[name] = inner.properties[name], outer.properties[name]
    for use in a_uses:
        use.operation.operands[use.index] = b
    for use in b_uses:
        use.operation.operands[use.index] = a
    a.name_hint, b.name_hint = b.name_hint, a.name_hint


def is_header_op(op: Operation) -> bool:
    """An op a loop body may compute before its inner loop (a tile bound, an index): pure arith."""
    return op.name.startswith("arith.") and not op.regions


def hoist_loop(loop: ForOp) -> ForOp:
    """Move ``loop`` one level out, past its parent loop, carrying the pure index ops each
    body computes before its inner loop (tile bounds) along with its header.

    The parent's body must be ``[index ops..., loop]``, and ``loop``'s bounds must not
    depend on the parent's variable.  The caller answers for legality (the dependences of
    the nest); for a nest whose iterations are independent but for one reduction loop,
    moving the reduction's tile loop outward keeps every sum in its order."""
    parent = loop.parent_op()
    assert isinstance(parent, ForOp)
    ops = [o for o in parent.body.block.ops if not isinstance(o, LoopYieldOp)]
    if ops[-1] is not loop or not all(is_header_op(o) for o in ops[:-1]):
        raise ValueError("hoist_loop: the parent must hold index ops and the loop only")
    if any(inside(v, parent) for v in loop.operands):
        raise ValueError("hoist_loop: the loop's bounds depend on its parent")
    # The parent's index ops go inside, before the loop's body (they follow its variable).
    inner_body = loop.body.block
    first = inner_body.first_op
    for o in ops[:-1]:
        o.detach()
        inner_body.insert_op_before(o, first)
    swap_headers(parent, loop)
    # The loop's index ops now depend on the outer variable only: they move out with their header.
    for o in list(inner_body.ops):
        if not is_header_op(o) or any(inside(v, loop) for v in o.operands):
            continue
        o.detach()
        parent.body.block.insert_op_before(o, loop)
    for name in [n for n in (*parent.attributes, *loop.attributes) if n.startswith("schedule.")]:
        a, b = parent.attributes.pop(name, None), loop.attributes.pop(name, None)
        if b is not None:
            parent.attributes[name] = b
        if a is not None:
            loop.attributes[name] = a
    return parent


__all__ = ["InterchangePass", "hoist_loop", "swap_headers", "try_interchange"]
