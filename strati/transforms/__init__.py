"""strati's passes, one per file, and the registry of every pass a pipeline may name.

:func:`register_pass` adds a pass (a ``ModulePass`` subclass, or a function returning
one so that its module loads only when the pass is used) under its name, with the
registry convention of :mod:`strati.registry`: a duplicate from another module is an
error, each entry records its origin.  A plug-in's passes so appear in ``-p`` and
``--list-passes`` next to ours.  Targets register theirs when they load
(``cpu-parallelize``), and every target strati ships loads before a pipeline is parsed.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes

from strati.registry import DEFAULT_LEVEL, Registry

PassFactory = Callable[[], type[ModulePass]]

_PASSES = Registry("pass")


def register_pass(
    pass_type: type[ModulePass] | PassFactory, name: str | None = None, *, level: int = DEFAULT_LEVEL, origin: str | None = None
) -> None:
    """Make a pass known by its name (``pass_type.name``, or ``name`` for a factory)."""
    if isinstance(pass_type, type):
        cls = pass_type
        name = name or cls.name
        factory: PassFactory = lambda: cls  # noqa: E731
        origin = origin or cls.__module__
    else:
        if name is None:
            raise ValueError("a pass registered by a factory needs its name")
        factory = pass_type
    _PASSES.register(name, factory, level=level, origin=origin)


def unregister_pass(name: str) -> None:
    _PASSES.unregister(name)


def _lazy(module: str, cls: str) -> PassFactory:
    return lambda: getattr(importlib.import_module(module), cls)


for _name, _module, _cls in (
    ("alter-layout", "alter_layout", "AlterLayoutPass"),
    ("apply-rules", "apply_rules", "ApplyRulesPass"),
    ("canonicalize", "canonicalize", "CanonicalizePass"),
    ("convert-graph-to-tensor", "convert_graph_to_tensor", "ConvertGraphToTensorPass"),
    ("convert-loop-to-hw", "convert_loop_to_hw", "ConvertLoopToHwPass"),
    ("convert-tensor-to-loop", "convert_tensor_to_loop", "ConvertTensorToLoopPass"),
    ("fold-constants", "fold_constants", "FoldConstantsPass"),
    ("fuse-generics", "fuse_generics", "FuseGenericsPass"),
    ("fuse-loops", "fuse_loops", "FuseLoopsPass"),
    ("fuse-ops", "fuse_ops", "FuseOpsPass"),
    ("infer-shapes", "infer_shapes", "InferShapesPass"),
    ("interchange", "interchange", "InterchangePass"),
    ("merge-kernels", "merge_kernels", "MergeKernelsPass"),
    ("outline-kernels", "outline_kernels", "OutlineKernelsPass"),
    ("pack", "pack", "PackPass"),
    ("partition", "partition", "PartitionPass"),
    ("plan-memory", "plan_memory", "PlanMemoryPass"),
    ("profile-kernels", "profile_kernels", "ProfileKernelsPass"),
    ("scalar-replace", "scalar_replace", "ScalarReplacePass"),
    ("simplify-inference", "simplify_inference", "SimplifyInferencePass"),
    ("split-functions", "split_functions", "SplitFunctionsPass"),
    ("tile", "tile", "TilePass"),
    ("unroll-and-jam", "unroll_and_jam", "UnrollAndJamPass"),
    ("unroll-windows", "unroll_windows", "UnrollWindowsPass"),
    ("vectorize", "vectorize", "VectorizePass"),
    ("vectorize-transposes", "vectorize_transposes", "VectorizeTransposesPass"),
):
    register_pass(_lazy(f"strati.transforms.{_module}", _cls), _name, origin=f"strati.transforms.{_module}")


def strati_passes() -> Registry:
    """The registry of strati's passes and the plug-ins' (the targets strati ships loaded)."""
    from strati.dialects.hw.target import target_names

    target_names()  # loads the built-in targets, which register their passes
    return _PASSES


def available_passes() -> dict[str, PassFactory]:
    """xDSL's passes (canonicalize, cse, dce, ...) and ours; ours win on a name clash."""
    ours = strati_passes()
    return {**get_all_passes(), **{name: ours.get(name) for name in ours.names()}}


__all__ = ["available_passes", "register_pass", "strati_passes", "unregister_pass"]
