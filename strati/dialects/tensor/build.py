"""Building tensor-level IR: what every ``lower`` attribute uses.

A :class:`TensorBuilder` inserts ops before a given op.  ``generic`` builds a
``tensor.generic`` whose body is written as a Python function over the block's
arguments, with :mod:`strati.dialects.tensor.scalar` for the arithmetic;
``elementwise`` and ``reduce`` compute the indexing maps (numpy broadcasting made
explicit, reduced axes) so that most lowerings are a few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, DenseIntOrFPElementsAttr, IntegerAttr, TensorType, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from strati.dialects.tensor import scalar
from strati.dialects.tensor.ops import (
    PARALLEL,
    REDUCTION,
    ConcatOp,
    EmptyOp,
    ExtractSliceOp,
    FillOp,
    GenericOp,
    PadOp,
    ReshapeOp,
    YieldOp,
    generic_body,
)

if TYPE_CHECKING:
    from strati.dialects.hw.ops import TargetAttr

BodyFn = Callable[..., SSAValue | Sequence[SSAValue]]


def element_type(value: SSAValue | Attribute) -> Attribute:
    t = value.type if isinstance(value, SSAValue) else value
    return t.get_element_type() if isinstance(t, TensorType) else t


def shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType), value.type
    return tuple(value.type.get_shape())


def dims(n: int) -> list[AffineExpr]:
    return [AffineDimExpr(i) for i in range(n)]


def broadcast_map(operand_shape: Sequence[int], out_shape: Sequence[int]) -> AffineMap:
    """The map from the output's iteration space to a numpy-broadcast operand."""
    offset = len(out_shape) - len(operand_shape)
    results: list[AffineExpr] = []
    for i, n in enumerate(operand_shape):
        out_n = out_shape[offset + i]
        results.append(AffineConstantExpr(0) if n == 1 and out_n != 1 else AffineDimExpr(offset + i))
    return AffineMap(len(out_shape), 0, tuple(results))


