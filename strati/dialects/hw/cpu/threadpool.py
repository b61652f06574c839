"""The thread pool behind ``cpu.parallel``: ``strati_parallel_for(task, ctx, n)``, native code.

Generated code calls ``void strati_parallel_for(ptr task, ptr ctx, i64 n)`` (see
:mod:`strati.dialects.hw.cpu.emit`), where ``task`` is ``void task(ptr ctx, i64 begin, i64
end)``.  The pool is generated too: :func:`pool_module` builds it as LLVM IR, which the JIT
compiles once per process, and the ``cpu`` target binds its address (``runtime_symbols``).
No Python runs while a region does: a region costs a few atomic operations and, for a worker
that had gone to sleep, one futex wake (the Python pool it replaces took 15-30 us a region,
so only loops of 0.1 ms or more were worth a region).

* **A region** splits ``[0, n)`` into ``chunks = min(threads, n)`` contiguous chunks, publishes
  them, wakes the ``chunks - 1`` workers it needs (one word per worker, on its own cache line)
  and runs chunks on the calling thread.  Chunks are claimed by an atomic counter, so a thread
  that is free takes a chunk no one has started (the caller never waits for a worker that has
  not woken up yet) and no chunk runs twice.  The call returns once every woken worker has
  acknowledged the region, so the context on the caller's stack outlives every use.
* **One region at a time**, taken by compare-and-swap: a region reached from inside a task (a
  nested region, e.g. through a call), or from a second Python thread while another's region
  runs, runs its whole range on its own thread.
* **Workers** are pthreads started on first need and never stopped.  After a region a worker
  spins (``pause``) for :data:`SPIN` rounds, then sleeps on its word (a futex on Linux; elsewhere
  it polls with ``usleep``).  If a thread cannot be started, the region uses fewer.
* **Size**: :func:`set_num_threads` if called, else ``STRATI_NUM_THREADS`` (read before every
  call of compiled code, :func:`sync`), else the host's number of cores
  (:func:`strati.dialects.hw.cpu.target.host_cores`).  1 means sequential.
* **After fork** the child has no workers: :func:`_after_fork` resets the pool's state.

:func:`last_region` says, for the last region that ran in parallel mode, which thread ran which
chunk and when (cycle counter), for tests and profiling.
"""

from __future__ import annotations

import ctypes
import os
import platform
import threading
from collections.abc import Callable
from dataclasses import dataclass

import llvmlite.ir as ir

from strati.codegen.llvm import I32, I64, PTR, VOID

SYMBOL = "strati_parallel_for"
ENV = "STRATI_NUM_THREADS"
MAX_THREADS = 64
"""Threads a region may use (the calling thread and 63 workers)."""
SPIN = 1 << 15
"""Rounds of ``pause`` a worker waits for the next region before it sleeps (some 0.1-1 ms)."""
YIELD_EVERY = 64
"""A caller waiting for a worker gives up its core (sched_yield) once every this many rounds."""
FUTEX = {("Linux", "x86_64"): 202, ("Linux", "aarch64"): 98}
"""The futex system call's number; elsewhere a sleeping worker polls with usleep(50)."""

TASK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
PARALLEL_FOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)

_explicit_threads: int | None = None


def set_num_threads(n: int | None) -> None:
    """Use ``n`` threads per region (None: back to STRATI_NUM_THREADS / the target's cores)."""
    global _explicit_threads
    if n is not None and n < 1:
        raise ValueError(f"the number of threads must be at least 1, got {n}")
    _explicit_threads = n
    sync()


def num_threads() -> int:
    """How many threads a region uses now (the calling thread included)."""
    if _explicit_threads is not None:
        return _explicit_threads
    value = os.environ.get(ENV)
    if value:
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n >= 1:
            return n
    from strati.dialects.hw.cpu.target import host_cpu

    return host_cpu()["cores"]


# --- the pool, as LLVM IR ----------------------------------------------------------------

SLOT = ir.ArrayType(I32, 16)  # one worker's words on a 64-byte line: wake epoch, acknowledged epoch, asleep
WAKE, ACK, ASLEEP = 0, 1, 2
CHUNK = ir.LiteralStructType([I64, I64, I64])  # the last region's chunks: runner, start and stop cycles


