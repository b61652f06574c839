"""The loop dialect (level 3): loop nests over index ranges, on builtin memref buffers.

Buffers are builtin ``memref`` values; elements move with upstream ``memref.load``
and ``memref.store``, buffers come from ``memref.alloc``; scalar work is ``arith``
and ``math``.  What this dialect adds is the loop and its schedule, which later
passes read and set:

    loop.for %i = %c0 to %c64 step %c1 {
      ...
    } {parallel = true, vector_width = 8, unroll = 2}

(the schedule follows the body, as the attributes of ``scf.for`` do in MLIR)

``parallel``: iterations are independent (may run on several cores);
``vector_width``: the innermost loop is to be executed that many lanes at a time;
``unroll``: the body is to be replicated that many times.  ``loop.view`` gives a
buffer another row-major shape without moving data (reshape).  ``loop.arena_view``
reads a typed buffer at a byte offset of an ``i8`` arena (what ``plan-memory``
makes of every temporary):

    %t = loop.arena_view %arena[128] : memref<4096xi8> to memref<4x8xf32>
"""

from __future__ import annotations

import functools
from typing import ClassVar

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    i1,
    i8,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    IsTerminator,
    NoMemoryEffect,
    Pure,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from strati.dialects.uniform import parse_properties, print_properties

