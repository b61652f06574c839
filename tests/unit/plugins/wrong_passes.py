"""Passes that are wrong on purpose, to show that translation validation (--verify-each-numerics,
check_passes=True), --crash-reproducer and strati-reduce catch them."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, func
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from strati.dialects.graph.ops import AddOp, ReluOp, SubOp
from strati.dialects.loop.ops import ForOp
from strati.transforms import register_pass


@dataclass(frozen=True)
class AddToSubPass(ModulePass):
    """Wrong: every graph.add becomes a graph.sub (at the same location)."""

    name = "test-add-to-sub"

    def apply(self, ctx, module) -> None:
        for op in list(module.walk()):
            if isinstance(op, AddOp):
                new = SubOp.create(operands=list(op.operands), result_types=[op.result.type])
                new.location = op.location
                Rewriter.replace_op(op, new)


@dataclass(frozen=True)
class ShortenLastLoopPass(ModulePass):
    """Wrong: the last top-level loop.for of each function stops one iteration early."""

    name = "test-shorten-last-loop"

    def apply(self, ctx, module) -> None:
        for fn in module.walk():
            if isinstance(fn, func.FuncOp) and fn.body.blocks:
                loops = [op for op in fn.body.blocks[0].ops if isinstance(op, ForOp)]
                if loops:
                    loop = loops[-1]
                    one = arith.ConstantOp.from_int_and_width(1, loop.ub.type)
                    shorter = arith.SubiOp(loop.ub, one.result)
                    fn.body.blocks[0].insert_ops_before([one, shorter], loop)
                    loop.operands[1] = shorter.result


@dataclass(frozen=True)
class CrashOnReluPass(ModulePass):
    """Wrong: crashes (a Python exception) on any graph.relu."""

    name = "test-crash-on-relu"

    def apply(self, ctx, module) -> None:
        if any(isinstance(op, ReluOp) for op in module.walk()):
            raise RuntimeError("relu is not supported by this pass")


for _pass in (AddToSubPass, ShortenLastLoopPass, CrashOnReluPass):
    register_pass(_pass)
