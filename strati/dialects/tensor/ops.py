"""The tensor dialect (level 2): structured computation on tensors.

``tensor.generic`` is the workhorse, as ``linalg.generic`` in MLIR: inputs and
initial outputs, one affine indexing map per operand from the iteration space,
iterator kinds (parallel, reduction), and a scalar body in ``arith``/``math``
ending in ``tensor.yield``.  The body may read the loop indices
(``tensor.index``) and any element of a captured tensor (``tensor.extract``),
which gathers, resizes and reflect-pads need.  Data movement (pad, reshape,
concat, extract/insert slices), ``tensor.empty`` and ``tensor.fill`` complete it.
Shapes are static at this level.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from strati.dialects.uniform import UniformOp, int_prop, ints_prop

PARALLEL, REDUCTION = "parallel", "reduction"


def _element(t: Attribute) -> Attribute:
    return t.get_element_type() if isinstance(t, TensorType) else t


def _rank(t: Attribute) -> int:
    return t.get_num_dims() if isinstance(t, TensorType) else 0


@irdl_op_definition
class GenericOp(IRDLOperation):
    """Structured computation: ``outs[map_o(d)] = body(ins[map_i(d)]..., outs[map_o(d)])`` over all ``d``."""

    name = "tensor.generic"
    inputs = var_operand_def()
    outputs = var_operand_def(TensorType)
    res = var_result_def(TensorType)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    iterator_types = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        indexing_maps: Sequence[AffineMap],
        iterator_types: Sequence[str],
        body: Region,
    ):
        super().__init__(
            operands=[list(inputs), list(outputs)],
            result_types=[[o.type for o in outputs]],
            properties={
                "indexing_maps": ArrayAttr([AffineMapAttr(m) for m in indexing_maps]),
                "iterator_types": ArrayAttr([StringAttr(k) for k in iterator_types]),
            },
            regions=[body],
        )

    # -- queries used by lowering and interpretation

    @property
    def maps(self) -> list[AffineMap]:
        return [m.data for m in self.indexing_maps.data]

    @property
    def kinds(self) -> list[str]:
        return [k.data for k in self.iterator_types.data]

    def loop_ranges(self) -> list[int]:
        """The extent of every loop, read off the operands whose map names the loop directly."""
        ranges: list[int | None] = [None] * len(self.kinds)
        for value, m in zip([*self.inputs, *self.outputs], self.maps):
            if not isinstance(value.type, TensorType):
                continue
            for expr, size in zip(m.results, value.type.get_shape()):
                if isinstance(expr, AffineDimExpr):
                    if ranges[expr.position] not in (None, size):
                        raise VerifyException(
                            f"loop d{expr.position} has extent {ranges[expr.position]} and {size} in different operands"
                        )
                    ranges[expr.position] = size
        missing = [f"d{i}" for i, r in enumerate(ranges) if r is None]
        if missing:
            raise VerifyException(f"no operand gives the extent of loop {', '.join(missing)}")
        return [r for r in ranges if r is not None]

    def verify_(self) -> None:
        operands = [*self.inputs, *self.outputs]
        maps, kinds = self.maps, self.kinds
        if len(maps) != len(operands):
            raise VerifyException(f"expected {len(operands)} indexing maps (one per operand), got {len(maps)}")
        bad = [k for k in kinds if k not in (PARALLEL, REDUCTION)]
        if bad:
            raise VerifyException(f"iterator type '{bad[0]}' is neither 'parallel' nor 'reduction'")
        for i, (value, m) in enumerate(zip(operands, maps)):
            if m.num_dims != len(kinds) or m.num_symbols:
                raise VerifyException(f"indexing map #{i} {m} must have {len(kinds)} dimensions and no symbols")
            if len(m.results) != _rank(value.type):
                raise VerifyException(f"indexing map #{i} {m} has {len(m.results)} results for an operand of rank {_rank(value.type)}")
        for j, m in enumerate(maps[len(self.inputs) :]):
            if not m.is_projected_permutation(allow_zero_in_results=True) or any(
                kinds[e.position] == REDUCTION for e in m.results if isinstance(e, AffineDimExpr)
            ):
                raise VerifyException(f"output map {m} must be a projected permutation of parallel loops")
        self.loop_ranges()
        if [r.type for r in self.res] != [o.type for o in self.outputs]:
            raise VerifyException("result types must be the types of the outputs")
        block = self.body.block
        expected = [_element(v.type) for v in operands]
        if [a.type for a in block.args] != expected:
            got = ", ".join(str(a.type) for a in block.args)
            raise VerifyException(f"body arguments ({got}) must be the operands' element types ({', '.join(map(str, expected))})")
        last = block.last_op
        if not isinstance(last, YieldOp):
            raise VerifyException("body must end with tensor.yield")
        want = [_element(o.type) for o in self.outputs]
        if [v.type for v in last.values] != want:
            raise VerifyException(f"tensor.yield must yield {', '.join(map(str, want))}")

    # -- syntax: linalg.generic's

    def print(self, printer: Printer) -> None:
        printer.print_string(" {indexing_maps = ")
        printer.print_attribute(self.indexing_maps)
        printer.print_string(", iterator_types = ")
        printer.print_attribute(self.iterator_types)
        printer.print_string("}")
        for keyword, values in (("ins", self.inputs), ("outs", self.outputs)):
            if values:
                printer.print_string(f" {keyword}(")
                printer.print_list(values, printer.print_operand)
                printer.print_string(" : ")
                printer.print_list([v.type for v in values], printer.print_attribute)
                printer.print_string(")")
        if self.attributes:  # a schedule's knobs and the like, as linalg.generic prints them
            printer.print_string(" attrs = ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        printer.print_region(self.body)
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        pos = parser.pos
        props = parser.parse_optional_attr_dict()
        for key in ("indexing_maps", "iterator_types"):
            if key not in props:
                parser.raise_error(f"tensor.generic needs '{key}'", pos, parser.pos)
        unknown = sorted(set(props) - {"indexing_maps", "iterator_types"})
        if unknown:
            parser.raise_error(f"tensor.generic has no property '{unknown[0]}'", pos, parser.pos)

        def operand_group(keyword: str) -> list[SSAValue]:
            if parser.parse_optional_characters(keyword) is None:
                return []
            parser.parse_punctuation("(")
            names: list[UnresolvedOperand] = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_unresolved_operand
            )
            parser.parse_punctuation(":")
            types_pos = parser.pos
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            parser.parse_punctuation(")")
            if len(types) != len(names):
                parser.raise_error(f"{keyword}: {len(names)} operands but {len(types)} types", types_pos, parser.pos)
            return [parser.resolve_operand(n, t) for n, t in zip(names, types)]

        inputs, outputs = operand_group("ins"), operand_group("outs")
        attributes = {}
        if parser.parse_optional_characters("attrs") is not None:
            parser.parse_punctuation("=")
            attributes = parser.parse_optional_attr_dict()
        body = parser.parse_region()
        result_types = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls.build(
            operands=[inputs, outputs],
            result_types=[result_types],
            properties={"indexing_maps": props["indexing_maps"], "iterator_types": props["iterator_types"]},
            regions=[body],
            attributes=attributes,
        )
        return op


@irdl_op_definition
class YieldOp(IRDLOperation):
    """The values a generic's body produces for its outputs."""

    name = "tensor.yield"
    values = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(GenericOp), Pure())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class IndexOp(IRDLOperation):
    """The current index of loop ``dim`` of the enclosing generic."""

    name = "tensor.index"
    dim = int_prop()
    result = result_def(IndexType())
    traits = traits_def(HasParent(GenericOp), Pure())
    assembly_format = "$dim attr-dict `:` type($result)"

    def __init__(self, dim: int):
        from xdsl.dialects.builtin import IntegerAttr, i64

        super().__init__(properties={"dim": IntegerAttr(dim, i64)}, result_types=[IndexType()])

    def verify_(self) -> None:
        parent = self.parent_op()
        if isinstance(parent, GenericOp) and not 0 <= self.dim.value.data < len(parent.kinds):
            raise VerifyException(f"loop {self.dim.value.data} does not exist: the generic has {len(parent.kinds)} loops")


