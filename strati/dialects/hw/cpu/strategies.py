"""The CPU's strategies (:mod:`strati.strategy`): which tensor-level form an op takes on it.

``graph.conv2d`` has three here (and ``blocked`` in :mod:`.conv`, ``depthwise`` in :mod:`.depthwise`):

* ``direct``: the op's own ``lower`` (loops n, oc, oh, ow over ic, kh, kw); after
  interchange the output row ``ow`` is the vector loop, so a row narrower than the
  vector wastes lanes, and a stride > 1 along the row leaves it scalar.
* ``1x1_as_matmul``: a 1x1 convolution with stride 1, no padding, one group is a
  matmul per image, ``out[n] = w[:, :, 0, 0] @ x[n].reshape(c, h*w)``: the vector loop
  runs over the whole image ``h*w`` instead of one row.
* ``im2col``: any other convolution with one group: the patches are first gathered into a
  ``(c*kh*kw) x (oh*ow)`` matrix (a copy, strided when the convolution is), then the same
  matmul.  It turns a strided convolution, scalar in the direct form, into vector code,
  at the price of the copy.

The matmul forms take grouped convolutions too (groups of more than one input and output
channel): one matmul per image and group, the patch matrix split by a reshape.

The costs are the op's flops scaled by how well the form's vector loop fills the target's
vectors (``vector_width`` lanes, :func:`vector_fill`), plus what the matmul forms add:
streaming long rows (unless ``cpu-schedule-matmul`` register-tiles the nest), copying
patches, re-reading a patch matrix larger than L2 (the ``l2`` field).  The weights are calibrated on measurements (see the constants).
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from strati import registry
from strati.dialects.graph.attrs.nn import conv_params
from strati.dialects.loop.ops import element_bytes
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.shapes import shape_of
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, dims, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.strategy import Strategy, register_strategy


def vector_fill(trips: int, lanes: int) -> float:
    """Steps per iteration of a loop of ``trips`` iterations vectorised as ``vectorize`` does:
    ``lanes`` wide, then each known remainder with half as many lanes down to MIN_LANES,
    the rest scalar."""
    from strati.transforms.vectorize import MIN_LANES

    steps, left = 0, trips
    while lanes >= MIN_LANES:
        steps, left = steps + left // lanes, left % lanes
        lanes //= 2
    return (steps + left) / max(1, trips)


def _flops(op: Operation) -> float:
    return float(registry.lookup_or_raise(op.name, "flops")(op))


def direct_cost(op: Operation, target: TargetAttr) -> float:
    (_, sw), _, _, _ = conv_params(op)
    ow = op.results[0].type.get_shape()[3]
    return _flops(op) * (1.0 if sw != 1 else vector_fill(ow, target["vector_width"]))


def lower_direct(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    return registry.lookup_or_raise(op.name, "lower")(op, b)


def _static(op: Operation) -> bool:
    return all(isinstance(v.type, TensorType) and None not in shape_of(v.type) for v in (*op.operands, *op.results))


def _matmul_groups(op: Operation) -> bool:
    """One group, or groups of more than one input and output channel each (a depthwise
    convolution's groups would be matmuls of one row: :mod:`.depthwise` and ``direct`` do better)."""
    groups = conv_params(op)[3]
    o, cg, _, _ = shape(op.operands[1])
    return groups == 1 or (cg > 1 and o // groups > 1)


def is_pointwise(op: Operation, target: TargetAttr) -> bool:
    if not _static(op):
        return False  # the tensor level is static: the op's own lower says why
    strides, pads, _, _ = conv_params(op)
    _, _, kh, kw = shape(op.operands[1])
    return (kh, kw) == (1, 1) and tuple(strides) == (1, 1) and not any(pads) and _matmul_groups(op)


def is_im2col(op: Operation, target: TargetAttr) -> bool:
    return _static(op) and _matmul_groups(op) and not is_pointwise(op, target)


def scheduled(op: Operation) -> bool:
    """Whether the matmul form's nests (one per image and group) are big enough for
    ``cpu-schedule-matmul`` (register tiles)."""
    from strati.dialects.hw.cpu.matmul import MIN_WORK

    n = op.results[0].type.get_shape()[0]
    return _flops(op) / 2 / max(1, n * conv_params(op)[3]) >= MIN_WORK


def pointwise_cost(op: Operation, target: TargetAttr) -> float:
    _, _, oh, ow = op.results[0].type.get_shape()
    stream = SCHEDULED_MATMUL_COST if scheduled(op) else MATMUL_STREAM_COST
    return stream * _flops(op) * vector_fill(oh * ow, target["vector_width"])


def im2col_cost(op: Operation, target: TargetAttr) -> float:
    """The matmul's, plus gathering the patches (one copy per element of the patch matrix,
    vectorised along the row when the stride is 1), plus reading the patch matrix again for
    every output channel (of its group) when it does not fit the L2 cache (the matmul's loops
    are oc, r, p)."""
    (_, sw), _, _, groups = conv_params(op)
    n, c, _, _ = shape(op.operands[0])
    o, _, kh, kw = shape(op.operands[1])
    _, _, oh, ow = op.results[0].type.get_shape()
    patch = n * c * kh * kw * oh * ow
    copies = patch * (vector_fill(ow, target["vector_width"]) if sw == 1 else 1.0)
    fits = patch * (element_bytes(element_type(op.operands[0])) or 4) <= target["l2"]
    return pointwise_cost(op, target) + PATCH_COPY_COST * copies + L2_MISS_COST * patch * (1 if fits else o // groups)


# The weights of the cost model, calibrated on measurements of both forms of 14 convolutions
# (ResNet's shapes, 1x1 to 7x7, strides 1 and 2, 7x7 to 224x224 images) on an AVX-512 host
# with a 1 MiB L2: with them the model picks the faster form in every case measured.
MATMUL_STREAM_COST = 1.6
"""A vector step of the matmul form against one of the direct form: its vector loop streams
a whole image row of accumulators through the cache at every reduction step, where the
direct form's row stays in registers and L1."""
SCHEDULED_MATMUL_COST = 0.6
"""The same for a matmul form that ``cpu-schedule-matmul`` blocks and register-tiles (its
accumulators stay in registers).  Measured interleaved on a loaded 2-core AVX-512 machine
(15 calls each, minimum and median): a 1x1 convolution 64 -> 256 channels on 56x56 takes
1.6 ms as a matmul against 8.8 ms direct, 3x3 on 256 channels 14x14 3.6 ms im2col against
24 ms direct, while 3x3 on 64 channels 56x56 stays faster direct (2.9 ms against 9.3 ms:
its 7 MB patch matrix, the L2 term), and so it does with 8-lane (AVX2) code: 4.4 ms direct
against 13.8 ms im2col."""
PATCH_COPY_COST = 4.0
"""A patch element copied (a load and a store through memory), in vector steps."""
L2_MISS_COST = 0.1
"""A patch element read again from beyond L2, in vector steps."""


def lower_as_matmul(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    """One matmul per image and group: ``out[n*G + g, oc, p] = sum_r w[g, oc, r] * cols[n*G + g, r, p]``,
    loops (n*G + g, oc, p, r), from the bias (or 0), where ``p`` runs over the output pixels,
    ``r`` over the group's (ic, kh, kw) and ``oc`` over its output channels.  ``cols`` is the
    image itself for a pointwise convolution, else the patches gathered from the padded input
    (im2col); with ``G`` groups, each image's patch matrix is ``G`` of them one after the other
    (its rows are channel-major), so a reshape splits it."""
    from strati.dialects.graph.lowering.nn import acc_type, conv_patches

    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    groups = conv_params(op)[3]
    n, c, _, _ = shape(x)
    o, cg, kh, kw = shape(w)
    og = o // groups
    _, _, oh, ow = result_type.get_shape()
    elem = element_type(x)
    acc = acc_type(elem)
    r, p, batch = cg * kh * kw, oh * ow, n * groups
    cols = conv_patches(op, b)
    if groups > 1:
        cols = b.reshape(cols, (batch, r, p))
    w2 = b.reshape(w, (o, r)) if groups == 1 else b.reshape(w, (groups, og, r))
    acc_t = TensorType(acc, [batch, og, p])
    d = dims(4)
    group = d[0] if groups == 1 or n == 1 else d[0] % groups  # the weights' (and bias's) group of a batch row
    if bias is None:
        init = b.filled(0, acc_t)
    else:
        d3 = dims(3)
        g3 = d3[0] if groups == 1 or n == 1 else d3[0] % groups
        bias_map = AffineMap(3, 0, (d3[1],)) if groups == 1 else AffineMap(3, 0, (g3, d3[1]))
        (init,) = b.generic(
            [bias if groups == 1 else b.reshape(bias, (groups, og))], [b.empty(acc_t)], [bias_map, AffineMap.identity(3)],
            [PARALLEL] * 3, lambda v, _: s.cast(v, acc),
        )  # fmt: skip
    w_map = AffineMap(4, 0, (d[1], d[3])) if groups == 1 else AffineMap(4, 0, (group, d[1], d[3]))
    (y,) = b.generic(
        [cols, w2],
        [init],
        [AffineMap(4, 0, (d[0], d[3], d[2])), w_map, AffineMap(4, 0, (d[0], d[1], d[2]))],
        [PARALLEL, PARALLEL, PARALLEL, REDUCTION],
        lambda xv, wv, a: s.add(a, s.mul(s.cast(xv, acc), s.cast(wv, acc))),
    )
    if acc != elem:
        y = b.elementwise([y], TensorType(elem, [batch, og, p]), lambda v: s.cast(v, elem))
    return b.reshape(y, result_type.get_shape())


STRATEGIES = (
    Strategy("direct", "graph.conv2d", "cpu", lower_direct, direct_cost, doc="the op's own loops, vectorised along the output row"),
    Strategy(
        "1x1_as_matmul", "graph.conv2d", "cpu", lower_as_matmul, pointwise_cost, is_pointwise,
        doc="a pointwise convolution as one matmul per image, vectorised along the whole image",
    ),
    Strategy(
        "im2col", "graph.conv2d", "cpu", lower_as_matmul, im2col_cost, is_im2col,
        doc="the patches gathered into a matrix, then one matmul per image vectorised along the whole image",
    ),
)  # fmt: skip

for _strategy in STRATEGIES:
    register_strategy(_strategy)
