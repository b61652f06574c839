"""The graph dialect: neural-network ops on tensors with value semantics (level 1)."""

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Dialect, Operation

from strati.dialects.graph import ops
from strati.dialects.graph.ops import ALL_OPS, STRUCTURAL_OPS, ConstantOp
from strati.dialects.graph.ops_layout import LAYOUT_OPS
from strati.dialects.graph.quant import QUANT_OPS


class GraphConstantMaterialization(ConstantMaterializationInterface):
    """Lets folders that return a dense attribute become a graph.constant."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, DenseIntOrFPElementsAttr) and value.type == type:
            return ConstantOp(value)
        return None


Graph = Dialect("graph", [*ALL_OPS, *QUANT_OPS, *LAYOUT_OPS, *STRUCTURAL_OPS], [], [GraphConstantMaterialization()])

# The default attributes of every graph op (infer_type, reference, pattern, flops).
from strati.dialects.graph import attrs  # noqa: E402,F401

__all__ = ["Graph", "ops"]
