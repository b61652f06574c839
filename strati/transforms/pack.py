"""pack: copy the tile of a buffer that a loop nest reads into a contiguous buffer first.

``pack(L, %b)``: the elements of ``%b`` that the loops inside ``L`` read are copied, at
the start of each iteration of ``L``, into a new buffer allocated before ``L`` (64-byte
aligned, freed after it; in each iteration when ``L`` is parallel, so that iterations
running at once do not share it), whose dimensions follow the loops that index them, outermost
first; the loads inside read the copy.  The copy is made once per iteration of ``L`` and
read by every iteration of the loops inside, so a matmul's panel of B, whose rows are a
whole matrix row apart in ``%b``, is read from consecutive cache lines (and transposed
when ``%b`` holds it the other way around).  A row whose bytes are a multiple of 2 KiB is
padded by :data:`PAD` elements, so that consecutive rows do not fall into the same cache
sets.

Legal when nothing in ``L`` writes ``%b``'s buffer, and every load of ``%b`` in ``L`` indexes
it with the same loops (or values fixed in ``L``) in the same dimensions; each such loop
has step 1 and bounds known at the start of ``L``'s body, or is the point loop of a tile
loop that does (``tile``), whose whole range it then covers.

A constant (a ``memref.get_global`` of a constant global, or a kernel's argument that every
call passes one: weights) is packed at compile time instead (:func:`pack_constant`): numpy
lays every tile the loops would copy side by side in a new constant global, one per
(constant, layout), the loads read their tile's block of it, and no copy is left to run.

The pass packs, for every ``loop.for`` carrying ``schedule.pack = ["name", ...]``, the
buffers of those names (their SSA names, as printed: ``%b`` is ``"b"``), constants at
compile time; a constant global nothing reads any more goes.  ``schedule.pack_panels`` packs
them in panels (:func:`pack` with ``panels``: a matmul's B in ``kc x nr`` micro-panels).
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from strati.dense import dense_from_numpy, numpy_from_dense
from strati.dialects.loop.analysis import IndexConstants, constant_index, inside, max_trip_count
from strati.functions import functions
from strati.dialects.loop.ops import ForOp, ViewOp, buffer_root, element_bytes
from strati.transforms.interchange import is_header_op
from strati.transforms.tile import tile_of
from strati.transforms.unroll_and_jam import ACCESSES, access_parts

PACK = "schedule.pack"
PANELS = "schedule.pack_panels"
"""Buffers to pack in panels (``pack(..., panels=True)``): a dimension that a tile loop's points read is split."""
PAD = 16
"""Elements added to a packed row whose size is a multiple of 2 KiB."""


@dataclass(frozen=True)
class PackedDim:
    """One dimension of a buffer made by :func:`pack`: at ``depth`` (of the loop that moves along
    it), over buffer dimension ``dim`` from ``lb``, ``extent`` long; with ``panels``, a dimension
    that the points of ``tile`` read is two: the tile's ``block`` and the point within it."""

    depth: int
    dim: int
    lb: SSAValue
    extent: int
    tile: ForOp | None = None
    block: bool = False


def _known_at(v: SSAValue, loop: ForOp) -> bool:
    """Whether ``v`` is available at the start of ``loop``'s body, after its index ops."""
    if not inside(v, loop) or v is loop.induction_var:
        return True
    owner = v.owner
    return isinstance(owner, Operation) and owner.parent_block() is loop.body.block and is_header_op(owner)


def _loop_of(v: SSAValue) -> ForOp | None:
    owner = v.owner
    if isinstance(owner, Block) and isinstance(op := owner.parent_op(), ForOp) and v is op.induction_var:
        return op
    return None


