"""Checks of an ONNX model before anything else reads it: external data, declared shapes.

External data is read only from regular files inside the model's directory: a location
that is absolute, climbs out with ``..``, leads out through a symbolic link, or names a
device, FIFO or directory is refused with one line naming the tensor.  This covers every
tensor of the model (initializers, ``Constant`` nodes and other tensor attributes, in
subgraphs and functions too); onnx's own loader resolves the tensors of ``Constant``
nodes against the current directory, so it is not used.  A model given as bytes or as a
ModelProto has no directory: its external data is refused.

Declared dimensions must be non-negative: onnx's C++ shape inference aborts the process
on some negative ones (``std::clamp`` in Slice), so they are refused before it runs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import onnx
from onnx import AttributeProto, TensorProto

from strati.diagnostics import StratiError
from strati.paths import UnsafePath, inside


class ModelCheckError(StratiError):
    """A model that must not be read further."""


def model_tensors(model: onnx.ModelProto) -> Iterator[TensorProto]:
    """Every tensor a model holds: initializers and tensor attributes, in subgraphs and functions."""
    yield from _graph_tensors(model.graph)
    for function in model.functions:
        for node in function.node:
            yield from _node_tensors(node)


def _graph_tensors(graph: onnx.GraphProto) -> Iterator[TensorProto]:
    yield from graph.initializer
    for sparse in graph.sparse_initializer:
        yield sparse.values
        yield sparse.indices
    for node in graph.node:
        yield from _node_tensors(node)


def _node_tensors(node: onnx.NodeProto) -> Iterator[TensorProto]:
    for a in node.attribute:
        if a.type == AttributeProto.TENSOR:
            yield a.t
        elif a.type == AttributeProto.TENSORS:
            yield from a.tensors
        elif a.type == AttributeProto.SPARSE_TENSOR:
            yield a.sparse_tensor.values
            yield a.sparse_tensor.indices
        elif a.type == AttributeProto.GRAPH:
            yield from _graph_tensors(a.g)
        elif a.type == AttributeProto.GRAPHS:
            for g in a.graphs:
                yield from _graph_tensors(g)


def load_external_data(model: onnx.ModelProto, directory: Path | None, label: str) -> None:
    """Read every external tensor's bytes into the model, from inside ``directory`` only."""
    for tensor in model_tensors(model):
        if tensor.data_location != TensorProto.EXTERNAL:
            continue
        name = f"tensor '{tensor.name}'" if tensor.name else "a tensor"
        if directory is None:
            raise ModelCheckError(f"{label}: {name} has external data, which is read only for a model given by its path")
        tensor.raw_data = _read(tensor, directory, f"{label}: {name}")
        tensor.data_location = TensorProto.DEFAULT
        del tensor.external_data[:]


def _read(tensor: TensorProto, directory: Path, what: str) -> bytes:
    info = {e.key: e.value for e in tensor.external_data}
    location = info.get("location", "")
    if not location:
        raise ModelCheckError(f"{what} has external data without a location")
    try:
        path = inside(directory, location, what, "the model's directory", label="external data location")
    except UnsafePath as err:
        raise ModelCheckError(str(err)) from None
    try:
        offset = int(info.get("offset", "0"))
        length = int(info["length"]) if "length" in info else None
    except ValueError:
        raise ModelCheckError(f"{what}: external data offset or length is not an integer") from None
    size = os.path.getsize(path)
    if offset < 0 or (length is not None and length < 0):
        raise ModelCheckError(f"{what}: external data offset or length is negative")
    end = size if length is None else offset + length
    if end > size or offset > size:
        raise ModelCheckError(f"{what}: external data '{location}' has {size} bytes, the tensor needs bytes {offset} to {end}")
    with open(path, "rb") as f:
        f.seek(offset)
        return f.read(end - offset)


def check_declared_shapes(model: onnx.ModelProto, label: str) -> None:
    """Every declared dimension of the graph's inputs, outputs and values is >= 0, and each
    such tensor within the ``tensor_elements`` limit (onnx's shape inference would build it)."""
    from strati.limits import check

    graph = model.graph
    for kind, values in (("input", graph.input), ("output", graph.output), ("value", graph.value_info)):
        for vi in values:
            if vi.type.WhichOneof("value") != "tensor_type" or not vi.type.tensor_type.HasField("shape"):
                continue
            elements = 1
            for axis, d in enumerate(vi.type.tensor_type.shape.dim):
                if d.HasField("dim_value") and d.dim_value < 0:
                    raise ModelCheckError(
                        f"{label}: graph {kind} '{vi.name}' declares dimension {axis} as {d.dim_value} (dimensions are >= 0)"
                    )
                elements *= d.dim_value if d.HasField("dim_value") else 1
            check("tensor_elements", f"{label}: graph {kind} '{vi.name}''s number of elements", elements)


