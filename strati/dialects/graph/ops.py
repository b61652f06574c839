"""The graph dialect's ops: operands, results and properties only.

Everything else (type inference, numpy reference, fusion kind, cost) is attached
through the op attribute registry from ``strati.dialects.graph.attrs``.
Activations are NCHW and convolution weights OIHW.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DenseResourceAttr, StringAttr, TensorType
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    AttrConstraint,
    VerificationContext,
    irdl_op_definition,
    opt_operand_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, IsolatedFromAbove, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from strati.dense import print_dense

from strati.dialects.graph.base import (
    GraphOp,
    bool_prop,
    float_prop,
    floats_prop,
    int_prop,
    ints_prop,
    parse_properties,
    str_prop,
)

T = TensorType


@dataclass(frozen=True)
class ElementsValue(AttrConstraint):
    """A ``dense<...>`` value, or a ``dense_resource`` the parser left unresolved (an elided one)."""

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, DenseIntOrFPElementsAttr | DenseResourceAttr):
            raise VerifyException(f"{attr} should be of base attribute dense (or dense_resource, elided)")

    def mapping_type_vars(self, type_var_mapping) -> ElementsValue:
        return self


@irdl_op_definition
class ConstantOp(GraphOp, HasFolderInterface):
    """A tensor literal: ``graph.constant dense<[1.0, 2.0]> : tensor<2xf32>``."""

    name = "graph.constant"
    value = prop_def(ElementsValue())  # a dense_resource only when elided (strati.resources)
    result = result_def(T)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr | DenseResourceAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    def fold(self):
        return (self.value,)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        pos = parser.pos
        properties, attributes = parse_properties(cls, parser)
        if properties:
            parser.raise_error("graph.constant takes its value after the braces, not as 'value = ...'", pos, parser.pos)
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
            parser.raise_error("graph.constant expects a dense<...> : tensor<...> value", pos, parser.pos)
        op = cls(value)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        print_dense(printer, self.value)


# --- elementwise -----------------------------------------------------------------------


class UnaryOp(GraphOp):
    """One tensor in, one tensor of the same shape out."""

    x = operand_def(T)
    result = result_def(T)


class BinaryOp(GraphOp):
    """Two tensors in, numpy broadcasting, one tensor out."""

    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)


def _unary(op_name: str, doc: str) -> type[UnaryOp]:
    cls = type(op_name.title().replace("_", "") + "Op", (UnaryOp,), {"name": f"graph.{op_name}", "__doc__": doc})
    return irdl_op_definition(cls)


NegOp = _unary("neg", "-x")
AbsOp = _unary("abs", "|x|")
ExpOp = _unary("exp", "e**x")
LogOp = _unary("log", "natural logarithm")
SqrtOp = _unary("sqrt", "square root")
RsqrtOp = _unary("rsqrt", "1 / sqrt(x)")
TanhOp = _unary("tanh", "hyperbolic tangent")
SigmoidOp = _unary("sigmoid", "1 / (1 + e**-x)")
ErfOp = _unary("erf", "the error function")
ReluOp = _unary("relu", "max(x, 0)")
IdentityOp = _unary("identity", "x itself")


@irdl_op_definition
class CastOp(UnaryOp):
    """x converted to the result's element type (as numpy's astype); to a float8 type, values
    beyond its largest finite one become that one when ``saturate`` (ONNX Cast's default), else
    infinity or NaN."""

    name = "graph.cast"
    saturate = bool_prop(True)


@irdl_op_definition
class LeakyReluOp(UnaryOp):
    """x if x >= 0 else alpha * x."""

    name = "graph.leaky_relu"
    alpha = float_prop(0.01)


@irdl_op_definition
class GeluOp(UnaryOp):
    """x * Phi(x); ``approximate = "tanh"`` uses the tanh formula."""

    name = "graph.gelu"
    approximate = str_prop("none")


@irdl_op_definition
class ClipOp(UnaryOp):
    """x limited to [min, max]; an absent bound does not limit."""

    name = "graph.clip"
    min = float_prop(optional=True)
    max = float_prop(optional=True)


@irdl_op_definition
class DropoutOp(UnaryOp):
    """Inference-mode dropout: the identity (``ratio`` is kept for the record)."""

    name = "graph.dropout"
    ratio = float_prop(0.5)


def _binary(op_name: str, doc: str) -> type[BinaryOp]:
    cls = type(op_name.title().replace("_", "") + "Op", (BinaryOp,), {"name": f"graph.{op_name}", "__doc__": doc})
    return irdl_op_definition(cls)


AddOp = _binary("add", "lhs + rhs")
SubOp = _binary("sub", "lhs - rhs")
MulOp = _binary("mul", "lhs * rhs")
DivOp = _binary("div", "lhs / rhs (truncating for integers, as ONNX)")
PowOp = _binary("pow", "lhs ** rhs")
MaximumOp = _binary("maximum", "elementwise max (NaN propagates)")
MinimumOp = _binary("minimum", "elementwise min (NaN propagates)")
EqualOp = _binary("equal", "lhs == rhs, an i1 tensor")
LessOp = _binary("less", "lhs < rhs, an i1 tensor")
GreaterOp = _binary("greater", "lhs > rhs, an i1 tensor")


@irdl_op_definition
class WhereOp(GraphOp):
    """cond ? x : y, with numpy broadcasting of all three."""

    name = "graph.where"
    cond = operand_def(T)
    x = operand_def(T)
    y = operand_def(T)
    result = result_def(T)


# --- linear algebra and neural-network ops ---------------------------------------------


@irdl_op_definition
class MatmulOp(GraphOp):
    """numpy.matmul: batched, broadcasting batch dimensions, 1-D operands promoted."""

    name = "graph.matmul"
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)


@irdl_op_definition
class GemmOp(GraphOp):
    """ONNX Gemm: alpha * op(a) @ op(b) + beta * c, with c broadcast to (M, N)."""

    name = "graph.gemm"
    a = operand_def(T)
    b = operand_def(T)
    c = opt_operand_def(T)
    result = result_def(T)
    alpha = float_prop(1.0)
    beta = float_prop(1.0)
    trans_a = bool_prop(False)
    trans_b = bool_prop(False)


@irdl_op_definition
class Conv2dOp(GraphOp):
    """2-D convolution, NCHW input, OIHW weight, optional bias of O."""

    name = "graph.conv2d"
    input = operand_def(T)
    weight = operand_def(T)
    bias = opt_operand_def(T)
    result = result_def(T)
    strides = ints_prop((1, 1))
    pads = ints_prop((0, 0, 0, 0))  # top, left, bottom, right
    dilations = ints_prop((1, 1))
    groups = int_prop(1)


class Pool2dOp(GraphOp):
    """Sliding-window pooling over the last two dimensions of an NCHW tensor."""

    input = operand_def(T)
    result = result_def(T)
    kernel = ints_prop()
    strides = ints_prop((1, 1))
    pads = ints_prop((0, 0, 0, 0))  # top, left, bottom, right
    dilations = ints_prop((1, 1))
    ceil_mode = bool_prop(False)


@irdl_op_definition
class MaxPool2dOp(Pool2dOp):
    name = "graph.max_pool2d"


@irdl_op_definition
class AvgPool2dOp(Pool2dOp):
    """Average pooling; padding counts in the divisor only with ``count_include_pad``."""

    name = "graph.avg_pool2d"
    count_include_pad = bool_prop(False)


@irdl_op_definition
class GlobalAvgPool2dOp(GraphOp):
    """Mean over H and W, keeping them as size 1."""

    name = "graph.global_avg_pool2d"
    input = operand_def(T)
    result = result_def(T)


@irdl_op_definition
class BatchNormOp(GraphOp):
    """Inference batch normalization over the channel dimension (1)."""

    name = "graph.batch_norm"
    input = operand_def(T)
    scale = operand_def(T)
    bias = operand_def(T)
    mean = operand_def(T)
    var = operand_def(T)
    result = result_def(T)
    epsilon = float_prop(1e-5)


@irdl_op_definition
class LayerNormOp(GraphOp):
    """Normalization over the dimensions from ``axis`` on, then scale and optional bias."""

    name = "graph.layer_norm"
    input = operand_def(T)
    scale = operand_def(T)
    bias = opt_operand_def(T)
    result = result_def(T)
    axis = int_prop(-1)
    epsilon = float_prop(1e-5)


@irdl_op_definition
class SoftmaxOp(GraphOp):
    name = "graph.softmax"
    input = operand_def(T)
    result = result_def(T)
    axis = int_prop(-1)


@irdl_op_definition
class LogSoftmaxOp(GraphOp):
    name = "graph.log_softmax"
    input = operand_def(T)
    result = result_def(T)
    axis = int_prop(-1)


@irdl_op_definition
class LrnOp(GraphOp):
    """Local response normalization across channels (ONNX LRN)."""

    name = "graph.lrn"
    input = operand_def(T)
    result = result_def(T)
    size = int_prop()
    alpha = float_prop(1e-4)
    beta = float_prop(0.75)
    bias = float_prop(1.0)


# --- reductions ------------------------------------------------------------------------


class ReduceOp(GraphOp):
    """A reduction over ``axes`` (all axes when absent; none when empty and ``noop_with_empty_axes``)."""

    input = operand_def(T)
    result = result_def(T)
    axes = ints_prop(optional=True)
    keepdims = bool_prop(True)
    noop_with_empty_axes = bool_prop(False)


def _reduce(op_name: str, doc: str) -> type[ReduceOp]:
    cls = type(op_name.title().replace("_", "") + "Op", (ReduceOp,), {"name": f"graph.{op_name}", "__doc__": doc})
    return irdl_op_definition(cls)


ReduceSumOp = _reduce("reduce_sum", "sum over axes")
ReduceMeanOp = _reduce("reduce_mean", "mean over axes")
ReduceMaxOp = _reduce("reduce_max", "maximum over axes")
ReduceMinOp = _reduce("reduce_min", "minimum over axes")
ReduceProdOp = _reduce("reduce_prod", "product over axes")


@irdl_op_definition
class ArgmaxOp(GraphOp):
    """Index (i64) of the largest element along ``axis``; the first one unless ``select_last_index``."""

    name = "graph.argmax"
    input = operand_def(T)
    result = result_def(T)
    axis = int_prop(0)
    keepdims = bool_prop(True)
    select_last_index = bool_prop(False)


# --- data movement ---------------------------------------------------------------------


class ShapeOp(GraphOp):
    input = operand_def(T)
    result = result_def(T)


@irdl_op_definition
class ReshapeOp(ShapeOp):
    """Same elements, the result type's shape (which may have one ``?``, inferred)."""

    name = "graph.reshape"


@irdl_op_definition
class BroadcastToOp(ShapeOp):
    """numpy.broadcast_to the result type's shape."""

    name = "graph.broadcast_to"


@irdl_op_definition
class FlattenOp(ShapeOp):
    """2-D: the dimensions before ``axis`` times those from ``axis`` on."""

    name = "graph.flatten"
    axis = int_prop(1)


@irdl_op_definition
class TransposeOp(ShapeOp):
    """Permute dimensions (reverse them when ``perm`` is absent)."""

    name = "graph.transpose"
    perm = ints_prop(optional=True)


@irdl_op_definition
class SqueezeOp(ShapeOp):
    """Remove size-1 dimensions (``axes``, or all of them when absent)."""

    name = "graph.squeeze"
    axes = ints_prop(optional=True)


@irdl_op_definition
class UnsqueezeOp(ShapeOp):
    """Insert size-1 dimensions at ``axes`` (positions in the result)."""

    name = "graph.unsqueeze"
    axes = ints_prop()


@irdl_op_definition
class SliceOp(ShapeOp):
    """ONNX Slice: starts/ends clamped, negative from the end, any nonzero steps."""

    name = "graph.slice"
    starts = ints_prop()
    ends = ints_prop()
    axes = ints_prop(optional=True)
    steps = ints_prop(optional=True)


@irdl_op_definition
class PadOp(ShapeOp):
    """ONNX Pad: ``pads`` = begins then ends per axis (negative crops); constant, reflect or edge."""

    name = "graph.pad"
    pads = ints_prop()
    mode = str_prop("constant")
    value = float_prop(0.0)


@irdl_op_definition
class ConcatOp(GraphOp):
    name = "graph.concat"
    inputs = var_operand_def(T)
    result = result_def(T)
    axis = int_prop()


@irdl_op_definition
class SplitOp(GraphOp):
    """Split along ``axis`` into the given ``sizes`` (equal parts, one per result, when absent)."""

    name = "graph.split"
    input = operand_def(T)
    outputs = var_result_def(T)
    axis = int_prop(0)
    sizes = ints_prop(optional=True)


@irdl_op_definition
class GatherOp(GraphOp):
    """numpy.take(data, indices, axis) with negative indices counting from the end (ONNX Gather)."""

    name = "graph.gather"
    data = operand_def(T)
    indices = operand_def(T)
    result = result_def(T)
    axis = int_prop(0)


@irdl_op_definition
class ResizeOp(ShapeOp):
    """Resize to the result type's shape (ONNX Resize): ``mode`` "nearest" copies, "linear"
    and "cubic" interpolate along each resized axis."""

    name = "graph.resize"
    mode = str_prop("nearest")
    cubic_coeff_a = float_prop(-0.75)
    exclude_outside = bool_prop(False)
    scales = floats_prop(optional=True)
    coordinate_transformation_mode = str_prop("half_pixel")
    nearest_mode = str_prop("round_prefer_floor")


@irdl_op_definition
class GridSampleOp(GraphOp):
    """Sample ``input`` (N, C, d1..dr) at the normalized positions of ``grid`` (N, o1..or, r), the
    last grid component addressing the last spatial axis (ONNX GridSample): ``mode`` "linear",
    "nearest" or "cubic", ``padding_mode`` "zeros", "border" or "reflection"."""

    name = "graph.grid_sample"
    input = operand_def(T)
    grid = operand_def(T)
    result = result_def(T)
    mode = str_prop("linear")
    padding_mode = str_prop("zeros")
    align_corners = bool_prop(False)


# --- fusion groups ---------------------------------------------------------------------


FUSION_KINDS = ("elemwise", "broadcast", "injective", "reduce", "out_elemwise_fusable", "opaque")


@irdl_op_definition
class YieldOp(GraphOp):
    """The values a ``graph.fused`` body produces: ``graph.yield %a, %b : tensor<..>, tensor<..>``."""

    name = "graph.yield"
    values = var_operand_def(T)
    traits = traits_def(IsTerminator(), Pure())

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, FusedOp) and getattr(parent, "name", None) not in ("graph.if", "graph.loop"):
            raise VerifyException("expects its parent to be a graph.fused, graph.if or graph.loop")

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        attributes = parser.parse_optional_attr_dict()
        operands = []
        if parser._current_token.kind == MLIRTokenKind.PERCENT_IDENT:
            names = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_unresolved_operand)
            parser.parse_punctuation(":")
            pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            if len(types) != len(names):
                parser.raise_error(f"graph.yield has {len(names)} operands but {len(types)} types", pos, parser.pos)
            operands = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        op = cls(*operands)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.values], printer.print_attribute)


