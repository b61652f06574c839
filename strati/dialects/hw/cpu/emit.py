"""How the CPU's ops become LLVM IR: the ``emit`` attributes of ``cpu.parallel`` and ``cpu.yield``.

``cpu.parallel %i = %lb to %ub step %s`` is outlined: its body becomes ``internal void
@f.parallelN(ptr %ctx, i64 %begin, i64 %end)``, which runs the iterations ``begin <= k <
end`` (``i = lb + k*s``), with the values it uses from above packed in a context struct
on the caller's stack (constants and globals are rematerialised inside, not captured;
captured buffers that are the only view of their allocation stay ``noalias``, through an
inner function LLVM inlines).  The caller calls ``strati_parallel_for(ptr @f.parallelN,
ptr %ctx, i64 n)``, declared external, which the JIT binds to the thread pool
(:mod:`strati.dialects.hw.cpu.threadpool`, through the target's ``runtime_symbols``).
"""

from __future__ import annotations

import llvmlite.ir as ir
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from strati.codegen.llvm import I32, I64, PTR, VOID, CodegenError, FunctionEmitter, ModuleTranslator, element_size_ir, llvm_name, value_type
from strati.dialects.hw.cpu.threadpool import SYMBOL
from strati.dialects.loop.ops import buffer_root


def emit_parallel(e: FunctionEmitter, op: Operation) -> None:
    """``cpu.parallel``: outline the body as a task and hand it to the runtime's thread pool."""
    captured = captured_values(op)
    lb, ub, step = (e.v(x) for x in op.operands)
    tr = e.tr
    base = tr.unique_name(f"{e.fn.name}.parallel")
    types = [value_type(v.type, op) for v in captured]
    record = [PTR] if e.check_record is not None else []  # the call's check record, passed on
    # The body, with the captured values as arguments (noalias where they are the only view of their buffer).
    body_fn = ir.Function(tr.module, ir.FunctionType(VOID, [*types, I64, I64, I64, I64, *record]), f"{base}.body")
    body_fn.linkage = "internal"
    body_fn.attributes.add("nounwind")
    roots = [buffer_root(v) for v in captured]
    for arg, v, root in zip(body_fn.args, captured, roots):
        arg.name = llvm_name(v.name_hint)
        if isinstance(v.type, MemRefType) and root is not None and roots.count(root) == 1:
            arg.add_attribute("noalias")
    TaskEmitter(tr, e.op, body_fn, captured).emit_task(op)
    # The task: unpack the context, run the body on [begin, end).
    task = ir.Function(tr.module, ir.FunctionType(VOID, [PTR, I64, I64]), base)
    task.linkage = "internal"
    task.attributes.add("nounwind")
    ctx_arg, begin, end = task.args
    ctx_arg.name, begin.name, end.name = "ctx", "begin", "end"
    tb = ir.IRBuilder(task.append_basic_block("entry"))
    struct = ir.LiteralStructType([*types, I64, I64, *record])
    fields = []
    for k, t in enumerate([*types, I64, I64, *record]):
        slot = tb.gep(ctx_arg, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True, source_etype=struct)
        fields.append(tb.load(slot, typ=t, align=element_size_ir(t)))
    head = len(types) + 2  # the captured values, lb and step
    tb.call(body_fn, [*fields[:head], begin, end, *fields[head:]])
    tb.ret_void()
    # The caller: pack the context (captured values, lb, step), count the iterations, call the runtime.
    ctx = e.allocas.alloca(struct, name=f"{base}.ctx")
    ctx.type = PTR  # llvmlite types it {...}*; the IR is in opaque pointers
    for k, value in enumerate([*(e.v(v) for v in captured), lb, step, *([e.check_record] if record else [])]):
        slot = e.b.gep(ctx, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True, source_etype=struct)
        e.b.store(value, slot, align=element_size_ir(value.type))
    span = e.b.sub(ub, lb, flags=("nsw",))
    n = e.b.sdiv(e.b.add(span, e.b.sub(step, ir.Constant(I64, 1)), flags=("nsw",)), step, name=f"{base}.n")
    runtime = tr.declare(SYMBOL, VOID, [PTR, PTR, I64])
    e.b.call(runtime, [ir.FormattedConstant(PTR, task.get_reference()), ctx, n])


REMATERIALIZED = ("arith.constant", "memref.get_global")
"""Ops a task recomputes instead of capturing their value (constants keep the task's loops known)."""


def captured_values(op: Operation) -> list[SSAValue]:
    """The values defined outside ``op`` that its regions use, in first-use order (not constants)."""
    seen: dict[SSAValue, None] = {}
    inner: set[SSAValue] = set()
    for nested in op.walk():
        inner.update(nested.results)
        for region in nested.regions:
            for block in region.blocks:
                inner.update(block.args)
    for nested in op.walk():
        if nested is op:
            continue
        for v in nested.operands:
            if v in inner or v in seen:
                continue
            owner = v.owner
            if isinstance(owner, Operation) and owner.name in REMATERIALIZED:
                continue
            seen[v] = None
    return list(seen)


class TaskEmitter(FunctionEmitter):
    """Emits the body of a ``cpu.parallel`` into its own function: ``(captured..., lb, step, begin, end)``."""

    def __init__(self, translator: ModuleTranslator, op: func.FuncOp, fn: ir.Function, captured: list[SSAValue]):
        super().__init__(translator, op, fn)
        for value, arg in zip(captured, fn.args):
            self.values[value] = arg
        self.captured = captured

    def v(self, value: SSAValue) -> ir.Value:
        found = self.values.get(value)
        if found is not None:
            return found
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in REMATERIALIZED:
            # A constant or a global defined outside the task: recomputed in the entry block.
            saved = self.b
            self.b = self.allocas
            try:
                self.emit_op(owner)
            finally:
                self.b = saved
            return self.values[value]
        raise CodegenError("a value used by cpu.parallel was not captured", owner if isinstance(owner, Operation) else None)

    def emit_task(self, op: Operation) -> None:
        n = len(self.captured)
        lb, step, begin, end = self.fn.args[n : n + 4]
        lb.name, step.name, begin.name, end.name = "lb", "step", "begin", "end"
        iv_value = op.body.block.args[0]
        label = llvm_name(iv_value.name_hint) or "i"
        before = self.b.block
        header = self.fn.append_basic_block(f"{label}.task.header")
        body = self.fn.append_basic_block(f"{label}.task.body")
        exit_block = ir.Block(parent=self.fn, name=f"{label}.task.exit")
        self.b.branch(header)
        self.b.position_at_end(header)
        k = self.b.phi(I64, name=f"{label}.k")
        k.add_incoming(begin, before)
        self.b.cbranch(self.b.icmp_signed("<", k, end), body, exit_block)
        self.b.position_at_end(body)
        self.values[iv_value] = self.b.add(lb, self.b.mul(k, step, flags=("nsw",)), name=label, flags=("nsw",))
        self.depth += 1
        self.emit_block(op.body.block)
        self.depth -= 1
        k.add_incoming(self.b.add(k, ir.Constant(I64, 1), name=f"{label}.k.next", flags=("nsw",)), self.b.block)
        self.b.branch(header)
        self.fn.blocks.append(exit_block)
        self.b.position_at_end(exit_block)
        self.b.ret_void()
        self.allocas.branch(self.body)


__all__ = ["captured_values", "emit_parallel"]
