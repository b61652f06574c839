"""The register-file model the CPU's microkernels share (blocked and depthwise convolutions, matmul).

A microkernel keeps a tile of accumulators in vector registers across its reduction loop.  Two
facts of the target decide the tile: how many vector registers there are (:func:`registers`,
from the description's ``vector_width``), and how many independent FMAs keep the FMA pipes busy
(:data:`FMAS_IN_FLIGHT`): a tile of fewer accumulators waits on the FMA latency.
"""

from __future__ import annotations

from strati.dialects.hw.ops import TargetAttr

FMAS_IN_FLIGHT = 8
"""Independent FMAs that keep the FMA pipes busy: two pipes of latency 4 (Skylake-X, Zen 2 to
4).  A register tile of fewer accumulators runs at that fraction of the peak."""

ACC_SLACK = 3 / 2
"""The accumulators a matmul tile takes when they fit beside one k step's B vectors and two
broadcasts: half again :data:`FMAS_IN_FLIGHT`, so that the loads and broadcasts issued between
the FMAs do not leave the pipes waiting (BLIS's Haswell sgemm tile is 6 x 16: 12 accumulators).
Measured on the Zen 3 AVX2 host: 6 x 16 1-6% faster than 4 x 16 at N = 512 and 2048, 5 x 16 no
faster than 4 x 16.  The convolutions' tiles do not take it: 6-pixel tiles made 7x7 images' rows
(6 + 1 pixels) and ResNet-50's stride-2 stem slower."""

ACC_SHARE = 5 / 8
"""The share of the vector registers a convolution's accumulators take (20 of AVX-512's 32, 10
of AVX2's 16): the rest holds the weight vectors and the broadcasts of several pixels in flight.
Measured on AVX-512 (3x3, 64 and 512 channels): a tile of 8 to 12 pixels x 2 vectors runs
faster than one of 14 x 2 (28 accumulators), which LLVM spills."""


def registers(target: TargetAttr) -> int:
    """Vector registers: 32 with AVX-512 (and NEON), 16 with AVX2/AVX/SSE."""
    return 32 if target["vector_width"] >= 16 else 16


def tile_cost(ow: int, tile: int, vecs: int) -> float:
    """The time of a row of ``ow`` pixels in tiles of ``tile`` (the last ``ow mod tile`` pixels
    one tile of their own), in pixel steps at full speed: a tile of ``k`` pixels x ``vecs``
    accumulators runs at ``min(1, k * vecs / FMAS_IN_FLIGHT)`` of it."""

    def speed(k: int) -> float:
        return min(1.0, k * vecs / FMAS_IN_FLIGHT)

    left = ow % tile
    return (ow - left) / speed(tile) + (left / speed(left) if left else 0.0)


def row_tile(ow: int, most: int, vecs: int) -> int:
    """The pixels of a register tile along a row of ``ow``: the whole row when it fits in
    ``most``, else the tile of at most ``most`` that runs the row fastest (:func:`tile_cost`),
    a divisor of the row on a tie (less code)."""
    if ow <= most:
        return ow
    return min(range(1, most + 1), key=lambda t: (tile_cost(ow, t, vecs), ow % t != 0, -t))


__all__ = ["ACC_SHARE", "ACC_SLACK", "FMAS_IN_FLIGHT", "registers", "row_tile", "tile_cost"]