class _Indirect:
    """A function pointer for an indirect call (llvmlite reads the call's type from its callee)."""

    def __init__(self, value: ir.Value, function_type: ir.FunctionType):
        self.value, self.type, self.function_type = value, value.type, function_type

    def get_reference(self) -> str:
        return self.value.get_reference()


def pool_module(triple: str, system: str | None = None, machine: str | None = None) -> ir.Module:
    """``strati_parallel_for`` and its workers, for a host (``platform.system()``, ``.machine()``)."""
    system = system or platform.system()
    machine = machine or platform.machine()
    m = ir.Module(name="strati.threadpool")
    m.triple = triple

    def global_(name: str, t: ir.Type, init=None) -> ir.GlobalVariable:
        g = ir.GlobalVariable(m, t, f"strati.pool.{name}")
        g.initializer = ir.Constant(t, init) if init is not None else ir.Constant(t, None)
        g.align = 64
        return g

    threads = global_("threads", I32, 1)
    spin = global_("spin", I32, SPIN)
    workers = global_("workers", I32, 0)
    active = global_("active", I32, 0)
    regions = global_("regions", I64, 0)
    region = global_("region", ir.LiteralStructType([PTR, PTR, I64, I64]))  # task, ctx, n, chunks
    claimed = global_("next", I64, 0)
    slots = global_("slots", ir.ArrayType(SLOT, MAX_THREADS))
    chunks_record = global_("chunks", ir.ArrayType(CHUNK, MAX_THREADS))

    task_type = ir.FunctionType(VOID, [PTR, I64, I64])
    cycles = ir.Function(m, ir.FunctionType(I64, []), "llvm.readcyclecounter")
    if machine in ("x86_64", "AMD64", "i686"):
        pause = ir.Function(m, ir.FunctionType(VOID, []), "llvm.x86.sse2.pause")
        pause_args: list = []
    elif machine in ("aarch64", "arm64"):
        pause = ir.Function(m, ir.FunctionType(VOID, [I32]), "llvm.aarch64.hint")
        pause_args = [ir.Constant(I32, 1)]  # yield
    else:
        pause, pause_args = None, []
    futex = FUTEX.get((system, machine))
    syscall = ir.Function(m, ir.FunctionType(I64, [I64], var_arg=True), "syscall") if futex else None
    usleep = None if futex else ir.Function(m, ir.FunctionType(I32, [I32]), "usleep")
    pthread_create = ir.Function(m, ir.FunctionType(I32, [PTR, PTR, PTR, PTR]), "pthread_create")
    sched_yield = ir.Function(m, ir.FunctionType(I32, []), "sched_yield")

    def gep(b: ir.IRBuilder, base: ir.GlobalVariable, indices: list) -> ir.Value:
        """An element's address, typed (the atomic loads and stores ask for it)."""
        return b.gep(base, [ir.Constant(I64, k) if isinstance(k, int) else k for k in indices], inbounds=True)

    def field(b: ir.IRBuilder, k: int) -> ir.Value:
        return gep(b, region, [0, ir.Constant(I32, k)])

    def slot(b: ir.IRBuilder, j: ir.Value, k: int) -> ir.Value:
        return gep(b, slots, [0, j, k])

    def loop(fn: ir.Function, name: str) -> tuple[ir.Block, ir.Block]:
        return fn.append_basic_block(name), fn.append_basic_block(f"{name}.exit")

    def call_task(b: ir.IRBuilder, callee: ir.Value, args: list[ir.Value]) -> None:
        b.call(_Indirect(callee, task_type), args)

    def relax(b: ir.IRBuilder) -> None:
        if pause is not None:
            b.call(pause, pause_args)

    # run_chunks(me): claim chunks of the current region until none is left.
    run_chunks = ir.Function(m, ir.FunctionType(VOID, [I32]), "strati.pool.run_chunks")
    run_chunks.linkage = "internal"
    (me,) = run_chunks.args
    b = ir.IRBuilder(run_chunks.append_basic_block("entry"))
    claim, done = loop(run_chunks, "claim")
    b.branch(claim)
    b.position_at_end(claim)
    i = b.atomic_rmw("add", claimed, ir.Constant(I64, 1), "monotonic")
    chunks = b.load(field(b, 3), typ=I64)
    with b.if_then(b.icmp_signed(">=", i, chunks)):
        b.ret_void()
    n = b.load(field(b, 2), typ=I64)
    begin = b.sdiv(b.mul(i, n), chunks)
    end = b.sdiv(b.mul(b.add(i, ir.Constant(I64, 1)), n), chunks)
    def record(k: int) -> ir.Value:
        return gep(b, chunks_record, [0, i, ir.Constant(I32, k)])

    b.store(b.zext(me, I64), record(0))
    b.store(b.call(cycles, []), record(1))
    call_task(b, b.load(field(b, 0), typ=PTR), [b.load(field(b, 1), typ=PTR), begin, end])
    b.store(b.call(cycles, []), record(2))
    b.branch(claim)
    b.position_at_end(done)
    b.unreachable()

    # worker(j): wait for its word to change, run chunks, acknowledge; forever.
    worker = ir.Function(m, ir.FunctionType(PTR, [PTR]), "strati.pool.worker")
    worker.linkage = "internal"
    b = ir.IRBuilder(worker.append_basic_block("entry"))
    j = b.ptrtoint(worker.args[0], I64)
    seen_slot = b.alloca(I32)
    spins_slot = b.alloca(I32)
    b.store(ir.Constant(I32, 0), seen_slot)
    wait = worker.append_basic_block("wait")
    check = worker.append_basic_block("check")
    work = worker.append_basic_block("work")
    b.store(ir.Constant(I32, 0), spins_slot)
    b.branch(check)
    b.position_at_end(check)
    epoch = b.load_atomic(slot(b, j, WAKE), "acquire", 4, typ=I32)
    seen = b.load(seen_slot, typ=I32)
    b.cbranch(b.icmp_unsigned("!=", epoch, seen), work, wait)
    b.position_at_end(wait)
    spins = b.load(spins_slot, typ=I32)
    with b.if_else(b.icmp_unsigned("<", spins, b.load(spin, typ=I32))) as (spinning, sleeping):
        with spinning:
            relax(b)
            b.store(b.add(spins, ir.Constant(I32, 1)), spins_slot)
        with sleeping:
            b.store_atomic(ir.Constant(I32, 1), slot(b, j, ASLEEP), "seq_cst", 4)
            again = b.load_atomic(slot(b, j, WAKE), "seq_cst", 4, typ=I32)
            with b.if_then(b.icmp_unsigned("==", again, seen)):
                if syscall is not None:  # FUTEX_WAIT_PRIVATE: sleeps only while the word is still `seen`
                    b.call(syscall, [ir.Constant(I64, futex), slot(b, j, WAKE), ir.Constant(I64, 128),
                                     b.zext(seen, I64), ir.Constant(PTR, None)])
                else:
                    b.call(usleep, [ir.Constant(I32, 50)])
            b.store_atomic(ir.Constant(I32, 0), slot(b, j, ASLEEP), "seq_cst", 4)
    b.branch(check)
    b.position_at_end(work)
    b.store(epoch, seen_slot)
    b.call(run_chunks, [b.trunc(j, I32)])
    b.store_atomic(epoch, slot(b, j, ACK), "release", 4)
    b.store(ir.Constant(I32, 0), spins_slot)
    b.branch(check)

    # strati_parallel_for(task, ctx, n)
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR, PTR, I64]), SYMBOL)
    task, ctx, count = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    with b.if_then(b.icmp_signed("<=", count, ir.Constant(I64, 0))):
        b.ret_void()
    taken = b.extract_value(b.cmpxchg(active, ir.Constant(I32, 0), ir.Constant(I32, 1), "acquire", "monotonic"), 1)
    with b.if_then(b.not_(taken)):  # a region is in flight (nested, or another thread's): run it all here
        call_task(b, task, [ctx, ir.Constant(I64, 0), count])
        b.ret_void()
    want = b.zext(b.load(threads, typ=I32), I64)
    want = b.select(b.icmp_signed("<", want, count), want, count)
    want = b.select(b.icmp_signed("<", want, ir.Constant(I64, MAX_THREADS)), want, ir.Constant(I64, MAX_THREADS))
    want = b.select(b.icmp_signed("<", want, ir.Constant(I64, 1)), ir.Constant(I64, 1), want)
    # Start the workers it lacks (under the region flag: one thread at a time).
    tid = b.alloca(I64)
    start, started = loop(fn, "start")
    b.branch(start)
    b.position_at_end(start)
    have = b.zext(b.load(workers, typ=I32), I64)
    more = fn.append_basic_block("start.one")
    b.cbranch(b.icmp_signed("<", b.add(have, ir.Constant(I64, 1)), want), more, started)
    b.position_at_end(more)
    j = b.add(have, ir.Constant(I64, 1))
    failed = b.call(pthread_create, [tid, ir.Constant(PTR, None), worker, b.inttoptr(j, PTR)])
    ok = fn.append_basic_block("start.ok")
    fewer = fn.append_basic_block("start.fewer")
    b.cbranch(b.icmp_signed("==", failed, ir.Constant(I32, 0)), ok, fewer)
    b.position_at_end(ok)
    b.store(b.trunc(j, I32), workers)
    b.branch(start)
    b.position_at_end(fewer)
    b.branch(started)
    b.position_at_end(started)
    have = b.zext(b.load(workers, typ=I32), I64)
    used = b.add(have, ir.Constant(I64, 1))
    used = b.select(b.icmp_signed("<", used, want), used, want)
    # Publish the region, then wake workers 1 .. used-1.
    b.store(task, field(b, 0))
    b.store(ctx, field(b, 1))
    b.store(count, field(b, 2))
    b.store(used, field(b, 3))
    b.store_atomic(ir.Constant(I64, 0), claimed, "seq_cst", 8)
    b.atomic_rmw("add", regions, ir.Constant(I64, 1), "monotonic")
    k_slot = b.alloca(I64)
    rounds_slot = b.alloca(I32)

    def each_worker(name: str, body: Callable[[ir.Value], None]) -> None:
        """``body(k)`` for the workers k = 1 .. used-1 (it ends where the next k should start)."""
        b.store(ir.Constant(I64, 1), k_slot)
        header, done = loop(fn, name)
        b.branch(header)
        b.position_at_end(header)
        k = b.load(k_slot, typ=I64)
        block = fn.append_basic_block(f"{name}.one")
        b.cbranch(b.icmp_signed("<", k, used), block, done)
        b.position_at_end(block)
        body(k)
        b.store(b.add(k, ir.Constant(I64, 1)), k_slot)
        b.branch(header)
        b.position_at_end(done)

    def wake(k: ir.Value) -> None:
        word = slot(b, k, WAKE)
        b.store_atomic(b.add(b.load(word, typ=I32), ir.Constant(I32, 1)), word, "seq_cst", 4)
        asleep = b.load_atomic(slot(b, k, ASLEEP), "seq_cst", 4, typ=I32)
        if syscall is not None:
            with b.if_then(b.icmp_unsigned("!=", asleep, ir.Constant(I32, 0))):  # FUTEX_WAKE_PRIVATE
                b.call(syscall, [ir.Constant(I64, futex), word, ir.Constant(I64, 129), ir.Constant(I64, 1)])

    def join(k: ir.Value) -> None:
        """Until worker k has acknowledged (it may still be running a chunk); every YIELD_EVERY
        rounds the core goes to another thread, which may be that worker when the cores are
        oversubscribed (two test runners, say): spinning alone would hold the core it needs."""
        b.store(ir.Constant(I32, 0), rounds_slot)
        check = fn.append_basic_block("join.check")
        b.branch(check)
        b.position_at_end(check)
        expected = b.load(slot(b, k, WAKE), typ=I32)
        acked = b.load_atomic(slot(b, k, ACK), "acquire", 4, typ=I32)
        with b.if_then(b.icmp_unsigned("!=", acked, expected), likely=False):
            rounds = b.add(b.load(rounds_slot, typ=I32), ir.Constant(I32, 1))
            b.store(rounds, rounds_slot)
            late = b.icmp_unsigned("==", b.and_(rounds, ir.Constant(I32, YIELD_EVERY - 1)), ir.Constant(I32, 0))
            with b.if_else(late) as (yielding, pausing):
                with yielding:
                    b.call(sched_yield, [])
                with pausing:
                    relax(b)
            b.branch(check)

    each_worker("wake", wake)
    b.call(run_chunks, [ir.Constant(I32, 0)])
    each_worker("join", join)
    b.store_atomic(ir.Constant(I32, 0), active, "release", 4)
    b.ret_void()
    return m


