"""strati: an MLIR-style compiler infrastructure for deep-learning models, on xDSL."""

from strati.registry import OpPattern, get_op_attr, register_op_attr


def compile(  # noqa: A001
    module_or_path,
    target: str | None = None,
    *,
    entry: str | None = None,
    opt_level: int = 3,
    optimizations=None,
    cache_size: int | None = None,
):
    """Compile a module (any level), an .mlir file or an .onnx model for ``target`` (a registered
    target's name; default: the module's own ``hw.target``, else the host CPU); returns an
    :class:`~strati.runtime.jit.Executable` that takes and returns numpy arrays.  ``opt_level``
    0-3 picks the optimisation passes (``strati.compiler.OPT_LEVELS``); ``optimizations`` names
    them one by one instead (``strati.compiler.OPTIONAL_PASSES``).  Inputs are named by their
    ONNX names or SSA names.  A model with dynamic input dimensions compiles per input
    signature, keeping the last ``cache_size`` (default 8) compilations (``docs/names-and-shapes.md``)."""
    from strati.compiler import compile as compile_

    return compile_(
        module_or_path, target, entry=entry, opt_level=opt_level, optimizations=optimizations, cache_size=cache_size
    )


__all__ = ["OpPattern", "compile", "get_op_attr", "register_op_attr"]
