"""strati: an MLIR-style compiler infrastructure for deep-learning models, on xDSL."""

from strati.registry import OpPattern, get_op_attr, register_op_attr


def compile(module_or_path, target: str = "cpu", *, entry: str | None = None, optimizations=()):  # noqa: A001 - the public name
    """Compile a module (graph, tensor or loop level) or an .mlir file for ``target``; returns an
    :class:`~strati.runtime.jit.Executable` that takes and returns numpy arrays.  ``optimizations``
    names optional passes to run (``strati.compiler.OPTIONAL_PASSES``, e.g. ``strati.compiler.FUSION``)."""
    from strati.compiler import compile as compile_

    return compile_(module_or_path, target, entry=entry, optimizations=optimizations)


__all__ = ["OpPattern", "compile", "get_op_attr", "register_op_attr"]
