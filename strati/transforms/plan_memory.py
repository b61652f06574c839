"""plan-memory: every temporary buffer of a function becomes a view into one arena per memory space.

A loop-level function (see :mod:`strati.transforms.convert_tensor_to_loop`) gets a
``memref.alloc`` per temporary and a ``memref.dealloc`` after its last use.  This
pass replaces them, per function, with **one** allocation (per memory space):

    %arena = memref.alloc() {alignment = 64 : i64} : memref<12096xi8>   // first op
    ...
    %p = loop.arena_view %arena[8192] : memref<12096xi8> to memref<1x3x18x18xf32>
    ...                                                                  // (was memref.alloc)
    memref.dealloc %arena : memref<12096xi8>                             // before func.return

**Memory spaces.**  Temporaries in a target's memory (``memref<..., #hw.space<"sram">>``)
are planned apart, one arena per space (``%arena_sram = memref.alloc() : memref<Nxi8,
#hw.space<"sram">>``), which must fit the capacity the module's target declares for
that space (option ``target``: the target to plan for when the module does not carry
its description yet, as before convert-loop-to-hw): more is an error naming the
function, the bytes and the capacity, and a space the target does not declare is an
error listing its spaces.

**The arena** is an ``i8`` buffer allocated at the start of the function and freed
just before it returns (rather than passed in by the runtime: the function keeps
its signature, so ``func.call``, the JIT's entry wrappers and the interpreters need
nothing new, and a function called from another one owns its own arena for the
call's duration).  The LLVM code generator makes an arena of at most 16 KiB a stack
slot and a larger one a single ``aligned_alloc(64, ...)``/``free`` per call.

**Liveness** is computed over the function's top-level block: a temporary is live
from the first top-level op that touches it to the last one (inclusive), where
"touches" means any use of the buffer or of a view of it (``loop.view``,
``collapse_shape``/``expand_shape``, ``subview``, ``cast``, and any op that returns
a memref from it), inside loop nests at any depth; ``memref.dealloc`` is not a use.
Two temporaries whose intervals share an op are live at the same time.

**Placement** is greedy by size with best fit (TFLite's "greedy by size"): buffers
(rounded up to 64 bytes) are placed largest first, each at the lowest-waste gap
between the buffers already placed whose lifetimes overlap its own, or above them
all; every offset is a multiple of 64 (of the alloc's own ``alignment`` when it is
larger, and the arena is then aligned as much).  Buffers whose lifetimes are
disjoint may share bytes; buffers live at the same time never do, except:

**In place.**  A buffer ``B`` that starts at a top-level op ``X`` takes the bytes of a
buffer ``A`` that dies at ``X`` when ``X`` is an elementwise loop nest between them:
both have the same type, every access to either inside ``X`` is a ``memref.load`` of
``A`` or a ``memref.store`` to ``B`` in one innermost block, at one and the same
index tuple, which is the induction variables of all the loops around that block
(so each iteration touches its own element), and every load of ``A`` comes before
every store to ``B`` in the block.  Then iteration ``k`` reads ``A[k]`` before it
overwrites it with ``B[k]``, and no other iteration touches element ``k``.  Chains
(``relu(bn(conv))``) share one slot, and one view: the buffer computed in place is the
very value of its source (its own name is lost), so the nest loads and stores the
same memref at the same indices, as an in-place nest written by hand would.

**Parts of another buffer.**  A buffer ``B`` whose last use is a loop nest that computes all
of it, element by element and in order, into a contiguous part of another temporary ``R`` (a
concatenation's part: ``R[.., i + c, ..] = f(B[.., i, ..])``, the dimensions before that one
of extent 1 and those after it ``R``'s own; ``f`` a copy, or scalar arithmetic such as a
fused relu) takes that part of ``R``'s bytes from its start on: ``R`` then lives from the
earlier of their starts, and ``B`` (with the buffers computed in place of it) lies inside
it.  The nest then runs in place, reading each element of ``R`` where it writes it (its
loads of ``B`` become loads of ``R`` at the store's indices: two names for the same bytes
would keep the vectoriser out), and a plain copy goes altogether.  Only when, while ``B`` lives, nothing but the other parts' nests
touches ``R``, and the part keeps ``B``'s alignment.  Parts nest: each of DenseNet's dense
layers computes into the next layer's input, itself a part of the next one's, so a dense
block copies nothing (DenseNet-121: 82 copies, and 110 of its 279 kernels, gone).

Left alone: allocs nested in loops, dynamically shaped ones, ones with a layout or
an element type of unknown size, ones returned or freed inside a loop, allocs that
are arenas already (read by ``loop.arena_view``: the pass is idempotent), and
functions with more than one block.

Option ``timeline=FILE.svg`` draws the plan: one rectangle per buffer, op positions
across and arena offsets up (``strati.codegen.timeline``).  Option ``report=true`` writes one line per function to stderr::

    plan-memory @cnn: 17 buffers, 6 in place, 0 in parts of others (0 copies elided); one
    buffer per temporary: 16416 bytes live at peak, 42208 bytes in all; arena: 12096 bytes

(one line; "live at peak" is the most bytes live at once with a buffer of its own
per temporary, "in all" their sum).  Option ``in_place=false`` turns in-place reuse
(and the parts) off.  :func:`memory_plan` gives the same figures as a dict, without changing the
module.  No placement can go below the live peak but by computing in place, so the
arena is at least the peak minus what in-place reuse saves.

Order with ``convert-loop-to-hw``: either works, but after it, vectorised nests
(``vector.load``/``vector.store``, remainder loops) are not recognised as in place;
before it, the vectoriser must know that an arena view is a buffer of its own (its
alias analysis, ``root_of``, gives up on values it does not know).
"""

