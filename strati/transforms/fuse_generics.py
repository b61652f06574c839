"""fuse-generics: producer-consumer fusion of ``tensor.generic`` ops in whole functions
(the rules are :func:`strati.dialects.tensor.fusion.fuse_generics`'s)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from strati.dialects.tensor.fusion import fuse_generics


@dataclass(frozen=True)
class FuseGenericsPass(ModulePass):
    """Producer-consumer fusion of elementwise generics into their consumers."""

    name = "fuse-generics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in [f for f in op.walk() if isinstance(f, func.FuncOp)]:
            for block in fn.body.blocks:
                fuse_generics(block)
