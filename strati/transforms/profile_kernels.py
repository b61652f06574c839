"""profile-kernels: cycle counters around each kernel call and loop nest of the public functions.

Where does a model's time go?  This pass answers at the granularity the code generator keeps:
the top-level work of each public function (a call of an outlined kernel, a loop nest, a
``memref.copy``, a call) gets a ``loop.profile_begin N`` / ``loop.profile_end N`` pair
(:mod:`strati.dialects.loop.profile`), and the whole body one more.  The module's
``strati.profile`` list names each counter by what it writes, e.g.
``@main.kernel3 -> %conv1: 1x64x56x56xf32`` (a temporary has no name), so that a row of the report points at a layer.

It runs last at the loop level, after ``outline-kernels`` (``strati.compile(..., profile=True)``
and ``strati-run --profile`` enable it), so that it measures the kernels the target will
schedule and not the moves of an earlier pass.  The counters cost two reads of the cycle
counter and three memory adds per kernel call: nothing a kernel of a microsecond notices.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref, vector
from xdsl.dialects.builtin import ArrayAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from strati.dialects.loop.ops import VIEW_OPS
from strati.dialects.loop.profile import LABELS_ATTR, WHOLE_CALL, ProfileBeginOp, ProfileEndOp
from strati.transforms.outline_kernels import KERNEL_ATTR

MEASURED = (func.CallOp, memref.CopyOp)
"""Top-level ops measured besides those with regions (loop nests, control flow)."""


def written_buffers(op: Operation, module: ModuleOp, depth: int = 0) -> list[SSAValue]:
    """The buffers ``op`` stores to, in order (through a call: the callee's stores to its
    arguments, followed through calls a few levels deep)."""
    found: dict[SSAValue, None] = {}
    for inner in op.walk():
        if isinstance(inner, (memref.StoreOp, vector.StoreOp, memref.CopyOp)):
            found.setdefault(_root(inner.operands[1]), None)
        elif isinstance(inner, func.CallOp) and depth < 4:
            callee = SymbolTable.lookup_symbol(module, inner.callee)
            if isinstance(callee, func.FuncOp) and callee.body.blocks:
                args = dict(zip(callee.body.block.args, inner.operands))
                for v in written_buffers(callee, module, depth + 1):
                    if v in args:
                        found.setdefault(_root(args[v]), None)
    return list(found)


def _root(value: SSAValue) -> SSAValue:
    """A view's source when the view has no name of its own (the name the user gave is the buffer's)."""
    while value.name_hint is None and isinstance(value.owner, Operation) and value.owner.name in VIEW_OPS:
        value = value.owner.operands[0]
    return value


def label(op: Operation, module: ModuleOp) -> str:
    """What a row of the report says: the callee (or the kind of op) and what it writes."""
    what = f"@{op.callee.root_reference.data}" if isinstance(op, func.CallOp) else op.name
    outs = ", ".join(f"%{v.name_hint}: {_shape(v)}" if v.name_hint else _shape(v) for v in written_buffers(op, module)[:2])
    return f"{what} -> {outs}" if outs else what


def _shape(value: SSAValue) -> str:
    t = value.type
    if not isinstance(t, MemRefType):
        return str(t)
    return "x".join(str(d) if d >= 0 else "?" for d in t.get_shape()) + f"x{t.get_element_type()}"


@dataclass(frozen=True)
class ProfileKernelsPass(ModulePass):
    """A cycle counter around each kernel call and loop nest of the public functions."""

    name = "profile-kernels"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        labels = [a.data for a in op.attributes[LABELS_ATTR].data] if LABELS_ATTR in op.attributes else []
        for fn in [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks]:
            public = fn.sym_visibility is None or fn.sym_visibility.data == "public"
            if not public or KERNEL_ATTR in fn.attributes or any(isinstance(o, ProfileBeginOp) for o in fn.walk()):
                continue
            block = fn.body.block
            work = [o for o in block.ops if (o.regions or isinstance(o, MEASURED))]
            for o in work:
                block.insert_op_before(ProfileBeginOp(len(labels)), o)
                block.insert_op_after(ProfileEndOp(len(labels)), o)
                labels.append(label(o, op))
            block.insert_op_before(ProfileBeginOp(len(labels)), block.first_op)
            block.insert_op_before(ProfileEndOp(len(labels)), block.last_op)
            labels.append(f"@{fn.sym_name.data} {WHOLE_CALL}")
        op.attributes[LABELS_ATTR] = ArrayAttr([StringAttr(s) for s in labels])


__all__ = ["ProfileKernelsPass", "label", "written_buffers"]
