"""Writes ONNX models with operators strati imports through their function bodies:
``loss``: NegativeLogLikelihoodLoss (a context-dependent body); ``bernoulli``: Bernoulli,
whose body needs RandomUniformLike, which strati lacks."""

import sys

import onnx
from onnx import TensorProto, helper

kind, path = sys.argv[1], sys.argv[2]
if kind == "loss":
    nodes = [helper.make_node("NegativeLogLikelihoodLoss", ["x", "t"], ["y"], name="nll", reduction="mean")]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
              helper.make_tensor_value_info("t", TensorProto.INT64, [2])]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])]
    opset = 13
else:
    nodes = [helper.make_node("Bernoulli", ["x"], ["y"], name="coin")]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])]
    outputs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])]
    opset = 15
model = helper.make_model(helper.make_graph(nodes, kind, inputs, outputs), opset_imports=[helper.make_opsetid("", opset)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, path)