@irdl_op_definition
class ExtractOp(IRDLOperation):
    """One element of a tensor at the given indices: ``tensor.extract %t[%i, %j] : tensor<4x8xf32>``."""

    name = "tensor.extract"
    tensor = operand_def(TensorType)
    indices = var_operand_def(IndexType())
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, tensor: SSAValue, indices: Sequence[SSAValue]):
        assert isinstance(tensor.type, TensorType)
        super().__init__(operands=[tensor, list(indices)], result_types=[tensor.type.get_element_type()])

    def verify_(self) -> None:
        t = self.tensor.type
        assert isinstance(t, TensorType)
        if len(self.indices) != t.get_num_dims():
            raise VerifyException(f"{len(self.indices)} indices for a tensor of rank {t.get_num_dims()}")
        if self.result.type != t.get_element_type():
            raise VerifyException(f"result type {self.result.type} is not the element type of {t}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string("[")
        printer.print_list(self.indices, printer.print_operand)
        printer.print_string("] : ")
        printer.print_attribute(self.tensor.type)

    @classmethod
    def parse(cls, parser: Parser) -> ExtractOp:
        tensor = parser.parse_unresolved_operand()
        indices = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        pos = parser.pos
        t = parser.parse_type()
        if not isinstance(t, TensorType):
            parser.raise_error(f"tensor.extract expects a tensor type, got {t}", pos, parser.pos)
        return cls(parser.resolve_operand(tensor, t), [parser.resolve_operand(i, IndexType()) for i in indices])


@irdl_op_definition
class EmptyOp(IRDLOperation):
    """A tensor whose contents are undefined: the destination of a computation."""

    name = "tensor.empty"
    result = result_def(TensorType)
    traits = traits_def(Pure())
    assembly_format = "`(` `)` attr-dict `:` type($result)"

    def __init__(self, t: TensorType):
        super().__init__(result_types=[t])


class TensorOp(UniformOp):
    """A pure data-movement op in the uniform syntax, verified by its registered ``infer_type``."""

    traits = traits_def(Pure())


@irdl_op_definition
class FillOp(TensorOp):
    """``init`` with every element set to the scalar ``value``."""

    name = "tensor.fill"
    value = operand_def()
    init = operand_def(TensorType)
    result = result_def(TensorType)


@irdl_op_definition
class ReshapeOp(TensorOp):
    """The same elements in row-major order, in the result's shape (collapse and expand alike)."""

    name = "tensor.reshape"
    input = operand_def(TensorType)
    result = result_def(TensorType)


@irdl_op_definition
class ConcatOp(TensorOp):
    """Operands joined along ``dim``."""

    name = "tensor.concat"
    inputs = var_operand_def(TensorType)
    result = result_def(TensorType)
    dim = int_prop()


@irdl_op_definition
class ExtractSliceOp(TensorOp):
    """``input[offsets + i * strides]`` for ``i`` in ``sizes`` (strides may be negative)."""

    name = "tensor.extract_slice"
    input = operand_def(TensorType)
    result = result_def(TensorType)
    offsets = ints_prop()
    sizes = ints_prop()
    strides = ints_prop()


@irdl_op_definition
class InsertSliceOp(TensorOp):
    """``dest`` with ``source`` written at ``offsets + i * strides``."""

    name = "tensor.insert_slice"
    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    result = result_def(TensorType)
    offsets = ints_prop()
    strides = ints_prop()


@irdl_op_definition
class PadOp(TensorOp):
    """``input`` surrounded by ``low``/``high`` elements equal to the scalar ``value``."""

    name = "tensor.pad"
    input = operand_def(TensorType)
    value = operand_def()
    result = result_def(TensorType)
    low = ints_prop()
    high = ints_prop()


ALL_OPS: list[type[Operation]] = [
    GenericOp,
    YieldOp,
    IndexOp,
    ExtractOp,
    EmptyOp,
    FillOp,
    ReshapeOp,
    ConcatOp,
    ExtractSliceOp,
    InsertSliceOp,
    PadOp,
]


def generic_body(arg_types: Sequence[Attribute]) -> tuple[Region, Block]:
    """An empty body block with the given argument types, for building generics."""
    block = Block(arg_types=list(arg_types))
    return Region(block), block
