"""Folding at import: ONNX nodes whose inputs are all known evaluated by ONNX's reference.

A node that depends only on constants and static shapes never reaches the graph
dialect, whether or not strati has the operator: BERT's GatherElements over its
position ids, Swin's ScatterND masks, a Resize mode strati lacks applied to a
constant.  ``foldable`` is the test the pre-import check applies (so such a node is
not reported as unsupported); ``evaluate`` runs the node with
``onnx.reference.ReferenceEvaluator`` at import.  Results larger than the importer's
budget (``FOLD_LIMIT`` elements) are refused instead of being built into the module.
Ops strati supports keep folding through their own ``reference`` attributes
(``Importer._fold``); this covers the rest.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import onnx

NONDETERMINISTIC = frozenset(
    {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"}
)
"""Ops whose result is not a function of their inputs: never folded."""


def foldable(
    node: onnx.NodeProto,
    is_static: Callable[[str], bool],
    shape: Callable[[str], tuple | None],
    limit: int,
) -> bool:
    """Whether the import evaluates ``node``: it has inputs, all known at import, no
    subgraph, a deterministic result, and no output known to exceed ``limit`` elements."""
    if not any(node.input) or node.op_type in NONDETERMINISTIC:
        return False
    if not all(is_static(name) for name in node.input if name):
        return False
    if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for a in node.attribute):
        return False
    for name in node.output:
        s = shape(name) if name else None
        if s is not None and None not in s and math.prod(s) > limit:
            return False
    return True


class FoldError(Exception):
    """The node could not be evaluated (its message is one line)."""


def evaluate(node: onnx.NodeProto, inputs: Sequence[np.ndarray | None], opset: int, limit: int) -> list[np.ndarray]:
    """The node's outputs, computed by ONNX's reference evaluator from ``inputs``
    (None for an omitted optional input)."""
    from onnx.reference import ReferenceEvaluator

    feeds = {name: x for name, x in zip(node.input, inputs) if name}
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            outs = ReferenceEvaluator(node, opsets={"": opset}).run(None, feeds)
    except Exception as err:  # noqa: BLE001 - any failure of the evaluator is one message
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise FoldError(f"evaluating it at import failed: {first}") from None
    arrays = []
    for out in outs:
        if not isinstance(out, (np.ndarray, np.generic)):
            raise FoldError(f"evaluating it at import gave a {type(out).__name__}, not a tensor")
        arrays.append(np.ascontiguousarray(out) if np.ndim(out) else np.asarray(out))
    total = sum(a.size for a in arrays)
    if total > limit:
        raise FoldError(f"its constant result has {total} elements, more than the folding budget of {limit}")
    return arrays
