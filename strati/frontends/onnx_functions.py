"""ONNX operators strati has no converter for, imported through their function bodies.

Many ONNX operators are defined by a function of simpler ones in their schema (the
losses, Attention, RotaryEmbedding, the window functions, ...), some of them only once
the input types are known (a "context-dependent" function).  When the pre-import check
refuses a node for which the schema has such a body at the model's opset, the node is
replaced by the body's nodes (its inputs, outputs and attribute references bound to the
node's, its internal values renamed under the node's name), and the model is checked
again; bodies are expanded recursively.  An expanded node's name is
``<original node>/<body node>``, so the locations of what it becomes name the original.

An op strati converts itself keeps its converter (a better op than the body); only nodes
the check refuses are expanded.  When a body still needs something strati lacks, the
original node stays and is reported, with what its body needs.  The expanded graph goes
through the same checks and import-time folding as any other (``Analysis``), and its
node count through ``LIMITS.ops``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from dataclasses import replace

import onnx
from onnx import helper

from strati.limits import check

MAX_DEPTH = 8
"""Rounds of expansion (a body whose nodes have bodies of their own, ...)."""


def _schema(node: onnx.NodeProto, opset: int):
    try:
        return onnx.defs.get_schema(node.op_type, opset, node.domain or "")
    except Exception:  # noqa: BLE001 - SchemaError: no such operator at this opset
        return None


def function_body(
    node: onnx.NodeProto, opset: int, input_type: Callable[[str], onnx.TypeProto | None]
) -> onnx.FunctionProto | None:
    """The function that defines ``node`` at ``opset`` (the latest version at or below it),
    or None when its schema has none (or a context-dependent one needs an unknown type)."""
    schema = _schema(node, opset)
    if schema is None:
        return None
    plain = [v for v in schema.function_opset_versions if v <= opset]
    context = [v for v in schema.context_dependent_function_opset_versions if v <= opset]
    if not plain and not context:
        return None
    body = onnx.FunctionProto()
    if plain and (not context or max(plain) >= max(context)):
        body.ParseFromString(schema.get_function_with_opset_version(max(plain)))
        return body
    types = []
    for name in node.input:
        tp = input_type(name) if name else onnx.TypeProto()
        if tp is None:
            return None
        types.append(tp.SerializeToString())
    try:
        data = schema.get_context_dependent_function_with_opset_version(max(context), node.SerializeToString(), types)
    except Exception:  # noqa: BLE001 - the schema's builder refused these types
        return None
    body.ParseFromString(data)
    return body if body.node else None


def _node_attributes(node: onnx.NodeProto, opset: int, body: onnx.FunctionProto) -> dict[str, onnx.AttributeProto]:
    """The node's attributes, with the schema's (and the function's) defaults for the rest:
    a reference to an absent attribute would otherwise take the inner op's default."""
    attrs = {a.name: a for a in node.attribute}
    for a in body.attribute_proto:
        attrs.setdefault(a.name, a)
    schema = _schema(node, opset)
    for name, spec in (schema.attributes.items() if schema is not None else ()):
        if name not in attrs and spec.default_value.name:
            attrs[name] = spec.default_value
    return attrs


def _bind(
    inner: onnx.NodeProto, rename: Callable[[str], str], attrs: dict[str, onnx.AttributeProto]
) -> onnx.NodeProto:
    """A copy of a body node with its values renamed and its attribute references resolved."""
    out = onnx.NodeProto()
    out.CopyFrom(inner)
    del out.input[:], out.output[:], out.attribute[:]
    out.input.extend(rename(n) for n in inner.input)
    out.output.extend(rename(n) for n in inner.output)
    for a in inner.attribute:
        if a.ref_attr_name:
            if a.ref_attr_name in attrs:
                bound = onnx.AttributeProto()
                bound.CopyFrom(attrs[a.ref_attr_name])
                bound.name = a.name
                out.attribute.append(bound)
            continue
        copy = onnx.AttributeProto()
        copy.CopyFrom(a)
        for g in [copy.g] if copy.type == onnx.AttributeProto.GRAPH else list(copy.graphs):
            _rename_graph(g, rename, attrs)
        out.attribute.append(copy)
    return out


def _rename_graph(g: onnx.GraphProto, rename: Callable[[str], str], attrs) -> None:
    for vi in list(g.input) + list(g.output) + list(g.value_info):
        vi.name = rename(vi.name)
    for t in g.initializer:
        t.name = rename(t.name)
    nodes = [_bind(n, rename, attrs) for n in g.node]
    del g.node[:]
    g.node.extend(nodes)


def expand_node(node: onnx.NodeProto, label: str, body: onnx.FunctionProto, opset: int, taken: set[str]) -> list[onnx.NodeProto]:
    """The body's nodes in place of ``node`` (named ``label/...``, values ``label/...``)."""
    io = {name: node.input[i] if i < len(node.input) else "" for i, name in enumerate(body.input)}
    io.update({name: node.output[i] for i, name in enumerate(body.output) if i < len(node.output) and node.output[i]})
    prefix = f"{label}/"
    while any(name.startswith(prefix) for name in taken):
        prefix = f"{prefix[:-1]}_/"

    def rename(name: str) -> str:
        if name in io:
            return io[name]
        return prefix + name if name else ""

    attrs = _node_attributes(node, opset, body)
    nodes = []
    for j, inner in enumerate(body.node):
        bound = _bind(inner, rename, attrs)
        bound.name = f"{label}/{inner.name or f'{inner.op_type}_{j}'}"
        nodes.append(bound)
    return nodes


def _input_types(model: onnx.ModelProto, types: dict[str, onnx.TypeProto]) -> Callable[[str], onnx.TypeProto | None]:
    inits = {t.name: t for t in model.graph.initializer}

    def input_type(name: str) -> onnx.TypeProto | None:
        tp = types.get(name)
        if tp is not None and tp.WhichOneof("value") is not None:
            return tp
        if name in inits:
            return helper.make_tensor_type_proto(inits[name].data_type, list(inits[name].dims))
        return None

    return input_type


def _values(model: onnx.ModelProto) -> set[str]:
    g = model.graph
    names = {vi.name for vi in list(g.input) + list(g.output) + list(g.value_info)} | {t.name for t in g.initializer}
    for n in g.node:
        names.update(n.input)
        names.update(n.output)
    return names


def _labels(model: onnx.ModelProto) -> list[str]:
    return [n.name or f"{n.op_type}_{i}" for i, n in enumerate(model.graph.node)]


def expand_functions(model: onnx.ModelProto, analyse: Callable[[onnx.ModelProto], Any]) -> tuple[onnx.ModelProto, Any]:
    """``model`` with the refused nodes that have function bodies expanded, and its
    ``Analysis`` (``analyse``'s); the model itself when nothing is expanded."""
    analysis = analyse(model)
    if not analysis.failing:
        return model, analysis
    kept: dict[str, list] = {}  # top-level nodes whose bodies still need something -> its problems
    while True:
        expanded, result, origin = _expand(model, analysis, analyse, set(kept))
        blamed: dict[str, list] = {}
        for index, problems in result.failing.items():
            top = origin.get(expanded.graph.node[index].name)
            if top is not None:
                blamed.setdefault(top, []).extend(problems)
        if not blamed or blamed.keys() <= kept.keys():
            break
        kept.update(blamed)
    if kept:
        _explain(expanded, result, kept)
    return expanded, result


def _expand(model: onnx.ModelProto, analysis, analyse, keep: set[str]):
    """Expand every refused node with a body (but the top-level ones named in ``keep``),
    round after round; the model, its analysis, and expanded node name -> top-level name."""
    labels = _labels(model)
    origin: dict[str, str] = {}
    named = False  # whether every node has its label as its name (after the first round)
    for _ in range(MAX_DEPTH):
        input_type = _input_types(model, analysis.types)
        bodies: dict[int, onnx.FunctionProto] = {}
        for index, problems in analysis.failing.items():
            node = model.graph.node[index]
            name = node.name if named else labels[index]
            if name in keep and name not in origin:
                continue
            if any(p.out_of_scope for p in problems) or (node.domain or "") not in ("", "ai.onnx"):
                continue
            body = function_body(node, analysis.opset, input_type)
            if body is not None:
                bodies[index] = body
        if not bodies:
            break
        taken = _values(model)
        nodes: list[onnx.NodeProto] = []
        for index, node in enumerate(model.graph.node):
            name = node.name if named else labels[index]
            if index not in bodies:
                if not named:
                    node = onnx.NodeProto()
                    node.CopyFrom(model.graph.node[index])
                    node.name = name
                nodes.append(node)
                continue
            top = origin.get(name, name)
            for inner in expand_node(node, name, bodies[index], analysis.opset, taken):
                origin[inner.name] = top
                nodes.append(inner)
        check("ops", "the number of nodes after expanding function bodies", len(nodes))
        new = onnx.ModelProto()
        new.CopyFrom(model)
        del new.graph.node[:]
        new.graph.node.extend(nodes)
        model, named = new, True
        analysis = analyse(model)
    return model, analysis, origin


def _explain(model: onnx.ModelProto, analysis, kept: dict[str, list]) -> None:
    """The problems of a node kept whole say what its function body needs (and which graph
    inputs, fixed at import, would provide it)."""
    replaced = {}
    labels = _labels(model)
    for index, problems in analysis.failing.items():
        inner = kept.get(labels[index])
        if not inner:
            continue
        needs = "; ".join(dict.fromkeys(str(p) for p in inner))
        constant = tuple(dict.fromkeys(n for p in inner for n in p.needs_constant)) if all(p.needs_constant for p in inner) else ()
        for p in problems:
            detail = f"{p.detail} " if p.detail else ""
            replaced[id(p)] = replace(p, detail=f"{detail}(its function body needs: {needs})", needs_constant=p.needs_constant or constant)
    analysis.problems = [replaced.get(id(p), p) for p in analysis.problems]
    for entry in analysis.report.values():
        entry["problems"] = [replaced.get(id(p), p) for p in entry["problems"]]
