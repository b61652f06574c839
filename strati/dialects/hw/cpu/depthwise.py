"""The CPU's depthwise convolution: channels in vectors, a register tile of pixels across the taps.

A depthwise convolution (``groups`` = input channels, each output channel reading one input
channel: ``m`` = output / input channels, the channel multiplier) has no reduction over
channels, so the blocked direct convolution (:mod:`.conv`), whose vectors are output channels
summed over input channels, does not apply, and the op's own loops leave the accumulator in
memory across the ``kh x kw`` taps.  The ``depthwise`` strategy lowers it as the blocked
one, in a channel-blocked layout (NCHW{C}c, ``C`` the target's ``vector_width``):

* the input padded and re-laid-out as ``xb[n][oc/C][h][w][C]``, where lane ``c`` of block
  ``ob`` holds input channel ``(ob*C + c) floordiv m`` (each input channel repeated for its
  ``m`` outputs, zeros past the channels): one copy, after which no tap needs a bounds test;
* the weights as ``wp[oc/C][kh*kw][C]`` (at compile time when they are constants);
* one generic over ``(n, ob, oh, ow, t, c)``, ``t`` the ``kh*kw`` taps folded into one
  reduction loop (row ``t floordiv kw``, column ``t mod kw``), accumulating from the bias
  into ``y[n][oc/C][oh][ow][C]``, then copied back to NCHW as the blocked form does.

The generic carries ``schedule.ow_tile`` (and ``schedule.oh_tile``), and ``cpu-schedule-conv``
builds the same microkernel as for the blocked form, with the taps in place of the input
channels: the channel vector loop vectorised, ``ow_tile`` pixels unrolled and jammed, and the
``ow_tile`` accumulators kept in registers across all ``kh*kw`` taps::

    n, ob, oh {  ow (R pixels) {  acc[R] = y[...]
                                  t { acc[r] += xb[ob, oh*s + t/kw, (ow + r)*s + t%kw, :] * wp[ob, t, :] }
                                  y[...] = acc  } }

Every tap's input is a contiguous vector load whatever the stride, so strides 1 and 2 run the
same code.  The knobs come from the target (:func:`depthwise_knobs`: one vector of channels
per block, as many pixels as :data:`~.registers.ACC_SHARE` of the vector registers hold) and are
overridden by the same names set on the ``graph.conv2d`` op (``schedule.ow_tile = 8``).
Each output sums its taps in the reference's order (kh, kw), from the bias.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import Float32Type, IntegerAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineMap

from strati import registry
from strati.dense import dense_from_numpy
from strati.dialects.graph.attrs.nn import conv_params
from strati.dialects.hw.cpu.conv import OH_TILE, OW_TILE, _constant, _pack_bias, _static, unblock
from strati.dialects.hw.cpu.registers import ACC_SHARE, registers, row_tile
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, dims, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.diagnostics import StratiError
from strati.strategy import Strategy, register_strategy

KNOBS = ("ow_tile", "oh_tile")
"""The knobs a ``graph.conv2d`` may carry as ``schedule.NAME`` to override the target's."""


def is_depthwise(op: Operation, target: TargetAttr) -> bool:
    """f32, static shapes, one input channel per group and more than one group."""
    if not _static(op) or not isinstance(element_type(op.operands[0]), Float32Type):
        return False
    groups = conv_params(op)[3]
    c = shape(op.operands[0])[1]
    o, cg, _, _ = shape(op.operands[1])
    return groups > 1 and groups == c and cg == 1 and o % groups == 0


