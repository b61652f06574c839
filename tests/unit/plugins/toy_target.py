"""A toy accelerator, entirely outside strati: a matmul unit with a scratchpad ("sram").

- the ``toy`` dialect: ``toy.matmul`` (on tensors, or on buffers it writes) and ``toy.copy``
  (a DMA between main memory and the scratchpad);
- the ``toy`` target: one field, the scratchpad's size, which bounds the ``sram`` space;
- a strategy for ``graph.matmul`` (2-D f32), its ``bufferize`` rule (operands copied into the
  scratchpad, multiplied there, copied out), references for both interpreters, and ``emit``
  rules that call the simulator below, bound into the JIT as runtime symbols.
"""

import ctypes

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import MemRefType, NoneAttr, TensorType, f32
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, var_operand_def, var_result_def
from xdsl.utils.exceptions import VerifyException

from strati.codegen.llvm import I64, PTR, VOID
from strati.dialects.hw.ops import MemorySpaceAttr
from strati.dialects.hw.target import Field, Target, register_target, size_in_bytes
from strati.dialects.loop.ops import buffer_bytes
from strati.registry import register_op_attr
from strati.strategy import Strategy, register_strategy


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """``toy.matmul(a, b) -> c`` on tensors, or ``toy.matmul(a, b, c)`` writing the buffer ``c``."""

    name = "toy.matmul"
    args = var_operand_def()
    res = var_result_def()

    def verify_(self):
        types = [v.type for v in (*self.args, *self.res)]
        if len(types) != 3 or len({type(t) for t in types}) != 1 or not isinstance(types[0], (TensorType, MemRefType)):
            raise VerifyException("takes two tensors to a tensor, or writes the third of three buffers")
        (m, k), (k2, n), (m2, n2) = (t.get_shape() for t in types)
        if (k, m, n) != (k2, m2, n2):
            raise VerifyException(f"shapes {[m, k]} x {[k2, n]} -> {[m2, n2]} do not match")


@irdl_op_definition
class CopyOp(IRDLOperation):
    """``toy.copy(src, dst)``: a DMA of a whole buffer, between main memory and the scratchpad."""

    name = "toy.copy"
    src = operand_def(MemRefType)
    dst = operand_def(MemRefType)

    def verify_(self):
        if self.src.type.get_shape() != self.dst.type.get_shape():
            raise VerifyException("copies between buffers of one shape")


Toy = Dialect("toy", [MatmulOp, CopyOp])
STATS = {"macs": 0, "bytes": 0}
"""What the simulator did, for tests and profiles."""


def simulate_matmul(a, b, c, m, k, n):
    view = lambda p, *shape: np.ctypeslib.as_array(ctypes.cast(p, ctypes.POINTER(ctypes.c_float)), shape)  # noqa: E731
    view(c, m, n)[...] = view(a, m, k) @ view(b, k, n)
    STATS["macs"] += m * k * n


def simulate_copy(src, dst, size):
    ctypes.memmove(dst, src, size)
    STATS["bytes"] += size


CALLBACKS = {
    "toy_matmul": ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 3, *[ctypes.c_int64] * 3)(simulate_matmul),
    "toy_copy": ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)(simulate_copy),
}


class ToyTarget(Target):
    name = "toy"
    doc = "a matmul unit with a scratchpad (a test plug-in)"
    fields = (Field("sram_bytes", int, "scratchpad bytes", default=64 * 1024, check=size_in_bytes),)
    memory_spaces = {"sram": "sram_bytes"}

    def dialects(self):
        return [Toy]

    def runtime_symbols(self):
        return {name: ctypes.cast(f, ctypes.c_void_p).value for name, f in CALLBACKS.items()}


def is_2d_f32(op, target):
    return all(isinstance(v.type, TensorType) and len(v.type.get_shape()) == 2 and v.type.element_type == f32
               for v in (*op.operands, *op.results))


def bufferize_matmul(bufferizer, op):
    """Operands into the scratchpad, multiplied there, the product back to main memory."""
    sram = lambda t: MemRefType(t.element_type, t.get_shape(), NoneAttr(), MemorySpaceAttr("sram"))  # noqa: E731
    near = [bufferizer.alloc(sram(v.type)) for v in (*op.args, *op.res)]
    for v, buf in zip(op.args, near):
        bufferizer.emit(CopyOp.create(operands=[bufferizer.buffer(v), buf]))
    bufferizer.emit(MatmulOp.create(operands=near))
    bufferizer.emit(CopyOp.create(operands=[near[2], bufferizer.result_buffer(op.res[0])]))


def emit_matmul(e, op):
    (m, k), (_, n) = (v.type.get_shape() for v in op.args[:2])
    fn = e.tr.declare("toy_matmul", VOID, [PTR, PTR, PTR, I64, I64, I64])
    e.b.call(fn, [*(e.v(v) for v in op.args), *(ir.Constant(I64, d) for d in (m, k, n))])


def emit_copy(e, op):
    fn = e.tr.declare("toy_copy", VOID, [PTR, PTR, I64])
    e.b.call(fn, [e.v(op.src), e.v(op.dst), ir.Constant(I64, buffer_bytes(op.src.type))])


def reference_matmul(op, a, b, c=None):
    if c is None:
        return a @ b
    c[...] = a @ b


def reference_copy(op, src, dst):
    dst[...] = src


register_target(ToyTarget())
register_strategy(Strategy("toy_matmul", "graph.matmul", "toy", lambda op, b, t: b.insert(
    MatmulOp.create(operands=list(op.operands), result_types=[op.results[0].type])).results[0],
    cost=lambda op, t: 1.0, applies=is_2d_f32, doc="the matmul unit"))
for key, value in [("bufferize", bufferize_matmul), ("reference", reference_matmul),
                   ("emit", emit_matmul)]:
    register_op_attr("toy.matmul", key, value)
register_op_attr("toy.copy", "reference", reference_copy)
register_op_attr("toy.copy", "emit", emit_copy)
