"""The compile driver: any level of IR (or a file of it) down to a callable executable.

    exe = strati.compile("model.mlir")        # or a ModuleOp
    y = exe(x)

:func:`lower_to_loop` brings graph- or tensor-level IR down to level 3 with
whatever standard passes are registered (``convert-graph-to-tensor``,
``convert-tensor-to-loop``); a level whose pass is not there yet is a clear
error.  The module given is never changed: lowering works on a clone.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from strati import progress
from strati.diagnostics import StratiError, diagnostic_message, verify_module
from strati.functions import find_function

LEVELS = ("graph", "tensor", "loop", "hw")

STANDARD_PIPELINE: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("graph", ("convert-graph-to-tensor",)),
    ("tensor", ("convert-tensor-to-loop",)),
    ("loop", ("convert-loop-to-hw",)),
)
"""For each level, the passes that take a module from it to the next one."""

PLACEMENT_PASSES: tuple[tuple[str, tuple[str, ...]], ...] = (("graph", ("partition",)), ("loop", ("split-functions",)))
"""For each level, the passes that run whenever a module reaches it, after its optimisations, at
every ``-O`` level: which ops go to an accelerator target (``partition``: nothing to decide on the
host), so that ``--emit=graph --target NAME`` shows the placement the lowering will follow; and
functions of very many loop nests split into parts of bounded size (``split-functions``: LLVM's
loop passes are worse than linear in a function's loops)."""

OPTIONAL_PASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("graph", ("simplify-inference", "canonicalize", "fold-constants", "alter-layout", "fuse-ops")),
    ("tensor", ("fuse-generics",)),
    ("loop", ("fuse-loops", "plan-memory", "outline-kernels", "profile-kernels")),
)
"""For each level, the optimisation passes that may run on it before its lowering passes, in
this order, each only when enabled by name (the ``optimizations`` of :func:`passes_between`,
:func:`lower_to` and :func:`compile`).  Optimisation levels are sets of these names."""

FUSION = ("fuse-ops", "fuse-generics", "fuse-loops")
"""Operator fusion: groups at the graph level (fuse-ops), producer generics inlined into their
consumers (fuse-generics), consumer loop nests moved into their producers' (fuse-loops)."""

SIMPLIFICATION = ("simplify-inference", "canonicalize", "fold-constants")
"""Graph simplification: batch norm folded into convolutions and gemms (or a scale and shift),
dropout and identities gone, algebraic identities, constant subgraphs evaluated."""

OPT_LEVELS: dict[int, tuple[str, ...]] = {
    0: (),
    1: SIMPLIFICATION,
    2: SIMPLIFICATION + FUSION + ("outline-kernels",),
    3: SIMPLIFICATION + ("alter-layout",) + FUSION + ("plan-memory", "outline-kernels"),
}
"""The optimisation levels, each adding passes as NNVM's did: -O0 lowers only; -O1 simplifies
the graph; -O2 also fuses operators into kernels, and compiles each distinct kernel once
(``outline-kernels``); -O3 also puts convolutions in the blocked channel layout their
target's strategy prefers where their layouts meet (``alter-layout``) and plans memory into
one arena.  The lowering itself (vectorisation, threads, LLVM at O3) is the same at every level."""

DEFAULT_OPT_LEVEL = 3


def optimizations_for(level: int) -> tuple[str, ...]:
    if level not in OPT_LEVELS:
        raise StratiError(f"unknown optimisation level -O{level} (levels: 0 to {max(OPT_LEVELS)})")
    return OPT_LEVELS[level]


LEVEL_NEUTRAL_OPS = ("graph.if", "graph.loop", "graph.yield")
"""Region ops that hold IR of the level they are at (their bodies are lowered in place)."""


def module_level(module: ModuleOp) -> str:
    """The highest level present in the module: 'graph', 'tensor', 'loop' or 'hw' (a target
    description ``hw.target`` on the module, or ops of a registered target's dialect)."""
    from strati.dialects.hw.ops import TARGET_ATTR
    from strati.dialects.hw.target import all_targets

    target_dialects = {d.name for t in all_targets() for d in t.dialects()}
    level = "hw" if TARGET_ATTR in module.attributes else "loop"
    for op in module.walk():
        dialect = op.name.split(".", 1)[0]
        if dialect == "graph" and op.name not in LEVEL_NEUTRAL_OPS:
            return "graph"
        if dialect == "tensor":
            level = "tensor"
        elif dialect in target_dialects and level == "loop":
            level = "hw"
        elif isinstance(op, FuncOp) and any(
            isinstance(t, TensorType) for t in (*op.function_type.inputs.data, *op.function_type.outputs.data)
        ):
            level = "tensor"
    return level


