"""Canonicalization patterns of the graph ops, registered under the key ``"canonicalize"``.

Every GraphOp answers xDSL's ``canonicalize`` with the tuple registered for its name
(see ``strati.dialects.graph.base.RegisteredCanonicalization``), so these are
attached like any other op attribute, and an op from outside strati adds its own
the same way.  Each pattern preserves values exactly (bit for bit, NaN and the
sign of zero included):

- ``x + c``, ``c + x``, ``x - c``, ``x * c``, ``c * x``, ``x / c`` where every element
  of the constant ``c`` is the operation's neutral element -> ``x`` (or
  ``graph.broadcast_to x`` when ``c`` broadcasts ``x`` to a larger result type).
  For floats the neutral element of addition is **-0.0**, not +0.0:
  ``-0.0 + +0.0 = +0.0``, so ``x + 0.0 -> x`` would turn a -0.0 into +0.0 (and a later
  ``1 / x`` from -inf into +inf).  As MLIR's ``arith`` folders and LLVM without
  ``nsz``, we remove ``x + (-0.0)`` and ``x - (+0.0)`` but keep ``x + (+0.0)``; LLVM
  and TVM under fast-math would remove it.  For integers 0 is neutral on both sides.
  ``x * 1`` and ``x / 1`` are exact for every float (NaN, inf and -0.0 included).
- transpose of transpose -> one transpose with the composed permutation; a
  transpose with the identity permutation -> its operand.
- transpose, reshape, flatten, squeeze, unsqueeze of a constant -> a new constant
  (when the constant has no other user, is a splat, or the result is small: the
  storage is then not duplicated).  ``fold-constants`` does the same and more.
- reshape, flatten, squeeze or unsqueeze of one of them -> one ``graph.reshape``.
- reshape, flatten, squeeze, unsqueeze, broadcast_to, cast to the operand's own
  type, identity and (inference-mode) dropout -> the operand.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseArrayBase, DenseIntOrFPElementsAttr, TensorType, i64
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import ConstantLike
from xdsl.utils.exceptions import VerifyException

from strati import registry
from strati.dense import dense_from_numpy, numpy_from_dense
from strati.dialects.graph.ops import BroadcastToOp, ConstantOp, ReshapeOp, TransposeOp
from strati.dialects.shapes import shape_of
from strati.registry import register_op_attr

RESHAPE_LIKE = ("graph.reshape", "graph.flatten", "graph.squeeze", "graph.unsqueeze")

# A constant of at most this many elements is folded through a transpose or reshape
# even when it has other users (and so stays alive next to the folded copy).
SMALL_CONSTANT = 4096


# --- helpers ---------------------------------------------------------------------------


def constant_attr(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The dense value of a constant-like op's result, else None."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.has_trait(ConstantLike):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return attr
    return None


def constant_array(value: SSAValue, look_through_broadcast: bool = True) -> np.ndarray | None:
    """The numpy value of a constant, also through a ``graph.broadcast_to`` of one (a
    broadcast splat); None when the value is not known."""
    attr = constant_attr(value)
    if attr is not None:
        try:
            return numpy_from_dense(attr)
        except (TypeError, ValueError):
            return None
    owner = value.owner
    if look_through_broadcast and isinstance(owner, Operation) and owner.name == "graph.broadcast_to":
        inner = constant_array(owner.operands[0], False)
        if inner is not None:
            try:
                return np.broadcast_to(inner, shape_of(value.type))
            except (ValueError, TypeError):
                return None
    return None


def perm_of(op: Operation) -> tuple[int, ...]:
    """A transpose's permutation (the reversal when ``perm`` is absent)."""
    perm = op.param("perm")
    return tuple(perm) if perm is not None else tuple(reversed(range(len(shape_of(op.operands[0].type)))))


def verified(op: Operation) -> Operation | None:
    """The new op if it verifies (its registered infer_type agrees), else None."""
    try:
        op.verify()
    except VerifyException:
        return None
    return op


def forward_to(op: Operation, value: SSAValue, rewriter: PatternRewriter) -> bool:
    """Replace ``op``'s result by ``value`` when the types are equal, or by a
    ``graph.broadcast_to value`` when they differ only by broadcasting."""
    result = op.results[0]
    if value.type == result.type:
        rewriter.replace(op, [], [value])
        return True
    new = verified(BroadcastToOp(operands=[value], result_types=[result.type]))
    if new is None:
        return False
    rewriter.replace(op, [new])
    return True


# --- x + 0, x * 1, ... -----------------------------------------------------------------


def _neg_zero(a: np.ndarray) -> bool:
    return bool(np.all(a == 0)) and (a.dtype.kind != "f" or bool(np.all(np.signbit(a))))


def _pos_zero(a: np.ndarray) -> bool:
    return bool(np.all(a == 0)) and (a.dtype.kind != "f" or not bool(np.any(np.signbit(a))))


def _one(a: np.ndarray) -> bool:
    return bool(np.all(a == 1))


