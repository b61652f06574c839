"""strati: an MLIR-style compiler infrastructure for deep-learning models, on xDSL."""

from strati.registry import OpPattern, get_op_attr, register_op_attr


def compile(module_or_path, target: str | None = None, **options):  # noqa: A001
    """Compile a module (any level), an .mlir file or an .onnx model for ``target`` (a registered
    target's name; default: the module's own ``hw.target``, else the host CPU); returns an
    :class:`~strati.runtime.jit.Executable` that takes and returns numpy arrays (by position, or
    by their ONNX or SSA names).  The options (``entry``, ``opt_level``, ``optimizations``,
    ``verify_each``, ``check_passes``, ``cache_size`` for models with dynamic dimensions) are
    those of :func:`strati.compiler.compile`."""
    from strati.compiler import compile as compile_

    return compile_(module_or_path, target, **options)


__all__ = ["OpPattern", "compile", "get_op_attr", "register_op_attr"]
