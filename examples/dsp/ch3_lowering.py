"""Chapter 3: the lowering.  A strategy gives graph.matmul to the DSP when its rows are whole
vectors, and ``dsp.matmul``'s bufferize rule writes the loops: y = 0, then one ``dsp.mac``
per (i, j) and vector step.  Nothing else changes: relu and softmax stay host code."""

import os
import sys

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, f32, i64

sys.path.insert(0, os.path.dirname(__file__))
from ch2_dialect import MacOp, MatmulOp  # noqa: E402

from strati.registry import register_op_attr  # noqa: E402
from strati.strategy import Strategy, register_strategy  # noqa: E402


def applies(op, desc):
    types = [v.type for v in (*op.operands, *op.results)]
    return (all(isinstance(t, TensorType) and len(t.get_shape()) == 2 and t.element_type == f32 for t in types)
            and types[0].get_shape()[1] % desc["lanes"] == 0)


def lower(op, b, desc):
    matmul = MatmulOp.create(operands=list(op.operands), result_types=[op.results[0].type])
    matmul.attributes["lanes"] = IntegerAttr(desc["lanes"], i64)  # the vector length chosen
    return b.insert(matmul).results[0]


def bufferize(bz, op):
    x, w, y = bz.buffer(op.a), bz.buffer(op.b), bz.result_buffer(op.res)
    (m, k), n, lanes = x.type.get_shape(), w.type.get_shape()[1], op.attributes["lanes"]
    bz.fill(bz.emit(arith.ConstantOp(FloatAttr(0.0, f32))).results[0], y)

    def body(ivs):
        start = bz.emit(arith.MuliOp(ivs[2], bz.index(lanes.value.data))).results[0]
        bz.emit(MacOp.create(operands=[x, w, y, ivs[0], ivs[1], start], properties={"lanes": lanes}))

    bz.loops([m, n, k // lanes.value.data], [True, True, False], body)


register_strategy(Strategy("dsp_mac", "graph.matmul", "dsp", lower, cost=lambda op, desc: 1.0, applies=applies,
                           doc="one multiply-accumulate per vector"))
register_op_attr("dsp.matmul", "bufferize", bufferize)

if __name__ == "__main__":
    from strati.compiler import lower_to
    from strati.context import make_context
    from strati.source import parse_module

    text = """func.func @f(%x: tensor<2x16xf32>, %w: tensor<16x3xf32>) -> tensor<2x3xf32> {
  %y = graph.matmul %x, %w : (tensor<2x16xf32>, tensor<16x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}"""
    print(lower_to(parse_module(make_context(), text, "ch3"), "hw", target="dsp"))
