"""strati: an MLIR-style compiler infrastructure for deep-learning models, on xDSL."""

from strati.registry import OpPattern, get_op_attr, register_op_attr


def compile(module_or_path, target: str | None = None, *, entry: str | None = None, opt_level: int = 3, optimizations=None,  # noqa: A001
            check_passes: bool = False):
    """Compile a module (any level), an .mlir file or an .onnx model for ``target`` (a registered
    target's name; default: the module's own ``hw.target``, else the host CPU); returns an
    :class:`~strati.runtime.jit.Executable` that takes and returns numpy arrays.  ``opt_level``
    0-3 picks the optimisation passes (``strati.compiler.OPT_LEVELS``); ``optimizations`` names
    them one by one instead (``strati.compiler.OPTIONAL_PASSES``).  ``check_passes`` runs the module
    on seeded random inputs before and after each pass, with the interpreter of its level, and
    stops at the first pass that changes the results, naming it and the op (``strati.pass_validation``)."""
    from strati.compiler import compile as compile_

    return compile_(module_or_path, target, entry=entry, opt_level=opt_level, optimizations=optimizations,
                    check_passes=check_passes)


__all__ = ["OpPattern", "compile", "get_op_attr", "register_op_attr"]