# --- the compiled pool -------------------------------------------------------------------


@dataclass
class _Pool:
    engine: object
    parallel_for: int
    threads: ctypes.c_int32
    spin: ctypes.c_int32
    workers: ctypes.c_int32
    active: ctypes.c_int32
    regions: ctypes.c_int64
    region: ctypes.Array
    slots: int
    chunks: ctypes.Array


_POOL: list[_Pool] = []
_POOL_LOCK = threading.Lock()


def _pool() -> _Pool:
    if _POOL:
        return _POOL[0]
    with _POOL_LOCK:
        if not _POOL:
            from strati.runtime.jit import _LOCK
            from strati.runtime.llvm_worker import host_target_machine, llvm_binding, optimize

            llvm = llvm_binding()
            with _LOCK:
                tm = host_target_machine(2)
                module = llvm.parse_assembly(str(pool_module(tm.triple)))
                module.verify()
                optimize(module, tm, 2)
                engine = llvm.create_mcjit_compiler(module, host_target_machine(2, jit=True))
                engine.finalize_object()

            def at(name: str, t):
                return t.from_address(engine.get_global_value_address(f"strati.pool.{name}"))

            _POOL.append(_Pool(
                engine=engine,
                parallel_for=engine.get_function_address(SYMBOL),
                threads=at("threads", ctypes.c_int32),
                spin=at("spin", ctypes.c_int32),
                workers=at("workers", ctypes.c_int32),
                active=at("active", ctypes.c_int32),
                regions=at("regions", ctypes.c_int64),
                region=at("region", ctypes.c_int64 * 4),
                slots=engine.get_global_value_address("strati.pool.slots"),
                chunks=at("chunks", (ctypes.c_int64 * 3) * MAX_THREADS),
            ))
            _POOL[0].threads.value = num_threads()
    return _POOL[0]


