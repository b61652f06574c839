"""A plug-in from outside strati: a "demo" dialect with demo.softplus = log(1 + exp(x)).

Defining the op and registering its attributes is all it takes to join strati.
"""

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Dialect
from xdsl.irdl import irdl_op_definition, operand_def, result_def

from strati.context import register_dialect
from strati.dialects.graph.attrs.common import flops_per_result_element, require_float
from strati.dialects.graph.base import GraphOp
from strati.dialects.tensor import scalar as s
from strati.registry import OpPattern, register_op_attr


@irdl_op_definition
class SoftplusOp(GraphOp):  # %y = demo.softplus %x : tensor<4xf32>
    name = "demo.softplus"
    x = operand_def(TensorType)
    result = result_def(TensorType)


def infer_type(op):
    require_float(op)  # raises VerifyException naming the operand type
    return [op.operands[0].type]


def stable(x, exp, log1p, add, relu, abs_, neg):  # max(x, 0) + log1p(exp(-|x|)): no overflow
    return add(relu(x), log1p(exp(neg(abs_(x)))))


register_dialect(Dialect("demo", [SoftplusOp]))
for key, value in [("infer_type", infer_type), ("pattern", OpPattern.ELEMWISE), ("flops", flops_per_result_element(4)),
                   ("reference", lambda op, x: stable(x, np.exp, np.log1p, np.add, lambda v: np.maximum(v, 0), np.abs, np.negative).astype(x.dtype)),
                   ("lower", lambda op, b: b.elementwise([op.operands[0]], op.results[0].type, lambda x: stable(
                       x, lambda v: s.unary_math("exp", v), lambda v: s.unary_math("log", s.add(s.const(1.0, v.type), v)), s.add,
                       lambda v: s.maximum(v, s.const(0.0, v.type)), s.abs_, s.neg)))]:
    register_op_attr("demo.softplus", key, value)
