"""Chapter 2: the dialect.  One instruction, ``dsp.mac``: a multiply-accumulate over one
vector of the row ``i`` of x and the column ``j`` of w, from ``k``:
y[i, j] += sum(x[i, k:k+L] * w[k:k+L, j]).  It has a verifier, a reference (the loop
interpreter runs it) and an ``emit`` rule (the LLVM IR of the instruction).  ``dsp.matmul``
is the same work on whole tensors, what chapter 3's strategy makes of a graph.matmul."""

import os
import sys

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, TensorType, f32, i64
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.utils.exceptions import VerifyException

sys.path.insert(0, os.path.dirname(__file__))
from ch1_target import DspTarget  # noqa: E402

from strati.codegen.llvm import I64  # noqa: E402
from strati.context import register_dialect  # noqa: E402
from strati.registry import register_op_attr  # noqa: E402


@irdl_op_definition
class MacOp(IRDLOperation):
    name = "dsp.mac"
    x, w, y = operand_def(MemRefType), operand_def(MemRefType), operand_def(MemRefType)
    i, j, k = operand_def(IndexType()), operand_def(IndexType()), operand_def(IndexType())
    lanes = prop_def(IntegerAttr[i64])
    assembly_format = "$x `,` $w `into` $y `[` $i `,` $j `,` $k `]` `lanes` $lanes attr-dict `:` type($x) `,` type($w) `into` type($y)"

    def verify_(self):
        (m, kx), (kw, n), (my, ny) = (v.type.get_shape() for v in (self.x, self.w, self.y))
        if (kx, m, n) != (kw, my, ny) or any(v.type.element_type != f32 for v in (self.x, self.w, self.y)):
            raise VerifyException(f"multiplies f32 {m}x{kx} by {kw}x{n} into {my}x{ny}: the shapes or types do not match")
        if kx % self.lanes.value.data:
            raise VerifyException(f"{kx} columns are not a whole number of {self.lanes.value.data}-lane vectors")


@irdl_op_definition
class MatmulOp(IRDLOperation):
    name = "dsp.matmul"
    a, b, res = operand_def(TensorType), operand_def(TensorType), result_def(TensorType)
    assembly_format = "$a `,` $b attr-dict `:` functional-type(operands, results)"


Dsp = Dialect("dsp", [MacOp, MatmulOp])
DspTarget.dialects = lambda self: [Dsp]  # the target's dialects, loaded into every context
register_dialect(Dsp)


def reference_mac(op, x, w, y, i, j, k):
    lanes = op.lanes.value.data
    y[i, j] += np.dot(x[i, k:k + lanes], w[k:k + lanes, j])


def emit_mac(e, op):
    """Each lane's product accumulated in order, then added to y[i, j] (as the reference sums)."""
    b, float_t = e.b, ir.FloatType()
    (_, depth), (_, cols) = op.x.type.get_shape(), op.w.type.get_shape()
    at = lambda base, index: b.gep(e.v(base), [index], inbounds=True, source_etype=float_t)  # noqa: E731
    i, j, k = e.v(op.i), e.v(op.j), e.v(op.k)
    total = ir.Constant(float_t, 0.0)
    for lane in range(op.lanes.value.data):
        kl = b.add(k, ir.Constant(I64, lane))
        xv = b.load(at(op.x, b.add(b.mul(i, ir.Constant(I64, depth)), kl)), typ=float_t)
        wv = b.load(at(op.w, b.add(b.mul(kl, ir.Constant(I64, cols)), j)), typ=float_t)
        total = b.fadd(total, b.fmul(xv, wv))
    target = at(op.y, b.add(b.mul(i, ir.Constant(I64, cols)), j))
    b.store(b.fadd(b.load(target, typ=float_t), total), target)


register_op_attr("dsp.mac", "reference", reference_mac)
register_op_attr("dsp.mac", "emit", emit_mac)

if __name__ == "__main__":
    from strati.context import make_context
    from strati.source import parse_module

    text = """func.func @f(%x: memref<2x8xf32>, %w: memref<8x3xf32>, %y: memref<2x3xf32>, %c0: index) {
  dsp.mac %x, %w into %y[%c0, %c0, %c0] lanes 8 : memref<2x8xf32>, memref<8x3xf32> into memref<2x3xf32>
  func.return
}"""
    module = parse_module(make_context(), text, "ch2")
    module.verify()
    print(module)
