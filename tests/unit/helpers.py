"""Shared test helpers: run IR through strati's interpreter, one ONNX node through onnxruntime,
and strati's command-line tools as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper

from strati.context import make_context
from strati.dense import from_dtype
from strati.runtime.interpreter import run_function
from strati.source import parse_module


def parse(text: str):
    module = parse_module(make_context(), text, "test.mlir")
    module.verify()
    return module


def run_ir(text: str, *inputs: np.ndarray) -> list[np.ndarray]:
    """Parse, verify and interpret ``text`` (one function) on ``inputs``."""
    return run_function(parse(text), list(inputs))


def tensor_type(shape, dtype) -> str:
    """``tensor<2x3xf32>`` for a shape and a numpy dtype."""
    element = str(from_dtype(np.dtype(dtype)))
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def one_op(op: str, inputs: list[np.ndarray], out_shapes, out_dtypes=None, props: str = "") -> str:
    """A function applying one graph op to its arguments, in the op's full syntax."""
    out_dtypes = out_dtypes or [inputs[0].dtype] * len(out_shapes)
    in_types = [tensor_type(x.shape, x.dtype) for x in inputs]
    out_types = [tensor_type(s, d) for s, d in zip(out_shapes, out_dtypes)]
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(in_types))
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    props = f" {{{props}}}" if props else ""
    results = ", ".join(out_types)
    result_sig = out_types[0] if len(out_types) == 1 else f"({results})"
    lhs = "%r" if len(out_types) == 1 else f"%r:{len(out_types)}"
    rets = "%r" if len(out_types) == 1 else ", ".join(f"%r#{i}" for i in range(len(out_types)))
    return (
        f"func.func @main({args}) -> {result_sig} {{\n"
        f"  {lhs} = graph.{op} {operands}{props} : ({', '.join(in_types)}) -> {result_sig}\n"
        f"  func.return {rets} : {results}\n"
        f"}}\n"
    )


def run_op(op: str, inputs: list[np.ndarray], out_shapes, out_dtypes=None, props: str = "") -> list[np.ndarray]:
    return run_ir(one_op(op, inputs, out_shapes, out_dtypes, props), *inputs)


def run_onnx(op_type: str, inputs: list[np.ndarray], n_outputs: int = 1, opset: int = 17, **attrs) -> list[np.ndarray]:
    """Run one ONNX node on onnxruntime: the independent oracle for reference implementations.

    An input given as None is an omitted optional input.
    """
    names = [f"x{i}" if x is not None else "" for i, x in enumerate(inputs)]
    node = helper.make_node(op_type, names, [f"y{i}" for i in range(n_outputs)], **attrs)
    graph_inputs = [
        helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(x.dtype), x.shape)
        for n, x in zip(names, inputs)
        if x is not None
    ]
    outputs = [onnx.ValueInfoProto(name=f"y{i}") for i in range(n_outputs)]
    model = helper.make_model(
        helper.make_graph([node], "g", graph_inputs, outputs), opset_imports=[helper.make_opsetid("", opset)]
    )
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {n: x for n, x in zip(names, inputs) if x is not None}
    return session.run(None, feeds)


BIN = Path(sys.executable).parent
"""Where this environment installed strati's tools (strati-opt, strati-run, strati-import, ...)."""


def tool(name: str, *args: str, cwd=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run one of strati's tools (text output captured), as a user would: without
    ``STRATI_TRACEBACK``, so that an error is the one line a user sees."""
    env = {k: v for k, v in os.environ.items() if k != "STRATI_TRACEBACK"}
    return subprocess.run([str(BIN / name), *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


def onnx_model(nodes, inputs, outputs, initializers=(), opset: int = 13, name: str = "g") -> onnx.ModelProto:
    """A model of one graph of ``nodes`` (IR version 8, the default domain at ``opset``)."""
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    return model
