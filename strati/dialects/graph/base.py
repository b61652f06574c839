"""The base of every graph op: the uniform syntax, value semantics (Pure)."""

from xdsl.interfaces import HasCanonicalizationPatternsInterface
from xdsl.irdl import traits_def
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import Pure

from strati import registry

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


class RegisteredCanonicalization(HasCanonicalizationPatternsInterface):
    """An op whose canonicalization patterns are those registered under its name.

    xDSL's ``canonicalize`` asks each op class for its patterns; this answers with the
    registry's ``"canonicalize"`` value for ``cls.name`` (a tuple of RewritePattern), so
    patterns are attached from outside like any other op attribute.  Every GraphOp has
    it; an op of another base can mix it in.
    """

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return tuple(registry.get_op_attr(cls.name, "canonicalize", ()))


class GraphOp(UniformOp, RegisteredCanonicalization):
    """A tensor-valued graph op with value semantics: pure, so CSE'd and erased when dead;
    canonicalized by the patterns registered under its name (key ``"canonicalize"``)."""

    traits = traits_def(Pure())


__all__ = [
    "GraphOp",
    "RegisteredCanonicalization",
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
