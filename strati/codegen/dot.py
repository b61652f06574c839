"""A Graphviz picture of functions: one node per op (its name and result types), one edge per SSA use.

Function arguments are ellipses (``%x: tensor<4xf32>``), ops are boxes
(``graph.relu`` over ``tensor<4xf32>``), constants are grey, and an edge goes
from the producer of a value to each op that uses it (labelled with the operand
position when an op has several operands).  A ``graph.fused`` group is a dashed
cluster of its ops, labelled with its kernel name and fusion kind; other ops
nested in regions (a generic's body, a loop's body) are part of their parent's
node.  Ops placed by the partition pass are coloured by target.  Render with
``dot -Tsvg``.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue

from strati.diagnostics import StratiError
from strati.dialects.graph.ops import FusedOp, YieldOp
from strati.functions import functions

MAX_LABEL = 60


def quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def short(t: Attribute) -> str:
    text = str(t)
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 3] + "..."


def module_to_dot(module: ModuleOp, entry: str | None = None) -> str:
    """A ``digraph`` with one cluster per function that has a body (only ``entry`` if given)."""
    funcs = functions(module)
    if entry is not None:
        funcs = [f for f in funcs if f.sym_name.data == entry]
        if not funcs:
            raise StratiError(f"no function named @{entry}")
    if not funcs:
        raise StratiError("the module has no function with a body")
    lines = ["digraph strati {", '  rankdir=TB;', '  node [fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=8];']  # fmt: skip
    for index, fn in enumerate(funcs):
        lines += function_lines(fn, f"f{index}_")
    lines.append("}")
    return "\n".join(lines) + "\n"


def function_lines(fn: func.FuncOp, prefix: str) -> list[str]:
    name = fn.sym_name.data
    lines = [f"  subgraph cluster_{prefix.rstrip('_')} {{", f"    label={quote('@' + name)};"]
    ids: dict[SSAValue, str] = {}
    block = fn.body.blocks[0]
    for i, arg in enumerate(block.args):
        node = f"{prefix}arg{i}"
        ids[arg] = node
        label = f"%{arg.name_hint or f'arg{i}'}: {short(arg.type)}"
        lines.append(f"    {node} [shape=ellipse, label={quote(label)}];")
    lines += block_lines(block, prefix, ids, "    ")
    lines.append("  }")
    return lines


def block_lines(block: Block, prefix: str, ids: dict[SSAValue, str], indent: str) -> list[str]:
    """Nodes and edges for the ops of ``block``; a ``graph.fused`` group becomes a cluster of its ops."""
    lines: list[str] = []
    for j, op in enumerate(block.ops):
        node = f"{prefix}op{j}"
        if isinstance(op, FusedOp):
            lines += fused_lines(op, node, ids, indent)
            continue
        if isinstance(op, YieldOp):
            continue  # a group's results are drawn leaving the ops that compute them
        types = ", ".join(short(r.type) for r in op.results)
        label = op.name if not types else f"{op.name}\n{types}"
        style = ', style=filled, fillcolor="#e8e8e8"' if op.name.endswith(".constant") else ""
        if isinstance(placed := op.attributes.get("strati.placement"), StringAttr):  # the partition pass's
            label += f"\n@{placed.data}"
            style = f', style=filled, fillcolor="{target_colour(placed.data)}"'
        shape = "oval" if isinstance(op, func.ReturnOp) else "box"
        lines.append(f"{indent}{node} [shape={shape}, label={quote(label)}{style}];")
        uses = operands_used(op)
        for k, value in enumerate(uses):
            source = ids.get(value)
            if source is None:
                continue  # defined outside the function (cannot happen in verified IR)
            edge_label = f" [label={quote(str(k))}]" if len(uses) > 1 else ""
            lines.append(f"{indent}{source} -> {node}{edge_label};")
        for result in op.results:
            ids[result] = node
    return lines


def fused_lines(op: FusedOp, node: str, ids: dict[SSAValue, str], indent: str) -> list[str]:
    """A fusion group as a dashed cluster labelled with its kernel name and fusion kind: edges go from the
    producers outside straight to the ops inside that read them, and the group's results leave from the
    ops inside that compute them."""
    lines = [f"{indent}subgraph cluster_{node} {{",
             f"{indent}  label={quote(f'{op.kernel_name.data} ({op.pattern.data})')}; style=dashed;"]  # fmt: skip
    body = op.body.block
    for arg, operand in zip(body.args, op.inputs, strict=True):
        if operand in ids:
            ids[arg] = ids[operand]
    lines += block_lines(body, f"{node}_", ids, indent + "  ")
    lines.append(f"{indent}}}")
    for result, value in zip(op.results, op.yield_op.operands, strict=True):
        if value in ids:
            ids[result] = ids[value]
    return lines


PALETTE = ("#cfe2f3", "#f9cb9c", "#b6d7a8", "#d5a6bd", "#ffe599")


def target_colour(target: str) -> str:
    """One colour per target, the host's first: the picture of a partition."""
    from strati.dialects.hw.target import DEFAULT_TARGET, target_names

    names = [DEFAULT_TARGET] + [n for n in target_names() if n != DEFAULT_TARGET]
    return PALETTE[names.index(target) % len(PALETTE)] if target in names else "#ffffff"


def operands_used(op: Operation) -> list[SSAValue]:
    """The op's operands, then values its regions use from outside them (in order, once each)."""
    values = list(op.operands)
    seen = set(values)
    for inner in op.walk():
        if inner is op:
            continue
        for value in inner.operands:
            if not op.is_ancestor(value.owner) and value not in seen:  # owner: an op or a block
                seen.add(value)
                values.append(value)
    return values


__all__ = ["module_to_dot"]
