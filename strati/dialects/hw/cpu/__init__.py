"""The ``cpu`` target: the host CPU as one target among others (level 4).

Everything the compiler knows of the CPU is in this folder, and registers itself:

* the ``cpu`` dialect (:mod:`.ops`): ``cpu.parallel``, tasks for the thread pool;
* the target (:mod:`.target`): its description (vector width, FMA, cores, caches),
  detected on the host, and its pipeline ``cpu-schedule-matmul,cpu-schedule-conv,unroll-windows,interchange,vectorize-transposes,vectorize,cpu-parallelize``;
* the passes ``cpu-parallelize`` (:mod:`.parallelize`) and ``cpu-schedule-matmul``
  (:mod:`.matmul`: matmul nests blocked, packed and register-tiled);
* the ``emit`` attributes of its ops (:mod:`.emit`) and their ``reference`` in the
  loop interpreter (a ``cpu.parallel`` runs its iterations in order);
* the thread pool its code calls (:mod:`.threadpool`), bound as a runtime symbol;
* its strategies (:mod:`.strategies`, :mod:`.conv`, :mod:`.depthwise`): ``graph.conv2d`` direct,
  as a matmul (per group), blocked, or depthwise.

Vectors are upstream ``vector``/``arith``/``math`` on vector types.
"""

from xdsl.ir import Dialect

from strati.dialects.hw.cpu import ops
from strati.dialects.hw.cpu.ops import ALL_OPS, ParallelOp, YieldOp

Cpu = Dialect("cpu", ALL_OPS, [])


def _emit_parallel(emitter, op):
    """``cpu.parallel``'s emit (:mod:`.emit`), imported with the code generator when first used:
    every tool process registers the target, few generate code."""
    from strati.dialects.hw.cpu.emit import emit_parallel

    return emit_parallel(emitter, op)


def _register() -> None:
    from strati.dialects.hw.cpu import conv, depthwise, strategies  # noqa: F401  (registers the strategies)
    from strati.dialects.hw.cpu.matmul import CpuScheduleMatmulPass
    from strati.dialects.hw.cpu.parallelize import CpuParallelizePass
    from strati.dialects.hw.cpu.target import CpuTarget
    from strati.dialects.hw.target import register_target
    from strati.registry import register_op_attr
    from strati.transforms import register_pass

    register_target(CpuTarget())
    register_pass(CpuParallelizePass)
    register_pass(CpuScheduleMatmulPass)
    register_pass(conv.CpuScheduleConvPass)
    register_op_attr("cpu.parallel", "emit", _emit_parallel)
    register_op_attr("cpu.yield", "emit", lambda emitter, op: None)


_register()

__all__ = ["Cpu", "ParallelOp", "YieldOp", "ops"]
