"""The graph dialect's layout ops, which ``alter-layout`` introduces for a target whose
convolutions prefer a blocked channel layout: a layout change, and a convolution that
consumes and produces the blocked layout.  Importers never make them; their rules are in
``attrs/layout.py``.

Layouts are strings: ``NCHW`` and ``OIHW`` (the graph's own), ``NCHW{c}c`` (activations:
``x[n][C/c][h][w][c]``, channel ``i`` at block ``i // c``, lane ``i % c``, the channels
zero-padded to a multiple of ``c``) and ``OHWI{c}o`` (convolution weights:
``w[O/c][kh][kw][I][c]``, output channel ``o`` at block ``o // c``, lane ``o % c``).
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.irdl import irdl_op_definition, operand_def, opt_operand_def, result_def

from strati.dialects.graph.base import GraphOp, bool_prop, int_prop, ints_prop, str_prop
from strati.dialects.graph.ops import Pool2dOp

T = TensorType


@irdl_op_definition
class LayoutTransformOp(GraphOp):
    """The same tensor in another layout (``src`` to ``dst``): to a blocked layout the
    channels are zero-padded to whole blocks; from one, the padding is dropped (the result
    type says how many channels there are)."""

    name = "graph.layout_transform"
    x = operand_def(T)
    result = result_def(T)
    src = str_prop()
    dst = str_prop()


@irdl_op_definition
class Conv2dBlockedOp(GraphOp):
    """graph.conv2d (one group) in the blocked layout: input ``NCHW{c}c``, weight ``OHWI{c}o``
    (its ``I`` the input's real channels), optional bias of at most ``O/c * c`` channels
    (zero past its end), result ``NCHW{c}c`` with all of the weight's ``O/c`` blocks.  The
    input may also be NCHW (``I`` channels): a network's first convolution, whose 3 colour
    channels would be mostly padding in a block."""

    name = "graph.conv2d_blocked"
    input = operand_def(T)
    weight = operand_def(T)
    bias = opt_operand_def(T)
    result = result_def(T)
    strides = ints_prop((1, 1))
    pads = ints_prop((0, 0, 0, 0))  # top, left, bottom, right
    dilations = ints_prop((1, 1))
    groups = int_prop(1)


@irdl_op_definition
class MaxPool2dBlockedOp(Pool2dOp):
    """graph.max_pool2d on an ``NCHW{c}c`` tensor (the lanes pooled alike, padding ones too)."""

    name = "graph.max_pool2d_blocked"


@irdl_op_definition
class AvgPool2dBlockedOp(Pool2dOp):
    """graph.avg_pool2d on an ``NCHW{c}c`` tensor."""

    name = "graph.avg_pool2d_blocked"
    count_include_pad = bool_prop(False)


BLOCKED_POOLS = {"graph.max_pool2d": MaxPool2dBlockedOp, "graph.avg_pool2d": AvgPool2dBlockedOp}
"""The blocked form of each pooling op: same properties, an ``NCHW{c}c`` operand and result."""

LAYOUT_OPS = [LayoutTransformOp, Conv2dBlockedOp, MaxPool2dBlockedOp, AvgPool2dBlockedOp]

__all__ = ["BLOCKED_POOLS", "LAYOUT_OPS", "AvgPool2dBlockedOp", "Conv2dBlockedOp", "LayoutTransformOp", "MaxPool2dBlockedOp"]