class TensorBuilder:
    """Creates ops before ``anchor`` (the op being lowered).

    With a ``rewriter`` (the pattern rewriter of the pass that lowers), every op goes in
    through it, so the greedy driver sees it; ``target`` is the description of the target
    being compiled for (what strategies read), ``print_strategy`` asks the lowering to say
    which strategy it chose."""

    def __init__(
        self,
        anchor: Operation,
        rewriter: PatternRewriter | None = None,
        target: TargetAttr | None = None,
        print_strategy: bool = False,
    ):
        self.anchor = anchor
        self.rewriter = rewriter
        self.target = target
        self.print_strategy = print_strategy
        self.created: list[Operation] = []

    def at(self, anchor: Operation) -> TensorBuilder:
        """A builder like this one placed before another op."""
        return TensorBuilder(anchor, self.rewriter, self.target, self.print_strategy)

    def insert(self, op: Operation) -> Operation:
        if self.rewriter is not None:
            self.rewriter.insert(op, InsertPoint.before(self.anchor))
        else:
            Rewriter.insert_op(op, InsertPoint.before(self.anchor))
        op.location = self.anchor.location
        self.created.append(op)
        return op

    # -- values

    def constant(self, value: float | int | bool, t: Attribute) -> SSAValue:
        """A scalar ``arith.constant`` outside any body."""
        block = self.anchor.parent_block()
        assert block is not None
        last = block.last_op
        with ImplicitBuilder(block):
            result = scalar.const(value, t)
        # An unsigned constant is two ops (a signless constant and a bitcast): move them all.
        op = block.first_op if last is None else last.next_op
        while op is not None:
            following = op.next_op
            op.detach()
            self.insert(op)
            op = following
        return result

    def dense(self, attr: DenseIntOrFPElementsAttr) -> SSAValue:
        """A tensor constant: ``arith.constant dense<...> : tensor<...>``."""
        return self.insert(arith.ConstantOp(attr, attr.type)).results[0]

    def empty(self, t: TensorType) -> SSAValue:
        return self.insert(EmptyOp(t)).results[0]

    def filled(self, value: float | int | bool, t: TensorType) -> SSAValue:
        """A tensor of type ``t`` with every element ``value``."""
        v = self.constant(value, t.get_element_type())
        return self.insert(FillOp.build(operands=[v, self.empty(t)], result_types=[t])).results[0]

    # -- data movement

    def reshape(self, x: SSAValue, new_shape: Sequence[int]) -> SSAValue:
        """``tensor.reshape``: the same elements in row-major order, in ``new_shape``."""
        t = TensorType(element_type(x), list(new_shape))
        return self.insert(ReshapeOp.build(operands=[x], result_types=[t])).results[0]

    def pad(self, x: SSAValue, low: Sequence[int], high: Sequence[int], value: float | int) -> SSAValue:
        """``tensor.pad``: ``x`` surrounded by ``low``/``high`` elements equal to the scalar ``value``."""
        t = TensorType(element_type(x), [n + a + c for n, a, c in zip(shape(x), low, high)])
        v = self.constant(value, element_type(x))
        props = {"low": DenseArrayBase.from_list(i64, list(low)), "high": DenseArrayBase.from_list(i64, list(high))}
        return self.insert(PadOp.build(operands=[x, v], result_types=[t], properties=props)).results[0]

    def extract_slice(
        self, x: SSAValue, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
    ) -> SSAValue:
        """``tensor.extract_slice``: ``x[offsets + i * strides]`` for ``i`` in ``sizes``."""
        t = TensorType(element_type(x), list(sizes))
        props = {k: DenseArrayBase.from_list(i64, list(v)) for k, v in (("offsets", offsets), ("sizes", sizes), ("strides", strides))}
        return self.insert(ExtractSliceOp.build(operands=[x], result_types=[t], properties=props)).results[0]

    def concat(self, xs: Sequence[SSAValue], dim: int) -> SSAValue:
        """``tensor.concat`` of ``xs`` along ``dim``."""
        out = list(shape(xs[0]))
        out[dim] = sum(shape(x)[dim] for x in xs)
        t = TensorType(element_type(xs[0]), out)
        props = {"dim": IntegerAttr(dim, i64)}
        return self.insert(ConcatOp.build(operands=[list(xs)], result_types=[t], properties=props)).results[0]

    # -- structured ops

    def generic(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        maps: Sequence[AffineMap],
        kinds: Sequence[str],
        body: BodyFn,
    ) -> list[SSAValue]:
        """``tensor.generic``; ``body(*input_elements, *output_elements)`` returns the yielded values."""
        region, block = generic_body([element_type(v) for v in [*inputs, *inits]])
        with ImplicitBuilder(block):
            yielded = body(*block.args)
            values = [yielded] if isinstance(yielded, SSAValue) else list(yielded)
            YieldOp(*values)
        op = GenericOp(inputs, inits, maps, kinds, region)
        return list(self.insert(op).results)

    def elementwise(self, inputs: Sequence[SSAValue], result_type: TensorType, body: BodyFn) -> SSAValue:
        """One result element from the (numpy-broadcast) input elements: ``body(*elements)``."""
        out_shape = tuple(result_type.get_shape())
        maps = [
            broadcast_map(shape(v), out_shape) if isinstance(v.type, TensorType) else AffineMap(len(out_shape), 0, ())
            for v in inputs
        ]
        maps.append(AffineMap.identity(len(out_shape)))
        init = self.empty(result_type)
        (result,) = self.generic(inputs, [init], maps, [PARALLEL] * len(out_shape), lambda *a: body(*a[:-1]))
        return result

    def reduce(
        self,
        x: SSAValue,
        axes: Sequence[int],
        keepdims: bool,
        init: float | int,
        combine: Callable[[SSAValue, SSAValue], SSAValue],
        result_type: TensorType | None = None,
    ) -> SSAValue:
        """``combine(accumulator, element)`` over ``axes`` starting from ``init``."""
        in_shape = shape(x)
        axes = sorted(a % len(in_shape) for a in axes) if in_shape else []
        kinds = [REDUCTION if i in axes else PARALLEL for i in range(len(in_shape))]
        out_dims = [
            (AffineConstantExpr(0) if keepdims else None) if i in axes else AffineDimExpr(i) for i in range(len(in_shape))
        ]
        out_exprs = [e for e in out_dims if e is not None]
        out_shape = [1 if i in axes else n for i, n in enumerate(in_shape) if keepdims or i not in axes]
        if result_type is None:
            result_type = TensorType(element_type(x), out_shape)
        acc = self.filled(init, result_type)
        maps = [AffineMap.identity(len(in_shape)), AffineMap(len(in_shape), 0, tuple(out_exprs))]
        (result,) = self.generic([x], [acc], maps, kinds, lambda e, a: combine(a, e))
        return result
