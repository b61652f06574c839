"""fold-constants: evaluate ops whose operands are all constants, through ``reference``.

Any op, of any dialect, that is free of side effects, has a registered
``reference`` and static result shapes is replaced by constants holding its
results, as long as they have at most ``max-elements`` elements in all (a large
folded tensor costs more memory than it saves time) and at most the folding budget's bytes
(``strati.limits``, ``--max-fold-bytes``).  The constants are made by
the op's dialect's ``ConstantMaterializationInterface`` (xDSL's, as MLIR's
``materializeConstant``): ``graph.constant`` for a graph op, ``arith.constant``
for a tensor-level one; an op whose dialect lacks the interface takes its constant
operands' dialect's (a plug-in's op among graph constants), else stays unfolded.  Constants
left without users are erased.  Folding walks the function in order, so whole
constant subgraphs fold in one run.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, is_side_effect_free

from strati import registry
from strati.dense import call_reference, dense_from_numpy, numpy_from_dense, to_dtype
from strati.diagnostics import StratiError
from strati.limits import LIMITS


@dataclass(frozen=True)
class FoldConstantsPass(ModulePass):
    """Evaluate ops whose operands are all constants, through their reference."""

    name = "fold-constants"

    max_elements: int = 1 << 20

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folded_inputs: list[Operation] = []
        for candidate in list(op.walk()):
            if candidate.parent is None or not self.foldable(candidate):
                continue
            materializer = materializer_of(ctx, candidate)
            if materializer is None:
                continue
            args = [constant_value(v) for v in candidate.operands]
            try:
                outs = call_reference(registry.get_op_attr(candidate.name, "reference"), candidate, *args)
            except Exception as err:  # noqa: BLE001 - the op's reference rejected these constants
                raise StratiError(f"cannot fold: {type(err).__name__}: {err}", candidate) from err
            outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
            constants = [materializer.materialize_constant(dense_from_numpy(np.asarray(o)), r.type) for o, r in zip(outs, candidate.results)]
            if any(c is None for c in constants):
                continue  # the dialect cannot hold these values as constants
            for c in constants:
                c.location = candidate.location
            Rewriter.insert_op(constants, InsertPoint.before(candidate))
            folded_inputs += [v.owner for v in candidate.operands if isinstance(v.owner, Operation)]
            Rewriter.replace_op(candidate, [], [c.results[0] for c in constants])
        for const in folded_inputs:
            if const.parent is not None and not any(r.uses for r in const.results):
                Rewriter.erase_op(const)

    def foldable(self, op: Operation) -> bool:
        if op.has_trait(ConstantLike) or op.regions or not op.operands or not op.results:
            return False
        if not all(constant_value(v) is not None for v in op.operands):
            return False
        if not is_side_effect_free(op) or registry.get_op_attr(op.name, "reference") is None:
            return False
        total = 0
        size = 0
        for r in op.results:
            if not isinstance(r.type, TensorType) or not r.type.has_static_shape():
                return False
            count = int(np.prod(r.type.get_shape(), dtype=np.int64))
            total += count
            size += count * _itemsize(r.type)
        return total <= self.max_elements and size <= LIMITS.fold_bytes


def _itemsize(t: TensorType) -> int:
    try:
        return to_dtype(t.get_element_type()).itemsize
    except TypeError:
        return 8


def materializer_of(ctx: Context, op: Operation) -> ConstantMaterializationInterface | None:
    """The op's dialect's interface, else that of the dialect of its constant operands (a
    plug-in's op among graph constants folds into graph constants)."""
    owners = [v.owner for v in op.operands if isinstance(v.owner, Operation)]
    for name in dict.fromkeys([op.dialect_name(), *(o.dialect_name() for o in owners)]):
        dialect = ctx.get_optional_dialect(name) or _strati_context().get_optional_dialect(name)
        if dialect is not None and (found := dialect.get_interface(ConstantMaterializationInterface)) is not None:
            return found
    return None


@functools.cache
def _strati_context() -> Context:
    """strati's dialects, for a pass given a context without them."""
    from strati.context import make_context

    return make_context()


def constant_value(value: SSAValue) -> np.ndarray | None:
    """The numpy value of a constant-like op's dense result, else None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(ConstantLike):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return numpy_from_dense(attr)
    return None
