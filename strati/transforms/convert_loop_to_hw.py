"""convert-loop-to-hw{target=NAME}: map level-3 loop nests onto a hardware target (level 4).

A driver: it attaches the target's description to the module (``hw.target``, see
:mod:`strati.dialects.hw`) -- the one the module already carries when it describes
that target, else the target's own (``cpu``: this machine) -- and runs the target's
pipeline (:attr:`strati.dialects.hw.target.Target.pipeline`), passes that read the
description and never hard-code a machine.  For ``cpu`` that is
``cpu-schedule-matmul,cpu-schedule-conv,unroll-windows,interchange,vectorize-transposes,vectorize,cpu-parallelize``; each is a pass of its own that can be run,
printed and tested alone.

Options: ``target`` (default: the module's description's target, else ``cpu``) and
``pipeline``, which replaces the target's (``pipeline="vectorize"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline

from strati.diagnostics import StratiError
from strati.dialects.hw.ops import set_module_target
from strati.dialects.hw.target import target_of


@dataclass(frozen=True)
class ConvertLoopToHwPass(ModulePass):
    """Map loop nests onto a target: attach its description, run its pipeline."""

    name = "convert-loop-to-hw"

    target: str | None = None
    pipeline: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for p in self.passes(op):
            p.apply(ctx, op)

    def passes(self, op: ModuleOp) -> list[ModulePass]:
        """The target's pipeline (or ``pipeline``), its description attached to ``op``."""
        from strati.transforms import available_passes

        try:
            target, description = target_of(op, self.target)
        except StratiError as err:
            raise StratiError(f"convert-loop-to-hw: {err.message}") from None
        set_module_target(op, description)
        spec = target.pipeline if self.pipeline is None else self.pipeline
        if not spec:
            return []
        try:
            return list(PassPipeline.parse_spec(available_passes(), spec).passes)
        except BaseException as err:  # ArgSpecParseError is a BaseException
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
            raise StratiError(f"convert-loop-to-hw: target '{target.name}' has an invalid pipeline '{spec}': {err}") from None

    def split(self, op: ModuleOp) -> tuple[ConvertLoopToHwPass, ConvertLoopToHwPass]:
        """This pass as two that run one after the other: the pipeline up to its last pass that
        reads across functions (``interprocedural``: the CPU's matmul schedule packs a kernel's
        constant weights from its call sites), then the rest, which lower each function from
        what it holds alone (so that a share of the kernels may be lowered in another process,
        :mod:`strati.runtime.apart`)."""
        passes = self.passes(op)
        cut = max((i + 1 for i, p in enumerate(passes) if getattr(p, "interprocedural", False)), default=0)
        specs = [str(p.pipeline_pass_spec()) for p in passes]
        return (ConvertLoopToHwPass(self.target, ",".join(specs[:cut])),
                ConvertLoopToHwPass(self.target, ",".join(specs[cut:])))


__all__ = ["ConvertLoopToHwPass"]
