"""The ``npu`` dialect: DMA between DRAM and three scratchpads, a GEMM core on tiles, an ALU
on the accumulator and token queues between the load, compute and store units.

A scratchpad buffer is ``memref<S x R x C x T, #hw.space<"inp"|"wgt"|"acc">>``: ``S`` slots of
one tile each (two for double buffering); every op names its slot with an index operand.
``npu.matmul`` is the tensor-level op a strategy makes of ``graph.matmul``; it bufferizes into
the tiled program (:mod:`.lower`).  Each op's ``reference`` defines its semantics: the loop
interpreter runs it, and the simulator runs the very same function on the JIT's buffers.
"""

import numpy as np
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, MemRefType, ModuleOp, StringAttr, TensorType, f32, i8, i32, i64
from xdsl.ir import Dialect
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
                       opt_prop_def, prop_def, result_def)
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.quant import requantize
from strati.dialects.hw.ops import memory_space, module_target
from strati.registry import register_op_attr

Index = IndexType()
QUEUES = ("load", "compute", "store")
ALU_IMMEDIATES = {"set": 1, "add": 0, "max": 1, "shift": 1, "clip": 2}
"""ALU kinds and their immediates: set to v, add a tile, max with v (relu: 0), arithmetic
right shift by v rounding half to even (requantisation), clip to [lo, hi]."""


def description(op):
    """The npu description of the module around ``op``, or None (ops are checked against it)."""
    while op is not None and not isinstance(op, ModuleOp):
        op = op.parent_op()
    attr = module_target(op) if op is not None else None
    return attr if attr is not None and attr.target_name == "npu" else None


def tile_of(t, space):
    """The tile shape of a scratchpad buffer in ``space``, after checking its type."""
    if memory_space(t) != space or len(t.get_shape()) != 3:
        raise VerifyException(f"expects a slots x rows x cols buffer in #hw.space<\"{space}\">, got {t}")
    return tuple(t.get_shape()[1:])


def check_capacity(op, *types):
    desc = description(op)
    for t in types if desc is not None else ():
        space = memory_space(t)
        need = int(np.prod(t.get_shape())) * t.element_type.bitwidth // 8
        if need > desc[f"{space}_bytes"]:
            raise VerifyException(f"a {t} buffer needs {need} bytes, more than {space}_bytes {desc[f'{space}_bytes']}")


@irdl_op_definition
class DmaLoadOp(IRDLOperation):
    """Copy the tile at (row, col) of a DRAM matrix into a scratchpad slot, zero beyond its edges."""

    name = "npu.dma_load"
    src = operand_def(MemRefType)
    row = operand_def(Index)
    col = operand_def(Index)
    dst = operand_def(MemRefType)
    slot = operand_def(Index)
    assembly_format = "$src `[` $row `,` $col `]` `to` $dst `[` $slot `]` attr-dict `:` type($src) `to` type($dst)"

    def verify_(self):
        if memory_space(self.src.type) is not None or len(self.src.type.get_shape()) != 2:
            raise VerifyException(f"loads from a 2-D buffer in DRAM, got {self.src.type}")
        if memory_space(self.dst.type) not in ("inp", "wgt", "acc"):
            raise VerifyException(f"loads into a scratchpad (inp, wgt or acc), got {self.dst.type}")
        tile_of(self.dst.type, memory_space(self.dst.type))
        if self.src.type.element_type != self.dst.type.element_type:
            raise VerifyException("loads without conversion: the element types must be equal")
        check_capacity(self, self.dst.type)


@irdl_op_definition
class DmaStoreOp(IRDLOperation):
    """Copy an accumulator slot to the tile at (row, col) of a DRAM matrix, clipped to its edges,
    narrowing int32 to int8 (two's complement) when the matrix is int8."""

    name = "npu.dma_store"
    src = operand_def(MemRefType)
    slot = operand_def(Index)
    dst = operand_def(MemRefType)
    row = operand_def(Index)
    col = operand_def(Index)
    assembly_format = "$src `[` $slot `]` `to` $dst `[` $row `,` $col `]` attr-dict `:` type($src) `to` type($dst)"

    def verify_(self):
        tile_of(self.src.type, "acc")
        if memory_space(self.dst.type) is not None or len(self.dst.type.get_shape()) != 2:
            raise VerifyException(f"stores to a 2-D buffer in DRAM, got {self.dst.type}")
        pair = (self.src.type.element_type, self.dst.type.element_type)
        if pair[0] != pair[1] and pair != (i32, i8):
            raise VerifyException(f"stores {pair[0]} as {pair[0]} or i32 as i8, not as {pair[1]}")
        check_capacity(self, self.src.type)


