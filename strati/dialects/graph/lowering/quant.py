"""The ``lower`` attributes of the quantisation ops: int32 accumulation in a generic, then
the requantisation elementwise, exactly as the references compute (float64 for the
division by a power of two, round half to even, saturation)."""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType, f32, f64, i8, i32
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from strati.dialects.graph.lowering.nn import conv_patches
from strati.dialects.tensor import scalar as s
from strati.dialects.tensor.build import TensorBuilder, dims, shape
from strati.dialects.tensor.ops import PARALLEL, REDUCTION
from strati.registry import register_op_attr


def saturate(v: SSAValue, element) -> SSAValue:
    """A rounded float to int8: clamped to [-128, 127] first, so the conversion is exact."""
    low, high = s.const(-128.0, element), s.const(127.0, element)
    return s.cast(s.minimum(s.maximum(v, low), high), i8)


def lower_quantize(op: Operation, b: TensorBuilder) -> SSAValue:
    scale, zero = op.param("scale"), op.param("zero_point")
    return b.elementwise([op.operands[0]], op.results[0].type, lambda v: saturate(
        s.add(s.unary_math("round_even", s.div(s.cast(v, f32), s.const(scale, f32))), s.const(float(zero), f32)), f32))


def lower_dequantize(op: Operation, b: TensorBuilder) -> SSAValue:
    scale, zero = op.param("scale"), op.param("zero_point")
    return b.elementwise([op.operands[0]], op.results[0].type,  # one float op: nothing to contract
                         lambda q: s.mul(s.cast(s.sub(s.cast(q, i32), s.const(zero, i32)), f32), s.const(scale, f32)))


def requantized(b: TensorBuilder, acc: SSAValue, shift: int) -> SSAValue:
    t = TensorType(i8, acc.type.get_shape())
    return b.elementwise([acc], t, lambda v: saturate(s.unary_math("round_even", s.mul(s.cast(v, f64), s.const(2.0**-shift, f64))), f64))


def int_matmul(b: TensorBuilder, w: SSAValue, cols: SSAValue, init: SSAValue) -> SSAValue:
    """``init[n, o, p] + sum_r w[o, r] * cols[n, r, p]`` in int32."""
    d = dims(4)
    (y,) = b.generic(
        [cols, w], [init],
        [AffineMap(4, 0, (d[0], d[3], d[2])), AffineMap(4, 0, (d[1], d[3])), AffineMap(4, 0, (d[0], d[1], d[2]))],
        [PARALLEL, PARALLEL, PARALLEL, REDUCTION],
        lambda xv, wv, a: s.add(a, s.mul(s.cast(xv, i32), s.cast(wv, i32))),
    )
    return y


def lower_qmatmul(op: Operation, b: TensorBuilder) -> SSAValue:
    (m, k), (_, n) = shape(op.operands[0]), shape(op.operands[1])
    # the convolution's form with one image: lhs plays the weight, rhs the patches
    cols = b.reshape(op.operands[1], (1, k, n))
    y = int_matmul(b, op.operands[0], cols, b.filled(0, TensorType(i32, [1, m, n])))
    return b.reshape(requantized(b, y, op.param("shift")), (m, n))


def lower_qconv2d(op: Operation, b: TensorBuilder) -> SSAValue:
    n, c, _, _ = shape(op.operands[0])
    o, _, kh, kw = shape(op.operands[1])
    _, _, oh, ow = op.results[0].type.get_shape()
    acc_t = TensorType(i32, [n, o, oh * ow])
    if len(op.operands) == 3:
        (init,) = b.generic([op.operands[2]], [b.empty(acc_t)], [AffineMap(3, 0, (dims(3)[1],)), AffineMap.identity(3)],
                            [PARALLEL] * 3, lambda v, _: v)
    else:
        init = b.filled(0, acc_t)
    y = int_matmul(b, b.reshape(op.operands[1], (o, c * kh * kw)), conv_patches(op, b), init)
    return b.reshape(requantized(b, y, op.param("shift")), (n, o, oh, ow))


for _name, _lower in (("graph.quantize", lower_quantize), ("graph.dequantize", lower_dequantize),
                      ("graph.qmatmul", lower_qmatmul), ("graph.qconv2d", lower_qconv2d)):
    register_op_attr(_name, "lower", _lower)
