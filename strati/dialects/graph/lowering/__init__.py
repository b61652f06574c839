"""The ``lower`` attributes of the graph ops: how each becomes tensor-level IR.

Each function takes the op and a :class:`strati.dialects.tensor.build.TensorBuilder`
and returns the values that replace the op's results.  :func:`lowered_values` is the
one step that ``convert-graph-to-tensor`` and ``graph.fused``'s own lowering share:
the target's cheapest applicable strategy for the op (:mod:`strati.strategy`) when
the builder knows the target, else the op's registered ``lower``.
"""

from __future__ import annotations

import sys

from xdsl.ir import Operation, SSAValue

from strati import registry
from strati.diagnostics import StratiError
from strati.dialects.graph.lowering import elementwise, nn, quant, reduce, shape  # noqa: F401
from strati.dialects.graph.lowering import elementwise_math, grid_sample, index, layout  # noqa: F401,E402
from strati.dialects.tensor.build import TensorBuilder
from strati.strategy import choose


def lowered_values(op: Operation, b: TensorBuilder) -> list[SSAValue] | None:
    """Build the tensor-level IR of ``op`` with ``b`` (placed before it); the values that replace
    its results (None for an op of another dialect with neither a strategy nor a ``lower``)."""
    choice = choose(op, b.target) if b.target is not None else None
    if choice is not None:
        if b.print_strategy:
            from strati.diagnostics import location_text

            where = location_text(op.location)
            sys.stderr.write(f"strategy: {choice.explain()}{f' (at {where})' if where else ''}\n")
        results = choice.strategy.lower(op, b, b.target)
        what = f"strategy '{choice.strategy.name}'"
    else:
        lower = registry.get_op_attr(op.name, "lower")
        if lower is None:
            if op.dialect_name() == "graph":
                raise StratiError("has no 'lower' attribute: it cannot be converted to the tensor level", op)
            return None
        results = lower(op, b)
        what = "'lower'"
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    if len(results) != len(op.results):
        raise StratiError(f"{what} returned {len(results)} values for {len(op.results)} results", op)
    for old, new in zip(op.results, results):
        if old.type != new.type:
            raise StratiError(f"{what} produced {new.type} for a result of type {old.type}", op)
    return results