@irdl_op_definition
class GemmOp(IRDLOperation):
    """acc[c] += inp[a] @ wgt[b] on one tile: i8 x i8 into i32, or f32."""

    name = "npu.gemm"
    inp = operand_def(MemRefType)
    inp_slot = operand_def(Index)
    wgt = operand_def(MemRefType)
    wgt_slot = operand_def(Index)
    acc = operand_def(MemRefType)
    acc_slot = operand_def(Index)
    assembly_format = ("$inp `[` $inp_slot `]` `,` $wgt `[` $wgt_slot `]` `into` $acc `[` $acc_slot `]` attr-dict "
                       "`:` type($inp) `,` type($wgt) `into` type($acc)")

    def verify_(self):
        (m, k), (k2, n), (m2, n2) = (tile_of(v.type, s) for v, s in ((self.inp, "inp"), (self.wgt, "wgt"), (self.acc, "acc")))
        if (k, m, n) != (k2, m2, n2):
            raise VerifyException(f"tiles {m}x{k} x {k2}x{n} -> {m2}x{n2} do not match")
        types = tuple(v.type.element_type for v in (self.inp, self.wgt, self.acc))
        if types not in ((i8, i8, i32), (f32, f32, f32)):
            raise VerifyException(f"multiplies i8 x i8 into i32 or f32 x f32 into f32, not {' x '.join(map(str, types))}")
        desc = description(self)
        if desc is not None and (m, k, n) != desc["tile"]:
            raise VerifyException(f"the tile is {m}x{k}x{n}, the GEMM core's is {'x'.join(map(str, desc['tile']))}")
        check_capacity(self, self.inp.type, self.wgt.type, self.acc.type)


@irdl_op_definition
class AluOp(IRDLOperation):
    """An elementwise op on an accumulator slot: ``set``, ``max``, ``shift``, ``clip`` with
    immediates, or ``add`` of another accumulator slot."""

    name = "npu.alu"
    kind = prop_def(StringAttr)
    acc = operand_def(MemRefType)
    slot = operand_def(Index)
    rhs = opt_operand_def(MemRefType)
    rhs_slot = opt_operand_def(Index)
    imm = prop_def(DenseArrayBase.constr(i64), DenseArrayBase.from_list(i64, []))
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = ("$kind $acc `[` $slot `]` (`,` $rhs^ `[` $rhs_slot `]`)? (`imm` $imm^)? attr-dict "
                       "`:` type($acc) (`,` type($rhs)^)?")

    def verify_(self):
        kind, imm = self.kind.data, self.imm.get_values()
        if kind not in ALU_IMMEDIATES:
            raise VerifyException(f"unknown ALU op '{kind}' (ops: {', '.join(ALU_IMMEDIATES)})")
        if len(imm) != ALU_IMMEDIATES[kind] or (self.rhs is None) != (kind != "add") or (self.rhs is None) != (self.rhs_slot is None):
            want = "another accumulator slot" if kind == "add" else f"{ALU_IMMEDIATES[kind]} immediates"
            raise VerifyException(f"'{kind}' takes {want}")
        for v in (self.acc, self.rhs) if self.rhs is not None else (self.acc,):
            tile_of(v.type, "acc")
        if self.rhs is not None and self.rhs.type.element_type != self.acc.type.element_type:
            raise VerifyException("adds tiles of one element type")
        if kind == "shift" and self.acc.type.element_type != i32:
            raise VerifyException("shifts only i32 accumulators")
        check_capacity(self, self.acc.type)


