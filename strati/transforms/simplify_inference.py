"""simplify-inference: what inference lets go of, batch normalization above all.

- ``graph.batch_norm`` of a ``graph.conv2d`` whose weight (and bias, if any) are
  constants, with constant scale, bias, mean and var, where the batch norm is the
  conv's only user: folded into the conv.  With ``s = scale / sqrt(var + eps)`` per
  output channel, ``w' = w * s`` and ``b' = (b - mean) * s + bias`` (``b = 0`` when the
  conv has none).
- The same for ``graph.gemm`` (2-D, channel dimension 1 = the gemm's N) with a
  constant ``b``: ``op(b)`` scaled per column and
  ``c' = (beta * c - mean) * s + bias``, after which the gemm's beta is 1.
- Any other ``graph.batch_norm`` with constant parameters: one ``graph.mul`` by ``s``
  and one ``graph.add`` of ``bias - mean * s``, per-channel constants shaped
  ``(C, 1, ..., 1)`` that broadcast over the dimensions after the channel.
- ``graph.dropout`` (inference mode) and ``graph.identity``: removed (a rule, in
  ``simplify_inference.rules``).

The new parameters are computed in float64 with numpy and rounded once to the
weight's (or input's) element type; new ``graph.constant`` ops hold them as bytes.
This reassociates floating-point arithmetic, so results change within rounding
(tests compare at rtol 1e-4, atol 1e-5), unlike ``canonicalize``'s exact patterns.
Parameters left without users are erased (as in any xDSL rewrite walk, so is every
other dead pure op).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import FloatAttr, ModuleOp, TensorType, f64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from strati.dense import dense_from_numpy, to_dtype
from strati.parser import load_rules
from strati.parser.natives import known_array as constant_array
from strati.dialects.graph.ops import AddOp, ConstantOp, MulOp
from strati.dialects.shapes import shape_of
from strati.transforms.apply_rules import ByRootOp


def _constants(values: list[SSAValue]) -> list[np.ndarray] | None:
    arrays = [constant_array(v) for v in values]
    return None if any(a is None for a in arrays) else arrays


def _bn_parameters(bn: Operation) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(s, shift, mean) in float64 for a batch_norm with constant parameters:
    ``y = (x - mean) * s + bias = x * s + shift``."""
    params = _constants(list(bn.operands[1:5]))
    if params is None:
        return None
    scale, bias, mean, var = (p.astype(np.float64) for p in params)
    s = scale / np.sqrt(var + bn.param("epsilon"))
    return s, bias - mean * s, mean


def _constant(array: np.ndarray, dtype: np.dtype, like: SSAValue) -> ConstantOp:
    """A new constant named and located as the value it replaces."""
    op = ConstantOp(dense_from_numpy(np.ascontiguousarray(array.astype(dtype))))
    op.result.name_hint = like.name_hint
    if isinstance(like.owner, Operation):
        op.location = like.owner.location
    return op


def _single_user(value: SSAValue, user: Operation) -> bool:
    return value.get_user_of_unique_use() is user


