"""fuse-loops: loop fusion of producer and consumer loop nests after bufferization (level 3).

What fuse-generics cannot do at the tensor level, because a generic has one body,
is done here on the loop nests: the elementwise consumer of a reduction (conv2d ->
relu, matmul -> add bias -> relu) moves *inside* the reduction's nest, after its
reduction loops, and the initialisation of the accumulator (a fill, a bias
broadcast) moves inside it before them.  The temporary buffer between them then
disappears.

**Candidates.**  For each top-level nest ``C`` (in order) and each buffer it
reads, the nearest earlier top-level nest ``P`` that writes that buffer is its
producer.  One of the two, ``X``, must be a *perfect* nest (no loop below its
innermost body) whose whole iteration space equals the outer loops of the other,
``Y`` (their bounds are the same SSA values or equal constants; after a fusion a
nest keeps the iteration space it had before, so a nest that absorbed its
initialisation still takes its consumer).  When both qualify, the consumer moves.

**Depth.**  ``X``'s outer loops merge with ``Y``'s down to depth ``j``: ``X``'s body
at that depth goes at the start of ``Y``'s (``X`` first: an initialisation) or at
its end (``X`` after: a consumer).  ``j`` is ``X``'s full depth, or one less when
``Y`` has loops below that depth and ``keep_innermost`` is set (the default): then
each part keeps its own innermost loop, so a reduction stays a perfect nest that
convert-loop-to-hw can still interchange and vectorise
(``for oh { for ow {init}; for ow, ic, kh, kw {conv}; for ow {relu} }``).  ``Y``
must be perfectly nested above depth ``j``.  If fusion is illegal at that depth,
one level less is tried (softmax's exp joins its max-reduction at the row level).

**Legality.**  The fused loops run, for each iteration of the shared loops, ``X``'s
part then ``Y``'s (or the reverse), where before all of one ran before the other.
That is the same order for every element that both touch when any two accesses,
one in each nest, to the same buffer with at least one store, can only meet in
the same iteration of the shared loops: for each shared depth ``d`` both index
the buffer at the same position with that depth's loop variable (through the same
memref value; a load or store whose indices are not known, or any other use of
the buffer, is a conflict).  The two nests must also become adjacent: either the
first moves down to the second, or the second (and the allocations and constants
it uses) moves up to the first, past ops with which it has no conflicting access
(a ``memref.dealloc`` writes its buffer).  ``parallel`` stays on a shared loop
only when both nests had it.

**Temporaries.**  After fusion, inside each nest:

* *forwarding*: a ``memref.load`` of a temporary (a ``memref.alloc`` used only in
  that nest) at the very indices of a store just before it in the same block,
  with no store to it in between, is replaced by the value stored; a temporary
  that is then only stored to is erased with its stores;
* *accumulator renaming*: a temporary ``T`` whose every access is at the same
  indices (position by position, the loop variable of the same depth) as one
  store to a buffer ``U`` of the same type, which covers ``U`` (each enclosing loop
  runs ``0 .. dim`` by 1 and indexes it) and is ``U``'s only access in the nest,
  and whose accesses all come before that store, is replaced by ``U``:
  ``U[e]`` serves as ``T[e]`` until its final value is stored.  conv -> relu then
  accumulates in the output and applies the relu in place.

Options: ``keep_innermost`` (default true).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from strati.dialects.loop.ops import ForOp
from strati.functions import functions

# --- memory accesses ---------------------------------------------------------------------


def root_of(value: SSAValue) -> SSAValue:
    """The buffer a memref value is a view of, following every view op and arena view to the
    allocation: unlike strati.dialects.loop.ops.buffer_root, views of one arena all alias here,
    since moving a nest into another may put two disjoint-lifetime arena views side by side."""
    while True:
        owner = value.owner
        if not isinstance(owner, Operation) or isinstance(owner, memref.AllocOp):
            return value
        sources = [o for o in owner.operands if isinstance(o.type, MemRefType)]
        if len(owner.results) != 1 or not isinstance(owner.results[0].type, MemRefType) or not sources:
            return value
        value = sources[0]


@dataclass(frozen=True, eq=False)
class Access:
    op: Operation
    buffer: SSAValue
    root: SSAValue
    write: bool
    indices: tuple[SSAValue, ...] | None  # None: unknown (the whole buffer)


_NO_ACCESS = (memref.AllocOp, memref.GetGlobalOp)


def accesses(op: Operation) -> list[Access]:
    """Every read and write of a buffer in ``op`` (itself and nested)."""
    found: list[Access] = []
    for inner in op.walk():
        if isinstance(inner, memref.LoadOp):
            found.append(Access(inner, inner.memref, root_of(inner.memref), False, tuple(inner.indices)))
        elif isinstance(inner, memref.StoreOp):
            found.append(Access(inner, inner.memref, root_of(inner.memref), True, tuple(inner.indices)))
        elif isinstance(inner, _NO_ACCESS):
            continue
        else:
            memrefs = [o for o in inner.operands if isinstance(o.type, MemRefType)]
            results_are_views = inner.results and all(isinstance(r.type, MemRefType) for r in inner.results)
            if memrefs and results_are_views and not isinstance(inner, memref.DeallocOp):
                continue  # a view: no access by itself
            for o in memrefs:  # a dealloc, a call, anything else: may write the whole buffer
                found.append(Access(inner, o, root_of(o), True, None))
    return found


def conflict(a: Iterable[Access], b: Iterable[Access]) -> bool:
    """Whether two sets of accesses touch a common buffer, one of them writing."""
    reads_a: set[SSAValue] = set()
    writes_a: set[SSAValue] = set()
    for x in a:
        (writes_a if x.write else reads_a).add(x.root)
    return any(y.root in writes_a or (y.write and y.root in reads_a) for y in b)


# --- loop structure ----------------------------------------------------------------------


def body_ops(loop: ForOp) -> list[Operation]:
    return [op for op in loop.body.block.ops if op is not loop.body.block.last_op]


def chain(loop: ForOp) -> list[ForOp]:
    """The perfectly nested loops from ``loop`` down: each but the last has only the next in its body."""
    loops = [loop]
    while True:  # (without listing the body: a loop of a big body is asked often)
        block = loops[-1].body.block
        first = block.first_op
        if isinstance(first, ForOp) and first.next_op is block.last_op:
            loops.append(first)
        else:
            return loops


def is_perfect(loop: ForOp) -> bool:
    """A perfect nest: below its chain of loops, a body without loops."""
    innermost = chain(loop)[-1]
    return not any(isinstance(op, ForOp) for op in innermost.body.walk())


def const_index(v: SSAValue) -> int | None:
    owner = v.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def same_value(a: SSAValue, b: SSAValue) -> bool:
    if a is b:
        return True
    ca, cb = const_index(a), const_index(b)
    return ca is not None and ca == cb


Bounds = tuple[SSAValue, SSAValue, SSAValue]


def bounds(loop: ForOp) -> Bounds:
    return (loop.lb, loop.ub, loop.step)


def same_bounds(a: Bounds, b: Bounds) -> bool:
    return all(same_value(x, y) for x, y in zip(a, b))


def loop_depths(op: Operation, top: Operation) -> dict[ForOp, int]:
    """The depth of every loop enclosing ``op`` inside the top-level nest ``top`` (0 = ``top``)."""
    loops: list[ForOp] = []
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForOp):
            loops.append(parent)
        if parent is top:
            break
        parent = parent.parent_op()
    return {loop: d for d, loop in enumerate(reversed(loops))}


def iv_loop(v: SSAValue) -> ForOp | None:
    if isinstance(v, BlockArgument):
        parent = v.block.parent_op()
        if isinstance(parent, ForOp) and v is parent.induction_var:
            return parent
    return None


# --- the pass ----------------------------------------------------------------------------


class FunctionFuser:
    def __init__(self, block: Block, keep_innermost: bool):
        self.block = block
        self.keep_innermost = keep_innermost
        self.space: dict[ForOp, list[Bounds]] = {}
        self._accesses: dict[Operation, list[Access]] = {}
        self.written_somewhere: set[SSAValue] = set()
        self.fusions = 0

    def iteration_space(self, nest: ForOp) -> list[Bounds]:
        if nest not in self.space:
            self.space[nest] = [bounds(loop) for loop in chain(nest)]
        return self.space[nest]

    # -- candidates

    def access(self, op: Operation) -> list[Access]:
        """``accesses(op)``, cached until the op changes (a merge invalidates the nest it grows)."""
        found = self._accesses.get(op)
        if found is None:
            found = self._accesses[op] = accesses(op)
        return found

    def written(self, op: Operation) -> set[SSAValue]:
        return {a.root for a in self.access(op) if a.write}

    def run(self) -> None:
        # Forward sweeps over the nests: each consumer absorbs (or joins) its producers while
        # it can; a sweep that fuses something is followed by another.
        changed = True
        while changed:
            changed = False
            # Buffers some nest writes (merging nests adds none): a read of anything else (an
            # argument, a constant) has no producer to look back for, which kept producers()
            # walking to the top of the block, quadratic in the number of nests.
            self.written_somewhere = set().union(*(self.written(op) for op in self.block.ops if isinstance(op, ForOp)))
            op = self.block.first_op
            while op is not None:
                if not isinstance(op, ForOp):
                    op = op.next_op
                    continue
                survivor = None
                for producer in self.producers(op):
                    survivor = self.try_fuse(producer, op)
                    if survivor is not None:
                        break
                if survivor is None:
                    op = op.next_op
                else:  # look again at what the fused nest reads
                    changed = True
                    op = survivor
        for alloc in [op for op in self.block.ops if isinstance(op, memref.AllocOp)]:
            self.forward(alloc) or self.rename(alloc)

    def producers(self, consumer: ForOp) -> list[ForOp]:
        """For each buffer the nest reads, the nearest earlier nest that writes it (nearest first)."""
        remaining = {a.root for a in self.access(consumer) if not a.write} & self.written_somewhere
        found: list[ForOp] = []
        op = consumer.prev_op
        while op is not None and remaining:
            if isinstance(op, ForOp):
                written = self.written(op) & remaining
                if written:
                    found.append(op)
                    remaining -= written
            op = op.prev_op
        return found

    def try_fuse(self, first: ForOp, second: ForOp) -> ForOp | None:
        """Fuse two nests if the rules allow; returns the nest that holds both."""
        for x, y in ((second, first), (first, second)):
            if not is_perfect(x):
                continue
            dx = len(chain(x))
            space_x = [bounds(loop) for loop in chain(x)]
            space_y = self.iteration_space(y)
            if len(space_y) < dx or not all(same_bounds(a, b) for a, b in zip(space_x, space_y)):
                continue
            y_chain = chain(y)
            j = min(dx, len(y_chain))
            if j == dx and self.keep_innermost and dx > 1 and any(isinstance(op, ForOp) for op in body_ops(y_chain[dx - 1])):
                j = dx - 1
            while j >= max(1, dx - 1):
                if j <= len(y_chain) and self.legal(x, y, j) and self.make_adjacent(first, second):
                    self.merge(x, y, j, x_first=x is first)
                    self.fusions += 1
                    return y
                j -= 1
        return None

    # -- legality

    def legal(self, x: ForOp, y: ForOp, j: int) -> bool:
        xb, yb = chain(x)[:j], chain(y)[:j]
        if len(xb) < j or len(yb) < j:
            return False
        if not all(same_bounds(bounds(a), bounds(b)) for a, b in zip(xb, yb)):
            return False
        by_root: dict[SSAValue, list[Access]] = {}
        for b in self.access(y):
            by_root.setdefault(b.root, []).append(b)
        for a in self.access(x):
            for b in by_root.get(a.root, ()):
                if not (a.write or b.write):
                    continue
                if a.indices is None or b.indices is None or a.buffer is not b.buffer:
                    return False
                for d in range(j):
                    iv_a, iv_b = xb[d].induction_var, yb[d].induction_var
                    if not any(p is iv_a and q is iv_b for p, q in zip(a.indices, b.indices)):
                        return False
        return True

    def make_adjacent(self, first: ForOp, second: ForOp) -> bool:
        between: list[Operation] = []
        op = first.next_op
        while op is not None and op is not second:
            between.append(op)
            op = op.next_op
        if not between:
            return True
        first_acc = self.access(first)
        # A dealloc of a buffer the first nest uses is delayed past the second (it frees later).
        delayed = [o for o in between if isinstance(o, memref.DeallocOp) and conflict(first_acc, self.access(o))]
        if not any(conflict(first_acc, self.access(o)) for o in between if o not in delayed):
            first.detach()
            self.block.insert_op_before(first, second)
            for o in reversed(delayed):
                o.detach()
                self.block.insert_op_after(o, second)
            return True
        second_acc = self.access(second)
        if any(conflict(second_acc, self.access(o)) for o in between):
            return False
        # Move the second nest up, with the definitions it needs from in between.
        members = set(between)
        needed: list[Operation] = []

        def need(value: SSAValue) -> bool:
            owner = value.owner
            if not isinstance(owner, Operation) or owner not in members or owner in needed:
                return True
            if not (isinstance(owner, (memref.AllocOp, memref.GetGlobalOp, arith.ConstantOp)) or (
                not owner.regions and not self.access(owner) and owner.results
                and all(isinstance(r.type, MemRefType) for r in owner.results)
            )):
                return False
            if not all(need(o) for o in owner.operands):
                return False
            needed.append(owner)
            return True

        for inner in second.walk():
            for o in inner.operands:
                if not need(o):
                    return False
        for owner in sorted(needed, key=between.index):
            owner.detach()
            self.block.insert_op_before(owner, first)
        second.detach()
        self.block.insert_op_after(second, first)
        return True

    # -- the rewrite

    def merge(self, x: ForOp, y: ForOp, j: int, x_first: bool) -> None:
        xb, yb = chain(x)[:j], chain(y)[:j]
        for a, b in zip(xb, yb):
            a.induction_var.replace_all_uses_with(b.induction_var)
            if not a.is_parallel and b.is_parallel:
                b.properties["parallel"] = a.parallel
        target = yb[-1].body.block
        moved = body_ops(xb[-1])
        anchor = target.first_op if x_first else target.last_op
        for op in moved:
            op.detach()
            if anchor is None:
                target.add_op(op)
            else:
                target.insert_op_before(op, anchor)
        Rewriter.erase_op(x)
        self._accesses.pop(x, None)
        self._accesses.pop(y, None)

    # -- temporaries

    def temporary_uses(self, alloc: memref.AllocOp) -> tuple[ForOp, list[memref.LoadOp | memref.StoreOp], list[Operation]] | None:
        """The nest that uses a temporary, its loads and stores, its deallocs; None if it is used otherwise."""
        buf = alloc.results[0]
        nest: ForOp | None = None
        access: list[memref.LoadOp | memref.StoreOp] = []
        deallocs: list[Operation] = []
        for use in buf.uses:
            user = use.operation
            if isinstance(user, memref.DeallocOp) and user.parent_block() is self.block:
                deallocs.append(user)
                continue
            if not isinstance(user, (memref.LoadOp, memref.StoreOp)) or user.memref is not buf:
                return None
            top = self.block.find_ancestor_op_in_block(user)
            if not isinstance(top, ForOp) or (nest is not None and top is not nest):
                return None
            nest = top
            access.append(user)
        if nest is None:
            return None
        return nest, access, deallocs

    def forward(self, alloc: memref.AllocOp) -> bool:
        found = self.temporary_uses(alloc)
        if found is None:
            return False
        nest, access, deallocs = found
        buf = alloc.results[0]
        for load in [a for a in access if isinstance(a, memref.LoadOp)]:
            op = load.prev_op
            while op is not None:
                if isinstance(op, memref.StoreOp) and op.memref is buf:
                    if tuple(op.indices) == tuple(load.indices):
                        load.res.replace_all_uses_with(op.value)
                        Rewriter.erase_op(load)
                    break
                if any(a.root is buf and a.write for a in accesses(op)):
                    break
                op = op.prev_op
        if any(isinstance(u.operation, memref.LoadOp) for u in buf.uses):
            return False
        for use in list(buf.uses):
            Rewriter.erase_op(use.operation)
        Rewriter.erase_op(alloc)
        return True

    def rename(self, alloc: memref.AllocOp) -> bool:
        found = self.temporary_uses(alloc)
        if found is None:
            return False
        nest, access, deallocs = found
        t = alloc.results[0]

        def signature(op: memref.LoadOp | memref.StoreOp) -> tuple | None:
            depths = loop_depths(op, nest)
            sig = []
            for v in op.indices:
                loop = iv_loop(v)
                if loop is not None and loop in depths:
                    sig.append(("iv", depths[loop]))
                elif (c := const_index(v)) is not None:
                    sig.append(("c", c))
                else:
                    return None
            return tuple(sig)

        sig_t = {signature(a) for a in access}
        if len(sig_t) != 1 or None in sig_t:
            return False
        (sig,) = sig_t
        all_acc = accesses(nest)
        for store in [op for op in nest.walk() if isinstance(op, memref.StoreOp)]:
            u = store.memref
            if u is t or u.type != t.type or signature(store) != sig:
                continue
            if [a.op for a in all_acc if a.root is root_of(u)] != [store]:
                continue
            if not self.covers(store, t.type):
                continue
            if not all(precedes(a, store) for a in access):
                continue
            for a in access:
                operands = list(a.operands)
                operands[1 if isinstance(a, memref.StoreOp) else 0] = u
                a.operands = operands
            for d in deallocs:
                Rewriter.erase_op(d)
            Rewriter.erase_op(alloc)
            return True
        return False

    @staticmethod
    def covers(store: memref.StoreOp, t: MemRefType) -> bool:
        """Each loop around the store runs 0..dim by 1 for the dimension it indexes: the store
        writes every element exactly once."""
        shape = t.get_shape()
        indexed: set[ForOp] = set()
        for v, n in zip(store.indices, shape):
            loop = iv_loop(v)
            if loop is None:
                if const_index(v) != 0 or n != 1:
                    return False
                continue
            if loop in indexed or const_index(loop.lb) != 0 or const_index(loop.step) != 1 or const_index(loop.ub) != n:
                return False
            indexed.add(loop)
        parent = store.parent_op()
        while isinstance(parent, ForOp):
            if parent not in indexed:
                return False
            parent = parent.parent_op()
        return True


def precedes(a: Operation, b: Operation) -> bool:
    """Whether ``a`` runs before ``b`` in every iteration of the loops around both: in their
    innermost common block, ``a``'s ancestor comes strictly before ``b``'s."""
    ancestors_b: dict[Block, Operation] = {}
    op: Operation | None = b
    while op is not None:
        block = op.parent_block()
        if block is None:
            break
        ancestors_b[block] = op
        op = block.parent_op()
    op = a
    while op is not None:
        block = op.parent_block()
        if block is None:
            return False
        if block in ancestors_b:
            other = ancestors_b[block]
            if other is op:
                return False
            return block.get_operation_index(op) < block.get_operation_index(other)
        op = block.parent_op()
    return False


def fuse_function(fn: func.FuncOp, keep_innermost: bool = True) -> int:
    total = 0
    for block in fn.body.blocks:
        fuser = FunctionFuser(block, keep_innermost)
        fuser.run()
        total += fuser.fusions
    return total


@dataclass(frozen=True)
class FuseLoopsPass(ModulePass):
    """Fuse producer and consumer loop nests and drop the temporaries between them (see the module doc)."""

    name = "fuse-loops"

    keep_innermost: bool = True

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            fuse_function(fn, self.keep_innermost)
