"""Run-time checks in compiled code: ``cf.assert`` records its message instead of aborting.

MLIR's ``cf.assert`` aborts the program when its condition is false.  A JIT must not
take the Python process down, so here a failed check stores the address of its message
in the call's *check record* (the first failure wins, atomically, so parallel tasks may
fail too), with the value the condition compared (the left operand of its ``arith.cmpi``,
through ``arith.andi``; of the first failing lane of a vector), and execution goes on;
the code that needs the check keeps its memory accesses in bounds by itself (gather
reads element 0 of a bad index).  After the call the executable reads the record and
raises ``MESSAGE (got VALUE)`` as a StratiError (``raise_recorded``).  A passing check
costs a compare and a branch predicted taken.

The record is two ``i64`` (message address, value) that each call allocates: the entry
wrapper takes its address after the results, and every function of a module with checks
passes it on as a hidden last argument (a target's parallel tasks in their context), so two
threads calling one executable never see each other's failure.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir

from strati.diagnostics import StratiError
from strati.dialects.tensor.scalar import checked_compare
from strati.registry import register_op_attr

I64 = ir.IntType(64)


def _message(emitter, text: str) -> ir.Constant:
    tr = emitter.tr
    data = bytearray(text.encode("utf-8") + b"\0")
    t = ir.ArrayType(ir.IntType(8), len(data))
    g = ir.GlobalVariable(tr.module, t, tr.module.get_unique_name("check.msg"))
    g.linkage = "private"
    g.global_constant = True
    g.initializer = ir.Constant(t, data)
    return g.ptrtoint(I64)


def _as_i64(b: ir.IRBuilder, x: ir.Value, signed: bool) -> ir.Value:
    if not isinstance(x.type, ir.IntType) or x.type.width == 64:
        return x if isinstance(x.type, ir.IntType) else ir.Constant(I64, 0)
    return (b.sext if signed else b.zext)(x, I64) if x.type.width < 64 else b.trunc(x, I64)


def emit_assert(emitter, op) -> None:
    b = emitter.b
    ok = emitter.v(op.operands[0])
    compare = checked_compare(op.operands[0])
    value = emitter.v(compare.operands[0]) if compare is not None else None
    lanes = ok.type.count if isinstance(ok.type, ir.VectorType) else None
    all_ok = ok if lanes is None else b.call(emitter.intrinsic("llvm.vector.reduce.and", ok.type, ret=ok.type.element), [ok])
    with b.if_then(b.not_(all_ok), likely=False):
        record = emitter.check_record
        message = _message(emitter, op.properties["msg"].data)
        won = b.extract_value(b.cmpxchg(record, ir.Constant(I64, 0), message, "monotonic", "monotonic"), 1)
        if value is not None:
            with b.if_then(won):
                if lanes is not None:  # the first lane that failed
                    failed = b.xor(ok, ir.Constant(ok.type, [ir.Constant(ir.IntType(1), 1)] * lanes))
                    mask = b.bitcast(failed, ir.IntType(lanes))
                    lane = b.call(emitter.intrinsic("llvm.cttz", mask.type, [mask.type, ir.IntType(1)]), [mask, ir.Constant(ir.IntType(1), 0)])
                    value = b.extract_element(value, lane)
                signed = compare.predicate.value.data < 6  # eq, ne, slt, sle, sgt, sge
                slot = b.gep(record, [ir.Constant(I64, 1)], inbounds=True, source_etype=I64)
                b.store(_as_i64(b, value, signed), slot, align=8)


def new_record() -> np.ndarray:
    """A call's check record: the message's address (0: no check failed) and the value checked."""
    return np.zeros(2, np.int64)


def raise_recorded(record: np.ndarray | None) -> None:
    """Raise the message of a check that failed during the call that used ``record``."""
    if record is None or not record[0]:
        return
    message = ctypes.string_at(int(record[0])).decode("utf-8", "replace")
    raise StratiError(f"{message} (got {int(record[1])})")


register_op_attr("cf.assert", "emit", emit_assert)
