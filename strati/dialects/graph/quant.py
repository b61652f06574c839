"""The graph dialect's int8 quantisation ops: per-tensor quantize and dequantize (ONNX
QuantizeLinear and DequantizeLinear), and matmul and conv2d on int8 tensors with int32
accumulation and a power-of-two requantisation, the symmetric scheme an integer
accelerator runs.  Their rules are in ``attrs/quant.py`` and ``lowering/quant.py``."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.irdl import irdl_op_definition, operand_def, opt_operand_def, result_def

from strati.dialects.graph.base import GraphOp, float_prop, int_prop, ints_prop
from strati.dialects.graph.ops import UnaryOp

T = TensorType


@irdl_op_definition
class QuantizeOp(UnaryOp):
    """int8 from float: clip(round_half_even(x / scale) + zero_point, -128, 127)."""

    name = "graph.quantize"
    scale = float_prop()
    zero_point = int_prop(0)


@irdl_op_definition
class DequantizeOp(UnaryOp):
    """float32 from int8: (q - zero_point) * scale."""

    name = "graph.dequantize"
    scale = float_prop()
    zero_point = int_prop(0)


@irdl_op_definition
class QMatmulOp(GraphOp):
    """2-D int8 matmul: clip(round_half_even((lhs @ rhs) / 2**shift), -128, 127), the
    product in int32 (scales s_lhs * s_rhs / s_result = 2**-shift, zero points 0)."""

    name = "graph.qmatmul"
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)
    shift = int_prop(0)


@irdl_op_definition
class QConv2dOp(GraphOp):
    """int8 convolution (NCHW, OIHW, one group) plus an optional int32 bias, requantised as
    graph.qmatmul."""

    name = "graph.qconv2d"
    input = operand_def(T)
    weight = operand_def(T)
    bias = opt_operand_def(T)
    result = result_def(T)
    strides = ints_prop((1, 1))
    pads = ints_prop((0, 0, 0, 0))  # top, left, bottom, right
    dilations = ints_prop((1, 1))
    groups = int_prop(1)
    shift = int_prop(0)


QUANT_OPS = [QuantizeOp, DequantizeOp, QMatmulOp, QConv2dOp]
