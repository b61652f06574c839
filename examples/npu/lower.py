"""From graph to the NPU: strategies for (q)matmul and (q)conv2d choose the tiling
(``npu.matmul``), its ``bufferize`` rule writes the tiled program, and every buffer op is
emitted as a call into the simulator.  Per output tile (i, j) and reduction step k::

    pop store->compute; alu set 0 on acc[s]   (or dma_load init, after pop store->load)
    for k: pop compute->load; dma_load A, B into inp/wgt[slot]; push load->compute
           pop load->compute; gemm; push compute->load
    [alu shift, clip]; push compute->store; pop compute->store; dma_store acc[s]; push store->compute

The prologue pushes one free-slot token per slot and the epilogue pops them back, so the
load of step k+1 overlaps the GEMM of step k whenever ``S`` is 2.
"""

import llvmlite.ir as ir
from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerAttr, MemRefType, NoneAttr, StringAttr, TensorType, f32, i8, i32, i64
from xdsl.ir.affine import AffineMap

from strati.codegen.llvm import I64, PTR, VOID
from strati.dialects.graph.attrs.nn import conv_params
from strati.dialects.graph.lowering.nn import conv_patches
from strati.dialects.hw.ops import MemorySpaceAttr
from strati.dialects.hw.target import get_target
from strati.dialects.tensor.build import dims
from strati.dialects.tensor.ops import PARALLEL
from strati.registry import register_op_attr
from strati.strategy import Strategy, register_strategy

from .ops import AluOp, DmaLoadOp, DmaStoreOp, GemmOp, MatmulOp, SyncOp, description
from .simulator import SIMULATOR
from .target import ELEMENT_BYTES

DTYPES = {"int8": i8, "f32": f32}


def tiling(desc):
    """Slots per scratchpad (inp/wgt, acc): two where two tiles fit, for double buffering."""
    (m, k, n), sizes = desc["tile"], ELEMENT_BYTES[desc["dtype"]]
    two = lambda space, elems, size: 2 if 2 * elems * size <= desc[f"{space}_bytes"] else 1  # noqa: E731
    return min(two("inp", m * k, sizes[0]), two("wgt", k * n, sizes[1])), two("acc", m * n, sizes[2])


def matmul_applies(op, desc):
    types = [v.type for v in (*op.operands, *op.results)]
    return all(isinstance(t, TensorType) and len(t.get_shape()) == 2 and t.element_type == DTYPES[desc["dtype"]]
               for t in types)


