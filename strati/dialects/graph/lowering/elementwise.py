"""``lower`` for the elementwise ops: one parallel generic each, broadcasting in its maps."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import Float64Type, f32
from xdsl.ir import Operation, SSAValue

from strati.dense import is_float8, to_dtype
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, element_type
from strati.registry import register_op_attr


def _unary(body):
    def lower(op: Operation, b: TensorBuilder) -> SSAValue:
        return b.elementwise([op.operands[0]], op.results[0].type, lambda x: body(op, x))

    return lower


def _binary(body):
    def lower(op: Operation, b: TensorBuilder) -> SSAValue:
        return b.elementwise(list(op.operands), op.results[0].type, lambda x, y: body(op, x, y))

    return lower


def _c(value: float, like: SSAValue) -> SSAValue:
    return s.const(value, like.type)


def sigmoid(x: SSAValue) -> SSAValue:
    one = _c(1.0, x)
    return s.div(one, s.add(one, s.unary_math("exp", s.neg(x))))


def gelu(op: Operation, x: SSAValue) -> SSAValue:
    half, one = _c(0.5, x), _c(1.0, x)
    if op.param("approximate") == "tanh":
        inner = s.mul(_c(math.sqrt(2 / math.pi), x), s.add(x, s.mul(_c(0.044715, x), s.mul(x, s.mul(x, x)))))
        return s.mul(s.mul(half, x), s.add(one, s.unary_math("tanh", inner)))
    return s.mul(s.mul(half, x), s.add(one, s.unary_math("erf", s.mul(x, _c(1 / math.sqrt(2), x)))))


def clip(op: Operation, x: SSAValue) -> SSAValue:
    lo, hi = op.param("min"), op.param("max")
    if lo is not None:
        x = s.maximum(x, _c(lo, x))
    if hi is not None:
        x = s.minimum(x, _c(hi, x))
    return x


def leaky_relu(op: Operation, x: SSAValue) -> SSAValue:
    zero = _c(0.0, x)
    return s.select(s.cmp("ge", x, zero), x, s.mul(x, _c(op.param("alpha"), x)))


def power(op: Operation, a: SSAValue, b: SSAValue) -> SSAValue:
    if s.is_float(a.type):
        return s.powf(a, s.cast(b, a.type))
    # Integers: through f64, exact while the result fits in 53 bits (as numpy's for such values).
    f64 = Float64Type()
    return s.cast(s.unary_math("round_even", s.powf(s.cast(a, f64), s.cast(b, f64))), a.type)


def _cast(op: Operation, x: SSAValue) -> SSAValue:
    """s.cast; to a float8 type with ``saturate``, clamped to its finite range first (NaN stays)."""
    to = element_type(op.results[0])
    dtype = to_dtype(to)
    if is_float8(dtype) and op.param("saturate") and s.is_float(x.type):
        wide = x if x.type.bitwidth >= 32 else s.cast(x, f32)
        import ml_dtypes  # imported where a narrow float needs it (strati.dense.narrow_floats)

        top = float(ml_dtypes.finfo(dtype).max)
        x = s.minimum(s.maximum(wide, s.const(-top, wide.type)), s.const(top, wide.type))
    return s.cast(x, to)


UNARY = {
    "neg": lambda op, x: s.neg(x),
    "abs": lambda op, x: s.abs_(x),
    "exp": lambda op, x: s.unary_math("exp", x),
    "log": lambda op, x: s.unary_math("log", x),
    "sqrt": lambda op, x: s.unary_math("sqrt", x),
    "rsqrt": lambda op, x: s.unary_math("rsqrt", x),
    "tanh": lambda op, x: s.unary_math("tanh", x),
    "erf": lambda op, x: s.unary_math("erf", x),
    "sigmoid": lambda op, x: sigmoid(x),
    "relu": lambda op, x: s.maximum(x, _c(0, x)),
    "leaky_relu": leaky_relu,
    "gelu": gelu,
    "clip": clip,
    "cast": lambda op, x: _cast(op, x),
}
BINARY = {
    "add": lambda op, a, b: s.add(a, b),
    "sub": lambda op, a, b: s.sub(a, b),
    "mul": lambda op, a, b: s.mul(a, b),
    "div": lambda op, a, b: s.div(a, b),
    "pow": power,
    "maximum": lambda op, a, b: s.maximum(a, b),
    "minimum": lambda op, a, b: s.minimum(a, b),
    "equal": lambda op, a, b: s.cmp("eq", a, b),
    "less": lambda op, a, b: s.cmp("lt", a, b),
    "greater": lambda op, a, b: s.cmp("gt", a, b),
}

for _name, _body in UNARY.items():
    register_op_attr(f"graph.{_name}", "lower", _unary(_body))
for _name, _body in BINARY.items():
    register_op_attr(f"graph.{_name}", "lower", _binary(_body))
register_op_attr(
    "graph.where",
    "lower",
    lambda op, b: b.elementwise(list(op.operands), op.results[0].type, lambda c, x, y: s.select(c, x, y)),
)
# Identity and inference-mode dropout are no computation: their operand replaces them.
register_op_attr("graph.identity", "lower", lambda op, b: op.operands[0])
register_op_attr("graph.dropout", "lower", lambda op, b: op.operands[0])
register_op_attr("graph.constant", "lower", lambda op, b: b.dense(op.value))
