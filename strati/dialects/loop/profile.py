"""Counters around the work of a function: ``loop.profile_begin N`` and ``loop.profile_end N``.

``profile-kernels`` (:mod:`strati.transforms.profile_kernels`) puts a pair around each kernel
call and loop nest of a public function, and one around the whole body, and names counter
``N`` in the module's ``strati.profile`` list of labels::

    loop.profile_begin 3
    func.call @kernel_2(%x, %w, %y) : (...) -> ()
    loop.profile_end 3

In the generated code, ``begin`` reads the CPU's cycle counter (``llvm.readcyclecounter``:
``rdtsc`` on x86) into the counter's start slot; ``end`` reads it again and adds the cycles
since then, and one call, to the counter.  The counters are one array of ``3 x N`` i64
(start, cycles, calls) that the executable owns and reads
(:meth:`strati.runtime.jit.Executable.profile`); two threads calling one executable at once
mix their starts.  The interpreters skip both ops.
"""

from __future__ import annotations

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, i64
from xdsl.ir import Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from strati.registry import register_op_attr

LABELS_ATTR = "strati.profile"
"""On the module: the label of each counter (a list of strings, counter ``N`` the ``N``-th)."""
COUNTERS_SYMBOL = "strati.profile.counters"
"""The counters' global in the generated code (after the module's symbol prefix)."""
SLOTS = 3
"""Per counter: the cycle count at the last begin, the cycles summed, the calls."""
WHOLE_CALL = "(the whole call)"
"""The end of the label of a function's own counter (around its whole body)."""


class _ProfileOp(IRDLOperation):
    counter = prop_def(IntegerAttr)

    def __init__(self, counter: int):
        super().__init__(properties={"counter": IntegerAttr(counter, i64)})

    @classmethod
    def parse(cls, parser: Parser) -> _ProfileOp:
        op = cls(parser.parse_integer(allow_boolean=False, allow_negative=False))
        attrs = parser.parse_optional_attr_dict()
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.counter.value.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        labels = profile_labels(self)
        n = self.counter.value.data
        if labels is not None and not 0 <= n < len(labels):
            raise VerifyException(f"counter {n} is not one of the module's {len(labels)} ({LABELS_ATTR})")


@irdl_op_definition
class ProfileBeginOp(_ProfileOp):
    """Start counter N: the cycle counter now."""

    name = "loop.profile_begin"


@irdl_op_definition
class ProfileEndOp(_ProfileOp):
    """Stop counter N: the cycles since its begin, and one call, added to it."""

    name = "loop.profile_end"


PROFILE_OPS = [ProfileBeginOp, ProfileEndOp]


def profile_labels(op: Operation) -> list[str] | None:
    """The labels of the module ``op`` is in (None: it has none, or is in no module)."""
    module = op
    while module.parent_op() is not None:
        module = module.parent_op()
    attr = module.attributes.get(LABELS_ATTR)
    if not isinstance(attr, ArrayAttr):
        return None
    return [a.data for a in attr.data if isinstance(a, StringAttr)]


# --- code generation (strati.codegen.llvm's emitter) ---------------------------------------


def counters(emitter) -> ir.GlobalVariable:
    """The module's counter array: an external global over an array the executable keeps
    (``Translation.external_data``), made on the first use."""
    tr = emitter.tr
    symbol = tr.symbol_prefix + COUNTERS_SYMBOL
    if symbol not in tr.translation.external_data:
        labels = profile_labels(emitter.op) or []
        array = np.zeros(SLOTS * max(1, len(labels)), dtype=np.int64)
        tr.translation.external_data[symbol] = array
        g = ir.GlobalVariable(tr.module, ir.ArrayType(ir.IntType(64), array.size), symbol)
        g.linkage = "external"
        g.align = 8
        g.type = ir.PointerType()
    return tr.module.get_global(symbol)


def _slot(emitter, op: _ProfileOp, k: int) -> ir.Value:
    i64t = ir.IntType(64)
    index = ir.Constant(i64t, SLOTS * op.counter.value.data + k)
    return emitter.b.gep(counters(emitter), [index], inbounds=True, source_etype=i64t)


def _now(emitter) -> ir.Value:
    return emitter.b.call(emitter.tr.declare("llvm.readcyclecounter", ir.IntType(64), []), [])


def emit_begin(emitter, op: ProfileBeginOp) -> None:
    emitter.b.store(_now(emitter), _slot(emitter, op, 0), align=8)


def emit_end(emitter, op: ProfileEndOp) -> None:
    b, i64t = emitter.b, ir.IntType(64)
    now = _now(emitter)
    start = b.load(_slot(emitter, op, 0), typ=i64t, align=8)
    cycles, calls = _slot(emitter, op, 1), _slot(emitter, op, 2)
    b.store(b.add(b.load(cycles, typ=i64t, align=8), b.sub(now, start)), cycles, align=8)
    b.store(b.add(b.load(calls, typ=i64t, align=8), ir.Constant(i64t, 1)), calls, align=8)


for _op, _emit in ((ProfileBeginOp, emit_begin), (ProfileEndOp, emit_end)):
    register_op_attr(_op.name, "emit", _emit)
    register_op_attr(_op.name, "reference", lambda op: None)  # the interpreters measure nothing

__all__ = ["COUNTERS_SYMBOL", "LABELS_ATTR", "PROFILE_OPS", "SLOTS", "WHOLE_CALL", "ProfileBeginOp", "ProfileEndOp", "profile_labels"]
