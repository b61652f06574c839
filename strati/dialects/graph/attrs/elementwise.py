"""Attributes of the elementwise ops: unary, binary with numpy broadcasting, compare, where, cast."""

from __future__ import annotations

import math

import warnings

import numpy as np
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dense import is_float8, is_narrow_float, numpy_from_dense
from strati.dialects.graph.attrs.common import (
    flops_per_result_element,
    operand_element,
    operand_shape,
    register_all,
    require_float,
    require_same_element,
    result_dtype,
)
from strati.dialects.shapes import broadcast_shapes, element_of, make_tensor
from strati.registry import OpPattern, register_op_attr

FLOAT_UNARY = ["exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "gelu", "leaky_relu"]
NUMERIC_UNARY = ["neg", "abs", "relu", "clip"]
ANY_UNARY = ["identity", "dropout"]
ARITH_BINARY = ["add", "sub", "mul", "div", "pow", "maximum", "minimum"]
COMPARE = ["equal", "less", "greater"]


def _names(ops):
    return [f"graph.{o}" for o in ops]


# --- infer_type ------------------------------------------------------------------------


def infer_same(op: Operation) -> list[TensorType]:
    return [op.operands[0].type]


def require_numeric(op: Operation, indices) -> None:
    """Arithmetic is not defined on i1 (numpy and ONNX refuse it too)."""
    for i in indices:
        if operand_element(op, i) == i1:
            raise VerifyException(f"expects a numeric tensor, got {op.operands[i].type}")


def infer_numeric_same(op: Operation) -> list[TensorType]:
    require_numeric(op, [0])
    return [op.operands[0].type]


def infer_float_same(op: Operation) -> list[TensorType]:
    require_float(op)
    return [op.operands[0].type]


def infer_broadcast(op: Operation) -> list[TensorType]:
    indices = range(len(op.operands))
    require_numeric(op, indices)
    element = operand_element(op, 0) if op.name == "graph.pow" else require_same_element(op, indices)
    shape = broadcast_shapes(*(operand_shape(op, i) for i in indices))
    return [make_tensor(shape, element)]


def infer_compare(op: Operation) -> list[TensorType]:
    require_same_element(op, range(2))
    return [make_tensor(broadcast_shapes(operand_shape(op, 0), operand_shape(op, 1)), i1)]


def infer_where(op: Operation) -> list[TensorType]:
    if operand_element(op, 0) != i1:
        raise VerifyException(f"condition must be an i1 tensor, got {op.operands[0].type}")
    element = require_same_element(op, [1, 2])
    shapes = [operand_shape(op, i) for i in range(3)]
    return [make_tensor(broadcast_shapes(*shapes), element)]


def infer_cast(op: Operation) -> list[TensorType]:
    """The operand's shape with the declared result element type (cast has no other source for it)."""
    return [make_tensor(operand_shape(op, 0), element_of(op.results[0].type))]


def infer_gelu(op: Operation) -> list[TensorType]:
    if op.param("approximate") not in ("none", "tanh"):
        raise VerifyException(f"approximate must be \"none\" or \"tanh\", got \"{op.param('approximate')}\"")
    return infer_float_same(op)


def infer_clip(op: Operation) -> list[TensorType]:
    lo, hi = op.param("min"), op.param("max")
    if lo is not None and hi is not None and lo > hi:
        raise VerifyException(f"min {lo} is greater than max {hi}")
    return infer_numeric_same(op)


def infer_dropout(op: Operation) -> list[TensorType]:
    if not 0 <= op.param("ratio") < 1:
        raise VerifyException(f"ratio must be in [0, 1), got {op.param('ratio')}")
    return infer_same(op)


register_all([n for n in _names(FLOAT_UNARY) if n != "graph.gelu"], "infer_type", infer_float_same)
register_all(["graph.neg", "graph.abs", "graph.relu"], "infer_type", infer_numeric_same)
register_op_attr("graph.identity", "infer_type", infer_same)
register_op_attr("graph.dropout", "infer_type", infer_dropout)
register_op_attr("graph.gelu", "infer_type", infer_gelu)
register_op_attr("graph.clip", "infer_type", infer_clip)
register_op_attr("graph.cast", "infer_type", infer_cast)
register_all(_names(ARITH_BINARY), "infer_type", infer_broadcast)
register_all(_names(COMPARE), "infer_type", infer_compare)
register_op_attr("graph.where", "infer_type", infer_where)
register_op_attr("graph.constant", "infer_type", lambda op: [op.value.type])

# --- reference -------------------------------------------------------------------------

_erf_object = np.frompyfunc(math.erf, 1, 1)


def _erf(x64: np.ndarray) -> np.ndarray:
    """math.erf over an array of doubles (a 0-d array stays an array)."""
    return np.asarray(_erf_object(x64), dtype=np.float64)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function to double precision (numpy has none; math.erf per element)."""
    return _erf(x.astype(np.float64)).astype(x.dtype)


def sigmoid(x: np.ndarray) -> np.ndarray:
    # The two branches avoid overflow of exp for large |x|.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e)).astype(x.dtype)


def gelu(op: Operation, x: np.ndarray) -> np.ndarray:
    x64 = x.astype(np.float64)
    if op.param("approximate") == "tanh":
        y = 0.5 * x64 * (1 + np.tanh(math.sqrt(2 / math.pi) * (x64 + 0.044715 * x64**3)))
    else:
        y = 0.5 * x64 * (1 + _erf(x64 / math.sqrt(2)).astype(np.float64))
    return y.astype(x.dtype)


def clip(op: Operation, x: np.ndarray) -> np.ndarray:
    lo, hi = op.param("min"), op.param("max")
    if lo is not None:
        x = np.maximum(x, np.array(lo).astype(x.dtype))
    if hi is not None:
        x = np.minimum(x, np.array(hi).astype(x.dtype))
    return x


def divide(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Integer division truncates toward zero, as in C and ONNX; ``x / 0`` is 0 (with a warning)
    and ``INT_MIN / -1`` wraps to INT_MIN, as compiled code does (strati.codegen.llvm ``divide``)."""
    if a.dtype.kind in "iu":
        zero = b == 0
        with np.errstate(all="ignore"):
            q = np.floor_divide(a, np.where(zero, np.ones_like(b), b))
            q = q + ((q < 0) & (q * b != a)).astype(q.dtype)
        if np.any(zero):
            warnings.warn(f"'{op.name}': integer division by zero gives 0", RuntimeWarning, stacklevel=2)
        return np.where(zero, np.zeros_like(q), q).astype(q.dtype, copy=False)
    return np.divide(a, b)


def power(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.power(a, b.astype(a.dtype) if a.dtype.kind == "f" else b).astype(a.dtype)


UNARY_REFERENCE = {
    "neg": np.negative,
    "abs": np.abs,
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: (1 / np.sqrt(x)).astype(x.dtype),
    "tanh": np.tanh,
    "sigmoid": sigmoid,
    "erf": erf,
    "relu": lambda x: np.maximum(x, np.zeros((), x.dtype)),
    "identity": lambda x: x,
    "dropout": lambda x: x,
}
BINARY_REFERENCE = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "equal": np.equal,
    "less": np.less,
    "greater": np.greater,
}

for _name, _fn in UNARY_REFERENCE.items():
    register_op_attr(f"graph.{_name}", "reference", lambda op, x, fn=_fn: fn(x))
for _name, _fn in BINARY_REFERENCE.items():
    register_op_attr(f"graph.{_name}", "reference", lambda op, a, b, fn=_fn: fn(a, b))
register_op_attr("graph.div", "reference", divide)
register_op_attr("graph.pow", "reference", power)
register_op_attr("graph.gelu", "reference", gelu)
register_op_attr("graph.clip", "reference", clip)
register_op_attr(
    "graph.leaky_relu",
    "reference",
    lambda op, x: np.where(x >= 0, x, x * np.array(op.param("alpha"), x.dtype)).astype(x.dtype),
)
def cast(op: Operation, x: np.ndarray) -> np.ndarray:
    """numpy's astype (ml_dtypes' for bf16 and float8: round to nearest even); to a float8 type
    with ``saturate``, clipped to its finite range first (NaN stays NaN), as onnx's saturate_cast."""
    to = result_dtype(op)
    if is_float8(to) and op.param("saturate") and x.dtype != np.bool_:
        import ml_dtypes  # imported where a narrow float needs it (strati.dense.narrow_floats)

        info = ml_dtypes.finfo(to)
        x = np.clip(x, x.dtype.type(float(info.min)), x.dtype.type(float(info.max))) if x.dtype.kind == "f" or is_narrow_float(x.dtype) else x
    return x.astype(to)


register_op_attr("graph.cast", "reference", cast)
register_op_attr("graph.where", "reference", lambda op, c, x, y: np.where(c, x, y))
register_op_attr("graph.constant", "reference", lambda op: numpy_from_dense(op.value))

# --- pattern and flops -----------------------------------------------------------------

register_all(_names(FLOAT_UNARY + NUMERIC_UNARY + ANY_UNARY) + ["graph.cast"], "pattern", OpPattern.ELEMWISE)
register_all(_names(ARITH_BINARY + COMPARE) + ["graph.where"], "pattern", OpPattern.BROADCAST)
register_op_attr("graph.constant", "pattern", OpPattern.OPAQUE)

# One flop per result element; GELU and sigmoid cost several; data movement none.
_FLOPS_PER_ELEMENT = {"gelu": 8, "sigmoid": 4, "cast": 0, "where": 0, "identity": 0, "dropout": 0}
for _name in FLOAT_UNARY + NUMERIC_UNARY + ANY_UNARY + ARITH_BINARY + COMPARE + ["cast", "where"]:
    register_op_attr(f"graph.{_name}", "flops", flops_per_result_element(_FLOPS_PER_ELEMENT.get(_name, 1)))
register_op_attr("graph.constant", "flops", lambda op: 0)
