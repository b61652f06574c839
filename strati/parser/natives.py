"""Native constraints and functions: the Python that rules call by name.

A rule's ``where`` clause calls *constraints* (``same_type(x, result)``: true or false);
its expressions call *functions* (``type(x)``, ``compose_perms(p, q)``: a value).  Both
are registries (:class:`strati.registry.Registry`), so a plug-in adds its own with
:func:`register_constraint` / :func:`register_function`, and an unknown name in a rules
file is an error that lists the known ones.  The arguments are what the names are bound
to: an SSA value for an operand or a result, the plain Python value of a property
(``strati.dialects.uniform.py_value``), a type for a type variable.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import ConstantLike

from strati.dense import numpy_from_dense
from strati.dialects.shapes import element_of, shape_of
from strati.registry import DEFAULT_LEVEL, Registry

CONSTRAINTS = Registry("rule constraint")
FUNCTIONS = Registry("rule function")


def register_constraint(name: str, *, level: int = DEFAULT_LEVEL) -> Callable:
    """Decorator: ``@register_constraint("is_even")`` makes ``where is_even(x)`` call the function."""

    def decorator(fn: Callable[..., bool]) -> Callable[..., bool]:
        CONSTRAINTS.register(name, fn, level=level, origin=fn.__module__)
        return fn

    return decorator


def register_function(name: str, *, level: int = DEFAULT_LEVEL) -> Callable:
    """Decorator: ``@register_function("double")`` makes ``{k = double(n)}`` call the function."""

    def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
        FUNCTIONS.register(name, fn, level=level, origin=fn.__module__)
        return fn

    return decorator


# --- the built-in ones -----------------------------------------------------------------


def _type(v: Any) -> Attribute:
    return v.type if isinstance(v, SSAValue) else v


@register_function("type")
def type_of(value: SSAValue) -> Attribute:
    """The type of a value."""
    return value.type


@register_function("element_type")
def element_type(value: SSAValue | Attribute) -> Attribute:
    """The element type of a shaped value or type (a scalar type is its own)."""
    return element_of(_type(value))


@register_function("rank")
def rank(value: SSAValue | Attribute) -> int | None:
    t = _type(value)
    return len(shape_of(t)) if isinstance(t, ShapedType) else None


@register_function("dynamic_dims")
def dynamic_dims(value: SSAValue | Attribute) -> int:
    """How many dimensions of a shaped value are dynamic (``?``)."""
    return sum(d is None for d in shape_of(_type(value)))


@register_constraint("same_type")
def same_type(a: SSAValue | Attribute, b: SSAValue | Attribute) -> bool:
    return _type(a) == _type(b)


@register_constraint("same_element_type")
def same_element_type(a: SSAValue | Attribute, b: SSAValue | Attribute) -> bool:
    ta, tb = _type(a), _type(b)
    return isinstance(ta, ShapedType) and isinstance(tb, ShapedType) and element_of(ta) == element_of(tb)


@register_constraint("static_shape")
def static_shape(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, ShapedType) and all(d is not None for d in shape_of(t))


@register_constraint("has_one_use")
def has_one_use(value: SSAValue) -> bool:
    return value.has_one_use()


@register_constraint("constant")
def constant(value: SSAValue) -> bool:
    """The value is the result of a constant-like op."""
    return isinstance(value.owner, Operation) and value.owner.has_trait(ConstantLike)


def known_array(value: SSAValue) -> np.ndarray | None:
    """The numpy value of a constant: the ``value`` of a constant-like op, also through the
    ops registered as :data:`SPLAT_THROUGH` (a broadcast of a constant); else None."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return None
    if _constant_like(type(owner)):
        attr = owner.properties.get("value", owner.attributes.get("value"))
        try:
            return numpy_from_dense(attr)  # type: ignore[arg-type]
        except (TypeError, ValueError, AttributeError):
            return None
    through = SPLAT_THROUGH.get(owner.name)
    if through is not None and owner.operands and (inner := known_array(owner.operands[0])) is not None:
        return through(inner, value)
    return None


@cache
def _constant_like(cls: type[Operation]) -> bool:
    return cls.has_trait(ConstantLike)


SPLAT_THROUGH = Registry("splat-preserving op")
"""Op name -> (operand's array, result value) -> the result's array or None: ops through
which ``splat`` and :func:`known_array` see a constant (a dialect registers its broadcast)."""


@register_constraint("splat")
def splat(value: SSAValue, element: int | float) -> bool:
    """Every element of the constant ``value`` equals ``element``; for floats the sign of a
    zero must match too (``splat -0.0`` is not ``splat 0.0``).  Not for an empty constant."""
    array = known_array(value)
    if array is None or array.size == 0 or array.dtype.kind not in "iuf":
        return False
    first = array.flat[0]
    if first != element:  # most constants are not splats: settle it on one element
        return False
    stored_once = all(s == 0 for s in array.strides)  # a splat stored (or broadcast) once: one element says all
    if not stored_once and not bool(np.all(array == element)):
        return False
    if array.dtype.kind == "f" and element == 0:
        want = bool(np.signbit(float(element)))
        return bool(np.signbit(first)) == want if stored_once else bool(np.all(np.signbit(array) == want))
    return True


@register_constraint("identity_perm")
def identity_perm(perm: tuple[int, ...]) -> bool:
    """A permutation that leaves every axis in place."""
    return tuple(perm) == tuple(range(len(perm)))


@register_function("compose_perms")
def compose_perms(first: tuple[int, ...], then: tuple[int, ...]) -> tuple[int, ...]:
    """The permutation of transposing by ``first`` and then by ``then``."""
    return tuple(first[i] for i in then)
