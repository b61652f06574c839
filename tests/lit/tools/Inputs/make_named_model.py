"""Writes a small ONNX model whose names are not SSA names and whose batch is a dim_param."""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

x = helper.make_tensor_value_info("input.1", TensorProto.FLOAT, ["batch", 3])
bias = helper.make_tensor_value_info("0", TensorProto.FLOAT, [3])
ids = helper.make_tensor_value_info("input/ids:0", TensorProto.FLOAT, ["batch", 3])
y = helper.make_tensor_value_info("y:0", TensorProto.FLOAT, ["batch", 3])
scale = numpy_helper.from_array(np.array([1, 2, 3], np.float32), "scale")
nodes = [
    helper.make_node("Add", ["input.1", "0"], ["s"]),
    helper.make_node("Mul", ["s", "scale"], ["m"]),
    helper.make_node("Sub", ["m", "input/ids:0"], ["y:0"]),
]
model = helper.make_model(helper.make_graph(nodes, "named", [x, bias, ids], [y], [scale]),
                          opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
