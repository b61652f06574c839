"""Post-training int8 quantisation of an f32 graph-level model, calibrated on sample inputs.

    quantized = strati.quantization.calibrate(model, samples)   # a new module
    print(strati.quantization.accuracy(model, quantized, samples))

Each ``graph.matmul`` (2-D) and ``graph.conv2d`` (one group) whose weights (and bias) are
constants becomes ``quantize -> graph.qmatmul | graph.qconv2d -> dequantize``: symmetric
per-tensor int8 with power-of-two scales, 2**-f with f the most fractional bits that
keep the largest magnitude seen within 127 (for the input and output, over the samples;
for the weights, over their values).  The product's requantisation is then an exact shift,
what an integer accelerator does, so the NPU and the CPU agree bit for bit on the result.
The bias becomes int32 at the product's scale.  Every other op stays f32.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, TensorType, f64, i8, i64

from strati.compiler import load
from strati.dense import dense_from_numpy
from strati.dialects.graph.ops import ConstantOp
from strati.dialects.graph.quant import DequantizeOp, QConv2dOp, QMatmulOp, QuantizeOp
from strati.runtime.interpreter import Interpreter, bind_inputs, find_function


def fraction_bits(largest: float) -> int:
    """The most fractional bits f with round(largest * 2**f) <= 127 (0 for an all-zero tensor)."""
    return 0 if largest <= 0 else math.floor(math.log2(127.0 / largest))


def _constant(value) -> np.ndarray | None:
    owner = value.owner
    return np.frombuffer(owner.value.data.data, np.float32).reshape(value.type.get_shape()) if (
        isinstance(owner, ConstantOp) and owner.value.type.element_type == value.type.element_type and
        str(value.type.element_type) == "f32") else None


def quantizable(fn) -> list:
    ops = []
    for op in fn.walk():
        operands = list(op.operands)
        if op.name == "graph.matmul" and all(len(v.type.get_shape()) == 2 for v in operands):
            ops += [op] if _constant(operands[1]) is not None else []
        elif op.name == "graph.conv2d" and op.param("groups") == 1:
            ops += [op] if all(_constant(v) is not None for v in operands[1:]) else []
    return [op for op in ops if str(op.operands[0].type.element_type) == "f32"]


class _Observer(Interpreter):
    """The interpreter, recording the largest magnitudes of the watched ops' input and output."""

    def __init__(self, module: ModuleOp, watched: Sequence):
        super().__init__(module)
        self.largest = {op: [0.0, 0.0] for op in watched}

    def run_op(self, op, values, env=None):
        outs = super().run_op(op, values, env)
        if op in self.largest:
            seen = self.largest[op]
            seen[0] = max(seen[0], float(np.abs(values[0]).max(initial=0)))
            seen[1] = max(seen[1], float(np.abs(outs[0]).max(initial=0)))
        return outs


def _samples(fn, samples: Iterable) -> Iterable[list[np.ndarray]]:
    for sample in samples:
        yield bind_inputs(fn, list(sample) if isinstance(sample, (list, tuple)) else [sample])


def calibrate(model, samples: Iterable, *, entry: str | None = None) -> ModuleOp:
    """A quantised copy of ``model`` (a module, an .mlir or .onnx path), its scales from
    running ``samples`` (each an input array or a list of them) through the interpreter."""
    module = load(model)
    fn = find_function(module, entry)
    watched = quantizable(fn)
    observer = _Observer(module, watched)
    for inputs in _samples(fn, samples):
        observer.call(fn, inputs)
    for op in watched:
        _quantize_op(op, *observer.largest[op])
    module.verify()
    return module


def _quantize_op(op, largest_in: float, largest_out: float) -> None:
    x, w = op.operands[0], _constant(op.operands[1])
    fx, fw, fy = fraction_bits(largest_in), fraction_bits(float(np.abs(w).max(initial=0))), fraction_bits(largest_out)
    fy = min(fy, fx + fw)  # the requantisation shifts right
    block = op.parent_block()
    scaled = lambda cls, v, f, t: cls.create(  # noqa: E731
        operands=[v], result_types=[t], properties={"scale": FloatAttr(2.0**-f, f64), "zero_point": IntegerAttr(0, i64)})
    xq = scaled(QuantizeOp, x, fx, TensorType(i8, x.type.get_shape()))
    constants = [ConstantOp(dense_from_numpy(np.clip(np.rint(w * 2.0**fw), -128, 127).astype(np.int8)))]
    if len(op.operands) == 3:
        bias = _constant(op.operands[2])
        constants.append(ConstantOp(dense_from_numpy(np.rint(bias.astype(np.float64) * 2.0 ** (fx + fw)).astype(np.int32))))
    properties = {k: v for k, v in op.properties.items() if k in ("strides", "pads", "dilations", "groups")}
    cls = QMatmulOp if op.name == "graph.matmul" else QConv2dOp
    q = cls.create(operands=[xq.results[0], *(c.results[0] for c in constants)], properties={**properties, "shift": IntegerAttr(fx + fw - fy, i64)},
                   result_types=[TensorType(i8, op.results[0].type.get_shape())])
    y = scaled(DequantizeOp, q.results[0], fy, op.results[0].type)
    block.insert_ops_before([xq, *constants, q, y], op)
    old = [v.owner for v in op.operands[1:]]
    op.results[0].replace_all_uses_with(y.results[0])
    block.erase_op(op)
    for c in old:
        if not c.results[0].uses:
            block.erase_op(c)


def accuracy(model, quantized, samples: Iterable, *, entry: str | None = None) -> str:
    """How far the quantised model's outputs are from the f32 model's, over the samples:
    the largest absolute error relative to the largest output, and how often the largest
    output (a classifier's choice) is the same."""
    reference, candidate = load(model), load(quantized)
    fn_r, fn_q = find_function(reference, entry), find_function(candidate, entry)
    errors, scale, same, count = 0.0, 0.0, 0, 0
    for inputs in _samples(fn_r, samples):
        want, got = Interpreter(reference).call(fn_r, inputs)[0], Interpreter(candidate).call(fn_q, inputs)[0]
        errors, scale = max(errors, float(np.abs(want - got).max())), max(scale, float(np.abs(want).max()))
        same += int(np.argmax(want) == np.argmax(got))
        count += 1
    return f"int8 vs f32 over {count} samples: max abs error {errors:.3g} ({errors / max(scale, 1e-30):.2%} of the largest output), same argmax {same}/{count}"
