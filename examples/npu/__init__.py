"""A VTA-like NPU as a strati plug-in (``--load-plugin examples/npu``): the target
(:mod:`.target`), its dialect (:mod:`.ops`), the lowering of matmul onto it (:mod:`.lower`)
and the simulator its code calls (:mod:`.simulator`)."""

from strati.dialects.hw.target import register_target

from . import lower, ops  # noqa: F401  (registers the ops' rules and the strategies)
from .target import NpuTarget

register_target(NpuTarget())
