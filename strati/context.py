"""The one place that builds the xDSL Context: our dialects plus the upstream ones.

xDSL ships dialects named ``tensor`` and ``hw`` too; ours replace them here (never
through the ``xdsl.universe`` entry point, which would change ``xdsl-opt`` for
everyone).  Targets (:func:`strati.dialects.hw.target.register_target`) and plug-ins
add theirs with :func:`register_dialect`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.ir import Dialect


def _graph() -> Dialect:
    from strati.dialects.graph import Graph

    return Graph


def _tensor() -> Dialect:
    from strati.dialects.tensor import Tensor

    return Tensor


def _loop() -> Dialect:
    from strati.dialects.loop import Loop

    return Loop


def _hw() -> Dialect:
    from strati.dialects.hw import Hw

    return Hw


def _arith() -> Dialect:
    from strati.dialects.arith_remf import Arith

    return Arith


_OURS: dict[str, Callable[[], Dialect]] = {"graph": _graph, "tensor": _tensor, "loop": _loop, "hw": _hw, "arith": _arith}
_PLUGINS: dict[str, Callable[[], Dialect]] = {}


def register_dialect(dialect: Dialect) -> None:
    """Make a dialect defined outside strati known to every context built after this."""
    _PLUGINS[dialect.name] = lambda: dialect


def make_context(allow_unregistered: bool = False) -> Context:
    """Upstream dialects, ours, every registered target's (the CPU's among them) and the plug-ins'."""
    from strati.dialects.hw.target import target_names

    target_names()  # the targets strati ships register their dialects as they load
    ctx = Context(allow_unregistered=allow_unregistered)
    ours = {**_OURS, **_PLUGINS}
    for name, factory in get_all_dialects().items():
        if name not in ours:
            ctx.register_dialect(name, factory)
    for name, factory in ours.items():
        ctx.register_dialect(name, factory)
    return ctx
