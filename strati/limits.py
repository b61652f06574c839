"""Resource limits: what strati refuses to build, so that bad or hostile input gets a
one-line error instead of exhausting memory or time.

Each limit has a default, a command-line flag of every tool that raises (or lowers) it, and
a field of ``LIMITS`` that a Python program sets (``strati.limits.LIMITS.constant_elements = ...``
or ``with strati.limits.raised(constant_elements=...)``).  docs/reliability.md lists them.

- ``constant_elements``: elements of one constant (its type's, splat or not: compiled code
  materialises it), ``--max-constant-elements``.
- ``constant_bytes``: bytes of all the constants of a module or model together,
  ``--max-constant-bytes``.
- ``ops``: operations in a module (or nodes in an ONNX graph), ``--max-ops``.
- ``tensor_elements``: elements of one tensor an ONNX model declares (a graph input, output
  or value), ``--max-tensor-elements``: onnx's own shape inference would try to build it.
- ``fold_bytes``: bytes one constant fold (fold-constants, canonicalize, the ONNX importer's
  evaluation of constant subgraphs) may produce, ``--max-fold-bytes``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace

from strati.diagnostics import StratiError


@dataclass
class Limits:
    constant_elements: int = 1 << 28
    constant_bytes: int = 1 << 32
    ops: int = 1_000_000
    tensor_elements: int = 1 << 34
    fold_bytes: int = 1 << 30


FLAGS = {
    "constant_elements": ("--max-constant-elements", "elements of one constant"),
    "constant_bytes": ("--max-constant-bytes", "bytes of all constants together"),
    "ops": ("--max-ops", "operations in a module (nodes in an ONNX graph)"),
    "tensor_elements": ("--max-tensor-elements", "elements of one tensor an ONNX model declares"),
    "fold_bytes": ("--max-fold-bytes", "bytes one constant fold may produce"),
}

LIMITS = Limits()


class LimitError(StratiError):
    """A limit was exceeded; the message names it and the flag that raises it."""


def exceeded(name: str, what: str, value: int, op=None) -> LimitError:
    flag, _ = FLAGS[name]
    limit = getattr(LIMITS, name)
    return LimitError(f"{what} {value} exceeds the limit of {limit} ({flag}=N raises it)", op)


def check(name: str, what: str, value: int, op=None) -> None:
    if value > getattr(LIMITS, name):
        raise exceeded(name, what, value, op)


@contextlib.contextmanager
def raised(**values: int) -> Iterator[Limits]:
    """Other limits for the duration of a ``with`` block."""
    saved = replace(LIMITS)
    for k, v in values.items():
        setattr(LIMITS, k, v)
    try:
        yield LIMITS
    finally:
        for f in fields(Limits):
            setattr(LIMITS, f.name, getattr(saved, f.name))


def add_arguments(parser) -> None:
    """The limit flags, for a tool's argparse parser."""
    group = parser.add_argument_group("limits (docs/reliability.md)")
    for name, (flag, doc) in FLAGS.items():
        group.add_argument(flag, type=_positive(flag), default=None, metavar="N", help=f"{doc} (default {getattr(Limits, name)})")


def apply_arguments(args) -> None:
    """Set the limits a tool's parsed arguments give."""
    for name, (flag, _) in FLAGS.items():
        value = getattr(args, flag.lstrip("-").replace("-", "_"), None)
        if value is not None:
            setattr(LIMITS, name, value)


def _positive(flag: str):
    def parse(text: str) -> int:
        import argparse

        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} takes a positive integer, got '{text}'") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{flag} takes a positive integer, got '{text}'")
        return value

    return parse


def check_module(module) -> None:
    """Ops, elements per constant and constant bytes of a parsed or built module."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ShapedType

    count = 0
    total = 0
    for op in module.walk():
        count += 1
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.type, ShapedType):
                elements = _elements(attr.type.get_shape())
                check("constant_elements", "a constant's number of elements", elements, op)
                total += elements * _itemsize(attr.get_element_type())
                check("constant_bytes", "the total bytes of the constants", total, op)
    check("ops", "the number of operations", count)


def _elements(shape) -> int:
    n = 1
    for d in shape:
        n *= max(int(d), 0)
    return n


def _itemsize(element) -> int:
    width = getattr(element, "bitwidth", None) or getattr(getattr(element, "width", None), "data", None) or 8
    return max(1, (int(width) + 7) // 8)
