"""The tensor dialect: structured computation on tensors (level 2). Replaces xDSL's own `tensor`."""

from xdsl.ir import Dialect

from strati.dialects.tensor import ops
from strati.dialects.tensor.ops import ALL_OPS

Tensor = Dialect("tensor", ALL_OPS, [])

# The default attributes of the tensor ops (infer_type, reference).
from strati.dialects.tensor import attrs  # noqa: E402,F401

# The reference of the upstream arith/math ops that tensor-level IR and generic bodies use.
from strati.dialects import upstream_attrs  # noqa: E402,F401

__all__ = ["Tensor", "ops"]
