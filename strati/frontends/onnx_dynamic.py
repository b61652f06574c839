"""ONNX models with dynamic input dimensions (a ``dim_param`` batch or sequence length, or
an unnamed dimension): imported again for each concrete input signature.

Importing with the concrete shapes lets ONNX shape inference and the importer fold every
shape computation (``Shape``, ``Gather`` of a shape, ``Reshape`` targets built from
them), which a graph with ``?`` dimensions could not compile.  The executable is a
:class:`~strati.specialize.SpecializingExecutable` whose ports are the model's
inputs and outputs by their ONNX names (the SSA names the importer gives them are aliases).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import onnx
from xdsl.dialects.builtin import ModuleOp, UnrankedTensorType

from strati.dense import from_dtype, to_dtype
from strati.dialects.shapes import make_tensor, shape_of
from strati.frontends.onnx import _value_type, elem_dtype, import_model, load_model, sanitize
from strati.runtime.jit import Executable, Port
from strati.specialize import DEFAULT_CACHE_SIZE, SpecializingExecutable


def as_model(x) -> onnx.ModelProto | None:
    """The ModelProto for an .onnx path or a ModelProto, None for anything else."""
    if isinstance(x, onnx.ModelProto):
        return x
    if isinstance(x, (str, os.PathLike)) and str(x).endswith(".onnx"):
        return load_model(x)
    return None


def _arguments(model: onnx.ModelProto) -> list[onnx.ValueInfoProto]:
    initialized = {t.name for t in model.graph.initializer}
    return [vi for vi in model.graph.input if vi.name not in initialized]


def has_dynamic_inputs(model: onnx.ModelProto) -> bool:
    return any(
        not d.HasField("dim_value") for vi in _arguments(model) if vi.type.HasField("tensor_type")
        for d in vi.type.tensor_type.shape.dim
    )  # fmt: skip


def with_input_shapes(model: onnx.ModelProto, shapes: Mapping[str, Sequence[int]]) -> onnx.ModelProto:
    """A copy of the model whose named inputs have these static shapes (and whose other value
    infos lose their shapes, which ONNX shape inference recomputes from the inputs)."""
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for vi in copy.graph.input:
        if vi.name in shapes:
            dims = vi.type.tensor_type.shape.dim
            for d, n in zip(dims, shapes[vi.name]):
                d.Clear()
                d.dim_value = int(n)
    del copy.graph.value_info[:]
    return copy


def input_ports(model: onnx.ModelProto) -> list[Port]:
    """The inputs by ONNX name (None for a dynamic dimension), with the SSA names the importer
    gives them as aliases; a StratiError for an input without a rank or of an unsupported type."""
    taken: set[str] = set()
    ports = []
    for vi in _arguments(model):
        t = _value_type(vi)
        alias = sanitize(vi.name, taken)
        ports.append(Port(vi.name, t, shape_of(t), to_dtype(t.get_element_type()), (alias,) if alias != vi.name else ()))
    return ports


def output_ports(model: onnx.ModelProto) -> list[Port]:
    """The outputs by ONNX name, with their declared types (unranked where the model gives no shape)."""
    ports = []
    for vi in model.graph.output:
        tt = vi.type.tensor_type
        dtype = elem_dtype(tt.elem_type) or np.dtype(np.float32)
        element = from_dtype(dtype)
        if tt.HasField("shape"):
            shape = tuple(d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim)
            ports.append(Port(vi.name, make_tensor(shape, element), shape, dtype))
        else:
            ports.append(Port(vi.name, UnrankedTensorType(element), (), dtype))
    return ports


def specializing_executable(
    model: onnx.ModelProto, compile_static: Callable[[ModuleOp], Executable], cache_size: int = DEFAULT_CACHE_SIZE
) -> SpecializingExecutable:
    """An executable that imports the model with each new signature's shapes and compiles it
    with ``compile_static``; ports by ONNX name, the sanitised SSA names as aliases."""
    inputs = input_ports(model)

    def build(shapes: tuple[tuple[int, ...], ...]) -> Executable:
        return compile_static(import_model(with_input_shapes(model, dict(zip((p.name for p in inputs), shapes)))))

    name = model.graph.name or "main"
    return SpecializingExecutable(name, inputs, output_ports(model), build, cache_size)


__all__ = ["as_model", "has_dynamic_inputs", "input_ports", "output_ports", "specializing_executable", "with_input_shapes"]
