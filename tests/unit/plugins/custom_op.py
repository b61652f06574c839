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
from strati.registry import OpPattern, register_op_attr


@irdl_op_definition
class SoftplusOp(GraphOp):
    """``%y = demo.softplus %x : tensor<4xf32>``, elementwise."""

    name = "demo.softplus"
    x = operand_def(TensorType)
    result = result_def(TensorType)


def infer_type(op):
    require_float(op)  # raises VerifyException naming the operand type
    return [op.operands[0].type]


def softplus(op, x):  # max(x, 0) + log1p(exp(-|x|)): the same function, without overflow
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype)


register_dialect(Dialect("demo", [SoftplusOp]))
register_op_attr("demo.softplus", "infer_type", infer_type)
register_op_attr("demo.softplus", "reference", softplus)
register_op_attr("demo.softplus", "pattern", OpPattern.ELEMWISE)
register_op_attr("demo.softplus", "flops", flops_per_result_element(4))
