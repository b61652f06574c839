"""Shapes with unknown dimensions, for type inference and verification at every level.

A shape is a tuple of ints where ``None`` is a dynamic dimension (``?`` in the
IR, ``DYNAMIC_INDEX`` in xDSL).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, IntegerType, TensorType
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

Shape = tuple[int | None, ...]


def shape_of(t: Attribute) -> Shape:
    if not isinstance(t, TensorType):
        raise VerifyException(f"expected a ranked tensor, got {t}")
    return tuple(None if d == DYNAMIC_INDEX else d for d in t.get_shape())


def make_tensor(shape: Sequence[int | None], element: Attribute) -> TensorType:
    return TensorType(element, [DYNAMIC_INDEX if d is None else d for d in shape])


def element_of(t: Attribute) -> Attribute:
    if not isinstance(t, TensorType):
        raise VerifyException(f"expected a ranked tensor, got {t}")
    return t.get_element_type()


def is_float(element: Attribute) -> bool:
    return isinstance(element, AnyFloat)


def is_int(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.width.data > 1


def types_compatible(declared: Attribute, inferred: Attribute) -> bool:
    """Same element type and rank; static dimensions equal where both are known."""
    if declared == inferred:
        return True
    if not (isinstance(declared, TensorType) and isinstance(inferred, TensorType)):
        return False
    if declared.get_element_type() != inferred.get_element_type():
        return False
    a, b = shape_of(declared), shape_of(inferred)
    return len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b))


def fmt(shape: Shape) -> str:
    """A shape as the IR writes it: ``4x?x8`` (``scalar`` for rank 0)."""
    return "x".join("?" if d is None else str(d) for d in shape) if shape else "scalar"


def broadcast_shapes(*shapes: Shape) -> Shape:
    """Numpy broadcasting, with dynamic dimensions; raises naming the shapes that clash."""
    rank = max(len(s) for s in shapes)
    padded = [(1,) * (rank - len(s)) + tuple(s) for s in shapes]
    out: list[int | None] = []
    for axis, dims in enumerate(zip(*padded)):
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            listed = " and ".join(f"[{fmt(s)}]" for s in shapes)
            raise VerifyException(f"shapes {listed} do not broadcast (dimension {axis}: {sorted(known)})")
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """An axis in [-rank, rank) as a non-negative index; raises naming the bad axis."""
    if not -rank <= axis < max(rank, 1):
        raise VerifyException(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank if rank else 0


def normalize_axes(axes: Sequence[int], rank: int, what: str = "axes") -> tuple[int, ...]:
    singular = "axis" if what == "axes" else what.removesuffix("s")
    out = tuple(normalize_axis(a, rank, singular) for a in axes)
    if len(set(out)) != len(out):
        raise VerifyException(f"{what} {list(axes)} repeat an axis")
    return out


def num_elements(shape: Shape) -> int | None:
    n = 1
    for d in shape:
        if d is None:
            return None
        n *= d
    return n