from __future__ import annotations

import math
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import IntegerAttr, MemRefType, ModuleOp, NoneAttr, TensorType, i8, i64
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from strati.diagnostics import StratiError
from strati.dialects.hw.ops import MemorySpaceAttr, memory_space
from strati.dialects.hw.target import target_of
from strati.dialects.loop.analysis import constant_index
from strati.dialects.loop.ops import ARENA_ALIGNMENT, ArenaViewOp, IndexLoop, buffer_bytes, element_bytes
from strati.functions import functions

VIEW_OPS = frozenset(
    {
        "loop.view",
        "loop.arena_view",
        "memref.collapse_shape",
        "memref.expand_shape",
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
    }
)
"""Ops that only make another name for (part of) a buffer: their results' uses count, not theirs."""


# --- the allocator ------------------------------------------------------------------------------


def align_up(n: int, align: int) -> int:
    return -(-n // align) * align


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two inclusive intervals ``[start, end]`` share a point."""
    return a[0] <= b[1] and b[0] <= a[1]


def assign_offsets(
    lifetimes: list[tuple[int, int]], sizes: list[int], aligns: list[int] | None = None
) -> tuple[list[int], int]:
    """Offsets for buffers with inclusive lifetimes ``[start, end]`` such that two buffers
    whose lifetimes overlap get disjoint bytes; returns the offsets and the total size.

    Greedy by size, best fit: largest first (ties: earlier start, then given order), each
    at the smallest gap that fits among the already placed buffers that are live at the
    same time, else just above the highest of them."""
    n = len(sizes)
    aligns = aligns if aligns is not None else [1] * n
    offsets = [-1] * n
    placed: list[int] = []
    for i in sorted(range(n), key=lambda k: (-sizes[k], lifetimes[k][0], k)):
        busy = sorted((offsets[j], offsets[j] + sizes[j]) for j in placed if sizes[j] and overlaps(lifetimes[i], lifetimes[j]))
        best, best_gap, cursor = -1, 0, 0
        for lo, hi in busy:
            at = align_up(cursor, aligns[i])
            if at + sizes[i] <= lo and (best < 0 or lo - cursor < best_gap):
                best, best_gap = at, lo - cursor
            cursor = max(cursor, hi)
        offsets[i] = best if best >= 0 else align_up(cursor, aligns[i])
        placed.append(i)
    total = max((o + s for o, s in zip(offsets, sizes)), default=0)
    return offsets, total


def conflicts(lifetimes: list[tuple[int, int]], sizes: list[int], offsets: list[int]) -> list[tuple[int, int]]:
    """Pairs of buffers that are live at the same time and share bytes (none, for a valid plan).
    A sweep over the lifetimes: each buffer is compared with those still live where it starts."""
    bad = []
    active: list[int] = []
    for i in sorted(range(len(sizes)), key=lambda k: lifetimes[k][0]):
        active = [j for j in active if lifetimes[j][1] >= lifetimes[i][0]]
        if sizes[i]:
            for j in active:
                if offsets[i] < offsets[j] + sizes[j] and offsets[j] < offsets[i] + sizes[i]:
                    bad.append((min(i, j), max(i, j)))
            active.append(i)
    return bad


# --- the analysis of one function ---------------------------------------------------------------


@dataclass(eq=False)
class Buffer:
    """One temporary: a top-level ``memref.alloc``, its views, its lifetime and its place."""

    alloc: memref.AllocOp
    bytes: int
    align: int
    aliases: list[SSAValue]
    deallocs: list[Operation]
    start: int = 0
    end: int = 0
    slot: Slot | None = None
    in_place_of: Buffer | None = None
    part_of: Buffer | None = None
    """The buffer whose bytes this one's slot lies in (:func:`find_copies`)."""

    @property
    def name(self) -> str:
        return self.alloc.results[0].name_hint or ""

    @property
    def type(self) -> MemRefType:
        t = self.alloc.results[0].type
        assert isinstance(t, MemRefType)
        return t


@dataclass(eq=False)
class Slot:
    """Bytes of the arena held by one buffer, or by a chain of buffers computed in place; and
    the slots of the buffers copied into a part of it, ``delta`` bytes into it (:func:`find_copies`)."""

    members: list[Buffer]
    offset: int = 0
    inner: list[Slot] = field(default_factory=list)
    delta: int = 0
    """Bytes from the start of the slot that holds this one (when it is inner to another)."""

    @property
    def start(self) -> int:
        return min([self.members[0].start, *(s.start for s in self.inner)])

    @property
    def end(self) -> int:
        return max([self.members[-1].end, *(s.end for s in self.inner)])

    @property
    def bytes(self) -> int:
        return max(b.bytes for b in self.members)

    @property
    def align(self) -> int:
        return max(b.align for b in self.members)


@dataclass
class FunctionPlan:
    name: str
    space: str | None = None
    """The memory space of its temporaries and arena (None: main memory)."""
    buffers: list[Buffer] = field(default_factory=list)
    slots: list[Slot] = field(default_factory=list)
    """The outermost slots (an inner slot is placed with the one that holds it)."""
    arena_bytes: int = 0
    copies: list[Operation] = field(default_factory=list)
    """The copy nests made unnecessary: each copied a buffer into the bytes it now has."""
    parts: list[tuple[Operation, Buffer]] = field(default_factory=list)
    """The nests that compute a buffer (the second) into its own bytes in a part of another."""

    @property
    def in_place(self) -> int:
        return sum(1 for b in self.buffers if b.in_place_of is not None)

    @property
    def in_parts(self) -> int:
        return sum(1 for b in self.buffers if b.part_of is not None)

    @property
    def naive_bytes(self) -> int:
        """All temporaries, one buffer each, all at once."""
        return sum(b.bytes for b in self.buffers)

    @property
    def peak_bytes(self) -> int:
        """The most bytes live at one op with one buffer per temporary (freed after its last use)."""
        events: dict[int, int] = {}
        for b in self.buffers:
            events[b.start] = events.get(b.start, 0) + b.bytes
            events[b.end + 1] = events.get(b.end + 1, 0) - b.bytes
        peak = live = 0
        for at in sorted(events):
            live += events[at]
            peak = max(peak, live)
        return peak

    def report(self) -> str:
        where = "" if self.space is None else f" in space '{self.space}'"
        return (
            f"plan-memory @{self.name}{where}: {len(self.buffers)} buffers, {self.in_place} in place, {self.in_parts} in parts of others ({len(self.copies)} copies elided); "
            f"one buffer per temporary: {self.peak_bytes} bytes live at peak, {self.naive_bytes} bytes in all; "
            f"arena: {self.arena_bytes} bytes"
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "buffers": len(self.buffers),
            "in_place": self.in_place,
            "in_parts": self.in_parts,
            "copies_elided": len(self.copies),
            "naive_bytes": self.naive_bytes,
            "peak_bytes": self.peak_bytes,
            "arena_bytes": self.arena_bytes,
            "placements": [
                {
                    "name": b.name,
                    "type": str(b.type),
                    "bytes": b.bytes,
                    "start": b.start,
                    "end": b.end,
                    "offset": b.slot.offset if b.slot is not None else None,
                    "in_place_of": self.buffers.index(b.in_place_of) if b.in_place_of is not None else None,
                    "part_of": self.buffers.index(b.part_of) if b.part_of is not None else None,
                }
                for b in self.buffers
            ],
        }


def alias_closure(root: SSAValue) -> tuple[list[SSAValue], list[Operation], bool]:
    """The buffer and every value that names (part of) it; its deallocs; whether it escapes."""
    aliases, deallocs = [root], []
    escapes = False
    k = 0
    while k < len(aliases):
        for use in aliases[k].uses:
            op = use.operation
            if isinstance(op, memref.DeallocOp):
                deallocs.append(op)
            elif isinstance(op, func.ReturnOp):
                escapes = True
            else:
                aliases.extend(r for r in op.results if isinstance(r.type, MemRefType) and r not in aliases)
        k += 1
    return aliases, deallocs, escapes


def temporaries(block: Block, alignment: int, space: str | None = None) -> list[Buffer]:
    """The temporaries of one memory space (None: main memory)."""
    found = []
    for op in block.ops:
        if not isinstance(op, memref.AllocOp) or op.dynamic_sizes or op.symbol_operands:
            continue
        result = op.results[0]
        if memory_space(result.type) != space:
            continue
        size = buffer_bytes(result.type)
        if size is None or any(isinstance(u.operation, ArenaViewOp) for u in result.uses):
            continue
        aliases, deallocs, escapes = alias_closure(result)
        if escapes or any(d.parent_block() is not block for d in deallocs):
            continue
        align = alignment
        if (requested := op.alignment) is not None:
            align = max(align, requested.value.data)
        found.append(Buffer(op, size, align, aliases, deallocs))
    return found


def analyse_function(
    fn: func.FuncOp, *, in_place: bool = True, alignment: int = ARENA_ALIGNMENT, space: str | None = None
) -> FunctionPlan | None:
    """The plan for one function's temporaries in one memory space (None when it has no
    body or more than one block)."""
    if len(fn.body.blocks) != 1:
        return None
    block = fn.body.block
    plan = FunctionPlan(fn.sym_name.data, space)
    position = {op: i for i, op in enumerate(block.ops)}
    plan.buffers = temporaries(block, alignment, space)
    touches: dict[Buffer, list[int]] = {}
    for b in plan.buffers:
        points = [
            position[top]
            for v in b.aliases
            for use in v.uses
            if not isinstance(use.operation, memref.DeallocOp) and use.operation.name not in VIEW_OPS
            and (top := block.find_ancestor_op_in_block(use.operation)) is not None
        ]
        b.start, b.end = (min(points), max(points)) if points else (position[b.alloc],) * 2
        touches[b] = sorted(set(points))
    for b in plan.buffers:
        b.slot = Slot([b])
        plan.slots.append(b.slot)
    if in_place:
        find_in_place(block, plan)
        find_copies(block, plan, touches)
    lifetimes = [(s.start, s.end) for s in plan.slots]
    sizes = [align_up(s.bytes, s.align) for s in plan.slots]
    offsets, total = assign_offsets(lifetimes, sizes, [s.align for s in plan.slots])
    assert not conflicts(lifetimes, sizes, offsets), "plan-memory: overlapping buffers"

    def place(slot: Slot, offset: int) -> None:
        slot.offset = offset
        for inner in slot.inner:
            place(inner, offset + inner.delta)

    for s, off in zip(plan.slots, offsets):
        place(s, off)
    plan.arena_bytes = total
    return plan


# --- in place -------------------------------------------------------------------------------------


def find_in_place(block: Block, plan: FunctionPlan) -> None:
    starting: dict[int, list[Buffer]] = {}
    ending: dict[int, list[Buffer]] = {}
    for b in plan.buffers:
        starting.setdefault(b.start, []).append(b)
        ending.setdefault(b.end, []).append(b)
    taken: set[Buffer] = set()
    for at, op in enumerate(block.ops):
        for out in starting.get(at, []):
            for src in ending.get(at, []):
                if src is out or src in taken or src.start == at or src.slot is None or src.slot.members[-1] is not src:
                    continue
                if src.type != out.type or not elementwise_in_place(op, src, out):
                    continue
                taken.add(src)
                out.in_place_of = src
                plan.slots.remove(out.slot)  # type: ignore[arg-type]
                src.slot.members.append(out)
                out.slot = src.slot
                break


def enclosing_ivs(block: Block, top: Operation) -> list[SSAValue] | None:
    """The induction variables of the loops from ``block`` out to ``top`` (inclusive), or None
    when something else than a loop lies between them."""
    ivs = []
    while True:
        parent = block.parent_op()
        if parent is None:
            return None
        if isinstance(parent, IndexLoop):  # loop.for, or a target's loop (a parallel one)
            ivs.append(parent.induction_var)
        else:
            return None
        if parent is top:
            return ivs
        up = parent.parent_block()
        if up is None:
            return None
        block = up


def elementwise_in_place(op: Operation, src: Buffer, out: Buffer) -> bool:
    """Whether ``op`` may write ``out`` over ``src``: see the module's docstring."""
    loads: list[memref.LoadOp] = []
    stores: list[memref.StoreOp] = []
    for buf, role in ((src, "load"), (out, "store")):
        for v in buf.aliases:
            for use in v.uses:
                user = use.operation
                if not op.is_ancestor(user) or user.name in VIEW_OPS:
                    continue
                if role == "load" and isinstance(user, memref.LoadOp) and use.index == 0:
                    loads.append(user)
                elif role == "store" and isinstance(user, memref.StoreOp) and use.index == 1:
                    stores.append(user)
                else:
                    return False
    if not loads or not stores:
        return False
    accesses: list[memref.LoadOp | memref.StoreOp] = [*loads, *stores]
    body = accesses[0].parent_block()
    if body is None or any(a.parent_block() is not body for a in accesses):
        return False
    if len({a.memref.type for a in accesses}) != 1:
        return False
    index = tuple(accesses[0].indices)
    if any(tuple(a.indices) != index for a in accesses):
        return False
    ivs = enclosing_ivs(body, op)
    if ivs is None or len(set(index)) != len(index) or set(index) != set(ivs) or len(ivs) != len(index):
        return False
    order = {o: k for k, o in enumerate(body.ops)}
    return max(order[ld] for ld in loads) < min(order[st] for st in stores)


# --- copies elided -------------------------------------------------------------------------------

WHOLE_VIEWS = frozenset({"loop.view", "memref.collapse_shape", "memref.expand_shape"})
"""View ops that name all of a buffer's bytes, in order, under another shape."""


def whole_buffer(value: SSAValue, by_value: dict[SSAValue, Buffer]) -> Buffer | None:
    """The temporary ``value`` names all of (itself, or through whole-buffer views), if any."""
    while isinstance(value.owner, Operation) and value.owner.name in WHOLE_VIEWS:
        value = value.owner.operands[0]
    return by_value.get(value)


def part_copy(op: Operation, by_value: dict[SSAValue, Buffer]) -> tuple[Buffer, Buffer, int, bool] | None:
    """``(source, target, delta, pure)`` when the top-level op ``op`` is a loop nest that
    computes, element by element and in order, the temporary ``source`` into the bytes of the
    temporary ``target`` from ``delta`` on: one innermost block with one store,
    ``target[i0, .., id + c, ..] = f(source[i0, .., id, ..], ...)``, every load of ``source``
    at those indices and before the store, ``f`` scalar arithmetic (which may read other
    buffers), every ``ik`` the variable of a loop from 0 to the source's extent ``k`` by 1,
    the dimensions before ``d`` of extent 1 and those after it the target's own (a part of a
    concatenation along ``d``: in NCHW{c}c, whole channel blocks; a relu may be fused in).
    ``pure``: the store writes the loaded element as it is (a copy)."""
    loads: list[memref.LoadOp] = []
    stores: list[memref.StoreOp] = []
    for inner in op.walk():
        if isinstance(inner, memref.LoadOp):
            loads.append(inner)
        elif isinstance(inner, memref.StoreOp):
            stores.append(inner)
        elif not (isinstance(inner, IndexLoop) or inner.name == "loop.yield"
                  or (inner.name.split(".")[0] in ("arith", "math") and not inner.regions)):  # fmt: skip
            return None
    if len(stores) != 1:
        return None
    (store,) = stores
    target = whole_buffer(store.memref, by_value)
    own = [ld for ld in loads if whole_buffer(ld.memref, by_value) is not None and whole_buffer(ld.memref, by_value) is not target]
    sources = {whole_buffer(ld.memref, by_value) for ld in own}
    if target is None or len(sources) != 1 or any(whole_buffer(ld.memref, by_value) is target for ld in loads):
        return None
    (source,) = sources
    body = store.parent_block()
    if any(ld.parent_block() is not body for ld in own) or len({ld.memref for ld in own}) != 1:
        return None
    order = {o: k for k, o in enumerate(body.ops)}  # type: ignore[union-attr]
    indices = list(own[0].indices)
    if any(list(ld.indices) != indices or order[ld] > order[store] for ld in own):
        return None
    src_t, dst_t = own[0].memref.type, store.memref.type
    assert isinstance(src_t, MemRefType) and isinstance(dst_t, MemRefType)
    src_shape, dst_shape = list(src_t.get_shape()), list(dst_t.get_shape())
    if src_t.element_type != dst_t.element_type or len(src_shape) != len(dst_shape):
        return None
    ivs = enclosing_ivs(body, op)  # type: ignore[arg-type]
    if ivs is None or len(ivs) != len(indices) or set(indices) != set(ivs):
        return None
    for iv, extent in zip(indices, src_shape):
        loop = iv.owner.parent_op()  # type: ignore[union-attr]
        if not isinstance(loop, IndexLoop) or (constant_index(loop.lb), constant_index(loop.ub), constant_index(loop.step)) != (0, extent, 1):
            return None
    d, c = None, 0
    for k, (x, y) in enumerate(zip(indices, store.indices)):
        if x is y:
            continue
        owner = y.owner
        if d is not None or not isinstance(owner, arith.AddiOp):
            return None
        other = owner.rhs if owner.lhs is x else owner.lhs if owner.rhs is x else None
        if other is None or (c := constant_index(other)) is None or c < 0:
            return None
        d = k
    if d is None:
        d = next((k for k, (a, b) in enumerate(zip(src_shape, dst_shape)) if a != b), 0)
    if any(e != 1 for e in src_shape[:d]) or src_shape[d + 1 :] != dst_shape[d + 1 :] or c + src_shape[d] > dst_shape[d]:
        return None
    size = element_bytes(src_t.element_type)
    if size is None or math.prod(src_shape) * size != source.bytes or math.prod(dst_shape) * size != target.bytes:
        return None
    pure = len(loads) == 1 and store.value is loads[0].res
    return source, target, c * math.prod(dst_shape[d + 1 :]) * size, pure


def find_copies(block: Block, plan: FunctionPlan, touches: dict[Buffer, list[int]]) -> None:
    """Parts of another buffer (the module's docstring): a temporary ``B`` whose last use
    computes all of it into a part of a temporary ``R`` (:func:`part_copy`) gets that part of
    ``R``'s bytes from its start on (its slot inner to ``R``'s, which then lives from the
    earlier of their starts); that nest then runs in place (:func:`read_in_place`), or goes
    when it only copies.  Only when ``B``'s slot ends with ``B``, the part is aligned as ``B``
    must be, and while ``B`` lives nothing touches ``R`` but the nests of its other parts,
    whose bytes are not ``B``'s."""
    by_value = {b.alloc.results[0]: b for b in plan.buffers}
    ops = list(block.ops)
    parts: dict[Slot, list[tuple[int, int, Operation]]] = {}  # (delta, end) of the parts in a slot
    for b in sorted(plan.buffers, key=lambda b: b.end):  # the copies in order: a part sees the earlier parts placed
        slot = b.slot
        if slot is None or slot.members[-1] is not b or slot not in plan.slots:
            continue
        copy = ops[b.end]
        found = part_copy(copy, by_value)
        if found is None or found[0] is not b:
            continue
        _, target, delta, pure = found
        outer = target.slot
        if outer is None or outer is slot or outer not in plan.slots or outer.members[0] is not target or delta % slot.align:
            continue
        mine = (delta, delta + b.bytes)
        taken = parts.setdefault(outer, [])
        if any(lo < mine[1] and mine[0] < hi for lo, hi, _ in taken):
            continue
        start = min(slot.start, outer.start)
        others = [ops[k] for k in touches[target] if start <= k < b.end]
        if any(all(o is not c for _, _, c in taken) for o in others):
            continue  # something else than an other part's copy touches the target meanwhile
        taken.append((*mine, copy))
        plan.slots.remove(slot)
        slot.delta = delta
        outer.inner.append(slot)
        b.part_of = target
        if pure:
            plan.copies.append(copy)
        else:
            plan.parts.append((copy, b))


def read_in_place(nest: Operation, source: Buffer) -> None:
    """A part's nest (:func:`part_copy`) reads each element where it stores it: its loads of
    ``source`` become loads of the store's buffer at the store's indices, so that the nest, in
    place, names one buffer, as an in-place nest written by hand would (two names of the same
    bytes keep the vectoriser out: it cannot tell that they do not overlap elsewhere)."""
    (store,) = [o for o in nest.walk() if isinstance(o, memref.StoreOp)]
    body = store.parent_block()
    assert body is not None
    loads = [o for o in body.ops if isinstance(o, memref.LoadOp) and o.memref in source.aliases]
    first = min(body.get_operation_index(o) for o in loads)
    needed: list[Operation] = []  # the body's ops that compute the store's indices
    work = [i.owner for i in store.indices if isinstance(i.owner, Operation) and i.owner.parent_block() is body]
    while work:
        op = work.pop()
        if op not in needed:
            needed.append(op)
            work.extend(v.owner for v in op.operands if isinstance(v.owner, Operation) and v.owner.parent_block() is body)
    anchor = list(body.ops)[first]
    for op in sorted(needed, key=body.get_operation_index):
        if body.get_operation_index(op) > first:
            op.detach()
            body.insert_op_before(op, anchor)
    for load in loads:
        new = memref.LoadOp.get(store.memref, list(store.indices))
        body.insert_op_before(new, load)
        load.res.replace_all_uses_with(new.res)
        body.erase_op(load)


# --- the rewrite -----------------------------------------------------------------------------------


def rewrite(fn: func.FuncOp, plan: FunctionPlan) -> None:
    if not plan.buffers:
        return
    block = fn.body.block
    align = max([ARENA_ALIGNMENT, *(s.align for s in plan.slots)])  # an alloc may have asked for more
    space = NoneAttr() if plan.space is None else MemorySpaceAttr(plan.space)
    arena = memref.AllocOp([], [], MemRefType(i8, [plan.arena_bytes], NoneAttr(), space), alignment=IntegerAttr(align, i64))
    arena.results[0].name_hint = "arena" if plan.space is None else f"arena_{plan.space}"
    first = block.first_op
    assert first is not None
    arena.location = fn.location
    block.insert_op_before(arena, first)
    for copy in plan.copies:
        block.erase_op(copy)
    for nest, source in plan.parts:
        read_in_place(nest, source)
    views: dict[Buffer, SSAValue] = {}
    for b in plan.buffers:  # in block order: a buffer computed in place comes after its source
        assert b.slot is not None
        old = b.alloc.results[0]
        if b.in_place_of is not None:
            views[b] = views[b.in_place_of]  # the same value: the nest visibly loads and stores one buffer
        else:
            view = ArenaViewOp(arena.results[0], b.slot.offset, b.type)
            view.location = b.alloc.location
            view.result.name_hint = old.name_hint
            block.insert_op_before(view, b.alloc)
            views[b] = view.result
        old.replace_all_uses_with(views[b])
        block.erase_op(b.alloc)
        for d in b.deallocs:
            block.erase_op(d)
    free = memref.DeallocOp.get(arena.results[0])
    last = block.last_op
    if last is not None and isinstance(last, func.ReturnOp):
        free.location = last.location
        block.insert_op_before(free, last)
    else:
        block.add_op(free)


def spaces(fn: func.FuncOp) -> list[str | None]:
    """The memory spaces of a function's top-level allocations, main memory (None) first."""
    named = {memory_space(op.results[0].type) for op in fn.body.block.ops if isinstance(op, memref.AllocOp)} - {None}
    return [None, *sorted(named)]  # type: ignore[type-var]


def plan_module(module: ModuleOp, *, in_place: bool = True, target_name: str | None = None) -> list[FunctionPlan]:
    """One plan per function and memory space; a space's arena must fit the capacity the
    target (``target_name``, else the module's) gives it (:meth:`~strati.dialects.hw.target.Target.space_capacity`)."""
    plans = []
    target = description = None
    for fn in functions(module):
        if len(fn.body.blocks) != 1:
            continue
        for space in spaces(fn):
            plan = analyse_function(fn, in_place=in_place, space=space)
            if plan is None:
                continue
            if space is not None:
                if target is None:
                    target, description = target_of(module, target_name)
                if space not in target.memory_spaces:
                    known = ", ".join(f"'{n}'" for n in target.memory_spaces) or "none"
                    raise StratiError(f"plan-memory: target '{target.name}' has no memory space '{space}' (its spaces: {known})", fn)
                capacity = target.space_capacity(description, space)
                if capacity is not None and plan.arena_bytes > capacity:
                    raise StratiError(
                        f"plan-memory: the temporaries of @{plan.name} in space '{space}' need {plan.arena_bytes} bytes, "
                        f"more than its {capacity} ({target.memory_spaces[space]} of target '{target.name}'); "
                        "tile the work so that it fits",
                        fn,
                    )
            plans.append(plan)
    return plans


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    """Every temporary of a function becomes a view into one arena per memory space."""

    name = "plan-memory"

    report: bool = False
    in_place: bool = True
    target: str | None = None
    timeline: str | None = None
    """A file name: write the plan as an SVG picture (one file per function and space, named apart)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        plans = plan_module(op, in_place=self.in_place, target_name=self.target)
        by_name = {f.sym_name.data: f for f in functions(op)}
        for plan in plans:
            if self.report:
                sys.stderr.write(plan.report() + "\n")
            if self.timeline:
                write_timeline(self.timeline, plan, several=len(plans) > 1)
            rewrite(by_name[plan.name], plan)


def write_timeline(path: str, plan: FunctionPlan, *, several: bool) -> None:
    """``path`` as given for a module with one plan, else ``stem.function[.space].svg`` beside it."""
    from strati.codegen.timeline import plan_to_svg

    if several:
        stem, dot, ext = path.rpartition(".") if "." in os.path.basename(path) else (path, ".", "svg")
        path = f"{stem}.{plan.name}{'' if plan.space is None else '.' + plan.space}{dot}{ext}"
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(plan_to_svg(plan.name, plan.as_dict()))
    except OSError as err:
        raise StratiError(f"plan-memory: cannot write the timeline {path}: {err.strerror}") from None


def memory_plan(module: ModuleOp, *, in_place: bool = True) -> dict[str, dict[str, Any]]:
    """The plan ``plan-memory`` makes for a loop-level module, without changing it: per
    function name (``name:space`` for a memory space other than main memory), ``buffers``
    (temporaries planned), ``in_place`` (how many of them take the bytes of one that dies
    where they are computed), ``naive_bytes`` (all temporaries, one buffer each),
    ``peak_bytes`` (the most bytes live at once with one buffer per temporary),
    ``arena_bytes`` (the arena's size) and ``placements`` (per buffer: name, type, bytes,
    lifetime ``start``/``end`` as top-level op positions, ``offset``, ``in_place_of``: the
    index in ``placements`` of the buffer whose bytes it is computed over, or None)."""
    for fn in functions(module):
        if any(isinstance(t, TensorType) for t in (*fn.function_type.inputs.data, *fn.function_type.outputs.data)):
            raise StratiError(f"memory_plan needs a loop-level module, and @{fn.sym_name.data} takes or returns tensors: lower it first")
    return {
        plan.name if plan.space is None else f"{plan.name}:{plan.space}": plan.as_dict()
        for plan in plan_module(module, in_place=in_place)
    }


__all__ = ["PlanMemoryPass", "assign_offsets", "conflicts", "memory_plan"]