def footprint(f: ForOp, at: ForOp) -> tuple[SSAValue, SSAValue, int] | None:
    """``(lb, ub, extent)``: the range the loop ``f`` (inside ``at``) covers over all the
    iterations of ``at``'s body, with bounds known at its start, and at most ``extent`` long."""
    if constant_index(f.step) != 1:
        return None
    if _known_at(f.lb, at) and _known_at(f.ub, at):
        n = max_trip_count(f)
        return None if n is None else (f.lb, f.ub, n)
    tile = tile_of(f)
    if tile is None or not inside(tile.induction_var, at):
        return None
    if not (_known_at(tile.lb, at) and _known_at(tile.ub, at)):
        return None
    n = max_trip_count(tile)
    step = constant_index(tile.step)
    return None if n is None or step is None else (tile.lb, tile.ub, n * step)


def _plan(loop: ForOp, buffer: SSAValue) -> tuple[list[memref.LoadOp], tuple, list[tuple[int, ForOp, tuple[SSAValue, SSAValue, int]]]] | None:
    """What packing ``buffer`` in ``loop`` copies: its loads there, their index pattern (a loop
    per packed dimension, or a value fixed in ``loop``) and the packed dimensions, outermost
    loop first, each with its footprint; None when packing is not legal."""
    root = buffer_root(buffer)
    if root is None:
        return None
    loads: list[memref.LoadOp] = []
    for op in loop.body.walk():
        if isinstance(op, ACCESSES):
            b, _ = access_parts(op)
            if buffer_root(b) != root:
                continue
            if b is not buffer or not isinstance(op, memref.LoadOp):
                return None  # written, a view of it, or already vectorised
            loads.append(op)
    if not loads:
        return None
    pattern = None
    for ld in loads:
        p = tuple(_loop_of(i) if inside(i, loop) and not _known_at(i, loop) else i for i in ld.indices)
        if pattern is None:
            pattern = p
        elif p != pattern:
            return None
    assert pattern is not None
    dims: list[tuple[int, ForOp, tuple[SSAValue, SSAValue, int]]] = []
    for d, x in enumerate(pattern):
        if isinstance(x, ForOp):
            fp = footprint(x, loop)
            if fp is None:
                return None
            dims.append((d, x, fp))
        elif x is None:
            return None
    if not dims:
        return None
    depth = {id(f): len(list(_ancestors(f))) for _, f, _ in dims}
    dims.sort(key=lambda e: depth[id(e[1])])
    return loads, pattern, dims


