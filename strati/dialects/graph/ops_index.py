"""Graph ops that index by values: gather/scatter by index tensors, running sums, top-k.

Definitions only (operands, results, properties); their attributes are in
``strati.dialects.graph.attrs.index`` and ``strati.dialects.graph.lowering.index``.
Index operands are integer tensors; a negative index counts from the end of its dimension.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.irdl import irdl_op_definition, operand_def, result_def

from strati.dialects.graph.base import GraphOp, bool_prop, int_prop, ints_prop, str_prop

T = TensorType


@irdl_op_definition
class GatherElementsOp(GraphOp):
    """``y[i] = data[i with i[axis] replaced by indices[i]]`` (numpy.take_along_axis; ONNX GatherElements)."""

    name = "graph.gather_elements"
    data = operand_def(T)
    indices = operand_def(T)
    result = result_def(T)
    axis = int_prop(0)


@irdl_op_definition
class GatherNdOp(GraphOp):
    """Slices of ``data`` addressed by the last dimension of ``indices``, after ``batch_dims``
    shared leading dimensions (ONNX GatherND)."""

    name = "graph.gather_nd"
    data = operand_def(T)
    indices = operand_def(T)
    result = result_def(T)
    batch_dims = int_prop(0)


@irdl_op_definition
class ScatterNdOp(GraphOp):
    """``data`` with the slices addressed by ``indices`` replaced by (or, with ``reduction``
    add/mul/max/min, combined with) ``updates``, in order (ONNX ScatterND)."""

    name = "graph.scatter_nd"
    data = operand_def(T)
    indices = operand_def(T)
    updates = operand_def(T)
    result = result_def(T)
    reduction = str_prop("none")


@irdl_op_definition
class CumsumOp(GraphOp):
    """Running sum along ``axis``; ``exclusive`` leaves the element itself out, ``reverse`` sums
    from the end (ONNX CumSum)."""

    name = "graph.cumsum"
    input = operand_def(T)
    result = result_def(T)
    axis = int_prop()
    exclusive = bool_prop(False)
    reverse = bool_prop(False)


@irdl_op_definition
class CumprodOp(GraphOp):
    """Running product along ``axis``, as graph.cumsum (ONNX CumProd)."""

    name = "graph.cumprod"
    input = operand_def(T)
    result = result_def(T)
    axis = int_prop()
    exclusive = bool_prop(False)
    reverse = bool_prop(False)


@irdl_op_definition
class TopkOp(GraphOp):
    """The ``k`` largest (or smallest) elements along ``axis``, in order, and their i64 indices;
    equal elements keep the order of their indices (ONNX TopK, always sorted)."""

    name = "graph.topk"
    input = operand_def(T)
    values = result_def(T)
    indices = result_def(T)
    k = int_prop()
    axis = int_prop(-1)
    largest = bool_prop(True)


@irdl_op_definition
class DynamicSliceOp(GraphOp):
    """ONNX Slice whose ``starts`` and ``ends`` are run-time integer vectors (one entry per
    axis of ``axes``), clamped as ONNX clamps them; the result type is static along the
    sliced axes, and a slice whose clamped extent differs from it fails at run time.

    The run-time offsets of ``tensor.extract_slice`` with its static sizes, as ONNX spells
    a slice: ends rather than sizes, so that an out-of-range start or end is an error, never
    a silently different slice."""

    name = "graph.dynamic_slice"
    input = operand_def(T)
    starts = operand_def(T)
    ends = operand_def(T)
    result = result_def(T)
    axes = ints_prop(optional=True)
    steps = ints_prop(optional=True)


__all__ = ["CumprodOp", "DynamicSliceOp", "CumsumOp", "GatherElementsOp", "GatherNdOp", "ScatterNdOp", "TopkOp"]