def check_model_limits(model: onnx.ModelProto, label: str) -> None:
    """Nodes, elements per tensor and bytes of all tensors against strati.limits, from the
    declared dimensions, before any data is read."""
    from strati.limits import check

    nodes = len(model.graph.node) + sum(len(f.node) for f in model.functions)
    check("ops", f"{label}: the number of nodes", nodes)
    total = 0
    for tensor in model_tensors(model):
        elements = 1
        for d in tensor.dims:
            elements *= max(int(d), 0)
        name = f"tensor '{tensor.name}'" if tensor.name else "a tensor"
        check("constant_elements", f"{label}: {name}'s number of elements", elements)
        total += elements * _itemsize(tensor.data_type)
        check("constant_bytes", f"{label}: the total bytes of its tensors", total)


def _itemsize(data_type: int) -> int:
    try:
        return onnx.helper.tensor_dtype_to_np_dtype(data_type).itemsize
    except Exception:  # noqa: BLE001 - strings and unknown types: counted as bytes
        return 1


def check_ranges(model: onnx.ModelProto, label: str) -> None:
    """A Range with constant operands whose length is over the limit, or that never ends, is
    refused here: onnx's shape inference (data propagation) would build it first (7.7 GB for
    ``Range(0, 1e12, 1)``)."""
    import math

    from strati.limits import LIMITS, exceeded

    graph = model.graph
    known = {t.name: t for t in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and node.output:
            for a in node.attribute:
                if a.name == "value" and a.type == AttributeProto.TENSOR:
                    known[node.output[0]] = a.t
        if node.op_type != "Range" or node.domain not in ("", "ai.onnx") or len(node.input) != 3:
            continue
        if not all(name in known for name in node.input):
            continue
        try:
            start, limit, delta = (float(onnx.numpy_helper.to_array(known[name]).reshape(-1)[0]) for name in node.input)
        except Exception:  # noqa: BLE001 - not a readable scalar: the importer says what is wrong
            continue
        what = f"{label}: node '{node.name or node.output[0]}' (Range)"
        if not all(math.isfinite(v) for v in (start, limit, delta)):
            raise ModelCheckError(f"{what}: start, limit and delta must be finite, got {start}, {limit}, {delta}")
        if delta == 0:
            raise ModelCheckError(f"{what}: delta is 0 (the range would never end)")
        count = max(math.ceil((limit - start) / delta), 0)
        if count > LIMITS.constant_elements:
            raise ModelCheckError(exceeded("constant_elements", f"{what}: the range's number of elements", count).message)


def check_node_signatures(model: onnx.ModelProto, label: str) -> None:
    """Every node of the standard domain has as many inputs as its schema allows, its required
    attributes, and attributes of the schema's types (a Concat without inputs, a Cast without
    ``to``, a string ``axis``)."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None)
    if opset is None:
        return
    for node in model.graph.node:
        if node.domain not in ("", "ai.onnx"):
            continue
        try:
            schema = onnx.defs.get_schema(node.op_type, opset, "")
        except Exception:  # noqa: BLE001 - not an operator at this opset: the importer's analysis reports it
            continue
        what = f"{label}: node '{node.name or (node.output[0] if node.output else node.op_type)}' ({node.op_type})"
        if len(node.input) < schema.min_input:
            raise ModelCheckError(f"{what} has {len(node.input)} inputs, at least {schema.min_input} expected")
        if len(node.input) > schema.max_input:
            raise ModelCheckError(f"{what} has {len(node.input)} inputs, at most {schema.max_input} expected")
        given = {a.name for a in node.attribute}
        for name, declared in schema.attributes.items():
            if declared.required and name not in given:
                raise ModelCheckError(f"{what} lacks its required attribute '{name}'")
        for a in node.attribute:
            declared = schema.attributes.get(a.name)
            if declared is None or a.ref_attr_name or a.type == AttributeProto.UNDEFINED:
                continue
            expected = AttributeProto.AttributeType.Name(int(declared.type))
            got = AttributeProto.AttributeType.Name(a.type)
            if int(declared.type) != a.type:
                raise ModelCheckError(f"{what}: attribute '{a.name}' is of type {got}, the operator takes {expected}")
