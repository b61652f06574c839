"""Control flow at the loop level: ``loop.if`` and ``loop.while`` (what ``graph.if`` and
``graph.loop`` become once bufferized).

    loop.if %c {
      ...
    } else {
      ...
    }

    loop.while {
      %go = ...
      loop.condition %go
    } do {
      ...
    }

``loop.if`` runs one of its regions on an ``i1``; ``loop.while`` evaluates its first
region, which ends in ``loop.condition``, and runs the second while that is true.  They
carry no values (state lives in buffers, as everything at this level does), so the
regions end in ``loop.yield`` (implicit in the syntax), and a pass that does not know
them sees ops with regions that read and write buffers.  Their code (``emit``) is a
conditional branch and a loop of basic blocks; the loop interpreter runs them in Python.
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects.builtin import i1
from xdsl.ir import Block, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from strati.dialects.loop.ops import YieldOp
from strati.registry import register_op_attr


def _region(block: Block | None = None) -> Region:
    return Region(block if block is not None else Block([YieldOp()]))


def _with_terminator(region: Region) -> Region:
    block = region.block
    if block.last_op is None or not block.last_op.has_trait(IsTerminator):
        block.add_op(YieldOp())
    return region


@irdl_op_definition
class IfOp(IRDLOperation):
    """``if cond: then else: else`` on an i1."""

    name = "loop.if"
    cond = operand_def(i1)
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, cond: SSAValue, then_region: Region | None = None, else_region: Region | None = None):
        super().__init__(operands=[cond], regions=[then_region or _region(), else_region or _region()])

    def verify_(self) -> None:
        for region in (self.then_region, self.else_region):
            if region.block.args or not isinstance(region.block.last_op, YieldOp):
                raise VerifyException("each region takes no arguments and ends with loop.yield")

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.resolve_operand(parser.parse_unresolved_operand(), i1)
        attributes = parser.parse_optional_attr_dict_with_keyword()
        then_region = _with_terminator(parser.parse_region())
        else_region = _with_terminator(parser.parse_region()) if parser.parse_optional_keyword("else") else None
        op = cls(cond, then_region, else_region)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.then_region, print_block_terminators=False)
        if len(self.else_region.block.ops) > 1:
            printer.print_string(" else ")
            printer.print_region(self.else_region, print_block_terminators=False)


@irdl_op_definition
class ConditionOp(IRDLOperation):
    """Ends the first region of a ``loop.while``: whether to run the body once more."""

    name = "loop.condition"
    cond = operand_def(i1)
    traits = traits_def(IsTerminator())
    assembly_format = "$cond attr-dict"

    def __init__(self, cond: SSAValue):
        super().__init__(operands=[cond])

    def verify_(self) -> None:
        if not isinstance(self.parent_op(), WhileOp):
            raise VerifyException("expects its parent to be a loop.while")


@irdl_op_definition
class WhileOp(IRDLOperation):
    """``while before(): do``: the first region computes the condition, the second is the body."""

    name = "loop.while"
    before = region_def("single_block")
    after = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, before: Region, after: Region | None = None):
        super().__init__(regions=[before, after or _region()])

    def verify_(self) -> None:
        if self.before.block.args or self.after.block.args:
            raise VerifyException("the regions take no arguments")
        if not isinstance(self.before.block.last_op, ConditionOp):
            raise VerifyException("the first region must end with loop.condition")
        if not isinstance(self.after.block.last_op, YieldOp):
            raise VerifyException("the body must end with loop.yield")

    @classmethod
    def parse(cls, parser: Parser) -> WhileOp:
        attributes = parser.parse_optional_attr_dict_with_keyword()
        before = parser.parse_region()
        parser.parse_keyword("do")
        after = _with_terminator(parser.parse_region())
        op = cls(before, after)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.before)
        printer.print_string(" do ")
        printer.print_region(self.after, print_block_terminators=False)


CONTROL_OPS = [IfOp, WhileOp, ConditionOp]


# --- code generation (strati.codegen.llvm's emitter) ---------------------------------------


def emit_if(emitter, op: IfOp) -> None:
    b, fn = emitter.b, emitter.fn
    then_bb = fn.append_basic_block("if.then")
    else_bb = fn.append_basic_block("if.else")
    merge = ir.Block(parent=fn, name="if.end")  # placed after both branches' blocks
    b.cbranch(emitter.v(op.cond), then_bb, else_bb)
    for bb, region in ((then_bb, op.then_region), (else_bb, op.else_region)):
        b.position_at_end(bb)
        emitter.emit_block(region.block)
        if not b.block.is_terminated:
            b.branch(merge)
    fn.blocks.append(merge)
    b.position_at_end(merge)


def emit_while(emitter, op: WhileOp) -> None:
    b, fn = emitter.b, emitter.fn
    header = fn.append_basic_block("while.cond")
    body = fn.append_basic_block("while.body")
    exit_block = ir.Block(parent=fn, name="while.end")
    b.branch(header)
    b.position_at_end(header)
    condition = op.before.block.last_op
    assert isinstance(condition, ConditionOp)
    for inner in op.before.block.ops:
        if inner is not condition:
            emitter.emit_op(inner)
    b.cbranch(emitter.v(condition.cond), body, exit_block)
    b.position_at_end(body)
    emitter.emit_block(op.after.block)
    if not b.block.is_terminated:
        b.branch(header)
    fn.blocks.append(exit_block)
    b.position_at_end(exit_block)


register_op_attr("loop.if", "emit", emit_if)
register_op_attr("loop.while", "emit", emit_while)
register_op_attr("loop.condition", "emit", lambda emitter, op: None)
