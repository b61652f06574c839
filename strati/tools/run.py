"""strati-run: execute a function of a module (any level) or an ONNX model on numpy inputs.

The backend is native code (``--backend jit``, the default) or the reference
interpreter (``--backend interp``); ``--check`` runs both and compares them.

Inputs come from ``.npy`` files (``--input NAME=FILE.npy``) or are drawn at
random (``--random-inputs SEED``); each output is summarised (shape, dtype, a
few values) under its name (an ONNX model's output names, else ``output<i>``) and, with
``--output-dir``, saved as ``<name>.npy`` (characters other than letters, digits,
``.``, ``-`` and ``_`` become ``_``).  A missing,
extra, wrongly shaped or typed input, or an unreadable file, is one error line
naming the input, and exit status 1.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp, TensorType

from strati.dense import to_dtype
from strati.diagnostics import DiagnosticError, StratiError, op_diagnostic
from strati.compiler import module_level
from strati.functions import input_aliases, result_names
from strati.runtime.interpreter import Interpreter, bind_inputs, check_value, find_function
from strati.source import load_module
from strati import limits, progress
from strati.tools.argparser import ToolArgumentParser
from strati.tools.argtypes import non_negative_int, tolerance
from strati.tools.common import Timing, ToolError, run_tool, load_plugin, read_text

TOOL = "strati-run"


def build_arg_parser() -> argparse.ArgumentParser:
    ap = ToolArgumentParser(prog=TOOL, description="Execute a function of an .mlir module on numpy inputs.")
    ap.add_argument("file", help="the .mlir module, or an .onnx model (inputs by their ONNX names)")
    ap.add_argument("--entry", help="the function to run (default: the only or first public one)")
    ap.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy", help="an input, by argument name")
    ap.add_argument("--random-inputs", type=non_negative_int("--random-inputs"), metavar="SEED", help="draw the inputs not given at random")
    ap.add_argument("--backend", choices=["jit", "interp"], default="jit",
                    help="jit: native code through the standard pipeline (default); interp: the reference interpreter")
    ap.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=3, metavar="{0,1,2,3}",
                    help="jit: the optimisation level (default 3; docs/optimization.md)")
    ap.add_argument("--check", action="store_true", help="run both backends and compare (exit 1 beyond tolerance)")
    ap.add_argument("--rtol", type=tolerance("--rtol"), default=1e-4, help="relative tolerance of --check (default 1e-4)")
    ap.add_argument("--atol", type=tolerance("--atol"), default=1e-5, help="absolute tolerance of --check (default 1e-5)")
    ap.add_argument("--output-dir", metavar="DIR", help="save each output as DIR/<name>.npy")
    ap.add_argument("--bench", type=non_negative_int("--bench"), default=0, metavar="N", help="run N more times and print their median time per call")
    ap.add_argument("--target", metavar="NAME", help="the target the jit backend compiles for (default: the module's, else cpu)")
    ap.add_argument("--time-passes", action="store_true",
                    help="print the compile time of each pass and of the code generator's stages to stderr")
    ap.add_argument("--profile", action="store_true",
                    help="jit: time each kernel over the calls (profile-kernels) and print where the time went, "
                         "with what the target's runtime measured (cycles, bytes, utilisation)")
    ap.add_argument("--load-plugin", action="append", default=[], metavar="FILE.py|MODULE")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress line on a terminal during a long compile")
    limits.add_arguments(ap)
    return ap


def input_names(fn: func.FuncOp) -> list[str]:
    """The inputs' names: an imported model's ONNX names (``strati.name``), else the SSA names."""
    return [a[0] for a in input_aliases(fn)]  # a loop-level function's outputs are not inputs


def file_names(names: list[str]) -> list[str]:
    """A file name per output: safe characters only, and apart from each other."""
    found: list[str] = []
    for name in names:
        base = re.sub(r"[^\w.-]", "_", name).lstrip(".") or "output"
        candidate, n = base, 1
        while candidate in found:
            candidate, n = f"{base}_{n}", n + 1
        found.append(candidate)
    return found


def read_inputs(fn: func.FuncOp, specs: list[str], seed: int | None) -> dict[str, np.ndarray]:
    """The inputs by name; ``--input`` may use a name or its alias (the SSA name of an ONNX input)."""
    names = input_names(fn)
    canonical = {alias: a[0] for a in input_aliases(fn) for alias in a}
    types = dict(zip(names, fn.function_type.inputs.data))
    given: dict[str, np.ndarray] = {}
    for spec in specs:
        name, sep, path = split_input(spec, canonical)
        if not sep or not name or not path:
            raise ToolError(f"--input '{spec}' is not NAME=FILE.npy")
        if name not in canonical:
            raise ToolError(f"unknown input '{name}' (inputs of @{fn.sym_name.data}: {', '.join(names) or 'none'})")
        name = canonical[name]
        if name in given:
            raise ToolError(f"input '{name}' is given twice")
        given[name] = load_npy(name, path)
        try:
            t = types[name]  # a loop-level function's buffers are checked as the tensors they hold
            check_value(name, TensorType(t.element_type, t.get_shape()) if isinstance(t, MemRefType) else t, given[name])
        except StratiError as err:
            raise ToolError(err.message) from None
    rng = np.random.default_rng(seed)
    for name in names:
        if name in given:
            continue
        if seed is None:
            raise ToolError(f"missing input '{name}' of type {types[name]} (give --input {name}=FILE.npy or --random-inputs SEED)")
        given[name] = random_value(name, types[name], rng)
    return given


def split_input(spec: str, names) -> tuple[str, str, str]:
    """``NAME=FILE`` as (NAME, "=", FILE); NAME is the longest known name the spec starts with (an
    ONNX name may contain ``=``), else what precedes the first ``=``."""
    for name in sorted(names, key=len, reverse=True):
        if spec.startswith(name + "="):
            return name, "=", spec[len(name) + 1 :]
    return spec.partition("=")


def load_npy(name: str, path: str) -> np.ndarray:
    try:
        with open(path, "rb") as f:
            if f.read(6) != b"\x93NUMPY":
                raise ToolError(f"input '{name}': '{path}' is not a .npy file")
        return np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise ToolError(f"input '{name}': cannot read '{path}': no such file") from None
    except (OSError, ValueError, EOFError) as err:
        raise ToolError(f"input '{name}': cannot read '{path}': {str(err).splitlines()[0]}") from None


def random_value(name: str, t, rng: np.random.Generator) -> np.ndarray:
    """Standard normal floats, small non-negative integers, fair booleans (a tensor or a buffer)."""
    if not isinstance(t, (TensorType, MemRefType)):
        raise ToolError(f"input '{name}' has type {t}, which cannot be drawn at random")
    shape = tuple(None if d == DYNAMIC_INDEX else d for d in t.get_shape())
    if any(d is None for d in shape):
        raise ToolError(f"input '{name}' has a dynamic shape ({t}): give it with --input {name}=FILE.npy")
    dtype = to_dtype(t.get_element_type())
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if dtype.kind in "iu":
        return rng.integers(0, 10, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def summary(name: str, value: np.ndarray) -> str:
    """``name: dtype[shape] [first values ...]  min .. max .. mean ..``."""
    flat = value.ravel()
    shown = ", ".join(f"{v:.6g}" if value.dtype.kind == "f" else str(v) for v in flat[:6])
    more = f", ... ({flat.size} values)" if flat.size > 6 else ""
    stats = ""
    if value.size and value.dtype.kind in "fiu":
        stats = f"  min {value.min():.6g}  max {value.max():.6g}  mean {value.astype(np.float64).mean():.6g}"
    return f"{name}: {value.dtype}{list(value.shape)} [{shown}{more}]{stats}"


def load_model(path: str, specs: list[str] = ()):
    """A module from an .mlir file, or imported from an .onnx model; an ONNX model with dynamic
    input dimensions is imported with the shapes of the inputs given (``--input``), so that
    its shape computations fold."""
    if path.endswith(".onnx"):
        from strati.frontends.onnx import import_model  # onnx is needed only here
        from strati.frontends.onnx_dynamic import as_model, has_dynamic_inputs, input_ports, with_input_shapes
        from strati.specialize import check_dynamic

        try:
            model = as_model(path)
            if has_dynamic_inputs(model):
                ports = {name: p for p in input_ports(model) for name in (p.name, *p.aliases)}
                shapes = {}
                for spec in specs:
                    name, _, file = split_input(spec, ports)
                    if name in ports and file:
                        shapes[ports[name].name] = check_dynamic(ports[name], load_npy(name, file)).shape
                model = with_input_shapes(model, shapes)
            return import_model(model)
        except StratiError as err:
            raise ToolError(err.message) from None
    return load_module(read_text(path), path)


Runner = Callable[[list[np.ndarray]], list[np.ndarray]]


def interpreted(module: ModuleOp, fn: func.FuncOp) -> Runner:
    """The reference interpreter of the module's level (tensors above level 3, buffers below)."""
    if module_level(module) in ("graph", "tensor"):
        interpreter = Interpreter(module)
        return lambda inputs: interpreter.call(fn, bind_inputs(fn, inputs))
    from strati.runtime.loop_interpreter import run_loop_function

    return lambda inputs: run_loop_function(module, inputs, fn.sym_name.data)


