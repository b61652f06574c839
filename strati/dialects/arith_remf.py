"""MLIR's ``arith.remf`` (the remainder of floats with the sign of the dividend: C's fmod),
which xDSL 0.75 lacks.  strati's context loads ``Arith``, xDSL's arith dialect with it,
in place of xDSL's (as for ``tensor`` and ``hw``); the code generator emits it as
LLVM's ``frem`` and the interpreters compute numpy.fmod."""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.arith import FloatingPointLikeBinaryOperation
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, traits_def
from xdsl.traits import Pure


@irdl_op_definition
class RemfOp(FloatingPointLikeBinaryOperation):
    name = "arith.remf"
    traits = traits_def(Pure())


Arith = Dialect("arith", [*arith.Arith.operations, RemfOp], list(arith.Arith.attributes))

__all__ = ["Arith", "RemfOp"]
