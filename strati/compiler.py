"""The compile driver: any level of IR (or a file of it) down to a callable executable.

    exe = strati.compile("model.mlir")        # or a ModuleOp
    y = exe(x)

:func:`lower_to_loop` brings graph- or tensor-level IR down to level 3 with
whatever standard passes are registered (``convert-graph-to-tensor``,
``convert-tensor-to-loop``); a level whose pass is not there yet is a clear
error.  The module given is never changed: lowering works on a clone.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.utils.exceptions import DiagnosticException

from strati.diagnostics import StratiError, diagnostic_message, verify_module

LEVELS = ("graph", "tensor", "loop")

STANDARD_PIPELINE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("graph", ("convert-graph-to-tensor",)),
    ("tensor", ("convert-tensor-to-loop",)),
)
"""For each level, the passes that take a module from it to the next one."""


def module_level(module: ModuleOp) -> str:
    """The highest level present in the module: 'graph', 'tensor' or 'loop'."""
    level = "loop"
    for op in module.walk():
        dialect = op.name.split(".", 1)[0]
        if dialect == "graph":
            return "graph"
        if dialect == "tensor":
            level = "tensor"
        elif isinstance(op, FuncOp) and any(
            isinstance(t, TensorType) for t in (*op.function_type.inputs.data, *op.function_type.outputs.data)
        ):
            level = "tensor"
    return level


def run_pass(module: ModuleOp, name: str) -> None:
    """Apply one registered strati pass (default options) and verify the result."""
    from strati.context import make_context
    from strati.transforms import STRATI_PASSES

    factory = STRATI_PASSES.get(name)
    if factory is None:
        raise StratiError(f"the pass '{name}' is not available yet (strati.transforms.STRATI_PASSES has no '{name}')")
    try:
        factory()().apply(make_context(), module)
    except StratiError:
        raise
    except DiagnosticException as err:
        raise StratiError(f"pass '{name}' failed: {diagnostic_message(err)}") from None
    except Exception as err:  # a bug in the pass: say which
        raise RuntimeError(f"internal error in pass '{name}': {type(err).__name__}: {err}") from err
    if (diag := verify_module(module)) is not None:
        raise RuntimeError(f"internal error: the IR after pass '{name}' does not verify: {diag}")


def lower_to(module: ModuleOp, target_level: str) -> ModuleOp:
    """Lower a module in place, level by level with the standard pipeline, down to ``target_level``."""
    if target_level not in LEVELS:
        raise StratiError(f"unknown level '{target_level}' (levels: {', '.join(LEVELS)})")
    stop = LEVELS.index(target_level)
    for level, passes in STANDARD_PIPELINE:
        if LEVELS.index(level) >= stop:
            break
        if module_level(module) == level:
            for name in passes:
                run_pass(module, name)
    if LEVELS.index(level := module_level(module)) < stop:
        raise StratiError(f"the module is still at the {level} level after the standard pipeline")
    return module


def lower_to_loop(module: ModuleOp) -> ModuleOp:
    """Lower a module in place to level 3 (loop nests on memrefs); returns it."""
    return lower_to(module, "loop")


def load(module_or_path: ModuleOp | str | os.PathLike) -> ModuleOp:
    """A fresh module: a clone of the one given, or the parsed and verified contents of a file."""
    if isinstance(module_or_path, ModuleOp):
        return module_or_path.clone()
    if not isinstance(module_or_path, (str, os.PathLike)):
        raise TypeError(f"expected a ModuleOp or a path, got {type(module_or_path).__name__}")
    path = Path(module_or_path)
    if path.suffix == ".onnx":
        try:
            from strati.frontends.onnx import import_model  # type: ignore[import-not-found]
        except ImportError:
            raise StratiError(f"cannot compile '{path}': the ONNX importer is not available yet") from None
        return import_model(str(path))
    from strati.source import load_module
    from strati.tools.common import ToolError, read_text

    try:
        text = read_text(str(path))
    except ToolError as err:
        raise StratiError(str(err)) from None
    return load_module(text, str(path))


def compile(module_or_path, target: str = "cpu", *, entry: str | None = None):  # noqa: A001 - the public name
    """Compile a module (any level) or an .mlir file into an :class:`~strati.runtime.jit.Executable`."""
    if target != "cpu":
        raise ValueError(f"unknown target '{target}' (targets: cpu)")
    module = lower_to_loop(load(module_or_path))
    for fn in module.walk():
        if isinstance(fn, FuncOp) and any(isinstance(t, TensorType) for t in fn.function_type.inputs.data):
            raise StratiError(f"@{fn.sym_name.data} still takes tensors after lowering")
    from strati.runtime.jit import compile_module

    return compile_module(module, entry)


__all__ = ["LEVELS", "STANDARD_PIPELINE", "compile", "load", "lower_to", "lower_to_loop", "module_level", "run_pass"]