GC_THRESHOLD = (100_000, 50, 100)
"""Python's cyclic garbage collector's thresholds while strati compiles (the defaults are
``(700, 10, 10)``).  Compiling allocates millions of small IR objects; with the defaults the
collector took half the time of a chain of 8,000 relus, and more than twice as much at twice the
size (9.3 s of CPU instead of 15.1 s at 8,000 with these)."""


@contextlib.contextmanager
def fewer_collections():
    """Run the garbage collector less often (:data:`GC_THRESHOLD`) inside; restores the thresholds
    on exit."""
    old = gc.get_threshold()
    gc.set_threshold(*(max(a, b) for a, b in zip(old, GC_THRESHOLD)))
    try:
        yield
    finally:
        gc.set_threshold(*old)


def make_passes(names: Iterable[str], target: str | None = None, print_strategy: bool = False) -> list[ModulePass]:
    """The named registered passes (strati's or xDSL's), with the options the compile driver
    sets where a pass has them: ``target`` (the lowerings that a target steers) and
    ``print_strategy``."""
    from strati.transforms import available_passes

    registered = available_passes()
    passes = []
    for name in names:
        factory = registered.get(name)
        if factory is None:
            raise StratiError(f"no pass named '{name}'")
        cls = factory()
        fields = {f.name for f in dataclasses.fields(cls)}
        options = {"target": target, "print_strategy": print_strategy or None}
        passes.append(cls(**{k: v for k, v in options.items() if v is not None and k in fields}))
    return passes


def run_pass(module: ModuleOp, p: ModulePass | str, *, verify: bool = True) -> None:
    """Apply one pass (an instance, or a registered name with default options) and, unless told
    not to, verify the result."""
    from strati.context import make_context

    if isinstance(p, str):
        (p,) = make_passes([p])
    name = p.name
    try:
        with fewer_collections():
            p.apply(make_context(), module)
    except StratiError:
        raise
    except DiagnosticException as err:
        raise StratiError(f"pass '{name}' failed: {diagnostic_message(err)}") from None
    except Exception as err:  # a bug in the pass: say which
        raise RuntimeError(f"internal error in pass '{name}': {type(err).__name__}: {err}") from err
    if verify and (diag := verify_module(module)) is not None:
        raise RuntimeError(f"internal error: the IR after pass '{name}' does not verify: {diag}")


def passes_between(from_level: str, to_level: str, optimizations: Iterable[str] = ()) -> list[str]:
    """The standard pipeline's passes that take a module from one level down to another, with
    the enabled optimisation passes (:data:`OPTIONAL_PASSES`) of each level reached (the target
    level's included) before its lowering."""
    for level in (from_level, to_level):
        if level not in LEVELS:
            raise StratiError(f"unknown level '{level}' (levels: {', '.join(LEVELS)})")
    enabled = set(optimizations)
    optional = dict(OPTIONAL_PASSES)
    known = {name for _, names in OPTIONAL_PASSES for name in names}
    if unknown := sorted(enabled - known):
        raise StratiError(f"unknown optimisation pass '{unknown[0]}' (optional passes: {', '.join(sorted(known))})")
    start, stop = LEVELS.index(from_level), LEVELS.index(to_level)
    names: list[str] = []
    for level in LEVELS[start : stop + 1]:  # a level's optimisations run when it is reached
        names += [n for n in optional.get(level, ()) if n in enabled]
        names += dict(PLACEMENT_PASSES).get(level, ())
        if level != to_level:
            names += dict(STANDARD_PIPELINE).get(level, ())
    return names


def lower_to(
    module: ModuleOp,
    target_level: str,
    optimizations: Iterable[str] = (),
    *,
    target: str | None = None,
    verify_each: bool = True,
    times: dict[str, float] | None = None,
    check_passes: bool = False,
) -> ModuleOp:
    """Lower a module in place, level by level with the standard pipeline, down to ``target_level``
    (running the enabled optimisation passes on the way), for ``target`` (default: the module's
    own description's, else :data:`~strati.dialects.hw.target.DEFAULT_TARGET`).

    ``verify_each``: verify after every pass; else once, at the end, and any failure (invalid
    IR, or a pass that failed, perhaps on an earlier pass's invalid IR) lowers a clone of the
    input again, verifying after every pass, so that the error names the first pass at fault.
    ``times``: filled with each pass's seconds, by name.  ``check_passes``: each pass is also
    checked to keep the numerics (:mod:`strati.pass_validation`), verifying after each."""
    if (verify := _lower(module, target_level, optimizations, target, verify_each, times, check_passes)) is not None:
        verify()
    return module


