"""The NPU simulator behind the JIT: each ``npu`` op compiles to a call ``npu_exec(id, ...)``
into :data:`SIMULATOR`.  The functional model is the ops' own references (so it is bit-exact
with the loop interpreter); the cycle model gives each op a queue (load, compute, store) with
its own clock, a DMA ``latency + bursts / bandwidth`` cycles, a GEMM one tile row per cycle,
and makes a ``pop`` wait for the clock its ``push`` recorded, so the queues overlap exactly
as far as the program's tokens allow."""

import ctypes
from collections import defaultdict, deque

import numpy as np
from xdsl.dialects.builtin import MemRefType

from strati.dense import to_dtype
from strati.registry import get_op_attr

QUEUE = {"npu.dma_load": "load", "npu.dma_store": "store", "npu.gemm": "compute", "npu.alu": "compute"}


def dma_bytes(op, ints, desc):
    """Bytes moved by a DMA (its tile clipped to the DRAM matrix) and the bytes of its bursts."""
    dram, tile = (op.src, op.dst) if op.name == "npu.dma_load" else (op.dst, op.src)
    (rows, cols), (_, tr, tc) = dram.type.get_shape(), tile.type.get_shape()
    r, c = max(0, min(tr, rows - ints[0])), max(0, min(tc, cols - ints[1]))
    size = dram.type.element_type.bitwidth // 8
    align = desc["dma_align"]
    return r * c * size, r * -(-c * size // align) * align


class Simulator:
    def __init__(self):
        self.instructions = []  # (op, description), by the id the code passes
        self.reset()

    def reset(self):
        self.clock = dict.fromkeys(("load", "compute", "store"), 0)
        self.tokens = defaultdict(deque)
        self.stats = defaultdict(lambda: [0, 0, 0, 0])  # op -> count, busy cycles, bytes, MACs
        self.errors = []

    def add(self, op, desc):
        self.instructions.append((op, desc))
        return len(self.instructions) - 1

    def execute(self, op, desc, values):
        """Run one op: its reference on the buffers, then its time on its queue."""
        ints = [v for v in values if isinstance(v, int)]
        if op.name == "npu.sync":
            key = (op.source.data, op.dest.data)
            if op.mode.data == "push":
                self.tokens[key].append(self.clock[key[0]])
            elif self.tokens[key]:
                self.clock[key[1]] = max(self.clock[key[1]], self.tokens[key].popleft())
            else:
                self.errors.append(f"npu: deadlock, '{op.dest.data}' pops a token '{op.source.data}' never pushed")
            return
        get_op_attr(op.name, "reference")(op, *values)
        moved = macs = 0
        if op.name in ("npu.dma_load", "npu.dma_store"):
            moved, burst = dma_bytes(op, ints[:2] if op.name == "npu.dma_load" else ints[1:], desc)
            cycles = desc["dma_latency"] + -(-burst // desc["dma_bytes_per_cycle"])
        else:
            m, k, n = desc["tile"]
            cycles, macs = m, (m * k * n if op.name == "npu.gemm" else 0)
        self.clock[QUEUE[op.name]] += cycles
        stat = self.stats[op.name]
        stat[0] += 1
        stat[1] += cycles
        stat[2] += moved
        stat[3] += macs

    def call(self, ident, pointers, ints):
        op, desc = self.instructions[ident]
        pointers, ints = iter(pointers), iter(ints)
        values = []
        for v in op.operands:
            if isinstance(v.type, MemRefType):
                t = v.type
                dtype = to_dtype(t.element_type)
                raw = ctypes.cast(next(pointers), ctypes.POINTER(ctypes.c_byte * (int(np.prod(t.get_shape())) * dtype.itemsize)))
                values.append(np.frombuffer(raw.contents, dtype).reshape(t.get_shape()))
            else:
                values.append(int(next(ints)))
        try:
            self.execute(op, desc, values)
        except Exception as err:  # noqa: BLE001 - a callback must not raise into native code
            self.errors.append(f"npu: {op.name} failed: {type(err).__name__}: {err}")

    def raise_error(self):
        if self.errors:
            first, self.errors = self.errors[0], []
            raise RuntimeError(first)

    def cycles(self):
        return max(self.clock.values())

    def report(self):
        """Cycles, bytes and utilisation per op since the last report; then starts afresh."""
        total = self.cycles()
        busy = sum(stat[1] for stat in self.stats.values())
        lines = [f"npu profile: {total} cycles; the queues were busy {busy} cycles, an overlap of {busy / max(total, 1):.2f}x"]
        lines.append(f"  {'op':<15}{'count':>8}{'busy cycles':>14}{'bytes':>12}{'MACs':>12}{'utilisation':>13}")
        for name, (count, busy, moved, macs) in sorted(self.stats.items()):
            lines.append(f"  {name:<15}{count:>8}{busy:>14}{moved:>12}{macs:>12}{busy / max(total, 1):>12.1%}")
        self.reset()
        return "\n".join(lines)


SIMULATOR = Simulator()
EXEC = ctypes.CFUNCTYPE(None, ctypes.c_int64, *[ctypes.c_void_p] * 3, *[ctypes.c_int64] * 4)(
    lambda ident, p0, p1, p2, i0, i1, i2, i3: SIMULATOR.call(ident, (p0, p1, p2), (i0, i1, i2, i3)))
SYMBOLS = {"npu_exec": ctypes.cast(EXEC, ctypes.c_void_p).value}
