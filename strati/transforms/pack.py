"""pack: copy the tile of a buffer that a loop nest reads into a contiguous buffer first.

``pack(L, %b)``: the elements of ``%b`` that the loops inside ``L`` read are copied, at
the start of each iteration of ``L``, into a new buffer allocated before ``L`` (64-byte
aligned, freed after it), whose dimensions follow the loops that index them, outermost
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

The pass packs, for every ``loop.for`` carrying ``schedule.pack = ["name", ...]``, the
buffers of those names (their SSA names, as printed: ``%b`` is ``"b"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import VerifyException

from strati.dialects.loop.analysis import IndexConstants, constant_index, functions, inside, max_trip_count
from strati.dialects.loop.ops import ForOp, buffer_root, element_bytes
from strati.transforms.interchange import is_header_op
from strati.transforms.tile import tile_of
from strati.transforms.unroll_and_jam import ACCESSES, access_parts

PACK = "schedule.pack"
PAD = 16
"""Elements added to a packed row whose size is a multiple of 2 KiB."""


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


def pack(loop: ForOp, buffer: SSAValue, consts: IndexConstants) -> memref.AllocOp | None:
    """Pack the tile of ``buffer`` read inside ``loop``; returns the packed buffer's allocation (None if not legal)."""
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
    element = buffer.type.get_element_type()
    shape = [fp[2] for _, _, fp in dims]
    size = element_bytes(element) or 4
    if len(shape) > 1 and shape[-1] * size % 2048 == 0:
        shape[-1] += PAD
    block = loop.parent_block()
    assert block is not None
    alloc = memref.AllocOp.get(element, 64, shape)
    alloc.memref.name_hint = f"{buffer.name_hint or 'buf'}_packed"
    block.insert_op_before(alloc, loop)
    block.insert_op_after(memref.DeallocOp.get(alloc.memref), loop)
    packed = alloc.memref
    # The copy, at the start of each iteration of the loop (after its index ops).
    body = loop.body.block
    first = next(o for o in body.ops if not is_header_op(o))
    target_block, before = body, first
    ivs: dict[int, SSAValue] = {}
    for d, _, (lb, ub, _) in dims:
        copy_loop = ForOp(lb, ub, consts.get(1))
        copy_loop.induction_var.name_hint = "p"
        target_block.insert_op_before(copy_loop, before)
        ivs[d] = copy_loop.induction_var
        target_block, before = copy_loop.body.block, copy_loop.body.block.last_op
    src_idx = [ivs.get(d, x) for d, x in enumerate(pattern)]
    load = memref.LoadOp.get(buffer, src_idx)
    target_block.insert_op_before(load, before)
    dst_idx = []
    for d, _, (lb, _, _) in dims:
        if constant_index(lb) == 0:
            dst_idx.append(ivs[d])
        else:
            sub = arith.SubiOp(ivs[d], lb)
            target_block.insert_op_before(sub, before)
            dst_idx.append(sub.result)
    target_block.insert_op_before(memref.StoreOp.get(load.res, packed, dst_idx), before)
    # The loads read the copy.
    for ld in loads:
        idx = []
        for d, _, (lb, _, _) in dims:
            i = ld.indices[d]
            if constant_index(lb) == 0:
                idx.append(i)
            else:
                sub = arith.SubiOp(i, lb)
                ld.parent_block().insert_op_before(sub, ld)
                idx.append(sub.result)
        new = memref.LoadOp.get(packed, idx)
        ld.parent_block().insert_op_before(new, ld)
        ld.res.replace_all_uses_with(new.res)
        ld.detach()
        ld.erase()
    return alloc


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
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and PACK in o.attributes]:
                request = loop.attributes.pop(PACK)
                if not isinstance(request, ArrayAttr) or not all(isinstance(x, StringAttr) for x in request.data):
                    raise VerifyException(f'{PACK} must be a list of buffer names (["b"]), not {request}')
                for x in request.data:
                    if x.data not in names:
                        raise VerifyException(f"{PACK}: no buffer named %{x.data}")
                    if pack(loop, names[x.data], consts) is None:
                        raise VerifyException(
                            f"{PACK}: %{x.data} cannot be packed in this loop (it is written there, or read "
                            "through another view, or at indices that are not loops with known ranges)"
                        )


__all__ = ["PAD", "PackPass", "footprint", "pack"]
