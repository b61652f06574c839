"""The tensor dialect: structured computation on tensors (level 2). Replaces xDSL's own `tensor`."""

from xdsl.dialect_interfaces.constant_materialization import ConstantMaterializationInterface
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Attribute, Dialect, Operation

from strati.dialects.tensor import ops
from strati.dialects.tensor.ops import ALL_OPS


class TensorConstantMaterialization(ConstantMaterializationInterface):
    """A folded tensor at this level is ``arith.constant dense<...>`` (what bufferization turns into a global)."""

    def materialize_constant(self, value: Attribute, type: Attribute) -> Operation | None:
        if isinstance(value, DenseIntOrFPElementsAttr) and value.type == type:
            return arith.ConstantOp(value, type)
        return None


Tensor = Dialect("tensor", ALL_OPS, [], [TensorConstantMaterialization()])

# The default attributes of the tensor ops (infer_type, reference).
from strati.dialects.tensor import attrs  # noqa: E402,F401

# The reference of the upstream arith/math ops that tensor-level IR and generic bodies use.
from strati.dialects import upstream_attrs  # noqa: E402,F401

__all__ = ["Tensor", "ops"]