class FoldBatchNormIntoConv(RewritePattern):
    """batch_norm(conv2d(x, w, b)) with constant w, b and parameters -> conv2d(x, w', b')."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if op.name != "graph.batch_norm":
            return
        conv = op.operands[0].owner
        if not (isinstance(conv, Operation) and conv.name == "graph.conv2d"):
            return
        if not _single_user(conv.results[0], op):
            return
        weights = _constants(list(conv.operands[1:]))
        bn = _bn_parameters(op)
        if weights is None or bn is None:
            return
        s, shift, _ = bn
        w = weights[0]
        b = weights[1].astype(np.float64) if len(weights) == 2 else np.zeros(w.shape[0])
        if s.shape != (w.shape[0],):
            return
        new_w = w.astype(np.float64) * s[:, None, None, None]
        new_b = b * s + shift  # (b - mean) * s + bias
        dtype = w.dtype
        w_op = _constant(new_w, dtype, conv.operands[1])
        b_op = _constant(new_b, dtype, conv.operands[2] if len(weights) == 2 else op.operands[2])
        new_conv = type(conv).build(
            operands=[conv.operands[0], w_op.result, b_op.result],
            result_types=[op.results[0].type],
            properties=dict(conv.properties),
            attributes=dict(conv.attributes),
        )
        new_conv.location = conv.location
        rewriter.replace(op, [w_op, b_op, new_conv])
        rewriter.erase(conv)


class FoldBatchNormIntoGemm(RewritePattern):
    """batch_norm(gemm(a, b, c)) on a 2-D result with constant b, c and parameters ->
    gemm(a, b', c') with beta = 1."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if op.name != "graph.batch_norm":
            return
        gemm = op.operands[0].owner
        if not (isinstance(gemm, Operation) and gemm.name == "graph.gemm"):
            return
        if not _single_user(gemm.results[0], op) or len(shape_of(op.results[0].type)) != 2:
            return
        weights = _constants(list(gemm.operands[1:]))
        bn = _bn_parameters(op)
        if weights is None or bn is None:
            return
        s, shift, _ = bn
        b = weights[0]
        trans_b = bool(gemm.param("trans_b"))
        n = b.shape[0] if trans_b else b.shape[1]
        if s.shape != (n,):
            return
        b64 = b.astype(np.float64)
        new_b = b64 * (s[:, None] if trans_b else s[None, :])
        beta = gemm.param("beta")
        if len(weights) == 2 and beta != 0.0:  # as the reference: with beta = 0, c is not read
            c = weights[1].astype(np.float64) * beta
        else:
            c = np.zeros((n,))
        new_c = c * s + shift  # (beta * c - mean) * s + bias, broadcast as c is
        dtype = b.dtype
        b_op = _constant(new_b, dtype, gemm.operands[1])
        c_op = _constant(new_c, dtype, gemm.operands[2] if len(weights) == 2 else op.operands[2])
        properties = dict(gemm.properties)
        properties["beta"] = FloatAttr(1.0, f64)
        new_gemm = type(gemm).build(
            operands=[gemm.operands[0], b_op.result, c_op.result],
            result_types=[op.results[0].type],
            properties=properties,
            attributes=dict(gemm.attributes),
        )
        new_gemm.location = gemm.location
        rewriter.replace(op, [b_op, c_op, new_gemm])
        rewriter.erase(gemm)


class BatchNormToScaleShift(RewritePattern):
    """batch_norm(x) with constant parameters -> x * s + shift, per channel."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if op.name != "graph.batch_norm":
            return
        bn = _bn_parameters(op)
        result_type = op.results[0].type
        if bn is None or not isinstance(result_type, TensorType):
            return
        s, shift, _ = bn
        rank = len(shape_of(result_type))
        per_channel = (s.shape[0],) + (1,) * (rank - 2)
        dtype = to_dtype(result_type.get_element_type())
        s_op = _constant(s.reshape(per_channel), dtype, op.operands[1])
        shift_op = _constant(shift.reshape(per_channel), dtype, op.operands[2])
        if op.results[0].name_hint:
            s_op.result.name_hint = op.results[0].name_hint + "_scale"
            shift_op.result.name_hint = op.results[0].name_hint + "_shift"
        mul = MulOp(operands=[op.operands[0], s_op.result], result_types=[result_type])
        add = AddOp(operands=[mul.results[0], shift_op.result], result_types=[result_type])
        mul.location = add.location = op.location
        rewriter.replace(op, [s_op, shift_op, mul, add])


RULES_FILE = Path(__file__).with_suffix(".rules")

PATTERNS: tuple[RewritePattern, ...] = (
    ByRootOp(load_rules(RULES_FILE)),  # dropout and identity
    FoldBatchNormIntoConv(),
    FoldBatchNormIntoGemm(),
    BatchNormToScaleShift(),
)


@dataclass(frozen=True)
class SimplifyInferencePass(ModulePass):
    """Fold batch norm into convolutions and gemms, drop dropout and identities."""

    name = "simplify-inference"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(GreedyRewritePatternApplier(list(PATTERNS))).rewrite_module(op)