BoolAttr = IntegerAttr.constr(type=i1)
I64Attr = IntegerAttr.constr(type=i64)


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a loop body (implicit in the custom syntax)."""

    name = "loop.yield"
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict"


class IndexLoop(IRDLOperation):
    """The syntax of a loop over an index range, shared by ``loop.for`` and the targets' loops:
    ``%i = %lb to %ub step %s { body } {properties}`` with an implicit terminator."""

    TERMINATOR: ClassVar[type[IRDLOperation]]

    @property
    def induction_var(self) -> SSAValue:
        return self.body.block.args[0]

    def verify_header(self) -> None:
        """One index argument, the induction variable; a constant step positive (as scf.for's:
        a step of 0 would never end)."""
        from xdsl.dialects.arith import ConstantOp

        args = self.body.block.args
        if len(args) != 1 or not isinstance(args[0].type, IndexType):
            raise VerifyException("the body must take exactly one index argument, the induction variable")
        owner = self.step.owner
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr) and owner.value.value.data < 1:
            raise VerifyException(f"the step must be positive, got {owner.value.value.data}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_block_argument(self.induction_var, print_type=False)
        for keyword, operand in (("=", self.lb), ("to", self.ub), ("step", self.step)):
            printer.print_string(f" {keyword} ")
            printer.print_operand(operand)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False, print_block_terminators=False)
        print_properties(self, printer)

    @classmethod
    def parse(cls, parser: Parser) -> IndexLoop:
        index = IndexType()
        iv = parser.parse_argument(expect_type=False)
        bounds = []
        for keyword in ("=", "to", "step"):
            if keyword == "=":
                parser.parse_punctuation("=")
            else:
                parser.parse_characters(keyword)
            bounds.append(parser.resolve_operand(parser.parse_unresolved_operand(), index))
        body = parser.parse_region((iv.resolve(index),))
        properties, attributes = parse_properties(cls, parser)
        if not body.block.ops or not isinstance(body.block.last_op, cls.TERMINATOR):
            body.block.add_op(cls.TERMINATOR())
        op = cls.build(operands=bounds, regions=[body], properties=properties, attributes=attributes)
        for name, d in cls.get_irdl_definition().properties.items():
            if name not in op.properties and d.default_value is not None:
                op.properties[name] = d.default_value
        return op


@irdl_op_definition
class ForOp(IndexLoop):
    """``for i in range(lb, ub, step)`` with a schedule."""

    name = "loop.for"
    lb = operand_def(IndexType())
    ub = operand_def(IndexType())
    step = operand_def(IndexType())
    parallel = prop_def(BoolAttr, IntegerAttr(0, i1))
    vector_width = prop_def(I64Attr, IntegerAttr(1, i64))
    unroll = prop_def(I64Attr, IntegerAttr(1, i64))
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())
    TERMINATOR: ClassVar[type[IRDLOperation]] = YieldOp

    def __init__(
        self,
        lb: SSAValue,
        ub: SSAValue,
        step: SSAValue,
        body: Region | None = None,
        *,
        parallel: bool = False,
        vector_width: int = 1,
        unroll: int = 1,
    ):
        if body is None:
            body = Region(Block([YieldOp()], arg_types=[IndexType()]))
        super().__init__(
            operands=[lb, ub, step],
            regions=[body],
            properties={
                "parallel": _flag(bool(parallel)),
                "vector_width": _i64(vector_width),
                "unroll": _i64(unroll),
            },
        )

    @property
    def is_parallel(self) -> bool:
        return bool(self.parallel.value.data)

    def verify_(self) -> None:
        self.verify_header()
        for name in ("vector_width", "unroll"):
            if getattr(self, name).value.data < 1:
                raise VerifyException(f"{name} must be at least 1")



@functools.cache
def _flag(value: bool) -> IntegerAttr:
    return IntegerAttr(int(value), i1)


@functools.cache
def _i64(value: int) -> IntegerAttr:
    """(Attributes are immutable: a loop's are made once per value; ``IntegerAttr`` checks its
    value as it is made, a third of a loop's construction.)"""
    return IntegerAttr(value, i64)


@irdl_op_definition
class ViewOp(IRDLOperation):
    """The same buffer read in another row-major shape with the same number of elements."""

    name = "loop.view"
    source = operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$source attr-dict `:` type($source) `to` type($result)"

    def __init__(self, source: SSAValue, result_type: MemRefType):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        import math

        a, b = self.source.type, self.result.type
        assert isinstance(a, MemRefType) and isinstance(b, MemRefType)
        if a.get_element_type() != b.get_element_type():
            raise VerifyException("a view cannot change the element type")
        if math.prod(a.get_shape()) != math.prod(b.get_shape()):
            raise VerifyException(f"{a} and {b} have different numbers of elements")


ARENA_ALIGNMENT = 64
"""The alignment ``plan-memory`` gives its arenas and the offsets in them (a cache line)."""


def element_bytes(t: Attribute) -> int | None:
    """Bytes of one memref element as buffers store it (i1 as a byte, index as 8), or None."""
    if isinstance(t, IndexType):
        return 8
    if isinstance(t, IntegerType):
        return {1: 1, 8: 1, 16: 2, 32: 4, 64: 8}.get(t.width.data)
    if isinstance(t, (Float16Type, BFloat16Type)):
        return 2
    if isinstance(t, Float32Type):
        return 4
    if isinstance(t, Float64Type):
        return 8
    return None


def buffer_bytes(t: Attribute) -> int | None:
    """Bytes of a static, row-major memref; None for anything else."""
    if not isinstance(t, MemRefType) or not isinstance(t.layout, NoneAttr):
        return None
    shape = t.get_shape()
    size = element_bytes(t.get_element_type())
    if size is None or any(d < 0 for d in shape):
        return None
    for d in shape:
        size *= d
    return size


@irdl_op_definition
class ArenaViewOp(IRDLOperation):
    """A typed buffer at a byte offset in an arena (a 1-D ``i8`` memref): no data moves.

        %t = loop.arena_view %arena[128] : memref<4096xi8> to memref<4x8xf32>

    The view's bytes, ``offset`` to ``offset + size``, must lie in the arena, and
    ``offset`` must be a multiple of the element's size (the arena itself is
    allocated 64-byte aligned, so the view's elements are naturally aligned).
    Views with overlapping bytes alias; ``plan-memory`` gives two buffers that are
    live at the same time disjoint bytes, except where one is computed in place of
    the other."""

    name = "loop.arena_view"
    arena = operand_def(MemRefType)
    offset = prop_def(I64Attr)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())

    def __init__(self, arena: SSAValue, offset: int, result_type: MemRefType):
        super().__init__(operands=[arena], result_types=[result_type], properties={"offset": IntegerAttr(offset, i64)})

    @property
    def byte_offset(self) -> int:
        return self.offset.value.data

    def verify_(self) -> None:
        a, b = self.arena.type, self.result.type
        assert isinstance(a, MemRefType) and isinstance(b, MemRefType)
        if a.get_element_type() != i8 or len(a.get_shape()) != 1 or a.get_shape()[0] < 0 or not isinstance(a.layout, NoneAttr):
            raise VerifyException(f"the arena must be a static 1-D memref of i8, not {a}")
        if a.memory_space != b.memory_space:
            raise VerifyException(f"the view {b} is not in the arena's memory space ({a})")
        size = buffer_bytes(b)
        if size is None:
            raise VerifyException(f"the view must be a static row-major memref of i1, i8-i64, index, f16, bf16, f32 or f64, not {b}")
        offset, capacity = self.byte_offset, a.get_shape()[0]
        if offset < 0:
            raise VerifyException(f"offset {offset} is negative")
        if offset + size > capacity:
            raise VerifyException(f"the view's bytes {offset} to {offset + size} are not within the arena's {capacity}")
        align = element_bytes(b.get_element_type())
        assert align is not None
        if offset % align:
            raise VerifyException(f"offset {offset} is not a multiple of {align}, the size of {b.get_element_type()}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.arena)
        printer.print_string(f"[{self.byte_offset}]")
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.arena.type)
        printer.print_string(" to ")
        printer.print_attribute(self.result.type)

    @classmethod
    def parse(cls, parser: Parser) -> ArenaViewOp:
        arena = parser.parse_unresolved_operand()
        parser.parse_punctuation("[")
        offset = parser.parse_integer(allow_boolean=False, allow_negative=True)
        parser.parse_punctuation("]")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        arena_type = parser.parse_type()
        parser.parse_characters("to")
        result_type = parser.parse_type()
        op = cls.build(
            operands=[parser.resolve_operand(arena, arena_type)],
            result_types=[result_type],
            properties={"offset": IntegerAttr(offset, i64)},
            attributes=attributes,
        )
        return op


