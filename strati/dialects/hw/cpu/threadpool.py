"""The thread pool behind ``cpu.parallel``: ``strati_parallel_for(task, ctx, n)`` for generated code.

Generated code calls ``void strati_parallel_for(ptr task, ptr ctx, i64 n)`` (see
:mod:`strati.dialects.hw.cpu.emit`), where ``task`` is ``void task(ptr ctx, i64 begin, i64
end)``.  The symbol is a ctypes callback bound into the JIT's symbol table (the ``cpu``
target's ``runtime_symbols``).  It splits ``[0, n)`` into one
contiguous chunk per thread, puts a ticket per extra chunk on the queue of a
persistent pool of Python worker threads, runs a chunk on the calling thread,
and returns when every chunk is done.  Chunks are claimed under a lock, so a
thread that finishes early takes a chunk no one has started (the caller never
waits for a worker that has not woken up yet), and no chunk runs twice.

The workers call the task through ctypes, which releases the GIL for the
duration of the native call: the chunks run truly in parallel.  Properties:

* **Re-entrant**: a ``strati_parallel_for`` reached from inside a task (a nested
  region, e.g. through a call), on a worker or on the calling thread, runs its
  whole range sequentially on that thread.  Several Python threads may run
  compiled code at once; they share the workers.
* **No exception crosses into native code.**  Whatever goes wrong in the
  callback is caught; the remaining chunks then run on the calling thread, and the
  error (or a KeyboardInterrupt that arrived while waiting) is re-raised by
  :func:`raise_pending` once the compiled function has returned (the executable
  calls it), never while workers may still be using the caller's stack.
* **Size**: :func:`set_num_threads` if called, else ``STRATI_NUM_THREADS`` (read at
  every region, so it can change between calls), else the host's number of cores
  (:func:`strati.dialects.hw.cpu.target.host_cores`).  1 means sequential.

:data:`POOL` ``.last_region`` records, for the last region that completed, which
thread ran which chunk and when (``perf_counter`` seconds), for tests and profiling.
"""

from __future__ import annotations

import ctypes
import os
import queue
import threading
import time
from dataclasses import dataclass

TASK = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
PARALLEL_FOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64)
SYMBOL = "strati_parallel_for"
ENV = "STRATI_NUM_THREADS"

_state = threading.local()  # depth: regions open on this thread; pending: an error to re-raise
_explicit_threads: int | None = None


def set_num_threads(n: int | None) -> None:
    """Use ``n`` threads per region (None: back to STRATI_NUM_THREADS / the target's cores)."""
    global _explicit_threads
    if n is not None and n < 1:
        raise ValueError(f"the number of threads must be at least 1, got {n}")
    _explicit_threads = n


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


@dataclass(frozen=True)
class ChunkRecord:
    thread: int
    """``threading.get_ident()`` of the thread that ran the chunk."""
    begin: int
    end: int
    start: float
    stop: float


class Region:
    """One call of strati_parallel_for: its chunks, who claimed them, when they finished."""

    def __init__(self, task, ctx: int, n: int, chunks: int):
        self.task = task
        self.ctx = ctx
        self.n = n
        self.chunks = chunks
        self.lock = threading.Lock()
        self.next = 0
        self.finished = 0
        self.done = threading.Event()
        self.records: list[ChunkRecord] = []
        self.error: BaseException | None = None

    def bounds(self, i: int) -> tuple[int, int]:
        return i * self.n // self.chunks, (i + 1) * self.n // self.chunks

    def work(self) -> None:
        """Run unclaimed chunks until there are none left."""
        while True:
            with self.lock:
                i = self.next
                if i >= self.chunks:
                    return
                self.next = i + 1
            self.run_chunk(i)

    def run_chunk(self, i: int) -> None:
        begin, end = self.bounds(i)
        start = time.perf_counter()
        try:
            self.task(self.ctx, begin, end)  # releases the GIL while native code runs
        except BaseException as err:  # noqa: BLE001 - must not escape a worker or a callback
            self.error = self.error or err
        finally:
            stop = time.perf_counter()
            with self.lock:
                self.records.append(ChunkRecord(threading.get_ident(), begin, end, start, stop))
                self.finished += 1
                if self.finished == self.chunks:
                    self.done.set()


class ThreadPool:
    """Persistent worker threads that take region tickets from one queue."""

    def __init__(self):
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.workers: list[threading.Thread] = []
        self.lock = threading.Lock()
        self.last_region: list[ChunkRecord] = []
        self.regions = 0

    def ensure_workers(self, n: int) -> None:
        if len(self.workers) >= n:
            return
        with self.lock:
            while len(self.workers) < n:
                t = threading.Thread(target=self._worker, name=f"strati-worker-{len(self.workers)}", daemon=True)
                t.start()
                self.workers.append(t)

    def _worker(self) -> None:
        _state.depth = 1  # a region opened from a task on a worker runs sequentially
        while True:
            region = self.queue.get()
            if region is None:
                return
            try:
                region.work()
            except BaseException:  # noqa: BLE001 - a worker never dies of a region's trouble
                pass

    def parallel_for(self, task, ctx: int, n: int) -> None:
        if n <= 0:
            return
        depth = getattr(_state, "depth", 0)
        threads = 1 if depth else min(num_threads(), n)
        region = Region(task, ctx, n, max(1, threads))
        _state.depth = depth + 1
        try:
            if threads > 1:
                try:
                    self.ensure_workers(threads - 1)
                    for _ in range(threads - 1):
                        self.queue.put(region)
                except BaseException as err:  # noqa: BLE001 - e.g. no thread could start: run here
                    region.error = region.error or err
            region.work()
            interrupted: BaseException | None = None
            while True:  # never return while a worker may still use ctx (the caller's stack)
                try:
                    if region.done.wait():
                        break
                except BaseException as err:  # noqa: BLE001 - KeyboardInterrupt while waiting
                    interrupted = interrupted or err
            if interrupted is not None:
                region.error = region.error or interrupted
        finally:
            _state.depth = depth
        self.last_region = sorted(region.records, key=lambda r: r.begin)
        self.regions += 1
        if region.error is not None and getattr(_state, "pending", None) is None:
            _state.pending = region.error


POOL = ThreadPool()
_tasks: dict[int, object] = {}


def _parallel_for(task_address: int, ctx: int, n: int) -> None:
    """The callback generated code calls: must return normally whatever happens."""
    try:
        task = _tasks.get(task_address)
        if task is None:
            task = _tasks.setdefault(task_address, TASK(task_address))
        POOL.parallel_for(task, ctx, n)
    except BaseException as err:  # noqa: BLE001 - never let an exception into native code
        if getattr(_state, "pending", None) is None:
            _state.pending = err


_CALLBACK = PARALLEL_FOR(_parallel_for)


def address() -> int:
    """The address of strati_parallel_for (the ctypes callback)."""
    value = ctypes.cast(_CALLBACK, ctypes.c_void_p).value
    assert value is not None
    return value


def raise_pending() -> None:
    """Re-raise an error a parallel region on this thread recorded (called after the compiled function returns)."""
    err = getattr(_state, "pending", None)
    if err is not None:
        _state.pending = None
        if isinstance(err, (KeyboardInterrupt, SystemExit)):
            raise err
        raise RuntimeError(f"a parallel region failed: {type(err).__name__}: {err}") from err


def _after_fork() -> None:
    global POOL
    POOL = ThreadPool()  # the workers did not survive the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)

__all__ = ["ENV", "POOL", "SYMBOL", "ChunkRecord", "ThreadPool", "address", "num_threads", "raise_pending", "set_num_threads"]
