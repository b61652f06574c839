"""The loop dialect: loop nests with schedule annotations over memref buffers (level 3)."""

from xdsl.ir import Dialect

from strati.dialects.loop import control, ops, profile
from strati.dialects.loop.ops import ALL_OPS

Loop = Dialect("loop", [*ALL_OPS, *control.CONTROL_OPS, *profile.PROFILE_OPS], [])

__all__ = ["Loop", "ops"]