VIEW_OPS = frozenset({"loop.view", "memref.collapse_shape", "memref.expand_shape", "memref.cast"})
"""Ops whose result is the same bytes as their buffer operand, read in another shape (or, a
``memref.cast``, the same shape known less)."""


def buffer_root(value: SSAValue) -> object | None:
    """The buffer a memref value is a view of: a function argument (arguments do not alias: they
    are ``noalias`` in the generated code; those marked ``strati.may_alias`` count as one buffer), an allocation, an arena view, or ``("global", name)``;
    None when unknown.  An arena view counts as a buffer of its own: plan-memory places buffers
    that are live at the same time apart, so two views used by one op never overlap (a pass that
    moves ops across each other must not rely on this)."""
    from xdsl.dialects import func, memref

    while True:
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in VIEW_OPS:
            value = owner.operands[0]
            continue
        if isinstance(owner, memref.GetGlobalOp):
            return ("global", owner.name_.root_reference.data)
        if isinstance(owner, (memref.AllocOp, memref.AllocaOp, ArenaViewOp)):
            return value
        if isinstance(owner, Block) and isinstance((fn := owner.parent_op()), func.FuncOp):
            attrs = fn.arg_attrs.data[value.index] if fn.arg_attrs is not None else None
            if attrs is not None and "strati.may_alias" in attrs.data:  # outline-kernels: shares bytes
                return ("may_alias", fn.sym_name.data)
            return value
        return None


ALL_OPS = [ForOp, YieldOp, ViewOp, ArenaViewOp]


def _register() -> None:
    from strati.registry import register_op_attr

    for op in (ViewOp, ArenaViewOp):  # their verifiers read their own types and offset alone
        register_op_attr(op.name, "local_verifier", True)


_register()
