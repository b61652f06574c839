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

from strati.dialects.graph.base import GraphOp, int_prop, ints_prop, str_prop

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
    (zero past its end), result ``NCHW{c}c`` with all of the weight's ``O/c`` blocks."""

    name = "graph.conv2d_blocked"
    input = operand_def(T)
    weight = operand_def(T)
    bias = opt_operand_def(T)
    result = result_def(T)
    strides = ints_prop((1, 1))
    pads = ints_prop((0, 0, 0, 0))  # top, left, bottom, right
    dilations = ints_prop((1, 1))
    groups = int_prop(1)


LAYOUT_OPS = [LayoutTransformOp, Conv2dBlockedOp]

__all__ = ["LAYOUT_OPS", "Conv2dBlockedOp", "LayoutTransformOp"]
