"""The hw dialect: what every hardware target shares (level 4).

A target is described by one attribute, attached to the module as the discardable
attribute ``hw.target``; passes below level 3 read it and never hard-code a
machine::

    builtin.module attributes {hw.target = #hw.target<"cpu", vector_width = 8, fma = true,
                                                       cores = 2, l1 = 32768, l2 = 524288, l3 = 16777216>} {
      ...
    }

``vector_width`` is in f32 lanes (8 for AVX2, 16 for AVX-512, 4 for SSE/NEON),
``fma`` whether fused multiply-add is native, ``cores`` how many tasks may run at
once, ``l1``/``l2``/``l3`` the data cache sizes in bytes (per core for L1/L2).
The target dialect itself (e.g. ``cpu``) holds the ops; :mod:`strati.dialects.hw.targets`
is the registry of named descriptions (``cpu`` = the host, detected at run time).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

TARGET_ATTR = "hw.target"
"""The name of the module attribute that holds the target description."""

_INT_FIELDS = ("vector_width", "cores", "l1", "l2", "l3")
_FIELDS = ("vector_width", "fma", "cores", "l1", "l2", "l3")


@irdl_attr_definition
class TargetAttr(ParametrizedAttribute):
    """``#hw.target<"name", vector_width = N, fma = true|false, cores = N, l1 = B, l2 = B, l3 = B>``."""

    name = "hw.target"

    target: StringAttr
    vector_width: IntAttr
    fma: IntAttr
    cores: IntAttr
    l1: IntAttr
    l2: IntAttr
    l3: IntAttr

    def __init__(
        self,
        target: str,
        *,
        vector_width: int,
        fma: bool,
        cores: int,
        l1: int,
        l2: int,
        l3: int,
    ):
        super().__init__(
            StringAttr(target),
            IntAttr(vector_width),
            IntAttr(int(bool(fma))),
            IntAttr(cores),
            IntAttr(l1),
            IntAttr(l2),
            IntAttr(l3),
        )

    # plain Python views of the parameters

    @property
    def target_name(self) -> str:
        return self.target.data

    @property
    def lanes(self) -> int:
        """The vector width in f32 lanes."""
        return self.vector_width.data

    @property
    def has_fma(self) -> bool:
        return bool(self.fma.data)

    @property
    def num_cores(self) -> int:
        return self.cores.data

    @property
    def cache_sizes(self) -> tuple[int, int, int]:
        return (self.l1.data, self.l2.data, self.l3.data)

    def lanes_for(self, bits: int) -> int:
        """How many elements of ``bits`` bits fill one vector register (at least 1)."""
        return max(1, self.lanes * 32 // max(1, bits))

    def verify(self) -> None:
        problem = _problem(self.target.data, {f: getattr(self, f).data for f in _FIELDS})
        if problem is not None:
            raise VerifyException(problem)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            target = parser.parse_str_literal(" (the target name)")
            values: dict[str, int] = {}
            while parser.parse_optional_punctuation(",") is not None:
                pos = parser.pos
                key = parser.parse_identifier(context_msg=" (a #hw.target field)")
                if key not in _FIELDS:
                    parser.raise_error(f"unknown #hw.target field '{key}' (fields: {', '.join(_FIELDS)})", pos, parser.pos)
                if key in values:
                    parser.raise_error(f"#hw.target field '{key}' given twice", pos, parser.pos)
                parser.parse_punctuation("=")
                if key == "fma":
                    values[key] = int(parser.parse_boolean(" (fma)"))
                else:
                    values[key] = parser.parse_integer(allow_boolean=False, context_msg=f" ({key})")
            missing = [f for f in _FIELDS if f not in values]
            if missing:
                parser.raise_error(f"#hw.target is missing {', '.join(missing)}", start, parser.pos)
        problem = _problem(target, values)
        if problem is not None:
            parser.raise_error(problem, start, parser.pos)
        return (StringAttr(target), *(IntAttr(values[f]) for f in _FIELDS))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.target.data)
        printer.print_string(f", vector_width = {self.vector_width.data}")
        printer.print_string(f", fma = {'true' if self.fma.data else 'false'}")
        for f in ("cores", "l1", "l2", "l3"):
            printer.print_string(f", {f} = {getattr(self, f).data}")
        printer.print_string(">")


def _problem(target: str, values: dict[str, int]) -> str | None:
    """What is wrong with a description, or None."""
    if not target:
        return "#hw.target needs a non-empty target name"
    w = values["vector_width"]
    if w < 1 or w & (w - 1):
        return f"#hw.target vector_width must be a power of two >= 1, got {w}"
    if values["fma"] not in (0, 1):
        return "#hw.target fma must be true or false"
    if values["cores"] < 1:
        return f"#hw.target cores must be at least 1, got {values['cores']}"
    for level in ("l1", "l2", "l3"):
        if values[level] < 0:
            return f"#hw.target {level} must be a size in bytes >= 0, got {values[level]}"
    return None


def module_target(module: ModuleOp) -> TargetAttr | None:
    """The module's target description, if it has one."""
    attr = module.attributes.get(TARGET_ATTR)
    return attr if isinstance(attr, TargetAttr) else None


def set_module_target(module: ModuleOp, target: TargetAttr) -> None:
    module.attributes[TARGET_ATTR] = target


ALL_ATTRS = [TargetAttr]
ALL_OPS: list = []

__all__ = ["ALL_ATTRS", "ALL_OPS", "TARGET_ATTR", "TargetAttr", "module_target", "set_module_target"]