@irdl_op_definition
class SyncOp(IRDLOperation):
    """``push`` a token from one queue to another (its work so far is done), or ``pop`` one
    (wait for it): the dependences between the load, compute and store queues."""

    name = "npu.sync"
    mode = prop_def(StringAttr)
    source = prop_def(StringAttr)
    dest = prop_def(StringAttr)
    assembly_format = "$mode $source `to` $dest attr-dict"

    def verify_(self):
        if self.mode.data not in ("push", "pop"):
            raise VerifyException(f"a sync is a push or a pop, not '{self.mode.data}'")
        for q in (self.source.data, self.dest.data):
            if q not in QUEUES:
                raise VerifyException(f"unknown queue '{q}' (queues: {', '.join(QUEUES)})")
        if self.source.data == self.dest.data:
            raise VerifyException("a sync joins two different queues")


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """``npu.matmul(a, b[, init])`` on 2-D tensors, as tiled for the scratchpads: ``tile`` (m, k, n),
    ``slots`` per input/weight and accumulator scratchpad (2: double buffering); ``init`` starts
    the accumulators (a bias), ``shift`` requantises them to int8 (else int8 wraps)."""

    name = "npu.matmul"
    a = operand_def(TensorType)
    b = operand_def(TensorType)
    init = opt_operand_def(TensorType)
    res = result_def(TensorType)
    tile = prop_def(DenseArrayBase.constr(i64))
    slots = prop_def(DenseArrayBase.constr(i64))
    shift = opt_prop_def(IntegerAttr[i64])
    assembly_format = ("$a `,` $b (`init` $init^)? `tile` $tile `slots` $slots (`shift` $shift^)? attr-dict "
                       "`:` functional-type(operands, results)")

    def verify_(self):
        (m, k), (k2, n), (m2, n2) = (v.type.get_shape() for v in (self.a, self.b, self.res))
        if (k, m, n) != (k2, m2, n2) or (self.init is not None and self.init.type.get_shape() != (m, n)):
            raise VerifyException(f"shapes {[m, k]} x {[k2, n]} -> {[m2, n2]} do not match")


Npu = Dialect("npu", [DmaLoadOp, DmaStoreOp, GemmOp, AluOp, SyncOp, MatmulOp])


# --- references: the semantics, for the loop interpreter and the simulator -----------------------


def ref_dma_load(op, src, row, col, dst, slot):
    r, c = src[row:row + dst.shape[1], col:col + dst.shape[2]].shape
    dst[slot] = 0
    dst[slot, :r, :c] = src[row:row + r, col:col + c]


def ref_dma_store(op, src, slot, dst, row, col):
    r, c = dst[row:row + src.shape[1], col:col + src.shape[2]].shape
    dst[row:row + r, col:col + c] = src[slot, :r, :c].astype(dst.dtype)


def ref_gemm(op, inp, a, wgt, b, acc, c):
    acc[c] += np.matmul(inp[a].astype(acc.dtype), wgt[b].astype(acc.dtype))


def ref_alu(op, acc, slot, rhs=None, rhs_slot=None):
    kind, imm, tile = op.kind.data, op.imm.get_values(), acc[slot]
    if kind == "set":
        tile[...] = imm[0]
    elif kind == "add":
        tile += rhs[rhs_slot]
    elif kind == "max":
        np.maximum(tile, acc.dtype.type(imm[0]), out=tile)
    elif kind == "shift":  # rounding half to even, exactly
        tile[...] = np.rint(tile * 2.0 ** -imm[0])
    else:
        np.clip(tile, imm[0], imm[1], out=tile)


def ref_matmul(op, a, b, init=None):
    acc = np.matmul(a.astype(np.float32 if a.dtype.kind == "f" else np.int32), b) + (0 if init is None else init)
    return acc.astype(a.dtype) if op.shift is None else requantize(acc, op.shift.value.data)


for _op, _ref in (("dma_load", ref_dma_load), ("dma_store", ref_dma_store), ("gemm", ref_gemm), ("alu", ref_alu),
                  ("sync", lambda op: None), ("matmul", ref_matmul)):
    register_op_attr(f"npu.{_op}", "reference", _ref)
