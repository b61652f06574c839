"""Op strategies: several implementations of one op on one target, the compiler picking one.

As in TVM's op strategies, each :class:`Strategy` of ``(op, target)`` has an
applicability test and a cost, both of the op instance and the target's description;
``convert-graph-to-tensor`` lowers an op through the cheapest strategy that applies
(and through the op's plain ``lower`` when the target registers none for it).  Its
option ``print-strategy`` (``strati-opt --print-strategy``) writes the choice, the
costs compared and the strategies that did not apply, one line per op, to stderr.

    register_strategy(Strategy("direct", "graph.conv2d", "cpu", lower=..., cost=...))
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from typing import TYPE_CHECKING

from xdsl.ir import Operation, SSAValue

from strati.diagnostics import StratiError
from strati.registry import DEFAULT_LEVEL, Registry

if TYPE_CHECKING:
    from strati.dialects.hw.ops import TargetAttr


@dataclass(frozen=True)
class Strategy:
    """One implementation of ``op_name`` on ``target``.

    ``lower(op, builder, description)`` builds it (as a ``lower`` attribute does, with a
    :class:`~strati.dialects.tensor.build.TensorBuilder`); ``applies(op, description)``
    says whether it can implement this instance, ``cost(op, description)`` estimates its
    time (any unit, the same for every strategy of the op: the cheapest wins).
    ``layout(op, description)``, when given, names the activation layout the strategy would
    rather compute in (``NCHW16c``), or None, and ``layout_cost(op, description)`` its cost
    with the operands and result already in that layout (no copies): ``alter-layout`` asks
    them."""

    name: str
    op_name: str
    target: str
    lower: Callable[[Operation, object, TargetAttr], SSAValue | Sequence[SSAValue]]
    cost: Callable[[Operation, TargetAttr], float]
    applies: Callable[[Operation, TargetAttr], bool] = lambda op, d: True
    doc: str = ""
    layout: Callable[[Operation, TargetAttr], str | None] | None = None
    layout_cost: Callable[[Operation, TargetAttr], float] | None = None


_STRATEGIES = Registry("strategy")


def register_strategy(strategy: Strategy, *, level: int = DEFAULT_LEVEL, origin: str | None = None) -> Strategy:
    _STRATEGIES.register(
        (strategy.op_name, strategy.target, strategy.name), strategy, level=level, origin=origin or strategy.lower.__module__
    )
    return strategy


def unregister_strategy(op_name: str, target: str, name: str) -> None:
    _STRATEGIES.unregister((op_name, target, name))


def _load_targets() -> None:
    """The built-in targets register their strategies when loaded: load them before any lookup."""
    from strati.dialects.hw.target import target_names

    target_names()


def strategies(op_name: str, target: str) -> list[Strategy]:
    _load_targets()
    return [_STRATEGIES.get(k) for k in _STRATEGIES.names() if k[0] == op_name and k[1] == target]


def strategies_for_target(target: str) -> dict[str, list[Strategy]]:
    _load_targets()
    found: dict[str, list[Strategy]] = {}
    for k in _STRATEGIES.names():
        if k[1] == target:
            found.setdefault(k[0], []).append(_STRATEGIES.get(k))
    return found


@dataclass(frozen=True)
class Choice:
    strategy: Strategy
    costs: tuple[tuple[str, float], ...]
    """Every applicable strategy with its cost, cheapest first."""
    not_applicable: tuple[str, ...]

    def explain(self) -> str:
        compared = ", ".join(f"{n} {c:.3g}" for n, c in self.costs)
        why = f"cheapest of {compared}" if len(self.costs) > 1 else f"the only one that applies (cost {self.costs[0][1]:.3g})"
        skipped = f"; not applicable: {', '.join(self.not_applicable)}" if self.not_applicable else ""
        return f"{self.strategy.op_name} -> {self.strategy.target}/{self.strategy.name}: {why}{skipped}"


_FORCED: dict[tuple[str, str], str] = {}


@contextlib.contextmanager
def forced(op_name: str, target: str, name: str) -> Iterator[None]:
    """Within the block, ``op_name`` on ``target`` takes strategy ``name`` wherever it applies
    (for tests that check one form, and for measuring one form against another)."""
    key = (op_name, target)
    if not any(s.name == name for s in strategies(op_name, target)):
        raise StratiError(f"no strategy '{name}' for {op_name} on target '{target}'")
    previous = _FORCED.get(key)
    _FORCED[key] = name
    try:
        yield
    finally:
        if previous is None:
            _FORCED.pop(key, None)
        else:
            _FORCED[key] = previous


PLACEMENT = "strati.placement"
"""The attribute that places an op on a target (the ``partition`` pass writes it): on another
target than the one it is lowered for, the op takes none of that target's strategies."""


def choose(op: Operation, description: TargetAttr) -> Choice | None:
    """The cheapest applicable strategy for ``op`` on the described target (None: it has none,
    or the op is placed elsewhere)."""
    candidates = strategies(op.name, description.target_name)
    placed = op.attributes.get(PLACEMENT)
    if not candidates or (placed is not None and getattr(placed, "data", None) != description.target_name):
        return None
    if (name := _FORCED.get((op.name, description.target_name))) is not None:
        candidates = [s for s in candidates if s.name == name]
    applicable = [s for s in candidates if s.applies(op, description)]
    if not applicable:
        return None
    costed = sorted(((s.cost(op, description), s.name, s) for s in applicable), key=lambda t: (t[0], t[1]))
    return Choice(
        costed[0][2],
        tuple((n, c) for c, n, _ in costed),
        tuple(s.name for s in candidates if s not in applicable),
    )


__all__ = ["PLACEMENT", "Choice", "Strategy", "choose", "forced", "register_strategy", "strategies", "strategies_for_target", "unregister_strategy"]
