"""The ``lower`` attributes of the graph ops: how each becomes tensor-level IR.

Each function takes the op and a :class:`strati.dialects.tensor.build.TensorBuilder`
and returns the values that replace the op's results.
"""

from strati.dialects.graph.lowering import elementwise, nn, reduce, shape  # noqa: F401