def address() -> int:
    """The address of strati_parallel_for (compiling the pool the first time)."""
    return _pool().parallel_for


def sync() -> None:
    """Hand the current number of threads to the pool (before every call of compiled code)."""
    if _POOL:
        _POOL[0].threads.value = min(num_threads(), MAX_THREADS)


def regions() -> int:
    """How many regions have run in parallel mode since the pool started."""
    return _pool().regions.value


@dataclass(frozen=True)
class ChunkRecord:
    thread: int
    """Who ran the chunk: 0 the calling thread, k the k-th worker."""
    begin: int
    end: int
    start: int
    stop: int
    """Cycle counter readings around the chunk."""


def last_region() -> list[ChunkRecord]:
    """The chunks of the last region that ran in parallel mode, by ``begin``."""
    pool = _pool()
    _, _, n, chunks = (pool.region[k] for k in range(4))
    return [ChunkRecord(pool.chunks[i][0], i * n // chunks, (i + 1) * n // chunks, pool.chunks[i][1], pool.chunks[i][2])
            for i in range(chunks)]


def _after_fork() -> None:
    """In a forked child: no worker survived the fork; start afresh."""
    if _POOL:
        pool = _POOL[0]
        pool.workers.value = 0
        pool.active.value = 0
        ctypes.memset(pool.slots, 0, MAX_THREADS * 64)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

__all__ = ["ENV", "MAX_THREADS", "SYMBOL", "ChunkRecord", "address", "last_region", "num_threads", "pool_module",
           "regions", "set_num_threads", "sync"]
