"""The CPU's blocked direct convolution: output channels in vectors, a register tile of pixels.

The ``blocked`` strategy of ``graph.conv2d`` lowers a convolution to three tensor-level steps:

* the weights re-laid-out as ``wp[oc/C][kh][kw][ic][C]`` (``C`` = ``oc_vectors`` vectors of
  the target's ``vector_width`` lanes, the output channels zero-padded to a multiple of
  ``C``): computed at compile time when the weights are constants, else a copy;
* one generic over ``(n, ob, oh, ow, kh, kw, ic, c)`` accumulating into the blocked output
  ``y[n][oc/C][oh][ow][C]``, from the bias: the input is read once per tap and broadcast,
  the weights and the output are contiguous along ``c``;
* the blocked output copied back to NCHW (the channel padding dropped): in block order
  when the channels fill whole blocks (the reads in order, a pixel's ``C`` stores to ``C``
  rows that stay in L1), else in NCHW order; an elementwise consumer (relu, a residual add)
  joins the copy (``fuse-generics`` rewrites it on the blocked shape through the reshape,
  :func:`strati.dialects.tensor.fusion.expand_through_reshape`).

The generic carries ``schedule.ow_tile = R`` (``R`` pixels of a register tile), and
``schedule.rows_outer = 1`` when the rows should loop outside the channel blocks (an image
larger than half of L2 would be read once per block: :func:`rows_outer`).  At the loop
level ``cpu-schedule-conv`` (the CPU pipeline's) turns its nest into a register-tiled
microkernel, as oneDNN's direct convolution is::

    n, ob {                                       (parallel)
      [icc] oh {                                  (icc: a chunk of ic, here or below oh)
        ow (R pixels, unrolled and jammed; the last OW mod R pixels likewise) {
          kh { kw {
            acc[R x V vectors] = y[...]           // scalar-replaced: in registers across ic
            ic in the chunk { acc[r][v] += x[ic, oh*s + kh, (ow + r)*s + kw] * wp[ob, kh, kw, ic, v*lanes:] }
            y[...] = acc
    }}}}}

The chunks of ``ic`` keep the weights a tile reads in L1 (:func:`chunk_channels`).
Each output sums its products in the order (chunk, kh, kw, ic), not the reference's (ic, kh, kw):
the results agree with it to rounding, not bit for bit.  The knobs come from the target
(:func:`conv_knobs`): ``oc_vectors`` 2 when there are channels for it, ``R`` as many pixels
as leave room for the accumulators, one vector of weights per ``oc_vectors`` and a broadcast
(:data:`~.registers.ACC_SHARE` of the registers: 10 pixels x 2 vectors with AVX-512, 5 x 2 with AVX2), the
tile that runs the row fastest counting the last, shorter tile (:mod:`.registers`: too few
accumulators leave the FMA pipes idle), and whole rows together when a row is shorter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, IntegerAttr, ModuleOp, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.dense import dense_from_numpy
from strati.dialects.graph.attrs.nn import conv_params
from strati.dialects.hw.cpu.registers import ACC_SHARE, registers, row_tile, tile_cost
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import target_of
from strati.dialects.shapes import shape_of
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, dims, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.strategy import Strategy, register_strategy

OW_TILE = "schedule.ow_tile"
"""The register tile's pixels along a row, set on the blocked generic and read from its outermost loop."""
OH_TILE = "schedule.oh_tile"
"""Its rows: more than one when a whole row is narrower than the register tile (7x7 images)."""
ROWS_OUTER = "schedule.rows_outer"
"""1: the output rows loop outside the channel blocks (``n, oh, ob, ...``), see :func:`rows_outer`."""
F32_BYTES = 4
"""The element size of every blocked convolution (the strategies take float32 only)."""
OC_BLOCKS = "schedule.oc_blocks"
"""The blocked layout's output channel blocks in one register tile (``graph.conv2d_blocked``:
the nest's loop ``v`` over them, before ``c``)."""