def cycles(m, k, n, desc):
    """GEMM cycles: tiles times a tile's rows (the loads overlap when double buffered)."""
    tm, tk, tn = desc["tile"]
    return float(-(-m // tm) * -(-k // tk) * -(-n // tn) * tm)


def npu_matmul(op, b, desc, a, w, init=None):
    """``npu.matmul`` tiled for ``desc``; a quantised op's ``shift`` requantises on the ALU."""
    props = {"tile": DenseArrayBase.from_list(i64, list(desc["tile"])), "slots": DenseArrayBase.from_list(i64, list(tiling(desc)))}
    if op.name.startswith("graph.q"):
        props["shift"] = IntegerAttr(op.param("shift"), i64)
    m, n = a.type.get_shape()[0], w.type.get_shape()[1]
    return b.insert(MatmulOp.create(operands=[a, w, *([init] if init else [])], properties=props,
                                    result_types=[TensorType(op.results[0].type.element_type, [m, n])])).results[0]


def lower_matmul(op, b, desc):
    return npu_matmul(op, b, desc, *op.operands)


def bufferize_matmul(bz, op):
    (m, k, n), (slots, acc_slots) = op.tile.get_values(), op.slots.get_values()
    a, b, c = bz.buffer(op.a), bz.buffer(op.b), bz.result_buffer(op.res)
    init = bz.buffer(op.init) if op.init is not None else None
    starter = "load" if init is not None else "compute"  # who writes the accumulators first
    element = a.type.element_type
    accumulator = i32 if element == i8 else f32
    space = lambda t, shape, s: bz.alloc(MemRefType(t, shape, NoneAttr(), MemorySpaceAttr(s)))  # noqa: E731
    inp, wgt, acc = space(element, [slots, m, k], "inp"), space(element, [slots, k, n], "wgt"), space(accumulator, [acc_slots, m, n], "acc")
    (rows, depth), cols = a.type.get_shape(), b.type.get_shape()[1]
    tiles_i, tiles_j, tiles_k = -(-rows // m), -(-cols // n), -(-depth // k)

    def sync(mode, source, dest):
        bz.emit(SyncOp.create(properties={"mode": StringAttr(mode), "source": StringAttr(source), "dest": StringAttr(dest)}))

    def op2(cls, x, y):
        return bz.emit(cls(x, y if not isinstance(y, int) else bz.index(y))).results[0]

    for _ in range(slots):
        sync("push", "compute", "load")
    for _ in range(acc_slots):
        sync("push", "store", starter)

    def alu(kind, slot, *imm):
        bz.emit(AluOp.create(operands=[acc, slot], properties={"kind": StringAttr(kind), "imm": DenseArrayBase.from_list(i64, list(imm)),
                                                             "operandSegmentSizes": DenseArrayBase.from_list(i32, [1, 1, 0, 0])}))

    def tile(ivs):
        i, j = ivs
        ij = op2(arith.AddiOp, op2(arith.MuliOp, i, tiles_j), j)
        s = op2(arith.RemUIOp, ij, acc_slots)
        sync("pop", "store", starter)
        if init is None:
            alu("set", s, 0)
        else:
            bz.emit(DmaLoadOp(operands=[init, op2(arith.MuliOp, i, m), op2(arith.MuliOp, j, n), acc, s]))

        def step(kv):
            t = op2(arith.RemUIOp, op2(arith.AddiOp, op2(arith.MuliOp, ij, tiles_k), kv[0]), slots)
            sync("pop", "compute", "load")
            bz.emit(DmaLoadOp(operands=[a, op2(arith.MuliOp, i, m), op2(arith.MuliOp, kv[0], k), inp, t]))
            bz.emit(DmaLoadOp(operands=[b, op2(arith.MuliOp, kv[0], k), op2(arith.MuliOp, j, n), wgt, t]))
            sync("push", "load", "compute")
            sync("pop", "load", "compute")
            bz.emit(GemmOp(operands=[inp, t, wgt, t, acc, s]))
            sync("push", "compute", "load")

        bz.loops([tiles_k], [False], step)
        if op.shift is not None:
            alu("shift", s, op.shift.value.data)
            alu("clip", s, -128, 127)
        sync("push", "compute", "store")
        sync("pop", "compute", "store")
        bz.emit(DmaStoreOp(operands=[acc, s, c, op2(arith.MuliOp, i, m), op2(arith.MuliOp, j, n)]))
        sync("push", "store", starter)

    bz.loops([tiles_i, tiles_j], [False, False], tile)
    for _ in range(slots):
        sync("pop", "compute", "load")
    for _ in range(acc_slots):
        sync("pop", "store", starter)


def conv_applies(op, desc):
    """One image, one group, static shapes, the target's dtype: an im2col matmul on the NPU."""
    types = [v.type for v in (*op.operands, *op.results)]
    return (all(isinstance(t, TensorType) and DYNAMIC_INDEX not in t.get_shape() for t in types) and conv_params(op)[3] == 1
            and types[0].get_shape()[0] == 1 and types[0].element_type == DTYPES[desc["dtype"]])


def conv_matmul(op):
    """The convolution's matmul: weights (oc x ic*kh*kw) by patches (ic*kh*kw x oh*ow)."""
    (o, c, kh, kw), (_, _, oh, ow) = op.operands[1].type.get_shape(), op.results[0].type.get_shape()
    return o, c * kh * kw, oh * ow


def lower_conv(op, b, desc):
    """The patches gathered on the host (im2col), the bias broadcast there into the initial
    accumulators, the product on the NPU."""
    o, r, p = conv_matmul(op)
    init = None
    if len(op.operands) == 3:
        bias = op.operands[2]
        (init,) = b.generic([bias], [b.empty(TensorType(bias.type.element_type, [o, p]))],
                            [AffineMap(2, 0, (dims(2)[0],)), AffineMap.identity(2)], [PARALLEL] * 2, lambda v, _: v)
    y = npu_matmul(op, b, desc, b.reshape(op.operands[1], (o, r)), b.reshape(conv_patches(op, b), (r, p)), init)
    return b.reshape(y, op.results[0].type.get_shape())


def emit_npu(e, op):
    """``npu_exec(id, buffers..., indices...)``: the simulator finds the op by its id."""
    ident = SIMULATOR.add(op, description(op) or get_target("npu").describe())
    pointers = [e.v(v) for v in op.operands if isinstance(v.type, MemRefType)]
    ints = [e.v(v) for v in op.operands if not isinstance(v.type, MemRefType)]
    fn = e.tr.declare("npu_exec", VOID, [I64, PTR, PTR, PTR, I64, I64, I64, I64])
    e.b.call(fn, [ir.Constant(I64, ident), *pointers, *[ir.Constant(PTR, None)] * (3 - len(pointers)),
                  *ints, *[ir.Constant(I64, 0)] * (4 - len(ints))])


for _op in ("graph.matmul", "graph.qmatmul"):
    register_strategy(Strategy("npu_gemm", _op, "npu", lower_matmul, applies=matmul_applies, doc="tiled, double buffered",
                               cost=lambda op, desc: cycles(*op.operands[0].type.get_shape(), op.operands[1].type.get_shape()[1], desc)))
for _op in ("graph.conv2d", "graph.qconv2d"):
    register_strategy(Strategy("npu_im2col", _op, "npu", lower_conv, applies=conv_applies, doc="patches from the host",
                               cost=lambda op, desc: cycles(*conv_matmul(op), desc)))
register_op_attr("npu.matmul", "bufferize", bufferize_matmul)
for _name in ("dma_load", "dma_store", "gemm", "alu", "sync"):
    register_op_attr(f"npu.{_name}", "emit", emit_npu)
