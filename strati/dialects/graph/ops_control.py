"""Control flow in the graph dialect: ``graph.if`` and ``graph.loop`` (ONNX If, Loop and Scan).

Both hold regions that end in ``graph.yield`` and may read any value defined above
them (ONNX subgraphs read outer-scope values by name), as ``scf.if``/``scf.for`` do:

    %r = graph.if %c : (tensor<i1>) -> (tensor<4xf32>) {
      graph.yield %a : tensor<4xf32>
    } else {
      graph.yield %b : tensor<4xf32>
    }

    %x, %s = graph.loop %n (%i, %c = %cond, %h = %h0) : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> (tensor<4xf32>, tensor<3x4xf32>) {
      ...
      graph.yield %c2, %h2, %e : tensor<i1>, tensor<4xf32>, tensor<4xf32>
    }

``graph.loop`` has ONNX Loop's semantics: at most ``%n`` iterations while the
condition holds; the body gets the iteration number ``%i`` (from 0), the condition
``%c`` and the loop-carried values, and yields the next condition, the next carried
values and then one element of each scan output; the results are the final carried
values and the scan outputs, their elements stacked along a new axis 0.  Definitions
only: the attributes are in ``strati.dialects.graph.attrs.control``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, i1, i64
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import irdl_op_definition, operand_def, region_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from strati.dialects.graph.base import GraphOp

T = TensorType
SCALAR_I1 = TensorType(i1, [])
SCALAR_I64 = TensorType(i64, [])


def _types(values) -> str:
    return ", ".join(str(v.type if isinstance(v, SSAValue) else v) for v in values)


def yielded(block: Block):
    """The graph.yield that ends a block, or a VerifyException."""
    last = block.last_op
    if last is None or last.name != "graph.yield":
        raise VerifyException("the region must end with graph.yield")
    return last


def _print_attrs(op, printer: Printer) -> None:
    if op.attributes:
        printer.print_string(" attributes ")
        printer.print_attr_dict(op.attributes)


@irdl_op_definition
class IfOp(GraphOp):
    """``then`` or ``else`` by a one-element i1 tensor; both regions yield the results."""

    name = "graph.if"
    cond = operand_def(T)
    outputs = var_result_def(T)
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, cond: SSAValue, result_types: Sequence[Attribute], then_region: Region, else_region: Region):
        super().__init__(operands=[cond], result_types=[list(result_types)], regions=[then_region, else_region])

    def verify_(self) -> None:
        t = self.cond.type
        if not isinstance(t, TensorType) or t.get_element_type() != i1 or any(d != 1 for d in t.get_shape()):
            raise VerifyException(f"the condition must be a one-element tensor of i1, not {t}")
        for which, region in (("then", self.then_region), ("else", self.else_region)):
            block = region.block
            if block.args:
                raise VerifyException(f"the {which} region takes no arguments")
            got = [v.type for v in yielded(block).operands]
            want = [r.type for r in self.outputs]
            if got != want:
                raise VerifyException(f"the {which} region yields ({_types(got)}) for results ({_types(want)})")
        super().verify_()

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        pos = parser.pos
        ft = parser.parse_function_type()
        if len(ft.inputs.data) != 1:
            parser.raise_error("graph.if takes one operand type, the condition's", pos, parser.pos)
        operand = parser.resolve_operand(cond, ft.inputs.data[0])
        attributes = parser.parse_optional_attr_dict_with_keyword()
        then_region = parser.parse_region()
        parser.parse_keyword("else")
        else_region = parser.parse_region()
        op = cls(operand, list(ft.outputs.data), then_region, else_region)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_function_type([self.cond.type], [r.type for r in self.outputs])
        _print_attrs(self, printer)
        printer.print_string(" ")
        printer.print_region(self.then_region)
        printer.print_string(" else ")
        printer.print_region(self.else_region)


@irdl_op_definition
class LoopOp(GraphOp):
    """ONNX Loop: ``max_trip_count`` (tensor<i64>), the initial condition (tensor<i1>), the
    initial carried values; results: the final carried values, then the scan outputs."""

    name = "graph.loop"
    max_trip_count = operand_def(T)
    cond = operand_def(T)
    carried = var_operand_def(T)
    outputs = var_result_def(T)
    body = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self,
        max_trip_count: SSAValue,
        cond: SSAValue,
        carried: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
    ):
        super().__init__(operands=[max_trip_count, cond, list(carried)], result_types=[list(result_types)], regions=[body])

    @property
    def n_carried(self) -> int:
        return len(self.carried)

    @property
    def scan_outputs(self) -> Sequence[SSAValue]:
        return self.outputs[self.n_carried :]

    def verify_(self) -> None:
        if self.max_trip_count.type != SCALAR_I64:
            raise VerifyException(f"the maximum trip count must be a tensor<i64>, not {self.max_trip_count.type}")
        if self.cond.type != SCALAR_I1:
            raise VerifyException(f"the condition must be a tensor<i1>, not {self.cond.type}")
        block = self.body.block
        want_args = [SCALAR_I64, SCALAR_I1, *(v.type for v in self.carried)]
        got_args = [a.type for a in block.args]
        if got_args != want_args:
            raise VerifyException(
                f"the body's arguments ({_types(got_args)}) must be the iteration number, the condition and the "
                f"carried values ({_types(want_args)})"
            )
        got = [v.type for v in yielded(block).operands]
        k = self.n_carried
        if len(got) < 1 + k or got[: 1 + k] != want_args[1:]:
            raise VerifyException(
                f"the body yields ({_types(got)}): it must yield the condition and the carried values "
                f"({_types(want_args[1:])}) first, then one element per scan output"
            )
        if len(self.outputs) != len(got) - 1:
            raise VerifyException(
                f"{len(self.outputs)} results for {k} carried values and {len(got) - 1 - k} scan outputs"
            )
        for i, (r, v) in enumerate(zip(self.outputs, got[1:])):
            if i < k and r.type != v:
                raise VerifyException(f"result #{i} has type {r.type}, the carried value {v}")
            if i >= k and (
                not isinstance(r.type, TensorType)
                or r.type.get_element_type() != v.get_element_type()
                or list(r.type.get_shape()[1:]) != list(v.get_shape())
            ):
                raise VerifyException(f"scan output #{i - k} has type {r.type}: its elements are {v}, stacked along axis 0")
        super().verify_()

    @classmethod
    def parse(cls, parser: Parser) -> LoopOp:
        trip = parser.parse_unresolved_operand()
        parser.parse_punctuation("(")
        iv = parser.parse_argument(expect_type=False)
        bindings = []
        while parser.parse_optional_punctuation(","):
            arg = parser.parse_argument(expect_type=False)
            parser.parse_punctuation("=")
            bindings.append((arg, parser.parse_unresolved_operand()))
        parser.parse_punctuation(")")
        if not bindings:
            parser.raise_error("graph.loop binds the condition after the iteration number: (%i, %c = %cond, ...)")
        parser.parse_punctuation(":")
        pos = parser.pos
        ft = parser.parse_function_type()
        inputs = list(ft.inputs.data)
        if len(inputs) != 1 + len(bindings):
            parser.raise_error(
                f"graph.loop has {1 + len(bindings)} operands but {len(inputs)} operand types", pos, parser.pos
            )
        trip_value = parser.resolve_operand(trip, inputs[0])
        values = [parser.resolve_operand(u, t) for (_, u), t in zip(bindings, inputs[1:])]
        attributes = parser.parse_optional_attr_dict_with_keyword()
        args = [iv.resolve(SCALAR_I64), *(a.resolve(t) for (a, _), t in zip(bindings, inputs[1:]))]
        body = parser.parse_region(args)
        op = cls(trip_value, values[0], values[1:], list(ft.outputs.data), body)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.max_trip_count)
        printer.print_string(" (")
        args = self.body.block.args
        printer.print_block_argument(args[0], print_type=False)
        for arg, value in zip(args[1:], [self.cond, *self.carried]):
            printer.print_string(", ")
            printer.print_block_argument(arg, print_type=False)
            printer.print_string(" = ")
            printer.print_operand(value)
        printer.print_string(") : ")
        printer.print_function_type([o.type for o in self.operands], [r.type for r in self.outputs])
        _print_attrs(self, printer)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)


CONTROL_OPS = [IfOp, LoopOp]