def pack(loop: ForOp, buffer: SSAValue, consts: IndexConstants, panels: bool = False) -> memref.AllocOp | None:
    """Pack the tile of ``buffer`` read inside ``loop``; returns the packed buffer's allocation (None if not legal).

    ``panels``: a dimension read by the point loop of a tile loop inside ``loop`` (a matmul's
    ``jr`` register tiles of columns) is split in two, the tile loop's block outermost where
    that loop is, the point within the tile where the point loop is: a ``kc x nc`` panel of B
    becomes ``nc/nr`` micro-panels of ``kc x nr``, each contiguous, so the register tile's k
    loop reads consecutive cache lines (and pages) instead of rows a panel row apart."""
    plan = _plan(loop, buffer)
    if plan is None:
        return None
    loads, pattern, dims = plan
    element = buffer.type.get_element_type()
    layout: list[PackedDim] = []  # the packed buffer's dimensions, outermost first
    for d, f, (lb, _, extent) in dims:
        tile = tile_of(f) if panels else None
        span = constant_index(tile.step) if tile is not None else None
        if tile is not None and span is not None and inside(tile.induction_var, loop) and not _known_at(f.lb, loop):
            layout.append(PackedDim(_depth(tile), d, lb, -(-extent // span), tile, block=True))
            layout.append(PackedDim(_depth(f), d, lb, span, tile, block=False))
        else:
            layout.append(PackedDim(_depth(f), d, lb, extent))
    layout.sort(key=lambda e: e.depth)
    shape = [e.extent for e in layout]
    size = element_bytes(element) or 4
    if len(shape) > 1 and shape[-1] * size % 2048 == 0:
        shape[-1] += PAD
    alloc = memref.AllocOp.get(element, 64, shape)
    alloc.memref.name_hint = f"{buffer.name_hint or 'buf'}_packed"
    packed = alloc.memref
    body = loop.body.block
    first = next(o for o in body.ops if not is_header_op(o))
    if loop.is_parallel:  # its iterations may run at once: each packs into a buffer of its own
        body.insert_op_before(alloc, first)
        body.insert_op_before(memref.DeallocOp.get(packed), body.last_op)
    else:
        block = loop.parent_block()
        assert block is not None
        block.insert_op_before(alloc, loop)
        block.insert_op_after(memref.DeallocOp.get(packed), loop)
    # The copy, at the start of each iteration of the loop (after its index ops), in the order of
    # the buffer's dimensions: it reads the buffer's rows along (a transposed operand is written
    # across the small packed tile, not read across the big buffer).
    target_block, before = body, first
    ivs: dict[int, SSAValue] = {}
    for d, _, (lb, ub, _) in sorted(dims, key=lambda e: e[0]):
        copy_loop = ForOp(lb, ub, consts.get(1))
        copy_loop.induction_var.name_hint = "p"
        target_block.insert_op_before(copy_loop, before)
        ivs[d] = copy_loop.induction_var
        target_block, before = copy_loop.body.block, copy_loop.body.block.last_op
    src_idx = [ivs.get(d, x) for d, x in enumerate(pattern)]
    load = memref.LoadOp.get(buffer, src_idx)
    target_block.insert_op_before(load, before)

    def emit(op: Operation) -> SSAValue:
        target_block.insert_op_before(op, before)
        return op.results[0]

    rel = {d: ivs[d] if constant_index(lb) == 0 else emit(arith.SubiOp(ivs[d], lb)) for d, _, (lb, _, _) in dims}
    dst_idx = []
    for e in layout:
        if e.tile is None:
            dst_idx.append(rel[e.dim])
        else:  # the tile's block, or the point within it
            span = consts.get(constant_index(e.tile.step))
            dst_idx.append(emit((arith.DivUIOp if e.block else arith.RemUIOp)(rel[e.dim], span)))
    target_block.insert_op_before(memref.StoreOp.get(load.res, packed, dst_idx), before)
    read_panels(loads, packed, layout, consts)  # the loads read the copy
    return alloc


def _read(ld: memref.LoadOp, packed: SSAValue, idx: list[SSAValue]) -> None:
    """``ld`` replaced by a load of ``packed`` at ``idx``."""
    new = memref.LoadOp.get(packed, idx)
    ld.parent_block().insert_op_before(new, ld)
    ld.res.replace_all_uses_with(new.res)
    ld.detach()
    ld.erase()


def _depth(op: Operation) -> int:
    return len(list(_ancestors(op)))


def read_panels(loads, packed: SSAValue, layout: list[PackedDim], consts: IndexConstants, prefix: list[SSAValue] = ()) -> None:
    """Each load reads ``packed`` (:func:`pack`'s layout) instead, at ``prefix`` (a constant's
    block of moving tiles, :func:`pack_constant`) then: in a dimension split into panels, the
    tile loop's block ``(t - lb) / span`` (computed once, at the start of the tile loop's body)
    and the point within it ``i - t``; in the others ``i - lb``."""
    blocks: dict[int, SSAValue] = {}
    for e in layout:
        if e.block:
            t = e.tile.induction_var
            ops: list[Operation] = [] if constant_index(e.lb) == 0 else [arith.SubiOp(t, e.lb)]
            ops.append(arith.DivUIOp(ops[-1].results[0] if ops else t, consts.get(constant_index(e.tile.step))))
            first = e.tile.body.block.first_op
            for op in ops:
                e.tile.body.block.insert_op_before(op, first)
            blocks[e.dim] = ops[-1].results[0]
    for ld in loads:
        idx = list(prefix)
        for e in layout:
            i = ld.indices[e.dim]
            if e.block:
                idx.append(blocks[e.dim])
            elif e.tile is None and constant_index(e.lb) == 0:
                idx.append(i)
            else:
                sub = arith.SubiOp(i, e.lb if e.tile is None else e.tile.induction_var)
                ld.parent_block().insert_op_before(sub, ld)
                idx.append(sub.result)
        _read(ld, packed, idx)


# --- packing a constant at compile time ------------------------------------------------------


def _global_chain(value: SSAValue) -> list[Operation]:
    """The ops that make ``value`` from a global: ``loop.view`` reshapes (outermost first), then the
    ``memref.get_global``; empty when it is not one."""
    chain: list[Operation] = []
    owner = value.owner
    while isinstance(owner, ViewOp):
        chain.append(owner)
        owner = owner.source.owner
    return [*chain, owner] if isinstance(owner, memref.GetGlobalOp) else []


def constant_global(value: SSAValue) -> memref.GlobalOp | None:
    """The constant global (with a dense initial value) that ``value`` is a ``memref.get_global``
    of, or a reshape (``loop.view``) of one: a 1x1 convolution's weights as a matrix."""
    chain = _global_chain(value)
    owner = chain[-1] if chain else None
    if not isinstance(owner, memref.GetGlobalOp):
        return None
    module = _module_of(owner)
    if module is None:
        return None
    g = SymbolTable.lookup_symbol(module, owner.name_)
    if not isinstance(g, memref.GlobalOp) or g.constant is None:
        return None
    if not isinstance(g.initial_value, DenseIntOrFPElementsAttr) or isinstance(g.initial_value, DenseResourceAttr):
        return None
    return g


def call_sites(module: Operation) -> dict[str, list[func.CallOp]]:
    """The calls of each function of ``module``, by name."""
    calls: dict[str, list[func.CallOp]] = {}
    for op in module.walk():
        if isinstance(op, func.CallOp):
            calls.setdefault(op.callee.root_reference.data, []).append(op)
    return calls


def constant_sources(value: SSAValue, calls: dict[str, list[func.CallOp]] | None = None) -> list[tuple[func.CallOp | None, memref.GlobalOp]] | None:
    """Where the constant values of ``value`` come from: ``[(None, global)]`` for a
    ``get_global`` of a constant global; ``[(call, global), ...]`` for an argument of a
    function (an outlined kernel) that every call passes a constant global; else None.
    ``calls``: the module's :func:`call_sites`, when the caller has them (a pass over many nests)."""
    g = constant_global(value)
    if g is not None:
        return [(None, g)]
    owner = value.owner
    if not isinstance(owner, Block) or not isinstance(fn := owner.parent_op(), func.FuncOp) or owner is not fn.body.block:
        return None
    module = _module_of(fn)
    if module is None or fn.sym_visibility is None or fn.sym_visibility.data != "private":
        return None  # a public function may be called from outside with anything
    index = list(owner.args).index(value)
    name = fn.sym_name.data
    sources: list[tuple[func.CallOp | None, memref.GlobalOp]] = []
    for op in (call_sites(module) if calls is None else calls).get(name, []):
        g = constant_global(op.arguments[index])
        if g is None:
            return None
        sources.append((op, g))
    return sources or None


def _module_of(op: Operation) -> ModuleOp | None:
    top = None
    for top in _ancestors(op):
        pass
    return top if isinstance(top, ModuleOp) else None


def _block_base(f: ForOp, step: int) -> int | None:
    """``b`` such that every value of ``f``'s variable is ``b`` plus a multiple of ``step``
    (``f`` a loop of that step from a constant, or from the variable of such a loop whose step
    is a multiple of it: a tile loop's point loops)."""
    if constant_index(f.step) is None or constant_index(f.step) % step:
        return None
    c = constant_index(f.lb)
    if c is not None:
        return c
    outer = _loop_of(f.lb)
    return None if outer is None else _block_base(outer, step)


@dataclass(frozen=True)
class ConstantLayout:
    """How a constant is laid out at compile time for the loads of one packed tile: a block
    dimension per packed dimension whose tile moves with a loop (``blocks``: buffer dimension,
    first element, step, count, that loop), then the tile's dimensions (``tile``: buffer
    dimension, first element when fixed or None, extent), then padding of the last one."""

    blocks: tuple[tuple[int, int, int, int, ForOp], ...]
    tile: tuple[tuple[int, int | None, int], ...]
    fixed: tuple[tuple[int, int], ...]
    pad: int

    @property
    def shape(self) -> list[int]:
        shape = [b[3] for b in self.blocks] + [t[2] for t in self.tile]
        shape[-1] += self.pad
        return shape

    def key(self) -> tuple:
        return (tuple(b[:4] for b in self.blocks), self.tile, self.fixed, self.pad)

    def apply(self, values: np.ndarray) -> np.ndarray:
        """The packed copy of ``values`` (zeros where a tile overhangs the buffer)."""
        out = np.zeros(self.shape, values.dtype)
        fixed = dict(self.fixed)
        moving = {b[0]: b for b in self.blocks}
        tile_dims = [t[0] for t in self.tile]
        sliced = [d for d in range(values.ndim) if d not in fixed]
        order = [sliced.index(d) for d in tile_dims]
        for combo in itertools.product(*[range(b[3]) for b in self.blocks]):
            start = {b[0]: b[1] + i * b[2] for b, i in zip(self.blocks, combo)}
            index: list = []
            for d in range(values.ndim):
                if d in fixed:
                    index.append(fixed[d])
                    continue
                first = start[d] if d in moving else next(t[1] for t in self.tile if t[0] == d)
                extent = next(t[2] for t in self.tile if t[0] == d)
                index.append(slice(first, min(first + extent, values.shape[d])))
            part = values[tuple(index)].transpose(order)
            out[combo + tuple(slice(0, n) for n in part.shape)] = part
        return out


def constant_layout(loop: ForOp, buffer: SSAValue) -> tuple[ConstantLayout, list[memref.LoadOp], list] | None:
    """The compile-time layout of ``buffer``'s tiles read in ``loop`` (one tile per iteration
    of the loops around it, all of them side by side), with the loads and packed dimensions."""
    plan = _plan(loop, buffer)
    if plan is None:
        return None
    loads, pattern, dims = plan
    shape = buffer.type.get_shape()
    fixed = []
    for d, x in enumerate(pattern):
        if not isinstance(x, ForOp):
            c = constant_index(x)
            if c is None:
                return None  # an index fixed in the loop but not at compile time (a batch)
            fixed.append((d, c))
    blocks, tile = [], []
    for d, _, (lb, _, extent) in dims:
        c = constant_index(lb)
        if c is not None:
            tile.append((d, c, extent))
            continue
        f = _loop_of(lb)
        if f is None or not (f is loop or f in list(_ancestors(loop))) or (step := constant_index(f.step)) is None:
            return None
        base = _block_base(f, step)
        if base is None or base < 0:
            return None
        blocks.append((d, base, step, max(1, -(-(shape[d] - base) // step)), f))
        tile.append((d, None, extent))
    depth = {id(b[4]): len(list(_ancestors(b[4]))) for b in blocks}
    blocks.sort(key=lambda b: depth[id(b[4])])
    size = element_bytes(buffer.type.get_element_type()) or 4
    pad = PAD if len(tile) > 1 and tile[-1][2] * size % 2048 == 0 else 0
    return ConstantLayout(tuple(blocks), tuple(tile), tuple(fixed), pad), loads, dims


def packed_global(g: memref.GlobalOp, layout: ConstantLayout, shape: tuple[int, ...]) -> memref.GlobalOp:
    """The global holding ``g``'s values, read in ``shape``, in ``layout``: one per (constant,
    layout) in the module."""
    module = _module_of(g)
    assert module is not None
    digest = hashlib.sha1(repr((tuple(shape), layout.key())).encode()).hexdigest()[:8]
    name = f"{g.sym_name.data}_packed_{digest}"
    existing = SymbolTable.lookup_symbol(module, name)
    if isinstance(existing, memref.GlobalOp):
        return existing
    values = numpy_from_dense(g.initial_value)
    packed = layout.apply(np.asarray(values).reshape(shape))
    t = MemRefType(g.type.get_element_type(), layout.shape)
    new = memref.GlobalOp.get(StringAttr(name), t, dense_from_numpy(packed), StringAttr("private"), UnitAttr(), 64)
    module.body.block.insert_op_after(new, g)
    return new


def pack_constant(loop: ForOp, buffer: SSAValue, consts: IndexConstants,
                  calls: dict[str, list[func.CallOp]] | None = None) -> list[tuple[memref.GlobalOp, memref.GlobalOp]] | None:
    """Pack the constant ``buffer`` read in ``loop`` at compile time: every tile the loops around
    ``loop`` would copy, side by side in a new constant global (numpy makes it), and the loads
    read that global at their tile's block.  No copy is left in the loops.  ``buffer`` is a
    ``get_global`` of a constant global, or an argument of a private function (a kernel) that
    every call passes one (then each call passes the packed global of its own constant, as a new
    argument).  Returns the (constant, packed global) pairs (None when ``buffer`` is not such a constant or its
    tiles do not follow loops of constant steps).  ``calls``: as for :func:`constant_sources`."""
    sources = constant_sources(buffer, calls)
    if sources is None:
        return None
    found = constant_layout(loop, buffer)
    if found is None:
        return None
    layout, loads, dims = found
    globals_ = [packed_global(g, layout, tuple(buffer.type.get_shape())) for _, g in sources]
    t = globals_[0].type
    if sources[0][0] is None:
        get = memref.GetGlobalOp(globals_[0].sym_name.data, t)
        get.memref.name_hint = f"{buffer.name_hint or 'buf'}_packed"
        owner = buffer.owner
        assert isinstance(owner, Operation)
        owner.parent_block().insert_op_after(get, owner)
        packed: SSAValue = get.memref
    else:
        owner = buffer.owner
        assert isinstance(owner, Block)
        fn = owner.parent_op()
        assert isinstance(fn, func.FuncOp)
        packed = owner.insert_arg(t, len(owner.args))
        packed.name_hint = f"{buffer.name_hint or 'buf'}_packed"
        fn.function_type = FunctionType.from_lists([a.type for a in owner.args], list(fn.function_type.outputs.data))
        if fn.arg_attrs is not None:
            fn.arg_attrs = ArrayAttr([*fn.arg_attrs.data, DictionaryAttr({})])
        for (call, _), g in zip(sources, globals_):
            assert call is not None
            get = memref.GetGlobalOp(g.sym_name.data, t)
            call.parent_block().insert_op_before(get, call)
            call.operands = [*call.operands, get.memref]
    # The block of each moving tile, at the start of the loop's body.
    body = loop.body.block
    first = next(o for o in body.ops if not is_header_op(o))
    block_index = []
    for _, base, step, count, f in layout.blocks:
        if count == 1:
            block_index.append(consts.get(0))
            continue
        v: SSAValue = f.induction_var
        if base:
            sub = arith.SubiOp(v, consts.get(base))
            body.insert_op_before(sub, first)
            v = sub.result
        div = arith.DivUIOp(v, consts.get(step))
        body.insert_op_before(div, first)
        block_index.append(div.result)
    read_panels(loads, packed, [PackedDim(0, d, lb, extent) for d, _, (lb, _, extent) in dims], consts, block_index)
    return [(g, p) for (_, g), p in zip(sources, globals_)]


def drop_unused_constants(module: ModuleOp, names: set[str]) -> None:
    """After :func:`pack_constant`: the kernel arguments that nothing reads any more and that
    every call passes a ``get_global`` of one of ``names`` go (from the kernel and its calls), then the
    ``get_global`` ops left without uses, then the globals of ``names`` nothing refers to."""
    calls = call_sites(module)
    for fn in [f for f in module.body.block.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
        if fn.sym_visibility is None or fn.sym_visibility.data != "private" or fn.sym_name.data not in calls:
            continue
        block = fn.body.block
        sites = calls[fn.sym_name.data]
        for index in reversed(range(len(block.args))):
            arg = block.args[index]
            chains = [_global_chain(c.arguments[index]) for c in sites]
            if arg.uses or not all(ch and ch[-1].name_.root_reference.data in names for ch in chains):
                continue
            block.erase_arg(arg)
            fn.function_type = FunctionType.from_lists([a.type for a in block.args], list(fn.function_type.outputs.data))
            if fn.arg_attrs is not None:
                fn.arg_attrs = ArrayAttr([a for i, a in enumerate(fn.arg_attrs.data) if i != index])
            for c in sites:
                c.operands = [v for i, v in enumerate(c.operands) if i != index]
    referenced = set()
    for op in list(module.walk()):
        if isinstance(op, ViewOp) and not op.result.uses and (chain := _global_chain(op.result)):
            if chain[-1].name_.root_reference.data in names:
                for o in chain[:-1]:  # the views left without uses, outermost first
                    if not o.results[0].uses:
                        o.detach()
                        o.erase()
    for op in list(module.walk()):
        if isinstance(op, memref.GetGlobalOp):
            if not op.memref.uses and op.name_.root_reference.data in names:
                op.detach()
                op.erase()
            else:
                referenced.add(op.name_.root_reference.data)
    for op in list(module.body.block.ops):
        if isinstance(op, memref.GlobalOp) and op.sym_name.data in names and op.sym_name.data not in referenced:
            op.detach()
            op.erase()


def _ancestors(op: Operation):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


@dataclass(frozen=True)
class PackPass(ModulePass):
    """Pack the buffers named by ``schedule.pack`` on a loop into contiguous copies made in it."""

    name = "pack"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        calls = call_sites(op)
        for fn in functions(op):
            consts = IndexConstants(fn)
            names: dict[str, SSAValue] = {}
            for o in fn.walk():
                for v in (*o.results, *(a for r in o.regions for b in r.blocks for a in b.args)):
                    if v.name_hint and isinstance(v.type, MemRefType):
                        names.setdefault(v.name_hint, v)
            for a in fn.body.block.args:
                if a.name_hint:
                    names[a.name_hint] = a
            packed: set[str] = set()
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and (PACK in o.attributes or PANELS in o.attributes)]:
                requests = [(loop.attributes.pop(attr), attr) for attr in (PACK, PANELS) if attr in loop.attributes]
                for request, attr in requests:
                    if not isinstance(request, ArrayAttr) or not all(isinstance(x, StringAttr) for x in request.data):
                        raise VerifyException(f'{attr} must be a list of buffer names (["b"]), not {request}')
                    for x in request.data:
                        if x.data not in names:
                            raise VerifyException(f"{attr}: no buffer named %{x.data}")
                        done = pack_constant(loop, names[x.data], consts, calls)
                        if done is not None:
                            packed.update(g.sym_name.data for g, _ in done)
                        elif pack(loop, names[x.data], consts, panels=attr == PANELS) is None:
                            raise VerifyException(
                                f"{attr}: %{x.data} cannot be packed in this loop (it is written there, or read "
                                "through another view, or at indices that are not loops with known ranges)"
                            )
            if packed:
                drop_unused_constants(op, packed)


__all__ = ["PAD", "PANELS", "ConstantLayout", "PackPass", "call_sites", "constant_layout", "constant_sources", "drop_unused_constants", "footprint", "pack", "pack_constant"]
