"""Run-time checks in compiled code: ``cf.assert`` records its message instead of aborting.

MLIR's ``cf.assert`` aborts the program when its condition is false.  A JIT must not
take the Python process down, so here a failed check stores the address of its
message in the module's error slot (the first failure wins, atomically, so parallel
tasks may fail too) and execution goes on; the code that needs the check keeps its
memory accesses in bounds by itself (gather reads element 0 of a bad index).  After
the call the executable reads the slot and raises the message as a StratiError
(``raise_recorded``).  A passing check costs a compare and a branch predicted taken.

The slot is one ``i64`` the executable owns, bound by name like the large constants
(``<prefix>.check_failed`` among ``Translation.external_data``); without it (LLVM IR printed for reading) the symbol
stays an external declaration.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir

from strati.diagnostics import StratiError
from strati.registry import register_op_attr

I64 = ir.IntType(64)
SLOT = ".check_failed"


def _slot(emitter) -> ir.GlobalVariable:
    tr = emitter.tr
    name = f"{tr.symbol_prefix}{SLOT}"
    found = tr.module.globals.get(name)
    if found is None:
        found = ir.GlobalVariable(tr.module, I64, name)  # external: bound to the executable's array
        tr.translation.external_data[name] = np.zeros(1, np.int64).view(np.uint8)  # 8-byte aligned
    return found


def _message(emitter, text: str) -> ir.Constant:
    tr = emitter.tr
    data = bytearray(text.encode("utf-8") + b"\0")
    t = ir.ArrayType(ir.IntType(8), len(data))
    g = ir.GlobalVariable(tr.module, t, tr.module.get_unique_name("check.msg"))
    g.linkage = "private"
    g.global_constant = True
    g.initializer = ir.Constant(t, data)
    return g.ptrtoint(I64)


def emit_assert(emitter, op) -> None:
    ok = emitter.v(op.operands[0])
    if isinstance(ok.type, ir.VectorType):
        ok = emitter.b.call(emitter.intrinsic("llvm.vector.reduce.and", ok.type, ret=ok.type.element), [ok])
    with emitter.b.if_then(emitter.b.not_(ok), likely=False):
        slot = _slot(emitter)
        emitter.b.cmpxchg(slot, ir.Constant(I64, 0), _message(emitter, op.properties["msg"].data), "monotonic", "monotonic")


def error_slot(external_data: dict[str, np.ndarray]) -> np.ndarray | None:
    """The error slot among a translation's external data (None: the module has no checks)."""
    return next((a for name, a in external_data.items() if name.endswith(SLOT)), None)


def raise_recorded(slot: np.ndarray | None) -> None:
    """Raise (and clear) the message of a check that failed during the last call."""
    if slot is None:
        return
    address = int(slot.view(np.int64)[0])
    if address:
        slot[:] = 0
        raise StratiError(ctypes.string_at(address).decode("utf-8", "replace"))


register_op_attr("cf.assert", "emit", emit_assert)
