"""Default attributes of the graph ops, registered by op name (see strati.registry).

Each module covers one family of ops and registers, for each op, ``infer_type``
(result types from operand types and properties; its exceptions are the
verifier's messages), ``reference`` (numpy; the semantics), ``pattern`` (the
fusion kind) and ``flops``.
"""

from strati.dialects.graph.attrs import elementwise, nn, quant, reduce, shape  # noqa: F401
from strati.dialects.graph.attrs import elementwise_math, grid_sample, index  # noqa: F401,E402  (ops_math, ops_index)
from strati.dialects.graph.attrs import fused  # noqa: F401,E402  (graph.fused and graph.yield)
from strati.dialects.graph.attrs import control  # noqa: F401,E402  (graph.if and graph.loop)
from strati.dialects.graph.attrs import canonicalize  # noqa: F401,E402  (the 'canonicalize' patterns)
from strati.dialects.graph.attrs import layout  # noqa: F401,E402  (layout_transform, conv2d_blocked)
from strati.dialects.graph import lowering  # noqa: F401,E402
