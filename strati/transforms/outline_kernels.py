"""outline-kernels: every top-level loop nest of a function becomes a call to a kernel function,
and identical nests share one.

A model repeats its layers (ResNet-50's blocks, DenseNet's dense layers): the same loop nest
on buffers of the same shapes, at other places in the arena and with other weights.  Inlined
in one function they are compiled once each, and LLVM's passes, some worse than linear in a
function's size, see one huge function.  Outlined, each distinct nest is compiled once, by
itself, and called where it was: the code is as large as the number of distinct layers.

What a nest uses from outside becomes an argument (buffers, and index values), except
``arith.constant``\\ s, which are cloned in (the nest keeps its constant trip counts).  Two
nests are the same kernel when their ops, attributes, types and the use of their arguments
match.  Buffer arguments are ``noalias`` in the generated code, as every buffer argument is;
one that may share bytes with another argument of the call (an in-place elementwise nest:
the same arena bytes read and written; two views of one buffer) carries ``strati.may_alias``,
and the code generator leaves it without ``noalias``.  Kernels carry ``strati.kernel``:
``noinline`` in the generated code, so that LLVM optimises each once.

It runs last at the loop level (``-O2`` and up), so that the CPU target's passes schedule each
distinct nest once; other targets keep their nests where they are.  Option ``min_ops``: nests
of fewer ops stay where they are (a call costs more than they save).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, IndexType, MemRefType, ModuleOp, SymbolRefAttr, UnitAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from strati.dialects.loop.ops import VIEW_OPS, ArenaViewOp

KERNEL_ATTR = "strati.kernel"
"""On a kernel function: compiled apart (``noinline``)."""
MAY_ALIAS_ATTR = "strati.may_alias"
"""On a kernel's buffer argument: may share bytes with another argument (no ``noalias``)."""


def captured_values(op: Operation) -> list[SSAValue]:
    """The values used inside ``op`` (or by it) that are defined outside it, in order of first use."""
    seen: dict[SSAValue, None] = {}
    for inner in op.walk():
        for value in inner.operands:
            owner = value.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is not None and (defining is op or op.is_ancestor(defining)):
                continue
            seen.setdefault(value, None)
    return list(seen)


def byte_range(value: SSAValue) -> tuple[object, int | None, int | None]:
    """The buffer a memref value lies in, and its bytes in it when known: an arena view's
    ``(arena, offset, offset + size)``; any other buffer's ``(buffer, None, None)`` (all of it)."""
    while isinstance(value.owner, Operation) and value.owner.name in VIEW_OPS:
        value = value.owner.operands[0]
    owner = value.owner
    if isinstance(owner, ArenaViewOp):
        t = value.type
        assert isinstance(t, MemRefType)
        from strati.codegen.llvm import element_size

        size = element_size(t.get_element_type())
        for d in t.get_shape():
            size *= d
        arena, lo, _ = byte_range(owner.arena)
        start = owner.offset.value.data + (lo or 0)
        return arena, start, start + size
    if isinstance(owner, memref.GetGlobalOp):
        return ("global", owner.name_.root_reference.data), None, None
    return value, None, None


def may_alias(a: SSAValue, b: SSAValue) -> bool:
    (ra, a0, a1), (rb, b0, b1) = byte_range(a), byte_range(b)
    if ra != rb:
        return False  # distinct buffers: function arguments are noalias, allocations and globals apart
    return a0 is None or b0 is None or (a0 < b1 and b0 < a1)


def signature(ops: Iterable[Operation], arguments: list[SSAValue], sites: list[tuple[Operation, int]] | None = None,
              records: str | None = None) -> tuple:
    """What makes two nests the same kernel (with the arguments' types, which the caller adds):
    every op's name, attributes, properties and result types, its operands by position
    (arguments by index, constants by value), and the regions' shapes.  With ``sites``, an
    ``index`` constant counts as any (``merge-kernels``): each use of one is appended there;
    attributes whose names start with ``records`` are left out."""
    numbers: dict[SSAValue, int] = {v: i for i, v in enumerate(arguments)}
    key: list = []

    def number(o: Operation, k: int, value: SSAValue) -> object:
        if value in numbers:
            return numbers[value]
        owner = value.owner
        if isinstance(owner, arith.ConstantOp):
            if sites is not None and isinstance(value.type, IndexType):
                sites.append((o, k))
                return IndexType
            return owner.value
        raise KeyError(value)

    def visit(o: Operation) -> None:
        if sites is not None and isinstance(o, arith.ConstantOp) and isinstance(o.result.type, IndexType):
            return
        key.append((
            o.name,
            tuple(number(o, k, v) for k, v in enumerate(o.operands)),
            tuple(r.type for r in o.results),
            tuple(sorted(o.properties.items())),
            tuple(sorted(o.attributes.items() if records is None else ((k, v) for k, v in o.attributes.items() if not k.startswith(records)))),
            len(o.regions),
        ))
        for r in o.results:
            numbers[r] = len(numbers)
        for region in o.regions:
            key.append(("region", len(region.blocks)))
            for block in region.blocks:
                key.append(("block", tuple(block.arg_types)))
                for a in block.args:
                    numbers[a] = len(numbers)
                for inner in block.ops:
                    visit(inner)

    for op in ops:
        visit(op)
    return tuple(key)