def compiled(module: ModuleOp, fn: func.FuncOp, opt_level: int, target: str | None = None,
             time_passes: bool = False, profile: bool = False) -> Runner:
    """Native code through the standard pipeline, for the target named (default: the module's,
    else the host CPU); ``profile``: with ``profile-kernels``' counters, whose report the
    runner's ``profile()`` gives (the last shapes' when the executable specialises)."""
    from strati.compiler import compile as compile_module

    from strati.specialize import SpecializingExecutable

    exe = compile_module(module, target, entry=fn.sym_name.data, opt_level=opt_level, profile=profile)
    if not isinstance(exe, SpecializingExecutable):
        print(f"compiled @{fn.sym_name.data} in {sum(exe.compile_seconds.values()):.3f} s")
        if time_passes:
            sys.stderr.write(Timing(list(exe.compile_seconds.items())).report())

        def run_static(inputs: list[np.ndarray]) -> list[np.ndarray]:
            return exe.run(*inputs)

        run_static.profile = exe.profile  # type: ignore[attr-defined]
        return run_static

    last: list[tuple] = []

    def run_specialized(inputs: list[np.ndarray]) -> list[np.ndarray]:
        shapes = tuple(x.shape for x in exe.bind(inputs, {}))
        last[:] = [shapes]
        if shapes not in exe.cached_shapes:
            times = exe.specialization(shapes).compile_seconds
            shown = ", ".join("x".join(map(str, s)) or "scalar" for s in shapes)
            print(f"compiled @{fn.sym_name.data} for inputs of shapes {shown} in {sum(times.values()):.3f} s")
            if time_passes:
                sys.stderr.write(Timing(list(times.items())).report())
        return exe.run(*inputs)

    run_specialized.profile = lambda: exe.specialization(last[0]).profile() if last else None  # type: ignore[attr-defined]
    return run_specialized


