"""The base of every graph op: the uniform syntax, value semantics (Pure)."""

from xdsl.irdl import traits_def
from xdsl.traits import Pure

from strati.dialects.uniform import (
    UniformOp,
    bool_prop,
    float_prop,
    floats_prop,
    int_prop,
    ints_prop,
    param,
    parse_properties,
    print_properties,
    print_value,
    str_prop,
)


class GraphOp(UniformOp):
    """A tensor-valued graph op with value semantics: pure, so CSE'd and erased when dead."""

    traits = traits_def(Pure())


__all__ = [
    "GraphOp",
    "bool_prop",
    "float_prop",
    "floats_prop",
    "int_prop",
    "ints_prop",
    "param",
    "parse_properties",
    "print_properties",
    "print_value",
    "str_prop",
]
