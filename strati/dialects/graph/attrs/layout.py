"""infer_type, reference, pattern and flops of the layout ops (``strati.dialects.graph.ops_layout``).

The references define the layouts: a blocked tensor is the plain one with its channels
zero-padded to whole blocks of ``c``, split as ``(C/c, c)`` and the ``c`` moved last.
graph.conv2d_blocked's reference unblocks its operands, convolves as graph.conv2d, and
blocks its result, so every layout rewrite is checked against the plain graph.
"""

from __future__ import annotations

import re

import numpy as np
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.common import operand_element, operand_shape, result_shape
from strati.dialects.graph.attrs.nn import conv2d, conv_params, finish, window_out
from strati.dialects.shapes import fmt, make_tensor
from strati.registry import OpPattern, register_op_attr

PLAIN = {"act": "NCHW", "weight": "OIHW"}
_BLOCKED = {"act": re.compile(r"NCHW(\d+)c"), "weight": re.compile(r"OHWI(\d+)o")}


def blocked_layout(kind: str, c: int) -> str:
    """The name of the blocked layout of ``kind`` (``act`` or ``weight``) with blocks of ``c``."""
    return f"NCHW{c}c" if kind == "act" else f"OHWI{c}o"


def parse_layout(name: str) -> tuple[str, int | None]:
    """``(kind, block)``: the kind (``act``, ``weight``) and block of a layout name (None: plain)."""
    for kind, plain in PLAIN.items():
        if name == plain:
            return kind, None
        if (m := _BLOCKED[kind].fullmatch(name)) and int(m.group(1)) > 0:
            return kind, int(m.group(1))
    raise VerifyException(f"unknown layout '{name}' (layouts: NCHW, NCHW{{c}}c, OIHW, OHWI{{c}}o)")


def transform_params(op: Operation) -> tuple[str, int, bool]:
    """``(kind, block, to_blocked)`` of a graph.layout_transform (one side plain, the other blocked)."""
    (ks, bs), (kd, bd) = parse_layout(op.param("src")), parse_layout(op.param("dst"))
    if ks != kd or (bs is None) == (bd is None):
        raise VerifyException(f"cannot transform layout '{op.param('src')}' to '{op.param('dst')}': one must be the blocked form of the other")
    return ks, bs or bd, bs is None