def timed(runner: Runner, inputs: list[np.ndarray], repeats: int) -> tuple[list[np.ndarray], list[float]]:
    times = []
    for _ in range(1 + repeats):
        start = time.perf_counter()
        outputs = runner(inputs)
        times.append(time.perf_counter() - start)
    return outputs, times[1:] or times


def compare(names: list[str], got: list[np.ndarray], want: list[np.ndarray], rtol: float, atol: float) -> bool:
    """Print the largest absolute and relative errors per output; True when all are within tolerance."""
    ok = True
    for name, a, b in zip(names, got, want):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            print(f"check {name}: {a.dtype}{list(a.shape)} against {b.dtype}{list(b.shape)}: FAILED")
            ok = False
            continue
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))
        diff = np.where(same, 0.0, np.abs(a64 - b64))
        rel = np.where(same, 0.0, diff / np.maximum(np.abs(b64), np.finfo(np.float64).tiny))
        within = bool(np.all(diff <= atol + rtol * np.abs(np.where(same, 0.0, b64))))
        ok = ok and within
        abs_err = float(diff.max()) if diff.size else 0.0
        rel_err = float(rel.max()) if rel.size else 0.0
        verdict = "ok" if within else "FAILED"
        print(f"check {name}: max abs error {abs_err:.3g}, max rel error {rel_err:.3g} (rtol {rtol:g}, atol {atol:g}): {verdict}")
    return ok


def run(argv: list[str] | None = None) -> int:
    args = build_arg_parser().parse_args(argv)
    limits.apply_arguments(args)
    if args.quiet:
        progress.silence()
    for plugin in args.load_plugin:
        load_plugin(plugin)
    module = load_model(args.file, args.input)
    try:
        fn = find_function(module, args.entry)
        given = read_inputs(fn, args.input, args.random_inputs)
        inputs = [given[name] for name in input_names(fn)]
        profiled = None
        if args.profile and args.backend == "jit":
            from strati.dialects.hw.target import target_of

            profiled = target_of(module, args.target)[0]
            profiled.profile()  # forget what earlier calls measured
        make = {"interp": interpreted,
                "jit": lambda m, f: compiled(m, f, args.opt_level, args.target, args.time_passes, args.profile)}
        runner = make[args.backend](module, fn)
        outputs, times = timed(runner, inputs, args.bench)
        kernels = runner.profile() if args.profile and args.backend == "jit" else None
        reports = [kernels.table() if kernels is not None else None, profiled.profile() if profiled is not None else None]
        report = "\n".join(r for r in reports if r)
        reference = None
        if args.check:
            other = "interp" if args.backend == "jit" else "jit"
            reference, _ = timed(make[other](module, fn), inputs, 0)
    except StratiError as err:
        if err.op is None:
            raise ToolError(err.message) from None
        raise DiagnosticError(op_diagnostic(err.message, err.op, args.file)) from None
    names = result_names(fn)
    for name, value in zip(names, outputs):
        print(summary(name, value))
    if args.profile:
        print(report or ("--profile: the interpreter measures nothing" if profiled is None
                         else f"--profile: target '{profiled.name}' measures nothing"))
    if args.bench:
        print(f"median time per call ({args.backend}, {len(times)} runs): {np.median(times) * 1e3:.3f} ms")
    if args.output_dir:
        directory = Path(args.output_dir)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            for name, value in zip(file_names(names), outputs):
                np.save(directory / f"{name}.npy", value)
        except OSError as err:
            raise ToolError(f"cannot write to '{directory}': {err.strerror or err}") from None
        print(f"wrote {len(outputs)} outputs to {directory}/")
    if reference is not None:
        jit, interp = (outputs, reference) if args.backend == "jit" else (reference, outputs)
        if not compare(names, jit, interp, args.rtol, args.atol):
            return 1
    return 0


def main(argv: list[str] | None = None) -> None:
    run_tool(TOOL, run, argv)


if __name__ == "__main__":
    main()
