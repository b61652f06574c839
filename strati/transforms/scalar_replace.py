"""scalar-replace: keep what a loop reads and writes at fixed addresses in registers.

In a reduction loop ``%k`` whose body loads and stores the same element at an address
that does not depend on ``%k`` (a matmul's accumulator ``C[i, j]``, after unroll-and-jam a
whole tile of them), each such element (a scalar or a vector) is loaded once before the
loop into a one-element ``memref.alloca`` and stored back once after it; the body reads
and writes the alloca.  LLVM promotes a constant-address alloca to a register (SROA), so
the accumulator tile stays in registers across the whole reduction and only the loads of
A and B go to memory.

Legal when every access in the loop to such a buffer has an address that does not depend
on ``%k`` and any two of them are the same address or provably apart (indices ``x + c1``
and ``x + c2`` at least the access's width apart): then no other access in the loop sees
the element in memory while it lives in the register, and the values are bit-identical.

The pass applies it to every ``loop.for`` carrying ``schedule.scalar_replace`` (and removes
the attribute).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import MemRefType, ModuleOp, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.loop.analysis import IndexConstants, constant_index, inside
from strati.functions import functions
from strati.dialects.loop.ops import ForOp, buffer_root
from strati.transforms.interchange import is_header_op
from strati.transforms.unroll_and_jam import ACCESSES, access_parts

SCALAR_REPLACE = "schedule.scalar_replace"


def _width(op: Operation) -> int:
    t = op.results[0].type if isinstance(op, vector.LoadOp) else op.operands[0].type if isinstance(op, vector.StoreOp) else None
    return t.get_shape()[0] if isinstance(t, VectorType) else 1


def _element(op: Operation):
    if isinstance(op, (memref.LoadOp, vector.LoadOp)):
        return op.results[0].type
    return op.operands[0].type


def _apart(a: tuple[tuple[SSAValue, int], ...], b: tuple[tuple[SSAValue, int], ...], width: int) -> bool:
    """Two addresses (indices, each as ``_base`` splits it) of one buffer provably at least one
    element (``width`` in the last dimension) apart: in some dimension, ``x + c1`` and ``x + c2``
    far enough apart."""
    for d, ((base_x, cx), (base_y, cy)) in enumerate(zip(a, b)):
        if base_x is base_y and abs(cx - cy) >= (width if d == len(a) - 1 else 1):
            return True
    return False


def _base(v: SSAValue) -> tuple[SSAValue, int]:
    """``(x, c)`` with ``v = x + c`` (``c`` 0 when ``v`` is not such a sum)."""
    owner = v.owner
    if isinstance(owner, arith.AddiOp):
        for x, y in ((owner.lhs, owner.rhs), (owner.rhs, owner.lhs)):
            if (c := constant_index(y)) is not None:
                return x, c
    return v, 0


def scalar_replace(loop: ForOp, consts: IndexConstants) -> int:
    """Keep the elements ``loop`` accesses at invariant addresses in allocas across it;
    returns how many elements were replaced."""
    body = loop.body.block
    hoist_invariants(loop)
    accesses = [op for op in loop.body.walk() if isinstance(op, ACCESSES)]
    groups: dict[tuple, list[Operation]] = {}
    roots: dict[object, list[Operation]] = {}
    for a in accesses:
        buffer, indices = access_parts(a)
        roots.setdefault(buffer_root(buffer), []).append(a)
    candidates: list[tuple] = []
    for root, ops in roots.items():
        if root is None or not any(isinstance(o, (memref.StoreOp, vector.StoreOp)) for o in ops):
            continue
        if any(o.parent_block() is not body for o in ops):
            continue  # accessed in an inner loop too
        keys = []
        ok = True
        for o in ops:
            buffer, indices = access_parts(o)
            if any(inside(v, loop) for v in (buffer, *indices)):
                ok = False
                break
            keys.append((buffer, indices, _element(o)))
        if not ok:
            continue
        distinct = list(dict.fromkeys(keys))
        widths: dict[tuple, int] = {}
        for o, k in zip(ops, keys):
            widths[k] = max(widths.get(k, 1), _width(o))
        bases = {k: tuple(_base(v) for v in k[1]) for k in distinct}  # (pairs below: once per key)
        if any(
            k1[0] is not k2[0] or k1[2] != k2[2] or not _apart(bases[k1], bases[k2], max(widths[k1], widths[k2]))
            for n, k1 in enumerate(distinct) for k2 in distinct[n + 1 :]
        ):  # fmt: skip
            continue
        for o, k in zip(ops, keys):
            groups.setdefault(k, []).append(o)
        candidates.extend(distinct)
    block = loop.parent_block()
    assert block is not None
    zero = consts.get(0)
    for key in candidates:
        buffer, indices, element = key
        buffer_type = buffer.type
        assert isinstance(buffer_type, MemRefType)
        scalar = element.get_element_type() if isinstance(element, VectorType) else element
        width = element.get_shape()[0] if isinstance(element, VectorType) else 1
        slot = memref.AllocaOp.get(scalar, shape=[width])
        slot.memref.name_hint = "acc"
        block.insert_op_before(slot, loop)
        _copy(buffer, list(indices), slot.memref, [zero], element, block, loop, after=False)
        for o in groups[key]:
            if isinstance(o, (memref.LoadOp, vector.LoadOp)):
                new = (vector.LoadOp(slot.memref, [zero], element) if width > 1 or isinstance(element, VectorType)
                       else memref.LoadOp.get(slot.memref, [zero]))  # fmt: skip
            else:
                new = (vector.StoreOp(o.operands[0], slot.memref, [zero]) if isinstance(element, VectorType)
                       else memref.StoreOp.get(o.operands[0], slot.memref, [zero]))  # fmt: skip
            body.insert_op_before(new, o)
            for old, r in zip(o.results, new.results):
                old.replace_all_uses_with(r)
            o.detach()
            o.erase()
        _copy(slot.memref, [zero], buffer, list(indices), element, block, loop, after=True)
    return len(candidates)


def hoist_invariants(loop: ForOp) -> None:
    """Move the body's index arithmetic that does not depend on the loop before it."""
    block = loop.parent_block()
    assert block is not None
    for o in list(loop.body.block.ops):
        if is_header_op(o) and not any(inside(v, loop) for v in o.operands):
            o.detach()
            block.insert_op_before(o, loop)


def _copy(src: SSAValue, src_idx: list[SSAValue], dst: SSAValue, dst_idx: list[SSAValue], element, block, loop: ForOp, after: bool) -> None:
    if isinstance(element, VectorType):
        load = vector.LoadOp(src, src_idx, element)
        store = vector.StoreOp(load.result, dst, dst_idx)
    else:
        load = memref.LoadOp.get(src, src_idx)
        store = memref.StoreOp.get(load.res, dst, dst_idx)
    if after:
        block.insert_op_after(store, loop)
        block.insert_op_after(load, loop)
    else:
        block.insert_op_before(load, loop)
        block.insert_op_before(store, loop)


@dataclass(frozen=True)
class ScalarReplacePass(ModulePass):
    """Keep a loop's invariant-address accumulators in registers (loops with ``schedule.scalar_replace``)."""

    name = "scalar-replace"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            consts = IndexConstants(fn)
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and SCALAR_REPLACE in o.attributes]:
                loop.attributes.pop(SCALAR_REPLACE)
                scalar_replace(loop, consts)


__all__ = ["ScalarReplacePass", "scalar_replace"]
