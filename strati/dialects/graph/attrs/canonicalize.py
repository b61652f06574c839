"""The graph ops' ``"canonicalize"`` patterns: the rules of ``graph/canonicalize.rules``
and the one Python pattern that is not a DAG rewrite.

Every GraphOp answers xDSL's ``canonicalize`` with the tuple registered for its name
(see ``strati.dialects.graph.base.RegisteredCanonicalization``).  The rewrites that are
patterns of ops (x + (-0.0), x * 1, transposes of transposes, reshape chains, ops that
are the identity on their operand's type) are rules; see that file for each and why it
is exact.  What stays here computes rather than rewrites:

- a transpose, reshape, flatten, squeeze or unsqueeze of a constant -> a new constant,
  computed by the op's registered ``reference`` (a splat stays a splat: same bytes, new
  type), and only when that does not duplicate a large tensor (the constant has no other
  user, is a splat, or the result has at most SMALL_CONSTANT elements).  It evaluates the
  op and reads how the constant is stored; ``fold-constants`` does the same and more.

- a dynamic_slice whose starts and ends are constants -> graph.slice with them as
  properties, when that slice has the declared result type (otherwise the op stays, and
  fails its run-time check), as MLIR folds constant offsets of ``tensor.extract_slice``
  into static ones.

Also here: the natives the rules call that know graph ops (``perm``), and ``graph.broadcast_to``
as an op that ``splat`` sees through.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike

from strati import registry
from strati.dense import call_reference, dense_from_numpy, numpy_from_dense
from strati.dialects.graph.ops import ConstantOp
from strati.dialects.shapes import shape_of
from strati.limits import LIMITS
from strati.parser import load_rules
from strati.parser.natives import SPLAT_THROUGH, register_function
from strati.registry import register_op_attr

RULES_FILE = Path(__file__).parents[1] / "canonicalize.rules"

# A constant of at most this many elements is folded through a transpose or reshape
# even when it has other users (and so stays alive next to the folded copy).
SMALL_CONSTANT = 4096


# --- what the rules call ---------------------------------------------------------------


@register_function("perm")
def perm(value: SSAValue) -> tuple[int, ...]:
    """The permutation of the transpose that defines ``value`` (the reversal when its
    ``perm`` is absent)."""
    op = value.owner
    assert isinstance(op, Operation)
    given = op.param("perm")
    return tuple(given) if given is not None else tuple(reversed(range(len(shape_of(op.operands[0].type)))))


def _broadcast(inner: np.ndarray, value: SSAValue) -> np.ndarray | None:
    try:
        return np.broadcast_to(inner, shape_of(value.type))
    except (ValueError, TypeError):
        return None


SPLAT_THROUGH.register("graph.broadcast_to", _broadcast)


# --- shape ops of constants ------------------------------------------------------------


def constant_attr(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The dense value of a constant-like op's result, else None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(ConstantLike):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return attr
    return None


class FoldShapeOfConstant(RewritePattern):
    """A transpose or reshape (flatten, squeeze, unsqueeze) of a constant is a new constant,
    computed by the op's registered ``reference``.  A splat stays a splat (same bytes,
    new type).  Folded only when this does not duplicate a large tensor: the constant
    has no other user, is a splat, or the result has at most SMALL_CONSTANT elements."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        attr = constant_attr(op.operands[0])
        result_type = op.results[0].type
        if attr is None or not isinstance(result_type, TensorType) or not result_type.has_static_shape():
            return
        source = op.operands[0]
        count = int(np.prod(result_type.get_shape(), dtype=np.int64))
        splat = _stored_once(attr)
        if not (splat or source.has_one_use() or count <= SMALL_CONSTANT):
            return
        if not splat and count * numpy_from_dense(attr).dtype.itemsize > LIMITS.fold_bytes:
            return  # over the folding budget (strati.limits): the op stays
        if splat:
            value = DenseIntOrFPElementsAttr(result_type, BytesAttr(attr.data.data))
        else:
            reference = registry.get_op_attr(op.name, "reference")
            if reference is None:
                return
            try:
                array = np.asarray(call_reference(reference, op, numpy_from_dense(attr)))
            except Exception:  # noqa: BLE001 - the reference rejected it: leave the op for the verifier
                return
            value = dense_from_numpy(np.ascontiguousarray(array))
            if value.type != result_type:
                return
        new = ConstantOp(value)
        new.location = op.location
        rewriter.replace(op, [new])


def _stored_once(attr: DenseIntOrFPElementsAttr) -> bool:
    """A splat: one element's bytes stand for all of them."""
    count = int(np.prod(attr.get_shape(), dtype=np.int64))
    if count <= 1:
        return False
    try:
        itemsize = numpy_from_dense(attr).dtype.itemsize
    except (TypeError, ValueError):
        return False
    return len(attr.data.data) == itemsize


class StaticDynamicSlice(RewritePattern):
    """graph.dynamic_slice with constant starts and ends -> graph.slice, when the static
    slice's inferred type is the declared one."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        from xdsl.dialects.builtin import DenseArrayBase, i64

        from strati.dialects.graph.ops import SliceOp

        bounds = [constant_attr(v) for v in op.operands[1:3]]
        if None in bounds:
            return
        starts, ends = (numpy_from_dense(b).reshape(-1).tolist() for b in bounds)
        props = {"starts": DenseArrayBase.from_list(i64, starts), "ends": DenseArrayBase.from_list(i64, ends)}
        props.update({k: v for k, v in op.properties.items() if k in ("axes", "steps")})
        new = SliceOp.build(operands=[op.operands[0]], result_types=[op.results[0].type], properties=props)
        try:
            inferred = registry.get_op_attr("graph.slice", "infer_type")(new)
        except Exception:  # noqa: BLE001 - bounds the static slice does not take: leave the op
            inferred = None
        if inferred != [op.results[0].type]:
            new.drop_all_references()
            return
        new.location = op.location
        rewriter.replace(op, [new])


# --- registration: the Python patterns first, then the rules ----------------------------

FOLD_SHAPE = FoldShapeOfConstant()
PYTHON_PATTERNS: dict[str, tuple[RewritePattern, ...]] = {
    name: (FOLD_SHAPE,)
    for name in ("graph.transpose", "graph.reshape", "graph.flatten", "graph.squeeze", "graph.unsqueeze")
}
PYTHON_PATTERNS["graph.dynamic_slice"] = (StaticDynamicSlice(),)

RULES = load_rules(RULES_FILE)
for _name in sorted({*PYTHON_PATTERNS, *RULES.roots()}):
    register_op_attr(_name, "canonicalize", (*PYTHON_PATTERNS.get(_name, ()), *RULES.patterns_for(_name)))