@irdl_op_definition
class FusedOp(GraphOp):
    """A fusion group: graph ops that become one kernel (made by ``fuse-ops``).

    ``%y = graph.fused "fused_conv2d_relu" out_elemwise_fusable (%a = %x, %b = %w) : (T1, T2) -> T3 { ... graph.yield %r : T3 }``

    Operands are the group's inputs, bound to the body's arguments (the body reads
    nothing else: the op is isolated from above); results are the yielded values
    used outside the group.  ``name`` names the kernel; ``pattern`` is the group's
    fusion kind (that of its anchor, e.g. ``out_elemwise_fusable`` for a conv with
    its elementwise tail).
    """

    name = "graph.fused"
    inputs = var_operand_def(T)
    outputs = var_result_def(T)
    kernel_name = prop_def(StringAttr, prop_name="name")
    pattern = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    def __init__(self, kernel_name: str, pattern: str, inputs: Sequence[SSAValue], result_types: Sequence[Attribute], body: Region):
        super().__init__(
            operands=[list(inputs)],
            result_types=[list(result_types)],
            properties={"name": StringAttr(kernel_name), "pattern": StringAttr(pattern)},
            regions=[body],
        )

    @property
    def yield_op(self) -> YieldOp:
        last = self.body.block.last_op
        assert isinstance(last, YieldOp)
        return last

    def verify_(self) -> None:
        if not self.kernel_name.data:
            raise VerifyException("the kernel name must not be empty")
        if self.pattern.data not in FUSION_KINDS:
            raise VerifyException(f"pattern '{self.pattern.data}' is not a fusion kind ({', '.join(FUSION_KINDS)})")
        block = self.body.block
        arg_types = [a.type for a in block.args]
        operand_types = [o.type for o in self.inputs]
        if arg_types != operand_types:
            raise VerifyException(
                f"the body's arguments ({', '.join(map(str, arg_types))}) must have the operands' types "
                f"({', '.join(map(str, operand_types))})"
            )
        last = block.last_op
        if not isinstance(last, YieldOp):
            raise VerifyException("the body must end with graph.yield")
        yielded = [v.type for v in last.values]
        result_types = [r.type for r in self.outputs]
        if yielded != result_types:
            raise VerifyException(
                f"graph.yield yields ({', '.join(map(str, yielded))}) for results ({', '.join(map(str, result_types))})"
            )

    @classmethod
    def parse(cls, parser: Parser) -> FusedOp:
        kernel_name = parser.parse_str_literal("the kernel name")
        pos = parser.pos
        pattern = parser.parse_identifier(context_msg=" (the fusion kind)")
        if pattern not in FUSION_KINDS:
            parser.raise_error(f"'{pattern}' is not a fusion kind ({', '.join(FUSION_KINDS)})", pos, parser.pos)

        def binding():
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            return arg, parser.parse_unresolved_operand()

        bindings = parser.parse_comma_separated_list(parser.Delimiter.PAREN, binding)
        parser.parse_punctuation(":")
        pos = parser.pos
        ft = parser.parse_function_type()
        inputs, outputs = list(ft.inputs.data), list(ft.outputs.data)
        if len(inputs) != len(bindings):
            parser.raise_error(f"graph.fused binds {len(bindings)} inputs but has {len(inputs)} input types", pos, parser.pos)
        operands = [parser.resolve_operand(u, t) for (_, u), t in zip(bindings, inputs)]
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region([arg.resolve(t) for (arg, _), t in zip(bindings, inputs)])
        op = cls(kernel_name, pattern, operands, outputs, body)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.kernel_name.data)
        printer.print_string(f" {self.pattern.data} (")
        block = self.body.block

        def print_binding(pair) -> None:
            printer.print_block_argument(pair[0], print_type=False)
            printer.print_string(" = ")
            printer.print_operand(pair[1])

        printer.print_list(list(zip(block.args, self.inputs)), print_binding)
        printer.print_string(") : ")
        printer.print_function_type([o.type for o in self.inputs], [r.type for r in self.outputs])
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


# Ops defined in modules of their own: indexing by values, more elementwise functions.
from strati.dialects.graph.ops_index import *  # noqa: E402,F401,F403
from strati.dialects.graph.ops_math import *  # noqa: E402,F401,F403
from strati.dialects.graph.ops_control import CONTROL_OPS, IfOp, LoopOp  # noqa: E402,F401

STRUCTURAL_OPS = [FusedOp, YieldOp, *CONTROL_OPS]
"""Ops that structure the graph (fusion groups, control flow) rather than compute: in the dialect, not in ALL_OPS."""

ALL_OPS = [
    cls
    for cls in list(globals().values())
    if isinstance(cls, type)
    and issubclass(cls, GraphOp)
    and getattr(cls, "name", "").startswith("graph.")
    and cls not in STRUCTURAL_OPS
]
"""The computing ops: each has a reference, a lowering and differential test cases."""

__all__ = [name for name, value in globals().items() if isinstance(value, type) and issubclass(value, GraphOp)]
__all__ += ["ALL_OPS", "STRUCTURAL_OPS"]