def _blocks(n: int | None, c: int) -> int | None:
    return None if n is None else -(-n // c)


def infer_layout_transform(op: Operation) -> list:
    kind, c, to_blocked = transform_params(op)
    src = operand_shape(op, 0)
    element = operand_element(op, 0)
    if len(src) != (4 if to_blocked else 5):
        raise VerifyException(f"a {op.param('src')} tensor has rank {4 if to_blocked else 5}, got {op.operands[0].type}")
    if to_blocked:
        if kind == "act":
            n, ch, h, w = src
            return [make_tensor((n, _blocks(ch, c), h, w, c), element)]
        o, i, kh, kw = src
        return [make_tensor((_blocks(o, c), kh, kw, i, c), element)]
    if src[4] is not None and src[4] != c:
        raise VerifyException(f"a {op.param('src')} tensor's last dimension is {c}, got {src[4]}")
    declared = result_shape(op)
    if len(declared) != 4:
        raise VerifyException(f"a {op.param('dst')} result has rank 4, got {op.results[0].type}")
    channels = declared[0] if kind == "weight" else declared[1]
    blocks = src[0] if kind == "weight" else src[1]
    if channels is not None and blocks is not None and _blocks(channels, c) != blocks:
        raise VerifyException(f"{channels} channels do not fill {blocks} blocks of {c}")
    if kind == "act":
        n, _, h, w, _ = src
        return [make_tensor((n, channels, h, w), element)]
    _, kh, kw, i, _ = src
    return [make_tensor((channels, i, kh, kw), element)]


def to_blocked(x: np.ndarray, kind: str, c: int) -> np.ndarray:
    """``x`` (NCHW or OIHW) in its blocked layout, the channels zero-padded."""
    axis = 1 if kind == "act" else 0
    blocks = -(-x.shape[axis] // c)
    widths = [(0, 0)] * 4
    widths[axis] = (0, blocks * c - x.shape[axis])
    x = np.pad(x, widths)
    if kind == "act":
        n, _, h, w = x.shape
        return np.ascontiguousarray(x.reshape(n, blocks, c, h, w).transpose(0, 1, 3, 4, 2))
    _, i, kh, kw = x.shape
    return np.ascontiguousarray(x.reshape(blocks, c, i, kh, kw).transpose(0, 3, 4, 2, 1))


def from_blocked(x: np.ndarray, kind: str, channels: int) -> np.ndarray:
    """The plain tensor (NCHW or OIHW) of ``channels`` channels from its blocked layout."""
    if kind == "act":
        n, blocks, h, w, c = x.shape
        return np.ascontiguousarray(x.transpose(0, 1, 4, 2, 3).reshape(n, blocks * c, h, w)[:, :channels])
    blocks, kh, kw, i, c = x.shape
    return np.ascontiguousarray(x.transpose(0, 4, 3, 1, 2).reshape(blocks * c, i, kh, kw)[:channels])


def layout_transform(op: Operation, x: np.ndarray) -> np.ndarray:
    kind, c, blocking = transform_params(op)
    if blocking:
        return to_blocked(x, kind, c)
    dst = result_shape(op)
    return from_blocked(x, kind, dst[1] if kind == "act" else dst[0])


def _conv_blocked_geometry(op: Operation):
    """The convolution's parameters, the input's ``(n, icb, h, w, c)`` (``(n, ic, h, w, None)``
    for an NCHW input) and the weight's ``(ob, kh, kw, i, c)``."""
    strides, pads, dilations, groups = conv_params(op)
    if groups != 1:
        raise VerifyException(f"graph.conv2d_blocked has one group, got groups = {groups}")
    if len(operand_shape(op, 0)) not in (4, 5) or len(operand_shape(op, 1)) != 5:
        raise VerifyException("input (NCHW{c}c or NCHW) must have rank 5 or 4, and weight (OHWI{c}o) rank 5")
    x = operand_shape(op, 0)
    ob, kh, kw, i, cw = operand_shape(op, 1)
    return strides, pads, dilations, (*x, None) if len(x) == 4 else x, (ob, kh, kw, i, cw)


def infer_conv2d_blocked(op: Operation) -> list:
    from strati.dialects.graph.attrs.nn import require_float_same

    has_bias = len(op.operands) == 3
    element = require_float_same(op, [0, 1, 2] if has_bias else [0, 1])
    strides, pads, dilations, (n, icb, h, w, c), (ob, kh, kw, i, cw) = _conv_blocked_geometry(op)
    if len(operand_shape(op, 0)) == 4:  # NCHW: icb counts channels
        if None not in (icb, i) and icb != i:
            raise VerifyException(f"weight input channels {i} differ from the NCHW input's {icb}")
        c = cw
    elif None not in (c, cw) and c != cw:
        raise VerifyException(f"input blocks of {c} channels and weight blocks of {cw} differ")
    elif None not in (icb, i, c) and _blocks(i, c) != icb:
        raise VerifyException(f"weight input channels {i} do not fill the input's {icb} blocks of {c}")
    if has_bias:
        bias = operand_shape(op, 2)
        if len(bias) != 1 or (None not in (bias[0], ob, c) and not (ob - 1) * c < bias[0] <= ob * c):
            raise VerifyException(f"bias must have the weight's {fmt((ob,))} blocks of {c} channels, got {op.operands[2].type}")
    oh = window_out(h, kh, strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(w, kw, strides[1], pads[1], pads[3], dilations[1], False, "width")
    return [make_tensor((n, ob, oh, ow, c), element)]


def conv2d_blocked(op: Operation, x: np.ndarray, w: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    ob, _, _, i, c = w.shape
    xp = x if x.ndim == 4 else from_blocked(x, "act", i)
    wp = from_blocked(w, "weight", ob * c)
    if bias is not None:
        bias = np.pad(bias, (0, ob * c - bias.shape[0]))
    return finish(op, to_blocked(conv2d(op, xp, wp, bias), "act", c))


def conv2d_blocked_flops(op: Operation) -> int:
    """graph.conv2d's count over the blocked result (the padding channels included)."""
    ob, kh, kw, i, c = operand_shape(op, 1)
    if None in (kh, kw, i):
        return 0
    out = 1
    for d in result_shape(op):
        out *= d or 0
    return 2 * out * i * kh * kw + (out if len(op.operands) == 3 else 0)


def _pool_flops(op: Operation) -> int:
    """One per tap of every window, the blocked result's elements (padding lanes included)."""
    kernel = op.param("kernel")
    out = 1
    for d in result_shape(op):
        out *= d or 0
    return out * kernel[0] * kernel[1]


def _pool_blocked(name: str):
    """infer_type and reference of a blocked pooling op from the plain op's: the blocks and
    lanes folded into the channels (``(n, cb*c, h, w)``), pooled, unfolded."""
    from strati.dialects.graph.attrs import nn

    plain = {"graph.max_pool2d_blocked": (lambda op: nn.require_numeric(op, [0]), nn.max_pool2d),
             "graph.avg_pool2d_blocked": (lambda op: nn.require_float(op), nn.avg_pool2d)}[name]  # fmt: skip

    def infer(op: Operation) -> list:
        x = operand_shape(op, 0)
        if len(x) != 5:
            raise VerifyException(f"input must have rank 5 (NCHW{{c}}c), got {op.operands[0].type}")
        n, cb, h, w, c = x
        _, _, oh, ow = nn.pool_out_shape(op, (n, None if None in (cb, c) else cb * c, h, w))
        element = plain[0](op)  # the plain op's element rules
        return [make_tensor((n, cb, oh, ow, c), element)]

    def reference(op: Operation, x: np.ndarray) -> np.ndarray:
        n, cb, h, w, c = x.shape
        y = plain[1](op, np.ascontiguousarray(x.transpose(0, 1, 4, 2, 3)).reshape(n, cb * c, h, w))
        return finish(op, y.reshape(n, cb, c, *y.shape[2:]).transpose(0, 1, 3, 4, 2))

    return infer, reference


for _name in ("graph.max_pool2d_blocked", "graph.avg_pool2d_blocked"):
    _infer, _reference = _pool_blocked(_name)
    register_op_attr(_name, "infer_type", _infer)
    register_op_attr(_name, "reference", _reference)
    register_op_attr(_name, "pattern", OpPattern.OUT_ELEMWISE_FUSABLE)
    register_op_attr(_name, "flops", _pool_flops)

register_op_attr("graph.layout_transform", "infer_type", infer_layout_transform)
register_op_attr("graph.layout_transform", "reference", layout_transform)
register_op_attr("graph.layout_transform", "pattern", OpPattern.OPAQUE)  # a copy of its own: fused into the conv that reads it, it would undo the layout
register_op_attr("graph.layout_transform", "flops", lambda op: 0)
register_op_attr("graph.conv2d_blocked", "infer_type", infer_conv2d_blocked)
register_op_attr("graph.conv2d_blocked", "reference", conv2d_blocked)
register_op_attr("graph.conv2d_blocked", "pattern", OpPattern.OUT_ELEMWISE_FUSABLE)
register_op_attr("graph.conv2d_blocked", "flops", conv2d_blocked_flops)

__all__ = ["blocked_layout", "conv2d_blocked", "from_blocked", "layout_transform", "parse_layout", "to_blocked", "transform_params"]
