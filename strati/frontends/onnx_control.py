"""ONNX If whose condition is known at import: the taken branch is imported in its place.

The graph dialect has no control flow yet (no ``graph.if``), so an If is supported when
its condition depends only on constants and static shapes, as exported models often
have (a test of a static size).  The taken branch's nodes are converted like the
graph's own, reading the outer values by name; the untaken branch is never looked at.
An operator the taken branch needs and strati lacks is reported when the branch is
imported (one line naming its node), not by the pre-import check.  A condition known
only at run time is refused by the check, naming the graph inputs it depends on.
"""

from __future__ import annotations

import numpy as np

from strati.frontends.onnx import OPS, Node, NodeError, _tensor_array, op, op_version


@op("If", static=(0,))
def _if(n: Node):
    cond = np.asarray(n.need_const(0, "cond")).reshape(-1)
    if cond.size != 1:
        raise NodeError(f"the condition has {cond.size} elements, not one")
    branch = n.a("then_branch" if bool(cond[0]) else "else_branch")
    imp = n.b
    for t in branch.initializer:
        imp.static[t.name] = _tensor_array(t)
    saved = imp.loc, imp.node_label
    for index, node in enumerate(branch.node):
        label = node.name or f"{branch.name or 'branch'}/{node.op_type}_{index}"
        version = None
        if (node.domain or "") in ("", "ai.onnx") and node.op_type in OPS:
            version, _ = op_version(node.op_type, imp.opset)
        if version is None:
            raise NodeError(f"node '{label}' ({node.op_type}) of the taken branch is not supported")
        imp.convert(node, label, version)
    imp.loc, imp.node_label = saved
    outs = []
    for vi in branch.output:
        static = imp.static_value(vi.name)
        outs.append(static if static is not None and vi.name not in imp.values else imp.value(vi.name))
    return outs