class RemoveNeutralOperand(RewritePattern):
    """``x op c -> x`` (or ``c op x -> x``) when every element of the constant ``c``
    is neutral for ``op``: exactly, for every value of ``x`` (see the module's
    docstring for why a float addition's neutral element is -0.0).  When ``c``
    broadcasts ``x`` to a larger type, ``x`` is broadcast instead (``graph.broadcast_to``);
    when even that cannot express the result type, nothing happens."""

    def __init__(self, constant_index: int, neutral: Callable[[np.ndarray], bool], what: str):
        self.constant_index = constant_index
        self.neutral = neutral
        self.what = what

    def __repr__(self) -> str:
        return f"RemoveNeutralOperand({self.what})"

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if len(op.operands) != 2 or len(op.results) != 1:
            return
        c = constant_array(op.operands[self.constant_index])
        x = op.operands[1 - self.constant_index]
        if c is None or c.dtype.kind not in "iuf" or c.size == 0:
            return
        if not isinstance(x.type, TensorType) or x.type.get_element_type() != op.results[0].type.get_element_type():
            return
        if self.neutral(c):
            forward_to(op, x, rewriter)


# --- transposes ------------------------------------------------------------------------


class ComposeTransposes(RewritePattern):
    """``transpose(transpose(x, p), q) -> transpose(x, [p[i] for i in q])``, and then ``x``
    itself when that permutation is the identity."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        inner = op.operands[0].owner
        if not (isinstance(inner, Operation) and inner.name == "graph.transpose"):
            return
        p, q = perm_of(inner), perm_of(op)
        composed = tuple(p[i] for i in q)
        x = inner.operands[0]
        if composed == tuple(range(len(composed))):
            forward_to(op, x, rewriter)
            return
        new = TransposeOp(
            operands=[x],
            result_types=[op.results[0].type],
            properties={"perm": DenseArrayBase.from_list(i64, list(composed))},
        )
        if verified(new) is not None:
            rewriter.replace(op, [new])


class RemoveIdentityTranspose(RewritePattern):
    """A transpose whose permutation is the identity is its operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        perm = perm_of(op)
        if perm == tuple(range(len(perm))):
            forward_to(op, op.operands[0], rewriter)


# --- shape ops of constants ------------------------------------------------------------


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
        if splat:
            value = DenseIntOrFPElementsAttr(result_type, BytesAttr(attr.data.data))
        else:
            reference = registry.get_op_attr(op.name, "reference")
            if reference is None:
                return
            try:
                array = np.asarray(reference(op, numpy_from_dense(attr)))
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


# --- reshapes --------------------------------------------------------------------------


class ComposeReshapes(RewritePattern):
    """A reshape (flatten, squeeze, unsqueeze) of a reshape (flatten, squeeze, unsqueeze)
    is one ``graph.reshape`` of the inner operand: all keep the elements in row-major order."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        inner = op.operands[0].owner
        if not (isinstance(inner, Operation) and inner.name in RESHAPE_LIKE):
            return
        x = inner.operands[0]
        if x.type == op.results[0].type:
            rewriter.replace(op, [], [x])
            return
        if sum(d is None for d in shape_of(op.results[0].type)) > 1:
            return
        new = verified(ReshapeOp(operands=[x], result_types=[op.results[0].type]))
        if new is not None:
            rewriter.replace(op, [new])


class ForwardOperand(RewritePattern):
    """An op that is the identity on its operand when the result has the operand's type:
    reshape, flatten, squeeze, unsqueeze, broadcast_to and cast to the same type,
    identity and inference-mode dropout.  Replaced by the operand (only when the
    types are equal, so every user sees the type it had)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if len(op.operands) == 1 and len(op.results) == 1 and op.operands[0].type == op.results[0].type:
            rewriter.replace(op, [], [op.operands[0]])


# --- registration ----------------------------------------------------------------------

ADD_ZERO_RHS = RemoveNeutralOperand(1, _neg_zero, "x + 0")
ADD_ZERO_LHS = RemoveNeutralOperand(0, _neg_zero, "0 + x")
SUB_ZERO = RemoveNeutralOperand(1, _pos_zero, "x - 0")
MUL_ONE_RHS = RemoveNeutralOperand(1, _one, "x * 1")
MUL_ONE_LHS = RemoveNeutralOperand(0, _one, "1 * x")
DIV_ONE = RemoveNeutralOperand(1, _one, "x / 1")
FORWARD = ForwardOperand()
FOLD_SHAPE = FoldShapeOfConstant()
COMPOSE_RESHAPES = ComposeReshapes()

CANONICALIZATIONS: dict[str, tuple[RewritePattern, ...]] = {
    "graph.add": (ADD_ZERO_RHS, ADD_ZERO_LHS),
    "graph.sub": (SUB_ZERO,),
    "graph.mul": (MUL_ONE_RHS, MUL_ONE_LHS),
    "graph.div": (DIV_ONE,),
    "graph.transpose": (FOLD_SHAPE, ComposeTransposes(), RemoveIdentityTranspose()),
    **{name: (FOLD_SHAPE, FORWARD, COMPOSE_RESHAPES) for name in RESHAPE_LIKE},
    "graph.broadcast_to": (FORWARD,),
    "graph.cast": (FORWARD,),
    "graph.identity": (FORWARD,),
    "graph.dropout": (FORWARD,),
}

for _name, _patterns in CANONICALIZATIONS.items():
    register_op_attr(_name, "canonicalize", _patterns)
