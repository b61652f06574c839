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

from typing import ClassVar

from xdsl.dialects.builtin import IndexType
from xdsl.ir import Block, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, region_def, traits_def
from xdsl.traits import IsTerminator, Pure, RecursiveMemoryEffect, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from strati.dialects.loop.ops import IndexLoop


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a ``cpu.parallel`` body (implicit in the custom syntax)."""

    name = "cpu.yield"
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict"


@irdl_op_definition
class ParallelOp(IndexLoop):
    """A parallel loop whose iterations are tasks for the thread pool."""

    name = "cpu.parallel"
    lb = operand_def(IndexType())
    ub = operand_def(IndexType())
    step = operand_def(IndexType())
    body = region_def("single_block")
    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), RecursiveMemoryEffect())
    TERMINATOR: ClassVar[type[IRDLOperation]] = YieldOp

    def __init__(self, lb: SSAValue, ub: SSAValue, step: SSAValue, body: Region | None = None):
        if body is None:
            body = Region(Block([YieldOp()], arg_types=[IndexType()]))
        super().__init__(operands=[lb, ub, step], regions=[body])

    def verify_(self) -> None:
        self.verify_header()
        parent = self.parent_op()
        while parent is not None:
            if isinstance(parent, ParallelOp):
                raise VerifyException("cpu.parallel cannot be nested in another cpu.parallel of the same function")
            parent = parent.parent_op()


ALL_OPS = [ParallelOp, YieldOp]

__all__ = ["ALL_OPS", "ParallelOp", "YieldOp"]
