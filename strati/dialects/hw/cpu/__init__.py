"""The cpu target dialect (level 4): tasks for the thread pool (``cpu.parallel``).

Vectors are upstream ``vector``/``arith``/``math`` on vector types; the target's
description is the shared ``#hw.target`` attribute (:mod:`strati.dialects.hw`).
"""

from xdsl.ir import Dialect

from strati.dialects.hw.cpu import ops
from strati.dialects.hw.cpu.ops import ALL_OPS, ParallelOp, YieldOp

Cpu = Dialect("cpu", ALL_OPS, [])

__all__ = ["Cpu", "ParallelOp", "YieldOp", "ops"]
