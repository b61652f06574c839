"""The CPU's strategies (:mod:`strati.strategy`): which tensor-level form an op takes on it.

``graph.conv2d`` has two:

* ``direct``: the op's own ``lower`` (loops n, oc, oh, ow over ic, kh, kw); after
  interchange the output row ``ow`` is the vector loop, so a row narrower than the
  vector wastes lanes, and a stride > 1 along the row leaves it scalar.
* ``1x1_as_matmul``: a 1x1 convolution with stride 1, no padding, one group is a
  matmul per image, ``out[n] = w[:, :, 0, 0] @ x[n].reshape(c, h*w)``: the vector loop
  runs over the whole image ``h*w`` instead of one row.

Both costs are the op's flops scaled by how well its vector loop fills the target's
vectors (``vector_width`` lanes): a loop of ``t`` iterations costs ``t // lanes`` vector
steps plus ``t % lanes`` scalar ones.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from strati import registry
from strati.dialects.graph.attrs.nn import conv_params
from strati.dialects.hw.ops import TargetAttr
from strati.dialects.shapes import shape_of
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, dims, element_type, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.strategy import Strategy, register_strategy


def vector_fill(trips: int, lanes: int) -> float:
    """Steps per iteration of a loop of ``trips`` iterations vectorised ``lanes`` wide."""
    return (trips // lanes + trips % lanes) / max(1, trips)


def _flops(op: Operation) -> float:
    return float(registry.lookup_or_raise(op.name, "flops")(op))


def direct_cost(op: Operation, target: TargetAttr) -> float:
    (_, sw), _, _, _ = conv_params(op)
    ow = op.results[0].type.get_shape()[3]
    return _flops(op) * (1.0 if sw != 1 else vector_fill(ow, target["vector_width"]))


def lower_direct(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    return registry.lookup_or_raise(op.name, "lower")(op, b)


def is_pointwise(op: Operation, target: TargetAttr) -> bool:
    if not all(isinstance(v.type, TensorType) and None not in shape_of(v.type) for v in (*op.operands, *op.results)):
        return False  # the tensor level is static: the op's own lower says why
    strides, pads, _, groups = conv_params(op)
    _, _, kh, kw = shape(op.operands[1])
    return (kh, kw) == (1, 1) and tuple(strides) == (1, 1) and not any(pads) and groups == 1


def pointwise_cost(op: Operation, target: TargetAttr) -> float:
    _, _, oh, ow = op.results[0].type.get_shape()
    return _flops(op) * vector_fill(oh * ow, target["vector_width"])


def lower_pointwise(op: Operation, b: TensorBuilder, target: TargetAttr) -> SSAValue:
    """Loops (n, oc, p, ic) over the image flattened to ``p = h*w``, from the bias (or 0)."""
    from strati.dialects.graph.lowering.nn import acc_type

    x, w = op.operands[0], op.operands[1]
    bias = op.operands[2] if len(op.operands) == 3 else None
    result_type = op.results[0].type
    n, c, h, wd = shape(x)
    o = shape(w)[0]
    elem = element_type(x)
    acc = acc_type(elem)
    x3 = b.reshape(x, (n, c, h * wd))
    w2 = b.reshape(w, (o, c))
    acc_t = TensorType(acc, [n, o, h * wd])
    d = dims(4)
    if bias is None:
        init = b.filled(0, acc_t)
    else:
        (init,) = b.generic(
            [bias], [b.empty(acc_t)], [AffineMap(3, 0, (dims(3)[1],)), AffineMap.identity(3)], [PARALLEL] * 3,
            lambda v, _: s.cast(v, acc),
        )
    (y,) = b.generic(
        [x3, w2],
        [init],
        [AffineMap(4, 0, (d[0], d[3], d[2])), AffineMap(4, 0, (d[1], d[3])), AffineMap(4, 0, (d[0], d[1], d[2]))],
        [PARALLEL, PARALLEL, PARALLEL, REDUCTION],
        lambda xv, wv, a: s.add(a, s.mul(s.cast(xv, acc), s.cast(wv, acc))),
    )
    if acc != elem:
        y = b.elementwise([y], TensorType(elem, [n, o, h * wd]), lambda v: s.cast(v, elem))
    return b.reshape(y, result_type.get_shape())


STRATEGIES = (
    Strategy("direct", "graph.conv2d", "cpu", lower_direct, direct_cost, doc="the op's own loops, vectorised along the output row"),
    Strategy(
        "1x1_as_matmul", "graph.conv2d", "cpu", lower_pointwise, pointwise_cost, is_pointwise,
        doc="a pointwise convolution as one matmul per image, vectorised along the whole image",
    ),
)  # fmt: skip

for _strategy in STRATEGIES:
    register_strategy(_strategy)
