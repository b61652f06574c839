"""infer_type, reference, pattern and flops of the quantisation ops (strati.dialects.graph.quant).

The references are the semantics.  Every division by a power of two and every rounding is
exact (int32 accumulators in float64), so integer hardware can match them bit for bit."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import f32, i8, i32
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.attrs.common import operand_element, operand_shape
from strati.dialects.graph.attrs.nn import _rank4, conv2d_flops, conv_params, matmul_flops, require_vector, window_out, windows
from strati.dialects.shapes import is_float, make_tensor
from strati.registry import OpPattern, register_op_attr


def _require(op: Operation, index: int, element, what: str) -> None:
    if operand_element(op, index) != element:
        raise VerifyException(f"{what} must be a tensor of {element}, got {op.operands[index].type}")


def _require_shift(op: Operation) -> None:
    if op.param("shift") < 0:
        raise VerifyException(f"shift must be >= 0, got {op.param('shift')}")


def infer_quantize(op: Operation) -> list:
    if not op.param("scale") > 0 or not -128 <= op.param("zero_point") <= 127:
        raise VerifyException(f"scale must be > 0 and zero_point in [-128, 127], got {op.param('scale')} and {op.param('zero_point')}")
    if op.name == "graph.dequantize":
        _require(op, 0, i8, "the operand")
    elif not is_float(operand_element(op, 0)):
        raise VerifyException(f"quantizes a floating-point tensor, got {op.operands[0].type}")
    return [make_tensor(operand_shape(op, 0), i8 if op.name == "graph.quantize" else f32)]


def requantize(acc: np.ndarray, shift: int) -> np.ndarray:
    """int32 accumulators to int8: divided by 2**shift, rounded half to even, saturated."""
    return np.clip(np.rint(acc.astype(np.float64) * 2.0**-shift), -128, 127).astype(np.int8)


def quantize(op: Operation, x: np.ndarray) -> np.ndarray:
    q = np.rint(x.astype(np.float32) / np.float32(op.param("scale"))) + op.param("zero_point")
    return np.clip(q, -128, 127).astype(np.int8)


def dequantize(op: Operation, q: np.ndarray) -> np.ndarray:
    return (q.astype(np.int32) - op.param("zero_point")).astype(np.float32) * np.float32(op.param("scale"))


def infer_qmatmul(op: Operation) -> list:
    _require(op, 0, i8, "lhs")
    _require(op, 1, i8, "rhs")
    _require_shift(op)
    a, b = operand_shape(op, 0), operand_shape(op, 1)
    if len(a) != 2 or len(b) != 2 or (None not in (a[1], b[0]) and a[1] != b[0]):
        raise VerifyException(f"expects 2-D operands of one contraction dimension, got {op.operands[0].type} and {op.operands[1].type}")
    return [make_tensor((a[0], b[1]), i8)]


def qmatmul(op: Operation, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return requantize(a.astype(np.int32) @ b.astype(np.int32), op.param("shift"))


def infer_qconv2d(op: Operation) -> list:
    _require(op, 0, i8, "the input")
    _require(op, 1, i8, "the weight")
    _require_shift(op)
    n, c, h, w = _rank4(op, 0, "input")
    o, cg, kh, kw = _rank4(op, 1, "weight")
    strides, pads, dilations, groups = conv_params(op)
    if groups != 1 or (None not in (c, cg) and c != cg):
        raise VerifyException(f"expects one group with {c} input channels, got {groups} groups and a weight of {cg}")
    if len(op.operands) == 3:
        _require(op, 2, i32, "the bias")
        require_vector(op, 2, o, "bias")
    oh = window_out(h, kh, strides[0], pads[0], pads[2], dilations[0], False, "height")
    ow = window_out(w, kw, strides[1], pads[1], pads[3], dilations[1], False, "width")
    return [make_tensor((n, o, oh, ow), i8)]


def qconv2d(op: Operation, x: np.ndarray, w: np.ndarray, bias: np.ndarray | None = None) -> np.ndarray:
    strides, pads, dilations, _ = conv_params(op)
    _, _, oh, ow = op.results[0].type.get_shape()
    xp = np.pad(x.astype(np.int32), ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    cols = windows(xp, (oh, ow), w.shape[2:], strides, dilations)  # n, c, oh, ow, kh, kw
    y = np.einsum("nchwij,ocij->nohw", cols, w.astype(np.int32))
    if bias is not None:
        y = y + bias.astype(np.int32)[:, None, None]
    return requantize(y, op.param("shift"))


def _elements(op: Operation) -> int:
    return int(np.prod(operand_shape(op, 0)))


for _name, _infer, _reference, _pattern, _flops in (
    ("graph.quantize", infer_quantize, quantize, OpPattern.ELEMWISE, _elements),
    ("graph.dequantize", infer_quantize, dequantize, OpPattern.ELEMWISE, _elements),
    ("graph.qmatmul", infer_qmatmul, qmatmul, OpPattern.OUT_ELEMWISE_FUSABLE, matmul_flops),
    ("graph.qconv2d", infer_qconv2d, qconv2d, OpPattern.OUT_ELEMWISE_FUSABLE, conv2d_flops),
):
    register_op_attr(_name, "infer_type", _infer)
    register_op_attr(_name, "reference", _reference)
    register_op_attr(_name, "pattern", _pattern)
    register_op_attr(_name, "flops", _flops)
