"""fuse-generics: producer-consumer fusion of ``tensor.generic`` ops in whole functions
(the rules are :func:`strati.dialects.tensor.fusion.fuse_generics`'s)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from strati.dialects.tensor.fusion import fuse_generics
from strati.functions import functions


@dataclass(frozen=True)
class FuseGenericsPass(ModulePass):
    """Producer-consumer fusion of elementwise generics into their consumers."""

    name = "fuse-generics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in functions(op):
            for block in fn.body.blocks:
                fuse_generics(block)