def depthwise_knobs(target: TargetAttr, oh: int, ow: int, given: dict[str, int] | None = None) -> dict[str, int]:
    """``lanes`` (= ``block``: one vector of channels per block) and the register tile:
    ``ow_tile`` pixels of a row (:func:`~.registers.row_tile`, one vector per pixel), or
    ``oh_tile`` whole rows when a row is shorter; ``given`` ones taken as they are."""
    given = given or {}
    lanes = target["vector_width"]
    most = max(1, int(registers(target) * ACC_SHARE))
    tile = min(ow, given.get("ow_tile", row_tile(ow, most, 1)))
    rows = given.get("oh_tile", max(1, min(oh, most // tile)) if tile == ow else 1)
    return {"lanes": lanes, "block": lanes, "ow_tile": tile, "oh_tile": min(oh, rows)}


def given_knobs(op: Operation) -> dict[str, int]:
    """The knobs set on the op (``schedule.ow_tile`` ...), checked."""
    given = {}
    for name in KNOBS:
        value = op.attributes.get(f"schedule.{name}")
        if value is None:
            continue
        if not isinstance(value, IntegerAttr) or value.value.data < 1:
            raise StratiError(f"'{op.name}' op schedule.{name} must be a positive integer, not {value}", op)
        given[name] = value.value.data
    return given


def _pack_taps(w: SSAValue, b: TensorBuilder, block: int) -> SSAValue:
    """``wp[ob, t, c] = w[ob*block + c, 0, t floordiv kw, t mod kw]`` (0 past the channels)."""
    o, _, kh, kw = shape(w)
    ob = -(-o // block)
    value = _constant(w)
    if value is not None:  # at compile time
        padded = np.zeros((ob * block, kh * kw), dtype=value.dtype)
        padded[:o] = value.reshape(o, kh * kw)
        return b.dense(dense_from_numpy(np.ascontiguousarray(padded.reshape(ob, block, kh * kw).transpose(0, 2, 1))))
    if ob * block != o:
        w = b.pad(w, (0, 0, 0, 0), (ob * block - o, 0, 0, 0), 0)
    w3 = b.reshape(w, (ob, block, kh * kw))
    d = dims(3)  # (ob, t, c)
    (packed,) = b.generic(
        [w3], [b.empty(TensorType(element_type(w), [ob, kh * kw, block]))],
        [AffineMap(3, 0, (d[0], d[2], d[1])), AffineMap.identity(3)], [PARALLEL] * 3, lambda v, _: v,
    )  # fmt: skip
    return packed


def lower_depthwise(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    """The three steps of the module's docstring."""
    from strati.dialects.graph.lowering.nn import high_pad, scaled

    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    (sh, sw), pads, (dh, dw), groups = conv_params(op)
    n, c, h, wd = shape(x)
    o, _, kh, kw = shape(w)
    _, _, oh, ow = result_type.get_shape()
    m = o // groups
    kn = depthwise_knobs(target, oh, ow, given_knobs(op))
    block = kn["block"]
    ob = -(-o // block)
    elem = element_type(x)
    # The padded input in blocks of output channels: lane c of block ob is input channel (ob*C + c) // m.
    high = (high_pad(h, pads[0], oh, sh, kh, dh), high_pad(wd, pads[1], ow, sw, kw, dw))
    channels = (ob * block - 1) // m + 1
    if any(pads[:2]) or any(high) or channels != c:
        x = b.pad(x, (0, 0, pads[0], pads[1]), (0, channels - c, *high), 0)
    _, _, hp, wp_ = shape(x)
    d5 = dims(5)  # (n, ob, h, c, w): each input row read in order, written every C floats
    lane = scaled(d5[1], block) + d5[3]
    (xb,) = b.generic(
        [x], [b.empty(TensorType(elem, [n, ob, hp, wp_, block]))],
        [AffineMap(5, 0, (d5[0], lane if m == 1 else lane // m, d5[2], d5[4])), AffineMap(5, 0, (d5[0], d5[1], d5[2], d5[4], d5[3]))],
        [PARALLEL] * 5, lambda v, _: v,
    )  # fmt: skip
    d5 = dims(5)
    wp = _pack_taps(w, b, block)
    y_t = TensorType(elem, [n, ob, oh, ow, block])
    if bias is None:
        init = b.filled(0, y_t)
    else:
        (init,) = b.generic(
            [_pack_bias(bias, b, block)], [b.empty(y_t)], [AffineMap(5, 0, (d5[1], d5[4])), AffineMap.identity(5)],
            [PARALLEL] * 5, lambda v, _: v,
        )  # fmt: skip
    d = dims(6)  # (n, ob, oh, ow, t, c)
    row = d[4] // kw if kw > 1 else d[4]
    col = d[4] % kw if kw > 1 else AffineConstantExpr(0)
    x_map = AffineMap(6, 0, (d[0], d[1], scaled(d[2], sh) + scaled(row, dh), scaled(d[3], sw) + scaled(col, dw), d[5]))
    (y,) = b.generic(
        [xb, wp],
        [init],
        [x_map, AffineMap(6, 0, (d[1], d[4], d[5])), AffineMap(6, 0, (d[0], d[1], d[2], d[3], d[5]))],
        [PARALLEL] * 4 + [REDUCTION] + [PARALLEL],
        lambda xv, wv, a: s.add(a, s.mul(xv, wv)),
    )
    y.owner.attributes[OW_TILE] = IntegerAttr(kn["ow_tile"], i64)
    y.owner.attributes[OH_TILE] = IntegerAttr(kn["oh_tile"], i64)
    return unblock(y, b, result_type, block)


def depthwise_cost(op: Operation, target: TargetAttr) -> float:
    """In the units of the other strategies (a direct vector step per ``lanes`` flops): the
    flops at the fill of the channel blocks, at DEPTHWISE_COST of a direct vector step; plus
    the copies (the padded input into blocks, the output back to NCHW), each element at
    DEPTHWISE_COPY_COST, times DEPTHWISE_L2_MISS when the blocked input does not fit the L2
    cache (the gather of 16 channel planes then streams from memory)."""
    n, _, h, wd = shape(op.operands[0])
    o, _, kh, kw = shape(op.operands[1])
    _, _, oh, ow = op.results[0].type.get_shape()
    (sh, sw), _, _, _ = conv_params(op)
    lanes = target["vector_width"]
    fill = -(-o // lanes) * lanes / o
    flops = float(registry.lookup_or_raise(op.name, "flops")(op))
    blocked_input = n * fill * o * ((oh - 1) * sh + kh) * ((ow - 1) * sw + kw)
    copies = blocked_input + n * fill * o * oh * ow
    miss = 1 if blocked_input * 4 <= target["l2"] else DEPTHWISE_L2_MISS
    return DEPTHWISE_COST * flops * fill / lanes + DEPTHWISE_COPY_COST * miss * copies


# Calibrated on measurements of both forms (direct and depthwise, 3x3, weights as arguments,
# medians of 60 calls on the loaded 2-core AVX-512 host, times in ms direct/depthwise):
# 544ch 7x7 0.061/0.038 and 272ch 14x14 stride 2 0.089/0.045 (the depthwise form wins:
# the direct form's rows of 7 pixels fill half a vector, or are scalar when strided);
# 272ch 14x14 0.07/0.10-0.15, 136ch 28x28 0.09/0.23-0.27, 144ch 56x56 0.21-0.27/0.85-0.96,
# stride 2 0.17-0.23/0.34-0.89, 96ch 112x112 stride 2 0.72/5.0 (the direct form wins: the
# copies into and out of the blocked layout cost more than the direct form's whole
# convolution once the image is larger than a few rows of vectors).  The flops term fits a
# microkernel vector step at ~0.2 ns against ~0.37 ns for the direct form's; a copied element
# costs ~0.7 ns, more once the blocked input is larger than L2.  Missed: 960ch 7x7 (0.09 ms
# direct, 0.15 ms depthwise, chosen depthwise).
DEPTHWISE_COST = 0.5
"""A vector step of the depthwise microkernel against one of the direct form's."""
DEPTHWISE_COPY_COST = 2.5
"""An element copied into or out of the blocked layout (a scalar gather or scatter)."""
DEPTHWISE_L2_MISS = 4.0
"""The copies' factor when the blocked input does not fit the L2 cache."""


register_strategy(
    Strategy(
        "depthwise", "graph.conv2d", "cpu", lower_depthwise, depthwise_cost, is_depthwise,
        doc="one input channel per group: channels in vectors (NCHW{C}c), a register tile of pixels across the taps",
    )
)  # fmt: skip

__all__ = ["depthwise_cost", "depthwise_knobs", "is_depthwise", "lower_depthwise"]