def rows_outer(target: TargetAttr, image_bytes: int, weight_bytes: int, blocks: int, rows: int) -> bool:
    """Whether the output rows should loop outside the output channel blocks.  Each block reads
    the whole (padded) image, each row all the weights: with the blocks outside, the image is
    read once per block, from L2 only if it fits in half of it; with the rows outside, the
    weights once per row, likewise.  The order that moves fewer bytes from beyond L2 wins
    (3x3 on 64 channels of 56x56 on AVX2: an 861 KB image read 4 times, against 147 KB of
    weights that stay in L2)."""
    half = target["l2"] // 2
    blocks_outer = image_bytes * (blocks if image_bytes > half else 1) + weight_bytes
    rows_first = weight_bytes * (rows if weight_bytes > half else 1) + image_bytes
    return blocks > 1 and rows_first < blocks_outer


def conv_knobs(target: TargetAttr, o: int, oh: int, ow: int) -> dict[str, int]:
    """``lanes``, ``oc_vectors`` (vectors of output channels per block), ``block`` (their
    lanes) and ``ow_tile`` (pixels per register tile) of a convolution with ``o`` output
    channels and rows of ``ow`` pixels: the tile of at most the accumulators' registers that
    runs a row fastest (:func:`~.registers.row_tile`)."""
    lanes = target["vector_width"]
    vecs = 2 if o >= 2 * lanes else 1
    most = max(1, int(registers(target) * ACC_SHARE) // vecs)
    tile = row_tile(ow, most, vecs)
    rows = max(1, min(oh, most // tile)) if tile == ow else 1
    return {"lanes": lanes, "oc_vectors": vecs, "block": vecs * lanes, "ow_tile": tile, "oh_tile": rows}


def _static(op: Operation) -> bool:
    return all(isinstance(v.type, TensorType) and None not in shape_of(v.type) for v in (*op.operands, *op.results))


def is_blocked(op: Operation, target: TargetAttr) -> bool:
    """f32, static shapes, at least a vector of output channels (fewer would leave most lanes
    zero: the direct and matmul forms do better), and groups whose output channels fill
    whole blocks (or one group)."""
    if not _static(op) or not isinstance(element_type(op.operands[0]), Float32Type):
        return False
    groups = conv_params(op)[3]
    per_group = shape(op.operands[1])[0] // groups
    block = conv_knobs(target, per_group, 1, 1)["block"]
    return per_group >= target["vector_width"] and (groups == 1 or per_group % block == 0)


def _constant(value: SSAValue) -> np.ndarray | None:
    from strati.transforms.fold_constants import constant_value

    return constant_value(value)


def _pack_weights(w: SSAValue, b: TensorBuilder, block: int) -> SSAValue:
    """``wp[ob, kh, kw, ic, c] = w[ob*block + c, ic, kh, kw]`` (0 past the channels)."""
    o, cg, kh, kw = shape(w)
    ob = -(-o // block)
    value = _constant(w)
    if value is not None:  # at compile time
        padded = np.zeros((ob * block, cg, kh, kw), dtype=value.dtype)
        padded[:o] = value
        return b.dense(dense_from_numpy(np.ascontiguousarray(padded.reshape(ob, block, cg, kh, kw).transpose(0, 3, 4, 2, 1))))
    if ob * block != o:
        w = b.pad(w, (0, 0, 0, 0), (ob * block - o, 0, 0, 0), 0)
    w5 = b.reshape(w, (ob, block, cg, kh, kw))
    d = dims(5)  # (ob, kh, kw, ic, c)
    out_t = TensorType(element_type(w), [ob, kh, kw, cg, block])
    (packed,) = b.generic(
        [w5], [b.empty(out_t)], [AffineMap(5, 0, (d[0], d[4], d[3], d[1], d[2])), AffineMap.identity(5)],
        [PARALLEL] * 5, lambda v, _: v,
    )  # fmt: skip
    return packed


def _pack_bias(bias: SSAValue, b: TensorBuilder, block: int) -> SSAValue:
    (o,) = shape(bias)
    ob = -(-o // block)
    value = _constant(bias)
    if value is not None:
        padded = np.zeros(ob * block, dtype=value.dtype)
        padded[:o] = value
        return b.dense(dense_from_numpy(padded.reshape(ob, block)))
    if ob * block != o:
        bias = b.pad(bias, (0,), (ob * block - o,), 0)
    return b.reshape(bias, (ob, block))


def lower_blocked(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    """The three steps of the module's docstring."""
    from strati.dialects.graph.lowering.nn import high_pad, scaled

    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    (sh, sw), pads, (dh, dw), groups = conv_params(op)
    n, _, h, wd = shape(x)
    o, cg, kh, kw = shape(w)
    _, _, oh, ow = result_type.get_shape()
    per_group = o // groups
    block = conv_knobs(target, per_group if groups > 1 else o, oh, ow)["block"]
    ob = -(-o // block)
    high = (high_pad(h, pads[0], oh, sh, kh, dh), high_pad(wd, pads[1], ow, sw, kw, dw))
    flat = flat_pixels(op, target, block)  # the image as one row: register tiles across the rows' ends
    split = flat and not pointwise(op)  # pixel p reads the input at row p // ow, column p % ow
    if flat and not split:  # the input's pixels are the output's: a view of it as one row
        x = b.reshape(x, (n, shape(x)[1], 1, h * wd))
        h, wd = 1, h * wd
    row = ow
    if flat:
        oh, ow = 1, oh * ow
    kn = conv_knobs(target, per_group if groups > 1 else o, oh, ow)
    if any(pads[:2]) or any(high):
        x = b.pad(x, (0, 0, pads[0], pads[1]), (0, 0, *high), 0)
    wp = _pack_weights(w, b, block)
    elem = element_type(x)
    y_t = TensorType(elem, [n, ob, oh, ow, block])
    if bias is None:
        init = b.filled(0, y_t)
    else:
        d5 = dims(5)
        (init,) = b.generic(
            [_pack_bias(bias, b, block)], [b.empty(y_t)], [AffineMap(5, 0, (d5[1], d5[4])), AffineMap.identity(5)],
            [PARALLEL] * 5, lambda v, _: v,
        )  # fmt: skip
    d = dims(8)  # (n, ob, oh, ow, kh, kw, ic, c)
    channel = d[6] if groups == 1 else scaled(d[1] // (per_group // block), cg) + d[6]
    at_row, at_col = (d[3] // row, d[3] % row) if split else (d[2], d[3])
    x_map = AffineMap(8, 0, (d[0], channel, scaled(at_row, sh) + scaled(d[4], dh), scaled(at_col, sw) + scaled(d[5], dw)))
    (y,) = b.generic(
        [x, wp],
        [init],
        [x_map, AffineMap(8, 0, (d[1], d[4], d[5], d[6], d[7])), AffineMap(8, 0, (d[0], d[1], d[2], d[3], d[7]))],
        [PARALLEL] * 4 + [REDUCTION] * 3 + [PARALLEL],
        lambda xv, wv, a: s.add(a, s.mul(xv, wv)),
    )
    y.owner.attributes[OW_TILE] = IntegerAttr(kn["ow_tile"], i64)
    y.owner.attributes[OH_TILE] = IntegerAttr(kn["oh_tile"], i64)
    image = math.prod(shape(x)[1:]) * F32_BYTES // (groups if groups > 1 else 1)
    if kn["oh_tile"] == 1 and oh > 1 and rows_outer(target, image, ob * block * cg * kh * kw * F32_BYTES, ob, oh):
        y.owner.attributes[ROWS_OUTER] = IntegerAttr(1, i64)
    return unblock(y, b, result_type, block)


def flat_pixels(op: Operation, target: TargetAttr, block: int) -> bool:
    """Whether the convolution computes on its output image as one row of ``oh * ow`` pixels,
    so that the register tiles run across the rows' ends: when that runs faster by the register
    model (:func:`~.registers.tile_cost`: a 7x7 image's rows take tiles of 4 and 3 pixels on
    AVX2, 6 accumulators for the last, where one row of 49 takes tiles of 5), and
    :func:`rows_outer` would not have the rows loop outside the channel blocks (a large image:
    one row has no rows to put outside).  Pixel ``p`` reads the input at row ``p // ow`` and
    column ``p % ow`` (a 1x1 convolution of stride 1 without padding reads its image as one
    row: :func:`pointwise`)."""
    (sh, sw), pads, _, groups = conv_params(op)
    o, cg, kh, kw = shape(op.operands[1])
    n, ic, h, wd = shape(op.operands[0])
    oh, ow = op.results[0].type.get_shape()[2:]
    if oh == 1:
        return False
    o = o // groups if groups > 1 else o
    by_row, flat = conv_knobs(target, o, oh, ow), conv_knobs(target, o, 1, oh * ow)
    vecs, rows = by_row["oc_vectors"], by_row["oh_tile"]  # (rows > 1: whole rows jammed into one tile)
    if -(-oh // rows) * tile_cost(ow * rows, by_row["ow_tile"] * rows, vecs) <= tile_cost(oh * ow, flat["ow_tile"], vecs):
        return False
    image = ic * h * wd * F32_BYTES // (groups if groups > 1 else 1)
    blocks = -(-shape(op.operands[1])[0] // block)
    return not rows_outer(target, image, blocks * block * cg * kh * kw * F32_BYTES, blocks, oh)


def pointwise(op: Operation) -> bool:
    """A 1x1 convolution of stride 1 without padding: its input pixels are its output pixels."""
    (sh, sw), pads, _, _ = conv_params(op)
    return tuple(shape(op.operands[1])[2:]) == (1, 1) and (sh, sw) == (1, 1) and not any(pads)


def unblock(y: SSAValue, b: TensorBuilder, result_type: TensorType, block: int) -> SSAValue:
    """The blocked output ``y[n][oc/C][oh][ow][C]`` copied back to NCHW (the channel padding
    dropped): in block order when the channels fill whole blocks, else in NCHW order.  ``y``'s
    pixels may be the result's rows as one (:func:`flat_pixels`): then a view reshapes them."""
    n, ob, oh, ow, _ = shape(y)
    o = result_type.get_shape()[1]
    elem = element_type(y)
    if o % block == 0:  # read the blocks in order: the stores go to C rows that stay in L1 along ow
        d5 = dims(5)  # (n, ob, oh, ow, c)
        (out,) = b.generic(
            [y], [b.empty(TensorType(elem, [n, ob, block, oh, ow]))], [AffineMap.identity(5), AffineMap(5, 0, (d5[0], d5[1], d5[4], d5[2], d5[3]))],
            [PARALLEL] * 5, lambda v, _: v,
        )  # fmt: skip
        return b.reshape(out, result_type.get_shape())
    d4 = dims(4)  # (n, oc, oh, ow)
    (out,) = b.generic(
        [y], [b.empty(TensorType(elem, [n, o, oh, ow]))], [AffineMap(4, 0, (d4[0], d4[1] // block, d4[2], d4[3], d4[1] % block)), AffineMap.identity(4)],
        [PARALLEL] * 4, lambda v, _: v,
    )  # fmt: skip
    return out if (oh, ow) == tuple(result_type.get_shape()[2:]) else b.reshape(out, result_type.get_shape())


def blocked_layout_conv_cost(op: Operation, target: TargetAttr) -> float:
    """:func:`blocked_cost` in the blocked layout: blocks of one vector, no copy back (the
    weights' re-layout still counts when they are not constants)."""
    w = op.operands[1]
    o, cg, kh, kw = shape(w)
    lanes = target["vector_width"]
    fill = -(-o // lanes) * lanes / o
    flops = float(registry.lookup_or_raise(op.name, "flops")(op))
    copies = 0 if _constant(w) is not None else o * cg * kh * kw
    return BLOCKED_COST * flops * fill / lanes + COPY_COST * copies


def blocked_cost(op: Operation, target: TargetAttr) -> float:
    """In the units of the other strategies (a direct vector step per ``lanes`` flops): the
    flops at the fill of the channel blocks (a block past the channels computes zeros), at
    BLOCKED_COST of a direct vector step; plus the copy back to NCHW, and the weights'
    re-layout at run time when they are not constants."""
    w = op.operands[1]
    o, cg, kh, kw = shape(w)
    groups = conv_params(op)[3]
    n, _, oh, ow = op.results[0].type.get_shape()
    kn = conv_knobs(target, o // groups if groups > 1 else o, oh, ow)
    fill = -(-o // kn["block"]) * kn["block"] / o
    flops = float(registry.lookup_or_raise(op.name, "flops")(op))
    copies = n * o * oh * ow + (0 if _constant(w) is not None else o * cg * kh * kw)
    return BLOCKED_COST * flops * fill / kn["lanes"] + COPY_COST * copies


# Calibrated on single-threaded measurements (thread CPU time, so that the loaded machine's
# other work does not count) of ResNet-50's convolutions on an AVX-512 host against the other
# strategies: 3x3 on 64 channels 56x56 2.4 ms blocked against 10.7 ms direct and 27 ms im2col;
# 512 channels 7x7 2.3 ms against 51 ms direct and 7.3 ms im2col; 1x1 1024 -> 256 channels
# 14x14 1.33 ms against 1.86 ms as a matmul.
BLOCKED_COST = 0.45
"""A vector step of the blocked microkernel against one of the direct form's."""
COPY_COST = 2.0
"""An element copied by a scalar loop (the output back to NCHW, the weights at run time)."""


@dataclass(frozen=True)
class CpuScheduleConvPass(ModulePass):
    """Register-tile the blocked convolutions' nests (the loops carrying ``schedule.ow_tile``)."""

    name = "cpu-schedule-conv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from strati.dialects.loop.analysis import IndexConstants
        from strati.functions import functions
        from strati.dialects.loop.ops import ForOp

        _, target = target_of(op)
        for fn in functions(op):
            consts = IndexConstants(fn)
            for loop in [o for o in fn.walk() if isinstance(o, ForOp) and OW_TILE in o.attributes]:
                tile = loop.attributes[OW_TILE]
                if not isinstance(tile, IntegerAttr) or tile.value.data < 1:
                    raise VerifyException(f"{OW_TILE} must be a positive integer, not {tile}")
                rows = loop.attributes.pop(OH_TILE, None)
                rows = rows.value.data if isinstance(rows, IntegerAttr) and rows.value.data >= 1 else 1
                outer = loop.attributes.pop(ROWS_OUTER, None)
                blocks = loop.attributes.pop(OC_BLOCKS, None)
                blocks = blocks.value.data if isinstance(blocks, IntegerAttr) and blocks.value.data >= 1 else 1
                loop.attributes.pop(OW_TILE)
                if target.get("vector_width") is not None:
                    rows_first = isinstance(outer, IntegerAttr) and outer.value.data == 1
                    schedule(loop, tile.value.data, rows, target, consts, rows_first, blocks)


def schedule(n_loop, tile: int, rows: int, target: TargetAttr, consts, rows_first: bool = False, blocks: int = 1) -> bool:
    """The microkernel of the module's docstring on the nest ``n, ob, oh, ow, kh, kw, ic, c``
    (or the depthwise form's ``n, ob, oh, ow, t, c``, :mod:`.depthwise`) whose outermost loop
    is ``n_loop``, ``oh`` and ``ob`` interchanged when ``rows_first`` (:func:`rows_outer`);
    ``blocks`` > 1: a loop ``v`` over that many output blocks before ``c`` (``OC_BLOCKS``), whose
    vectors join the register tile as ``c``'s own do.  False (the nest left as it was) when it
    is not one."""
    from strati.dialects.loop.analysis import trip_count
    from strati.dialects.loop.ops import ForOp
    from strati.transforms.scalar_replace import scalar_replace
    from strati.transforms.interchange import swap_headers
    from strati.transforms.tile import knob
    from strati.transforms.unroll_and_jam import unroll_and_jam
    from strati.transforms.vectorize import try_vectorize

    chain = [n_loop]
    while True:
        inner = [o for o in chain[-1].body.block.ops if isinstance(o, ForOp)]
        if not inner:
            break
        if len(inner) != 1 or len(chain) == 10:
            return False
        chain.append(inner[0])
    # (n, ob, oh, ow, kh, kw, ic, c); (..., icb, ici, c) in the blocked layout (conv2d_blocked),
    # with v before c there when ``blocks`` > 1; the depthwise form's (n, ob, oh, ow, t, c), the
    # taps in place of kh, kw, ic.
    v = chain[-2] if blocks > 1 else None
    if len(chain) - (v is not None) not in (6, 8, 9) or (v is not None and trip_count(v) != blocks):
        return False
    ob, oh, ow, c = chain[1], chain[2], chain[3], chain[-1]
    split_ic = len(chain) - (v is not None) == 9
    if any(isinstance(o, ForOp) for o in c.body.walk()):
        return False
    channels = (trip_count(c) or 0) * blocks  # the register tile's output channels
    if not try_vectorize(c, target, consts):
        return False
    if v is not None:  # c's vectors in v's body, v the loop over the tile's vectors as c is below
        for vector_loop in [o for o in v.body.block.ops if isinstance(o, ForOp)]:
            trips = trip_count(vector_loop)
            if trips == 1:
                _inline_single(vector_loop)
            elif trips is not None:
                unroll_and_jam(vector_loop, trips, consts)
    if rows_first and rows == 1:
        swap_headers(ob, oh)  # the loop objects keep their places: ``ob`` now runs over the rows
    if len(chain) - (v is not None) in (8, 9):
        oh, ow = chunk_channels(chain, channels, split_ic, target, consts, rows_first)
    main = unroll_and_jam(ow, tile, consts)
    if main is not None:
        knob(main, "ow_tile", tile)
        if ow.parent is not None and (left := trip_count(ow)) is not None and left > 1:
            unroll_and_jam(ow, left, consts)  # the last OW mod R pixels: one tile of their own
    elif rows > 1 and (jammed := unroll_and_jam(oh, rows, consts)) is not None:
        knob(jammed, "oh_tile", rows)  # rows shorter than the tile: whole rows jammed together
    # Each ic loop (the depthwise form's t) now holds one vector loop over the channel block
    # (R pixels jammed in it): unroll it completely and keep the R x V accumulators in
    # registers across ic.
    for ic_loop in [o for o in ob.walk() if isinstance(o, ForOp)]:
        inner = [o for o in ic_loop.body.block.ops if isinstance(o, ForOp)]
        if len(inner) != 1 or any(isinstance(o, ForOp) for o in inner[0].body.walk() if o is not inner[0]):
            continue
        if not any(o.name in ("vector.fma", "vector.load") for o in inner[0].body.walk()):
            continue
        trips = trip_count(inner[0])
        if trips is None:
            continue
        if trips > 1:
            unroll_and_jam(inner[0], trips, consts)
        else:
            _inline_single(inner[0])
        scalar_replace(ic_loop, consts)
        if split_ic and isinstance(outer := ic_loop.parent_op(), ForOp):
            scalar_replace(outer, consts)  # the accumulators across the input blocks too
    cse(n_loop)
    return True


WEIGHTS_L1_SHARE = 5 / 8
"""The share of L1 a chunk of input channels' weights may fill (:func:`chunk_channels`); the
rest holds the input rows and the partial sums.  Measured single-threaded on AVX2 (3x3, 256
channels, 56x56): chunks of 18 KB ran as fast as 9 KB ones in NCHW and faster in the blocked
layout; 36 KB ones measured slower, by about the host's noise."""


def chunk_channels(chain, channels: int, split_ic: bool, target: TargetAttr, consts, rows_first: bool):
    """Split the input channel loop (``ic``; the input blocks' ``icb`` in the blocked layout)
    into chunks whose weights fill at most :data:`WEIGHTS_L1_SHARE` of L1, and move the chunk
    loop out of the register tiles' loops (``chain``: the nest ``n, ob, oh, ow, kh, kw, ic,
    ...``), so that all the tiles of a row (or of the image) use a chunk's weights from L1,
    where each tile read all of its block's weights from L2 (256 channels 3x3: 147 KB per 16
    output channels).  The chunk loop goes above the rows when re-reading the partial sums of
    the whole image once per chunk moves fewer bytes than reading the weights once per row (a
    56x56 image of 256 channels: 6.4 MB against 8.2 MB; not a 224x224 one), else between the
    rows and the tiles; never above the rows when they loop outside the blocks
    (``rows_first``).  Each sum then runs over the chunks, each in ``kh, kw, ic`` order.
    Returns the loops over the rows and over the pixels (other loop objects than ``chain[2]``
    and ``chain[3]`` once the chunk loop moved out: a move swaps the loops' headers)."""
    from strati.dialects.loop.analysis import trip_count
    from strati.dialects.loop.ops import YieldOp as LoopYieldOp
    from strati.transforms.interchange import hoist_loop, is_header_op
    from strati.transforms.tile import tile_loop

    oh, ow, kh, kw, ic = chain[2:7]
    trips = [trip_count(loop) for loop in (oh, ow, kh, kw, ic)]
    inner = trip_count(chain[7]) if split_ic else 1  # the channels of an input block
    if None in trips or inner is None or not channels:
        return oh, ow
    rows, pixels, taps_h, taps_w, ic_trips = trips
    per_channel = taps_h * taps_w * inner * channels * F32_BYTES
    most = int(target["l1"] * WEIGHTS_L1_SHARE) // per_channel
    if most >= ic_trips:
        return oh, ow
    divisor = max(d for d in range(1, max(1, most) + 1) if ic_trips % d == 0)
    chunk = divisor if 2 * divisor > most else max(1, most)  # a divisor when one is near
    chunks = -(-ic_trips // chunk)
    partial_sums = chunks * 2 * rows * pixels * channels * F32_BYTES
    above_rows = not rows_first and partial_sums < rows * per_channel * ic_trips
    passed = chain[2:6] if above_rows else chain[3:6]  # the loops the chunk loop moves out of
    if not all(is_header_op(o) or o is inner_loop or isinstance(o, LoopYieldOp)
               for loop, inner_loop in zip(passed, (*passed[1:], ic)) for o in loop.body.block.ops):  # fmt: skip
        return oh, ow  # (something else computed between them: not a nest hoist_loop moves through)
    loop = tile_loop(ic, chunk, consts, "ic_chunk")
    for _ in range(4 if above_rows else 3):
        loop = hoist_loop(loop)
    return (chain[3], chain[4]) if above_rows else (chain[2], chain[4])


def _inline_single(loop) -> None:
    """A loop of one iteration replaced by its body (the variable its lower bound)."""
    from strati.dialects.loop.ops import YieldOp as LoopYieldOp

    block = loop.parent_block()
    loop.induction_var.replace_all_uses_with(loop.lb)
    for o in list(loop.body.block.ops):
        if isinstance(o, LoopYieldOp):
            continue
        o.detach()
        block.insert_op_before(o, loop)
    loop.detach()
    loop.erase()


def preferred_layout(op: Operation, target: TargetAttr) -> str | None:
    """``NCHW{c}c`` with ``c`` the vector width, for a convolution of one group (the blocked
    layout is the microkernel's own: ``alter-layout`` then removes the copies between
    convolutions); grouped ones keep NCHW."""
    return f"NCHW{target['vector_width']}c" if conv_params(op)[3] == 1 else None


def lower_blocked_layout(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    """graph.conv2d_blocked (which ``alter-layout`` makes): the blocked generic alone, its
    operands and result already in the blocked layout, with the register-tile knobs
    (:func:`conv_knobs`): two neighbouring output blocks per tile when the layout's block is one
    vector and the blocks pair up (``OC_BLOCKS``), the two vectors of the NCHW form's tile."""
    from strati.dialects.graph.lowering.layout import lower_conv2d_blocked

    x, w = op.operands[0], op.operands[1]
    _, ob, oh, ow, c = op.results[0].type.get_shape()
    blocks = 2 if c == target["vector_width"] and ob % 2 == 0 else 1
    kn = conv_knobs(target, blocks * c, oh, ow)
    knobs = {OW_TILE: kn["ow_tile"], OH_TILE: kn["oh_tile"]}
    if blocks > 1:
        knobs[OC_BLOCKS] = blocks
    image, weights = math.prod(shape(x)[1:]) * F32_BYTES, math.prod(shape(w)) * F32_BYTES
    if kn["oh_tile"] == 1 and oh > 1 and rows_outer(target, image, weights, ob // blocks, oh):
        knobs[ROWS_OUTER] = 1
    return lower_conv2d_blocked(op, b, knobs, blocks)


def blocked_layout_cost(op: Operation, target: TargetAttr) -> float:
    return BLOCKED_COST * float(registry.lookup_or_raise(op.name, "flops")(op)) / target["vector_width"]


register_strategy(
    Strategy(
        "blocked", "graph.conv2d_blocked", "cpu", lower_blocked_layout, blocked_layout_cost,
        lambda op, target: _static(op) and isinstance(element_type(op.operands[0]), Float32Type),
        doc="the blocked microkernel on operands and result already in the blocked layout",
    )
)  # fmt: skip

register_strategy(
    Strategy(
        "blocked", "graph.conv2d", "cpu", lower_blocked, blocked_cost, is_blocked,
        doc="output channels in vectors, a register tile of pixels, weights re-laid-out at compile time",
        layout=preferred_layout, layout_cost=blocked_layout_conv_cost,
    )
)  # fmt: skip

__all__ = ["CpuScheduleConvPass", "blocked_cost", "conv_knobs", "is_blocked", "lower_blocked", "schedule", "unblock"]