def _lower(module: ModuleOp, target_level: str, optimizations: Iterable[str], target: str | None,
           verify_each: bool, times: dict[str, float] | None, check_passes: bool,
           before: Callable[[ModulePass], ModulePass | None] | None = None,
           source: Callable[[], ModuleOp] | None = None) -> Callable[[], None] | None:
    """:func:`lower_to`, but the final verification is left to the caller: the function returned
    (it raises as :func:`lower_to` would; ``strati.compile`` runs it while LLVM compiles), None
    when every pass was verified.  ``before`` is called with each pass before it runs, and
    returns the pass to run in its place (the pass itself, or what is left of it to do), or None
    when it did the pass's work itself.  ``source``: as for :func:`_run_passes`."""
    from strati.resources import require_values

    require_values(module)  # an elided constant: nothing to compute with
    passes = make_passes(passes_between(module_level(module), target_level, optimizations), target)
    with progress.compiling(len(passes)), fewer_collections():
        verify = _run_passes(module, passes, target_level, optimizations, target, verify_each, times, check_passes, before, source)
    if LEVELS.index(level := module_level(module)) < LEVELS.index(target_level):
        raise StratiError(f"the module is still at the {level} level after the standard pipeline")
    return verify


def _run_passes(module: ModuleOp, passes: list[ModulePass], target_level: str, optimizations: Iterable[str],
                target: str | None, verify_each: bool, times: dict[str, float] | None,
                check_passes: bool, before: Callable[[ModulePass], ModulePass | None] | None = None,
                source: Callable[[], ModuleOp] | None = None) -> Callable[[], None] | None:
    """Run the passes; returns the final verification (None when each pass was verified).
    ``source`` makes a copy of the input, to lower again when that fails (default: a clone
    taken now)."""
    if check_passes:
        from strati.pass_validation import validate_passes

        validate_passes(module, passes)
        return None
    if source is None and not verify_each:
        copy = module.clone()
        source = lambda: copy  # noqa: E731

    def name_the_pass_at_fault() -> None:  # the first pass had the verified input: its error stands
        if source is not None and not verify_each and ran > 0:
            lower_to(source(), target_level, optimizations, target=target)  # raises, naming the pass

    ran = 0  # passes that ran without a verification after them
    try:
        for p in passes:
            progress.step(p.name, module)
            start = time.perf_counter()
            if (q := p if before is None else before(p)) is not None:  # None: ``before`` ran it
                run_pass(module, q, verify=verify_each)
            ran += 1
            if times is not None:
                times[p.name] = times.get(p.name, 0.0) + time.perf_counter() - start
    except (RuntimeError, StratiError):  # a pass may have choked on the invalid IR of an earlier one
        name_the_pass_at_fault()
        raise

    def verify() -> None:
        if (diag := verify_module(module)) is not None:
            name_the_pass_at_fault()
            raise RuntimeError(f"internal error: the IR after the standard pipeline does not verify: {diag}")

    return None if source is None else verify


def lower_to_loop(module: ModuleOp) -> ModuleOp:
    """Lower a module in place to level 3 (loop nests on memrefs); returns it."""
    return lower_to(module, "loop")


def load(module_or_path: ModuleOp | str | os.PathLike) -> ModuleOp:
    """A fresh module: a clone of the one given, an imported ONNX model (a ModelProto or an
    .onnx path), or the parsed and verified contents of an .mlir file."""
    if isinstance(module_or_path, ModuleOp):
        return module_or_path.clone()
    if type(module_or_path).__name__ == "ModelProto":  # an onnx.ModelProto, without importing onnx here
        from strati.frontends.onnx import import_model

        return import_model(module_or_path)
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


