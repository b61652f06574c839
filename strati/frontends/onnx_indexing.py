"""ONNX converters for the ops that index by values (GatherElements, GatherND, ScatterND,
CumSum, CumProd, TopK), the trigonometric family and BitShift: each one graph op; OneHot
as a comparison with an iota.

Registered with ``strati.frontends.onnx.op`` as the converters there; loaded by that module.
"""

from __future__ import annotations

import numpy as np

from strati.frontends.onnx import Node, NodeError, NodeInfo, op

TRIGONOMETRIC = {
    "Sin": "sin", "Cos": "cos", "Tan": "tan", "Asin": "asin", "Acos": "acos", "Atan": "atan",
    "Sinh": "sinh", "Cosh": "cosh", "Asinh": "asinh", "Acosh": "acosh", "Atanh": "atanh",
}  # fmt: skip


@op(*TRIGONOMETRIC)
def _trigonometric(n: Node):
    return n.b.unary(TRIGONOMETRIC[n.op_type], n.x(0))


@op("GatherElements")
def _gather_elements(n: Node):
    return n.b.op("graph.gather_elements", [n.x(0), n.x(1)], {"axis": n.a("axis", 0)})


@op("GatherND")
def _gather_nd(n: Node):
    return n.b.op("graph.gather_nd", [n.x(0), n.x(1)], {"batch_dims": n.a("batch_dims", 0)})


@op("ScatterND")
def _scatter_nd(n: Node):
    return n.b.op("graph.scatter_nd", [n.x(0), n.x(1), n.x(2)], {"reduction": n.a("reduction", "none")})


@op("CumSum", "CumProd", static=(1,))
def _cumsum(n: Node):
    axis = n.need_const(1, "axis").reshape(-1)
    if axis.size != 1:
        raise NodeError(f"axis must be one integer, got {axis.size} values")
    props = {"axis": int(axis[0]), "exclusive": bool(n.a("exclusive", 0)), "reverse": bool(n.a("reverse", 0))}
    return n.b.op("graph.cumsum" if n.op_type == "CumSum" else "graph.cumprod", [n.x(0)], props)


@op("TopK", static=lambda v: (1,) if v >= 10 else ())
def _topk(n: Node):
    """Always sorted: ``sorted = 0`` leaves the order to the implementation."""
    if n.v >= 10:
        k = n.need_const(1, "K").reshape(-1)
        if k.size != 1:
            raise NodeError(f"K must be one integer, got {k.size} values")
        k = int(k[0])
    else:
        k = int(n.a("k"))
    props = {"k": k, "axis": n.a("axis", -1), "largest": bool(n.a("largest", 1))}
    return n.b.op("graph.topk", [n.x(0)], props, results=2)


def _check_bit_shift(info: NodeInfo) -> list[str]:
    direction = info.a("direction")
    return [] if direction in ("LEFT", "RIGHT") else [f"direction={direction}"]


@op("BitShift", check=_check_bit_shift)
def _bit_shift(n: Node):
    return n.b.op("graph.bit_shift", [n.x(0), n.x(1)], {"direction": n.a("direction").lower()})


@op("OneHot", static=(1,))
def _one_hot(n: Node):
    """``where(indices == iota(depth), on, off)`` with the new axis at ``axis``: a negative
    index counts from ``depth``; one out of range matches nothing (all ``off``)."""
    depth = n.need_const(1, "depth").reshape(-1)
    if depth.size != 1 or depth[0] < 1:
        raise NodeError(f"depth must be one positive value, got {depth.tolist()}")
    depth = int(depth[0])
    shape = n.static_shape(0)
    rank = len(shape) + 1
    axis = n.a("axis", -1)
    if not -rank <= axis < rank:
        raise NodeError(f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    i64 = np.dtype(np.int64)
    indices = n.x(0) if n.dtype(0) == i64 else n.b.cast(n.x(0), i64)
    negative = n.b.binary("less", indices, n.b.scalar(0, i64))
    indices = n.b.op("graph.where", [negative, n.b.binary("add", indices, n.b.scalar(depth, i64)), indices])
    indices = n.b.op("graph.unsqueeze", [indices], {"axes": (axis,)})
    iota = np.arange(depth, dtype=i64).reshape([depth if d == axis else 1 for d in range(rank)])
    hot = n.b.binary("equal", indices, n.b.constant(iota))
    values = n.x(2)
    off = n.b.op("graph.gather", [values, n.b.scalar(0, i64)], {"axis": 0})
    on = n.b.op("graph.gather", [values, n.b.scalar(1, i64)], {"axis": 0})
    return n.b.op("graph.where", [hot, on, off])
