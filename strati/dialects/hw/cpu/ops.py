"""The cpu target dialect (level 4): what the host CPU does beyond scalar code.

Vector arithmetic needs nothing of ours: it is upstream ``vector.load``/``store``/
``broadcast``/``fma``/``reduction`` and ``arith``/``math`` on ``vector<N x T>``; loops
that stay sequential stay ``loop.for``.  What the CPU adds is the task:

    cpu.parallel %i = %lb to %ub step %s {
      ...
    }

The iterations ``lb, lb + s, ... < ub`` are independent and run on the thread pool:
the runtime splits the ``ceil((ub - lb) / s)`` iterations into one contiguous chunk
per worker (the calling thread runs one itself) and returns when all are done.
The body may use any value defined above (code generation packs them into the
task's context); a ``cpu.parallel`` reached from inside another one (through a
call) runs sequentially on the thread that reaches it; directly nested ones are
rejected by the verifier.
"""

from __future__ import annotations

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from strati.dialects.uniform import parse_properties, print_properties


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a ``cpu.parallel`` body (implicit in the custom syntax)."""

    name = "cpu.yield"
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict"


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """A parallel loop whose iterations are tasks for the thread pool."""

    name = "cpu.parallel"
    lb = operand_def(IndexType())
    ub = operand_def(IndexType())
    step = operand_def(IndexType())
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())

    def __init__(self, lb: SSAValue, ub: SSAValue, step: SSAValue, body: Region | None = None):
        if body is None:
            body = Region(Block([YieldOp()], arg_types=[IndexType()]))
        super().__init__(operands=[lb, ub, step], regions=[body])

    @property
    def induction_var(self) -> SSAValue:
        return self.body.block.args[0]

    def verify_(self) -> None:
        args = self.body.block.args
        if len(args) != 1 or not isinstance(args[0].type, IndexType):
            raise VerifyException("the body must take exactly one index argument, the induction variable")
        owner = self.step.owner
        if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr) and owner.value.value.data < 1:
            raise VerifyException(f"the step must be positive, got {owner.value.value.data}")
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, ParallelOp):
                raise VerifyException("cpu.parallel cannot be nested in another cpu.parallel of the same function")
            parent = parent.parent_op()

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_block_argument(self.induction_var, print_type=False)
        printer.print_string(" = ")
        printer.print_operand(self.lb)
        printer.print_string(" to ")
        printer.print_operand(self.ub)
        printer.print_string(" step ")
        printer.print_operand(self.step)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False, print_block_terminators=False)
        print_properties(self, printer)

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        index = IndexType()
        iv = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.resolve_operand(parser.parse_unresolved_operand(), index)
        parser.parse_characters("to")
        ub = parser.resolve_operand(parser.parse_unresolved_operand(), index)
        parser.parse_characters("step")
        step = parser.resolve_operand(parser.parse_unresolved_operand(), index)
        body = parser.parse_region((iv.resolve(index),))
        properties, attributes = parse_properties(cls, parser)
        if not body.block.ops or not isinstance(body.block.last_op, YieldOp):
            body.block.add_op(YieldOp())
        return cls.build(operands=[lb, ub, step], regions=[body], properties=properties, attributes=attributes)


ALL_OPS = [ParallelOp, YieldOp]

__all__ = ["ALL_OPS", "ParallelOp", "YieldOp"]
