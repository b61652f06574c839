"""split-functions: a function with very many loop nests becomes a chain of calls to private
parts of at most ``max_nests`` nests each.

LLVM's loop passes (LoopRotate, LICM) take time worse than linear in the number of loops of one
function: one ``Concat`` of 2,000 inputs (2,000 copy nests in one function) took 31 s in LLVM's
optimiser, against 4.6 s for 1,000.  ``outline-kernels`` shares identical nests but leaves the
nests that differ (each copy writes at another offset) and runs only from ``-O2``; a graph that
was not fused (``-O0``) is one nest per op.  Parts of bounded size make LLVM's time linear in
the number of parts.  It runs at every ``-O`` level, last at the loop level, and leaves a
function of at most ``max_nests`` nests (and ``max_ops`` ops) as it is.

A part is a run of consecutive top-level ops without results (nests, stores, calls,
deallocations), moved into a private function in order, with the ops between them that have
results and no side effects other than allocation (constants, allocations, views): those go
with the part when only the part uses them, and otherwise stay in the function, before the
call, which comes where the part's last op was.  Any other op with results ends a part.  What a
part uses from outside becomes an argument, except ``arith.constant``\\ s, which are cloned in.
Parts carry ``strati.kernel`` (``noinline``: LLVM optimises each apart) and, as kernels do,
``strati.may_alias`` on a buffer argument that may share bytes with another one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, MemRefType, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import IsTerminator, is_side_effect_free

from strati.dialects.loop.ops import VIEW_OPS, ArenaViewOp
from strati.transforms.outline_kernels import KERNEL_ATTR, MAY_ALIAS_ATTR, may_alias, unique


def movable(op: Operation) -> bool:
    """An op with results that may move before the ops around it: no regions, and no effect but
    allocation."""
    if op.regions:
        return False
    return (
        isinstance(op, (arith.ConstantOp, memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp, ArenaViewOp))
        or op.name in VIEW_OPS
        or is_side_effect_free(op)
    )


def size(op: Operation) -> int:
    return sum(1 for _ in op.walk())


@dataclass
class Part:
    """Ops of one part, in order: ``ops`` (no results) and ``floating`` (movable ops among them)."""

    ops: list[Operation]
    floating: list[Operation]
    nests: int = 0
    weight: int = 0


def split_into_parts(block: Block, position: dict[Operation, int], max_nests: int, max_ops: int) -> list[Part]:
    parts: list[Part] = []
    current = Part([], [])

    def close() -> None:
        nonlocal current
        if current.ops:
            last = current.ops[-1]
            current.floating = [f for f in current.floating if position[f] < position[last]]
            parts.append(current)
        current = Part([], [])

    for op in list(block.ops):
        if op.has_trait(IsTerminator):
            break
        if op.results:
            # (the part's other ops have no results: a movable op never uses a value of theirs)
            if movable(op):
                if current.ops:
                    current.floating.append(op)
                continue  # (before any op of a part: it stays where it is)
            close()
            continue
        weight = size(op)
        if current.ops and (current.nests + bool(op.regions) > max_nests or current.weight + weight > max_ops):
            close()
        current.ops.append(op)
        current.nests += bool(op.regions)
        current.weight += weight
    close()
    return parts


def outline_part(fn: func.FuncOp, part: Part, position: dict[Operation, int], name: str) -> func.FuncOp | None:
    """Move the part's ops into a new private function; a call to it replaces them (None: the part
    had no nest, and stays)."""
    ops = set(part.ops)
    floating = set(part.floating)
    # A floating op goes with the part when every use of its results is in the part's ops.
    for op in reversed(part.floating):
        if all(_top(use.operation, fn) in ops for r in op.results for use in r.uses):
            ops.add(op)
            floating.discard(op)
    # A deallocation of a buffer allocated outside the part stays in the function, after the call
    # (the code generator frees only what its function allocated; freeing later is safe).
    late = [op for op in part.ops if isinstance(op, memref.DeallocOp) and _top(_owner(op.memref), fn) not in ops]
    ops.difference_update(late)
    order = sorted(ops, key=position.__getitem__)
    if not any(op.regions or op.results for op in order):
        return None  # (only deallocations, calls and stores: not worth a function)
    captured: dict[SSAValue, None] = {}
    for op in order:
        for inner in op.walk():
            for value in inner.operands:
                if _top(_owner(value), fn) not in ops:
                    captured.setdefault(value, None)
    arguments = [v for v in captured if not isinstance(v.owner, arith.ConstantOp)]
    constants = [v for v in captured if isinstance(v.owner, arith.ConstantOp)]
    last = order[-1]
    call = func.CallOp(name, arguments, [])
    fn.body.block.insert_op_after(call, last)
    after: Operation = call
    for op in late:
        op.detach()
        fn.body.block.insert_op_after(op, after)
        after = op

    types = [v.type for v in arguments]
    block = Block(arg_types=types)
    mapping: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args))
    for value in constants:
        clone = value.owner.clone()
        block.add_op(clone)
        mapping[value] = clone.result
    for op in order:
        op.detach()
        block.add_op(op)
        for inner in op.walk():
            for i, value in enumerate(inner.operands):
                if value in mapping:
                    inner.operands[i] = mapping[value]
    block.add_op(func.ReturnOp())
    buffers = [v for v in arguments if isinstance(v.type, MemRefType)]
    aliasing = [isinstance(v.type, MemRefType) and any(w is not v and may_alias(v, w) for w in buffers) for v in arguments]
    arg_attrs = ArrayAttr([DictionaryAttr({MAY_ALIAS_ATTR: UnitAttr()} if a else {}) for a in aliasing])
    part_fn = func.FuncOp(name, FunctionType.from_lists(types, []), Region(block), visibility="private", arg_attrs=arg_attrs)
    part_fn.attributes[KERNEL_ATTR] = UnitAttr()
    return part_fn


def _owner(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else owner.parent_op()


def _top(op: Operation | None, fn: func.FuncOp) -> Operation | None:
    """The ancestor of ``op`` (or itself) that is a top-level op of ``fn``'s body (None if none)."""
    block = fn.body.block
    while op is not None and op.parent is not block:
        op = op.parent_op()
    return op


@dataclass(frozen=True)
class SplitFunctionsPass(ModulePass):
    """Functions of more than ``max_nests`` loop nests (or ``max_ops`` ops) into calls of parts."""

    name = "split-functions"

    max_nests: int = 64
    max_ops: int = 4096

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        names = {f.sym_name.data for f in op.ops if isinstance(f, func.FuncOp)}
        for fn in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks and len(f.body.blocks) == 1]:
            top = list(fn.body.block.ops)
            if sum(1 for o in top if o.regions) <= self.max_nests and sum(size(o) for o in top) <= self.max_ops:
                continue
            insert_after: Operation = fn
            count = 0
            position = {o: i for i, o in enumerate(top)}
            for part in split_into_parts(fn.body.block, position, self.max_nests, self.max_ops):
                if part.nests < 2:
                    continue  # (one nest, however large, is one function's worth)
                name = unique(f"{fn.sym_name.data}.part{count}", names)
                part_fn = outline_part(fn, part, position, name)
                if part_fn is None:
                    names.discard(name)
                    continue
                count += 1
                op.body.block.insert_op_after(part_fn, insert_after)
                insert_after = part_fn
            for o in list(fn.body.block.ops):  # constants now used only by clones in the parts
                if isinstance(o, arith.ConstantOp) and not o.result.uses:
                    fn.body.block.erase_op(o)


__all__ = ["SplitFunctionsPass"]
