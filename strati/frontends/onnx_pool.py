"""ONNX LpPool as a depthwise convolution: ``(sum over the window of |x|**p) ** (1/p)``, the
window sum a convolution of ``|x|**p`` by ones, one group per channel (so strides,
dilations, explicit and automatic pads are the convolution's; padding adds zeros, as
onnxruntime's LpPool).  1-D and 2-D windows; ceil_mode is refused."""

from __future__ import annotations

import numpy as np

from strati.frontends.onnx import Node, NodeError, NodeInfo, _check_auto_pad, _conv2d, _window_geometry, op


def _check_lp_pool(info: NodeInfo) -> list[str]:
    out = _check_auto_pad(info)
    rank = info.rank(0)
    if rank is not None and rank not in (3, 4):
        out.append(f"with {rank - 2} spatial dimensions")
    if info.a("ceil_mode", 0):
        out.append("ceil_mode=1")
    return out


@op("LpPool", check=_check_lp_pool)
def _lp_pool(n: Node):
    shape = n.static_shape(0)
    kernel = n.ints("kernel_shape")
    if kernel is None or len(kernel) != len(shape) - 2 or len(kernel) not in (1, 2):
        raise NodeError(f"kernel_shape {kernel} does not fit an input of rank {len(shape)} (1-D or 2-D windows)")
    p = n.a("p", 2)
    dtype = n.dtype(0)
    x = n.b.unary("abs", n.x(0))
    if p != 1:
        x = n.b.binary("pow", x, n.b.scalar(p, dtype))
    strides, dilations, begins, ends = _window_geometry(n, shape[2:], kernel)
    channels = shape[1]
    if len(kernel) == 1:
        x = n.b.op("graph.unsqueeze", [x], {"axes": (2,)})
        kernel, strides, dilations = [1, kernel[0]], [1, strides[0]], [1, dilations[0]]
        begins, ends = [0, begins[0]], [0, ends[0]]
    ones = n.b.constant(np.ones((channels, 1, *kernel), dtype))
    y = _conv2d(n, x, ones, None, strides, begins + ends, dilations, channels)
    if len(shape) == 3:
        y = n.b.op("graph.squeeze", [y], {"axes": (2,)})
    if p == 1:
        return y
    if p == 2:
        return n.b.unary("sqrt", y)
    return n.b.binary("pow", y, n.b.scalar(1.0 / p, dtype))