def outline(op: Operation, arguments: list[SSAValue], constants: list[SSAValue], name: str, aliasing: list[bool]) -> func.FuncOp:
    """A private kernel function whose body is ``op``, moved there, on its arguments (the
    constants it uses cloned in)."""
    types = [v.type for v in arguments]
    block = Block(arg_types=types)
    mapping: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args))
    for value in constants:
        clone = value.owner.clone()
        block.add_op(clone)
        mapping[value] = clone.result
    op.detach()
    block.add_op(op)
    for inner in op.walk():
        for i, value in enumerate(inner.operands):
            if value in mapping:
                inner.operands[i] = mapping[value]
    block.add_op(func.ReturnOp())
    arg_attrs = ArrayAttr([DictionaryAttr({MAY_ALIAS_ATTR: UnitAttr()} if a else {}) for a in aliasing])
    kernel = func.FuncOp(name, FunctionType.from_lists(types, []), Region(block), visibility="private", arg_attrs=arg_attrs)
    kernel.attributes[KERNEL_ATTR] = UnitAttr()
    return kernel


@dataclass(frozen=True)
class OutlineKernelsPass(ModulePass):
    """Top-level loop nests to calls of kernel functions, one per distinct nest."""

    name = "outline-kernels"

    min_ops: int = 8
    target: str | None = None
    """Only for the CPU (default: the module's description's target, else the CPU's)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from strati.dialects.hw.ops import module_target

        attr = module_target(op)
        if (self.target or (attr.target_name if attr is not None else "cpu")) != "cpu":
            return
        functions = [f for f in op.ops if isinstance(f, func.FuncOp) and f.body.blocks and KERNEL_ATTR not in f.attributes]
        names = {f.sym_name.data for f in op.ops if isinstance(f, func.FuncOp)}
        for fn in functions:
            kernels: dict[tuple, str] = {}
            insert_after: Operation = fn
            for nest in [o for o in fn.body.block.ops if o.regions and not isinstance(o, func.FuncOp)]:
                if sum(1 for _ in nest.walk()) < self.min_ops:
                    continue
                captured = captured_values(nest)
                arguments = [v for v in captured if not isinstance(v.owner, arith.ConstantOp)]
                constants = [v for v in captured if isinstance(v.owner, arith.ConstantOp)]
                if nest.results:
                    continue  # (a nest with results would need them returned: none at this level)
                buffers = [v for v in arguments if isinstance(v.type, MemRefType)]
                aliasing = [
                    isinstance(v.type, MemRefType) and any(w is not v and may_alias(v, w) for w in buffers) for v in arguments
                ]
                key = (signature([nest], arguments), tuple(v.type for v in arguments), tuple(aliasing))
                callee = kernels.get(key)
                fn.body.block.insert_op_before(func.CallOp(callee or "", arguments, []), nest)
                call = nest.prev_op
                if callee is None:
                    callee = kernels[key] = unique(f"{fn.sym_name.data}.kernel{len(kernels)}", names)
                    kernel = outline(nest, arguments, constants, callee, aliasing)
                    op.body.block.insert_op_after(kernel, insert_after)
                    insert_after = kernel
                    call.callee = SymbolRefAttr(callee)
                else:
                    nest.detach()
                    nest.erase(safe_erase=False)


def unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 0
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    taken.add(candidate)
    return candidate


__all__ = ["KERNEL_ATTR", "MAY_ALIAS_ATTR", "OutlineKernelsPass", "byte_range", "captured_values", "may_alias"]