def compile(  # noqa: A001 - the public name
    module_or_path,
    target: str | None = None,
    *,
    entry: str | None = None,
    opt_level: int = DEFAULT_OPT_LEVEL,
    optimizations: Iterable[str] | None = None,
    verify_each: bool = False,
    check_passes: bool = False,
    cache_size: int | None = None,
    profile: bool = False,
):
    """Compile a module (any level), an .mlir file or an .onnx model into an
    :class:`~strati.runtime.jit.Executable` for a registered ``target`` (default: the module's
    own ``hw.target``, else the host CPU; an unknown name is a StratiError listing the known
    ones); ``opt_level`` picks the passes (:data:`OPT_LEVELS`), or ``optimizations`` names them
    one by one (e.g. :data:`FUSION`).

    The IR is verified when loaded and once after the whole pipeline, while LLVM compiles it
    (``verify_each``: after every pass, as ``strati-opt`` does); the executable's
    ``compile_seconds`` has each pass's time, then the code generator's.  ``check_passes`` runs the module on seeded random inputs
    before and after each pass and stops at the first that changes the results
    (:mod:`strati.pass_validation`: slow, for debugging on small shapes).  ``profile`` adds
    ``profile-kernels``: cycle counters around each kernel, read by the executable's ``profile()``.

    A graph-level function with dynamic argument dimensions, or an ONNX model with dynamic
    input dimensions, gives a :class:`~strati.specialize.SpecializingExecutable`: it
    compiles on the first call with each new input signature and keeps the last ``cache_size``
    (default :data:`~strati.specialize.DEFAULT_CACHE_SIZE`) compiled executables."""
    from strati.dialects.hw.target import get_target
    from strati import specialize

    if optimizations is None:
        optimizations = optimizations_for(opt_level)
    optimizations = tuple(optimizations) + (("profile-kernels",) if profile else ())
    if target is not None:
        get_target(target)
    cache_size = specialize.DEFAULT_CACHE_SIZE if cache_size is None else cache_size

    def compile_static(module: ModuleOp, source: Callable[[], ModuleOp] | None = None):
        return _compile_static(module, target, entry, optimizations, verify_each, check_passes, source)

    if type(module_or_path).__name__ == "ModelProto" or (
        isinstance(module_or_path, (str, os.PathLike)) and str(module_or_path).endswith(".onnx")
    ):
        from strati.frontends.onnx_dynamic import as_model, has_dynamic_inputs, specializing_executable

        model = as_model(module_or_path)
        if has_dynamic_inputs(model):
            return specializing_executable(model, compile_static, cache_size)
        module_or_path = model
    module = load(module_or_path)
    fn = find_function(module, entry)
    if module_level(module) == "graph" and specialize.has_dynamic_arguments(fn):
        inputs, outputs = specialize.tensor_ports(fn)
        name = fn.sym_name.data

        def build(shapes):
            return compile_static(specialize.specialize_module(module, name, shapes))

        return specialize.SpecializingExecutable(name, inputs, outputs, build, cache_size)
    given = module_or_path
    return compile_static(module, lambda: load(given))  # the input again, should a pass need naming


def _compile_static(module: ModuleOp, target: str | None, entry: str | None, optimizations: tuple[str, ...],
                    verify_each: bool, check_passes: bool, source: Callable[[], ModuleOp] | None = None):
    """A module whose entry function has static argument types, lowered (in place) and compiled
    (``source``: makes the module again, to name the pass at fault should the IR not verify;
    else it is cloned first)."""
    from strati.runtime.apart import Apart, split_off
    from strati.transforms.convert_loop_to_hw import ConvertLoopToHwPass

    times: dict[str, float] = {}
    level = module_level(module)
    apart: Apart | None = None

    def before(p: ModulePass) -> ModulePass | None:  # a share of the kernels lowered and translated in a fork
        nonlocal apart
        if not isinstance(p, ConvertLoopToHwPass) or verify_each or check_passes:
            return p
        across, local = p.split(module)  # what reads across functions runs on the whole module first
        run_pass(module, across, verify=False)
        apart = split_off(module, lambda kernels: run_pass(kernels, local, verify=False))
        if apart is None:
            return local
        apart.lower_here(module)  # the groups of kernels the fork does not claim, and the rest
        return None

    def again() -> ModuleOp:  # the module as _lower takes it, made anew
        made = source() if source is not None else copy
        if level == "graph":
            run_pass(made, "infer-shapes")
        return made

    copy = module.clone() if source is None and not verify_each else None
    with progress.compiling(len(passes_between(level, "hw", optimizations)) + 2) as shown, fewer_collections():
        try:
            if level == "graph":
                shown.step("infer-shapes", module)
                start = time.perf_counter()
                run_pass(module, "infer-shapes")  # a `?` inside that inference resolves before any optimisation
                times["infer-shapes"] = time.perf_counter() - start
            verify = _lower(module, "hw", optimizations, target, verify_each, times, check_passes, before,
                            None if verify_each else again)
            for fn in module.walk():
                if isinstance(fn, FuncOp) and any(isinstance(t, TensorType) for t in fn.function_type.inputs.data):
                    if verify is not None:
                        verify()  # invalid IR: its error is the clearer
                    raise StratiError(f"@{fn.sym_name.data} still takes tensors after lowering")
            from strati.runtime.jit import compile_module

            shown.step("LLVM: translate, optimize, generate code", module)
            exe = compile_module(module, entry, while_compiling=verify, apart=apart)  # verified while LLVM compiles it
        finally:
            if apart is not None:
                apart.close()
    exe.compile_seconds = {**times, **exe.compile_seconds}
    return exe


__all__ = ["DEFAULT_OPT_LEVEL", "FUSION", "OPT_LEVELS", "SIMPLIFICATION", "optimizations_for", "LEVELS", "OPTIONAL_PASSES", "PLACEMENT_PASSES", "STANDARD_PIPELINE", "compile", "load", "lower_to", "lower_to_loop", "make_passes", "passes_between", "module_level", "run_pass"]
