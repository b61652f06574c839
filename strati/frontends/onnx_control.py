"""ONNX If, Loop and Scan: subgraphs imported as the regions of ``graph.if`` / ``graph.loop``.

An If whose condition depends only on constants and static shapes (a test of a static
size, as exported models often have) is replaced by its taken branch at import; any
other If is a ``graph.if``.  Loop is a ``graph.loop`` (a missing trip count is the
largest int64, a missing condition true).  Scan is a ``graph.loop`` over its static
scan length (Scan-8, with a batch axis first, one per batch entry, joined after) whose body takes element ``i`` (or ``L-1-i`` for a reverse direction) of each
scan input with ``graph.gather``; its scan outputs are reversed and moved to their
``scan_output_axes`` after the loop.  A subgraph's nodes are converted like the graph's
own, reading outer values by name (they become values captured by the region); its
names do not leak out.  Carried values must keep their type from one iteration to the
next (static shapes), and a scan output needs a constant trip count: the other cases are
refused in one line.  An operator a subgraph needs and strati lacks is reported when the
subgraph is imported (one line naming its node).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import onnx.numpy_helper
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Block, Region, SSAValue

from strati.dialects.graph.ops import YieldOp
from strati.dialects.graph.ops_control import SCALAR_I1, SCALAR_I64, IfOp, LoopOp
from strati.dialects.shapes import shape_of
from strati.frontends.onnx import OPS, NeedsStatic, Node, NodeError, NodeInfo, _tensor_array, op, op_version

INT64_MAX = np.iinfo(np.int64).max


def _convert_nodes(imp, graph, what: str) -> None:
    for index, node in enumerate(graph.node):
        label = node.name or f"{graph.name or what}/{node.op_type}_{index}"
        version = None
        if (node.domain or "") in ("", "ai.onnx") and node.op_type in OPS:
            version, _ = op_version(node.op_type, imp.opset)
        if version is None:
            raise NodeError(f"node '{label}' ({node.op_type}) of the {what} is not supported")
        imp.convert(node, label, version)


def _subgraph_problems(graph, outer_static, opset: int, what: str) -> list[str]:
    """What the pre-import check reports for a subgraph: operators strati lacks, inputs that
    must be constants and are not (nested subgraphs included)."""
    inputs = {vi.name for vi in graph.input}
    static = {t.name for t in graph.initializer}

    def is_static(name: str) -> bool:
        return not name or name in static or (name not in inputs and outer_static(name))

    out: list[str] = []
    for node in graph.node:
        version = None
        if (node.domain or "") in ("", "ai.onnx") and node.op_type in OPS:
            version, _ = op_version(node.op_type, opset)
        if version is None:
            out.append(f"{node.op_type} in the {what}")
            continue
        for i in OPS[node.op_type].static_inputs(version):
            if i < len(node.input) and not is_static(node.input[i]):
                out.append(f"{node.op_type} in the {what}: input {i} is not a constant")
        if node.op_type == "Constant" or all(is_static(n) for n in node.input):
            static.update(o for o in node.output if o)
        for a in node.attribute:
            if a.type == a.GRAPH:
                out += _subgraph_problems(a.g, is_static, opset, f"{a.name} of {node.op_type}")
    return out


def _check_control(info: NodeInfo) -> list[str | NeedsStatic]:
    if info.node.op_type == "If" and info.is_static(0):
        return []  # the taken branch is imported in place; it reports its own nodes
    out = []
    carried = max(len(info.node.input) - 2, 0)
    if info.node.op_type == "Loop" and len(info.node.output) > carried:
        if not (info.has(0) and info.is_static(0)):
            out.append(NeedsStatic("(scan outputs need a trip count M known at import)", 0))
        if info.has(1) and not info.is_static(1):  # it must be true on entry (_runs_every_trip)
            out.append(NeedsStatic("(scan outputs need the initial condition known at import)", 1))
    for a in info.node.attribute:
        if a.type == a.GRAPH:
            out += _subgraph_problems(a.g, info.static, info.opset, a.name.replace("_", " "))
    return list(dict.fromkeys(out))


@contextmanager
def _scope(imp, block: Block | None) -> Iterator[None]:
    """Build into ``block`` (None: the current block) with the outer names visible; restore after."""
    saved = (imp.block, dict(imp.values), dict(imp.static), imp._const_cache, imp.loc, imp.node_label, dict(imp._init_locs))
    if block is not None:
        imp.block, imp._const_cache = block, {}
    try:
        yield
    finally:
        imp.block, imp.values, imp.static, imp._const_cache, imp.loc, imp.node_label, imp._init_locs = saved


def _import_graph(imp, graph, bindings: Sequence[tuple[str, SSAValue]], what: str, keep_static: bool = False) -> list:
    """A subgraph's nodes into the current block, its inputs bound to values; its outputs
    (with ``keep_static``, those known at import as arrays)."""
    for t in graph.initializer:
        imp.static[t.name] = _tensor_array(t)
    for name, value in bindings:
        imp.static.pop(name, None)
        imp.values[name] = value
    _convert_nodes(imp, graph, what)
    outs = []
    for vi in graph.output:
        static = imp.static_value(vi.name) if keep_static else None
        outs.append(static if static is not None and vi.name not in imp.values else imp.value(vi.name))
    return outs


def _scalar(imp, v: SSAValue, what: str) -> SSAValue:
    if None in shape_of(v.type) or int(np.prod(shape_of(v.type))) != 1:
        raise NodeError(f"{what} has type {v.type}: it must have one element")
    return imp.reshape(v, [])


@op("If", check=_check_control)
def _if(n: Node):
    imp = n.b
    cond = n.const(0)
    if cond is not None:
        cond = np.asarray(cond).reshape(-1)
        if cond.size != 1:
            raise NodeError(f"the condition has {cond.size} elements, not one")
        branch = n.a("then_branch" if bool(cond[0]) else "else_branch")
        with _scope(imp, None):
            outs = _import_graph(imp, branch, [], "taken branch", keep_static=True)
        return outs
    c = _scalar(imp, n.x(0), "the condition")
    regions, types = [], []
    for attr in ("then_branch", "else_branch"):
        block = Block()
        with _scope(imp, block):
            outs = _import_graph(imp, n.a(attr), [], attr.replace("_", " "))
            block.add_op(YieldOp(*outs))
        regions.append(Region(block))
        types.append([v.type for v in outs])
    if types[0] != types[1]:
        raise NodeError(
            f"the branches give different types ({', '.join(map(str, types[0]))} and {', '.join(map(str, types[1]))}): "
            "strati needs one static type per output"
        )
    result = IfOp(c, types[0], *regions)
    result.location = imp.loc
    imp.block.add_op(result)
    return list(result.results)


def _carried_yield(imp, outs: Sequence[SSAValue], carried: Sequence[SSAValue], names: Sequence[str]) -> list[SSAValue]:
    fixed = []
    for v, init, name in zip(outs, carried, names):
        if v.type != init.type:
            if shape_of(v.type) == shape_of(init.type) or (
                None not in shape_of(v.type) and list(shape_of(v.type)) == list(init.type.get_shape())
            ):
                v = imp.reshape(v, shape_of(init.type)) if v.type.get_element_type() == init.type.get_element_type() else v
            if v.type != init.type:
                raise NodeError(f"the loop-carried value '{name}' changes type from {init.type} to {v.type} (strati needs static types)")
        fixed.append(v)
    return fixed


def _build_loop(imp, trip: SSAValue, cond: SSAValue, carried: list[SSAValue], trip_count: int | None, body_fn) -> list[SSAValue]:
    """A graph.loop whose body ``body_fn(i, c, carried_args) -> (cond, carried, scan elements)`` builds."""
    block = Block(arg_types=[SCALAR_I64, SCALAR_I1, *(v.type for v in carried)])
    with _scope(imp, block):
        next_cond, next_carried, elements = body_fn(block.args[0], block.args[1], list(block.args[2:]))
        block.add_op(YieldOp(next_cond, *next_carried, *elements))
    if elements and trip_count is None:
        raise NodeError("a scan output needs a constant trip count (the M input)")
    scans = [
        TensorType(e.type.get_element_type(), [DYNAMIC_INDEX if trip_count is None else trip_count, *e.type.get_shape()])
        for e in elements
    ]
    loop = LoopOp(trip, cond, carried, [*(v.type for v in carried), *scans], Region(block))
    loop.location = imp.loc
    imp.block.add_op(loop)
    return list(loop.results)


def _runs_every_trip(n: Node, body) -> bool:
    """Whether the loop's condition is true on entry and stays so (the body passes it through or
    yields a constant true): then a scan output has one row per trip, as its static type says."""
    initial = n.const(1) if n.has(1) else np.array(True)
    if initial is None or not bool(np.asarray(initial).reshape(-1)[0]):
        return False
    out = body.output[0].name
    producers = {o: node for node in body.node for o in node.output}
    while out in producers and producers[out].op_type == "Identity":
        out = producers[out].input[0]
    if len(body.input) > 1 and out == body.input[1].name:
        return True
    for t in body.initializer:
        if t.name == out:
            return bool(onnx.numpy_helper.to_array(t).reshape(-1)[0])
    for node in body.node:
        if node.op_type == "Constant" and out in node.output:
            value = next((a.t for a in node.attribute if a.name == "value"), None)
            return value is not None and bool(onnx.numpy_helper.to_array(value).reshape(-1)[0])
    return False


@op("Loop", check=_check_control)
def _loop(n: Node):
    imp = n.b
    body = n.a("body")
    trip = _scalar(imp, n.x(0), "the trip count") if n.has(0) else imp.constant(np.array(INT64_MAX, np.int64))
    cond = _scalar(imp, n.x(1), "the condition") if n.has(1) else imp.constant(np.array(True))
    carried = [n.x(i) for i in range(2, n.n_inputs)]
    for v in carried:
        if None in shape_of(v.type):
            raise NodeError(f"the loop-carried value of type {v.type} needs a static shape")
    const = n.const(0)
    trip_count = max(int(np.asarray(const).reshape(-1)[0]), 0) if const is not None else None
    names = [vi.name for vi in body.input]
    k = len(carried)
    if len(body.output) > 1 + k and not _runs_every_trip(n, body):
        raise NodeError("scan outputs need a loop that runs its whole trip count: the condition must be true "
                        "at the start and the body's condition the constant true or the one it was given")

    def build(i, c, args):
        outs = _import_graph(imp, body, list(zip(names, [i, c, *args])), "loop body")
        if len(outs) < 1 + k:
            raise NodeError(f"the body has {len(outs)} outputs for {k} loop-carried values and the condition")
        next_cond = _scalar(imp, outs[0], "the body's condition")
        return next_cond, _carried_yield(imp, outs[1 : 1 + k], carried, [vi.name for vi in body.output[1:]]), outs[1 + k :]

    return _build_loop(imp, trip, cond, carried, trip_count, build)


def _scan_core(imp, body, states, scan_ins, in_axes, in_dirs, out_axes, out_dirs) -> list[SSAValue]:
    """Scan (opset 9 on) over values: a graph.loop over the static scan length."""
    shapes = [shape_of(x.type) for x in scan_ins]
    if any(None in s for s in shapes):
        raise NodeError(f"the scan inputs need static shapes, got {', '.join(str(x.type) for x in scan_ins)}")
    in_axes = [a % len(s) for a, s in zip(in_axes, shapes)]
    lengths = {s[a] for s, a in zip(shapes, in_axes)}
    if len(lengths) != 1:
        raise NodeError(f"the scan inputs have different lengths {sorted(lengths)}")
    (length,) = lengths
    names = [vi.name for vi in body.input]
    k = len(states)

    def build(i, c, args):
        elements = []
        for x, axis, reverse in zip(scan_ins, in_axes, in_dirs):
            index = imp.op("graph.sub", [imp.constant(np.array(length - 1, np.int64)), i]) if reverse else i
            elements.append(imp.op("graph.gather", [x, index], {"axis": axis}))
        outs = _import_graph(imp, body, list(zip(names, [*args, *elements])), "scan body")
        return c, _carried_yield(imp, outs[:k], states, [vi.name for vi in body.output]), outs[k:]

    trip = imp.constant(np.array(length, np.int64))
    cond = imp.constant(np.array(True))
    results = _build_loop(imp, trip, cond, states, length, build)
    finals, scans = results[:k], []
    for y, axis, reverse in zip(results[k:], out_axes, out_dirs):
        rank = len(shape_of(y.type))
        if reverse:
            y = imp.op("graph.slice", [y], {"starts": (-1,), "ends": (-(length + 1),), "axes": (0,), "steps": (-1,)})
        axis = axis % rank
        if axis:
            perm = list(range(1, rank))
            perm.insert(axis, 0)
            y = imp.transpose(y, perm)
        scans.append(y)
    return [*finals, *scans]


@op("Scan", check=_check_control)
def _scan(n: Node):
    imp = n.b
    body = n.a("body")
    m = int(n.a("num_scan_inputs"))
    if n.v >= 9:
        inputs = n.inputs()
        states, scan_ins = inputs[: len(inputs) - m], inputs[len(inputs) - m :]
        n_out = len(body.output) - len(states)
        return _scan_core(
            imp, body, states, scan_ins,
            n.ints("scan_input_axes", [0] * m), n.ints("scan_input_directions", [0] * m),
            n.ints("scan_output_axes", [0] * n_out), n.ints("scan_output_directions", [0] * n_out),
        )  # fmt: skip
    # Scan-8: a batch axis first (the scan axis is 1), one scan per batch entry, joined after.
    rest = [n.x(i) for i in range(1, n.n_inputs)]
    states, scan_ins = rest[: len(rest) - m], rest[len(rest) - m :]
    batch, length = n.static_shape(n.n_inputs - m)[:2]
    if n.has(0):
        lens = n.const(0)
        if lens is None or not np.all(np.asarray(lens) == length):
            raise NodeError("sequence_lens other than the full sequence length are not supported")
    n_out = len(body.output) - len(states)
    per_entry = []
    for b in range(batch):
        index = imp.constant(np.array(b, np.int64))
        entry = [imp.op("graph.gather", [v, index], {"axis": 0}) for v in (*states, *scan_ins)]
        k = len(states)
        per_entry.append(_scan_core(imp, body, entry[:k], entry[k:], [0] * m, n.ints("directions", [0] * m), [0] * n_out, [0] * n_out))
    outs = []
    for parts in zip(*per_entry):
        parts = [imp.op("graph.unsqueeze", [v], {"axes": (0,)}) for v in parts]
        outs.append(parts[0] if len(parts) == 1 else imp.op("graph.concat", parts, {"axis": 0}))
    return outs
