"""The JIT: a level-3 module -> LLVM IR -> O3 for the host CPU -> MCJIT -> a callable.

    exe = compile_module(module)          # the module's only (or first public) function
    y = exe(x)                            # numpy in, numpy out
    y = exe(x=x)                          # or by argument name (an ONNX name, or its SSA alias)
    y = exe({"input.1": x})               # or a dict of them, as onnxruntime takes its feeds
    exe(x, out=y)                         # into a preallocated output

Calling convention: every function ``@f`` has a wrapper ``void @f_entry(ptr
%args)`` (see :mod:`strati.codegen.llvm`); ``args`` holds one pointer per argument
(a buffer's data pointer, or a pointer to a scalar) and one per scalar result.
One ctypes prototype calls every signature, and ctypes releases the GIL during
the call.  The code may call into its target's runtime (the CPU's thread pool, an
accelerator's driver): the JIT binds the target's ``runtime_symbols()`` before linking
and calls its ``before_call()`` and ``after_call()`` around every call (the thread count
handed over; an error the runtime recorded raised).  The target is the module's ``hw.target``; a module without one binds
those of every registered target.  Functions are in destination-passing style: the last
``strati.outputs`` arguments are outputs, which the executable allocates
(``np.empty``) unless ``out=`` is given, and returns.

Each executable owns its MCJIT engine (and the engine its own TargetMachine:
MCJIT takes ownership, and sharing one between engines crashed), and keeps
the bytes of the globals it binds; function pointers stay valid as long as the
executable lives.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import itertools
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute

from strati.codegen.checks import new_record, raise_recorded
from strati.codegen.llvm import FunctionInfo, Translation, translate_module
from strati.codegen.split import split_module
from strati.dense import to_dtype
from strati.diagnostics import StratiError
from strati.dialects.loop.profile import COUNTERS_SYMBOL, profile_labels
from strati.dialects.hw.ops import module_target
from strati.dialects.hw.target import Target, all_targets, get_target
from strati.functions import argument_aliases, find_function
from strati.runtime.apart import Apart
from strati.runtime.llvm_worker import (
    CompilerProcess,
    InvalidModule,
    compile_part,
    host_target_machine,
    llvm_binding,
    optimize,
    optimize_verified,
)

EMBED_LIMIT = 64 * 1024
"""Globals up to this many bytes are embedded in the LLVM module; larger ones are bound by address."""

_LOCK = threading.RLock()  # LLVM's global context is not thread-safe (re-entered: binding a runtime may compile it)
_COUNTER = itertools.count()
_ENTRY = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p))


LIBMVEC_FUNCTIONS = (
    "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "tanh", "erf", "atan", "asin", "acos",
    "sinh", "cosh", "asinh", "acosh", "atanh", "expm1", "log1p", "cbrt", "pow", "atan2",
)  # fmt: skip
_BINARY = ("pow", "atan2")
_VECTOR_LIBRARY: list = []


def host_vector_library():
    """glibc's libmvec, loaded into the process, with the variants this CPU can run (None if absent).

    x86-64 only: ``b`` = SSE (4 floats), ``d`` = AVX2 (8), ``e`` = AVX-512 (16); a
    variant counts only if the library exports it (older glibc has exp/log/sin/cos/pow only).
    """
    if _VECTOR_LIBRARY:
        return _VECTOR_LIBRARY[0]
    library = None
    llvm = llvm_binding()
    try:
        import platform

        if platform.machine() in ("x86_64", "AMD64"):
            lib = ctypes.CDLL("libmvec.so.1", mode=ctypes.RTLD_GLOBAL)
            llvm.load_library_permanently("libmvec.so.1")
            features = llvm.get_host_cpu_features()
            isas = [("b", 4)]
            if features.get("avx2"):
                isas.append(("d", 8))
            if features.get("avx512f"):
                isas.append(("e", 16))
            variants = {}
            for base in LIBMVEC_FUNCTIONS:
                params = "vv" if base in _BINARY else "v"
                for scalar, width in ((base + "f", 1), (base, 2)):  # f32 lanes, f64 lanes (half as many)
                    found = []
                    for isa, lanes in isas:
                        symbol = f"_ZGV{isa}N{lanes // width}{params}_{scalar}"
                        if hasattr(lib, symbol):
                            found.append((lanes // width, symbol))
                    if found:
                        variants[scalar] = tuple(found)
            if variants:
                from strati.codegen.llvm import VectorLibrary

                library = VectorLibrary("libmvec", variants)
    except (OSError, RuntimeError, AttributeError):
        library = None
    _VECTOR_LIBRARY.append(library)
    return library


@dataclass(frozen=True)
class Port:
    """An input or output of an executable."""

    name: str
    type: Attribute
    shape: tuple[int | None, ...]
    """None where a dimension is dynamic (a specialising executable's ports, :mod:`strati.specialize`)."""
    dtype: np.dtype
    aliases: tuple[str, ...] = ()
    """Other names the port answers to (the SSA name, when ``name`` is an ONNX name it cannot spell)."""

    @property
    def is_buffer(self) -> bool:
        return isinstance(self.type, MemRefType)

    def __str__(self) -> str:
        return f"{self.name}: {self.type}"


def _port(names: str | tuple[str, ...], t: Attribute) -> Port:
    name, *aliases = (names,) if isinstance(names, str) else names
    if isinstance(t, MemRefType):
        return Port(name, t, tuple(t.get_shape()), to_dtype(t.get_element_type()), tuple(aliases))
    from xdsl.dialects.builtin import IndexType

    dtype = np.dtype(np.int64) if isinstance(t, IndexType) else to_dtype(t)
    return Port(name, t, (), dtype, tuple(aliases))


class CallableByPorts:
    """What calling any executable looks like, given its ``inputs``, ``outputs`` and ``run``."""

    inputs: list[Port]
    outputs: list[Port]

    @property
    def input_names(self) -> list[str]:
        return [p.name for p in self.inputs]

    @property
    def output_names(self) -> list[str]:
        return [p.name for p in self.outputs]

    def __call__(self, *args, out: Sequence[np.ndarray] | np.ndarray | None = None, **named):
        """Run on numpy inputs; returns the output array, or a tuple of them when there are several
        (None when there are none).  ``out``: arrays to write the outputs into."""
        values = self.run(*args, out=out, **named)
        if len(values) == 1:
            return values[0]
        return tuple(values) if values else None

    def run(self, *args, out: Sequence[np.ndarray] | np.ndarray | None = None, **named) -> list[np.ndarray]:
        raise NotImplementedError


@dataclass
class Executable(CallableByPorts):
    """A compiled function: call it with numpy arrays, get numpy arrays back."""

    name: str
    inputs: list[Port]
    outputs: list[Port]
    results: list[Port]
    llvm_ir_unoptimized: str
    llvm_ir: str
    """The optimised LLVM IR (``llvm_ir_unoptimized``: as generated)."""
    compile_seconds: dict[str, float]
    _engine: object = field(repr=False)
    _keep: list = field(repr=False)
    _entry: object = field(repr=False)
    _targets: list[Target] = field(repr=False, default_factory=list)
    _checked: bool = field(repr=False, default=False)  # the entry takes a check record (strati.codegen.checks)
    _assembly: str | None = field(repr=False, default=None)
    _profile: tuple[list[str], np.ndarray] | None = field(repr=False, default=None)  # profile-kernels' labels, counters

    def profile(self):
        """What the counters of ``profile-kernels`` measured since the last call of this method
        (a :class:`strati.runtime.profile.Profile`: time per kernel), or None when the module
        was compiled without them (``strati.compile(..., profile=True)``)."""
        if self._profile is None:
            return None
        from strati.runtime.profile import read_profile

        return read_profile(self.name, *self._profile)

    def run(self, *args, out: Sequence[np.ndarray] | np.ndarray | None = None, **named) -> list[np.ndarray]:
        """As calling the executable, but always a list: the outputs, then the scalar results."""
        inputs = self.bind(args, named)
        outputs = self._outputs(out, inputs)
        results = [np.empty((), p.dtype) for p in self.results]
        record = new_record() if self._checked else None  # this call's own: threads do not share it
        arrays = [*inputs, *outputs, *results, *([record] if record is not None else [])]
        pointers = (ctypes.c_void_p * max(1, len(arrays)))(*[a.ctypes.data for a in arrays])
        for target in self._targets:
            target.before_call()
        self._entry(pointers)
        for target in self._targets:
            target.after_call()
        raise_recorded(record)  # a run-time check that failed during this call
        return [*outputs, *(r[()] for r in results)]

    def bind(self, args: Sequence, named: Mapping[str, object]) -> list[np.ndarray]:
        """The inputs as arrays of the right dtype and shape, or a StratiError naming the input."""
        return [check_input(p, x) for p, x in zip(self.inputs, order_ports(self.inputs, args, named))]

    def _outputs(self, out, inputs: list[np.ndarray]) -> list[np.ndarray]:
        if out is None:
            return [np.empty(p.shape, p.dtype) for p in self.outputs]
        if isinstance(out, np.ndarray):
            out = [out]
        out = list(out)
        if len(out) != len(self.outputs):
            raise StratiError(f"expected {len(self.outputs)} output arrays ({', '.join(self.output_names)}), got {len(out)}")
        for p, a in zip(self.outputs, out):
            check_input(p, a, role="output")
            if not a.flags.writeable:
                raise StratiError(f"output '{p.name}' is read-only")
            for q, x in itertools.chain(zip(self.inputs, inputs), zip(self.outputs, out)):
                if q is not p and np.may_share_memory(a, x):
                    raise StratiError(f"output '{p.name}' overlaps '{q.name}' (buffers must not alias)")
        return out

    def assembly(self) -> str:
        """The machine code of the optimised module, as assembly text."""
        if self._assembly is None:
            llvm = llvm_binding()
            with _LOCK:  # the engine owns its module(s): print a fresh copy of the optimised IR, part by part
                parts = self.llvm_ir.split(PART_MARK)
                texts = [p.split("\n", 1)[1] for p in parts[1:]] if len(parts) > 1 else parts
                self._assembly = "".join(host_target_machine().emit_assembly(llvm.parse_assembly(t)) for t in texts)
        return self._assembly


def order_ports(ports: Sequence[Port], args: Sequence, named: Mapping[str, object]) -> list:
    """The inputs given by position, or by name (a port's name or any of its aliases; as keywords or
    as one dict, as onnxruntime takes its feeds), in port order."""
    from strati.runtime.interpreter import order_inputs

    if len(args) == 1 and isinstance(args[0], Mapping) and not named:
        args, named = (), args[0]
    if args and named:
        raise StratiError("give the inputs either by position or by name, not both")
    return order_inputs([(p.name, *p.aliases) for p in ports], named or args, [p.type for p in ports])


def check_input(port: Port, value, role: str = "input") -> np.ndarray:
    """One input against its port: dtype, shape, C-contiguous, aligned; one-line errors naming it."""
    if not port.is_buffer:
        if isinstance(value, np.ndarray) and value.shape != ():
            raise StratiError(f"{role} '{port.name}' is a scalar of type {port.type}, got an array of shape {list(value.shape)}")
        if isinstance(value, (np.ndarray, np.generic)) and value.dtype != port.dtype:
            raise StratiError(f"{role} '{port.name}' has dtype {value.dtype}, expected {port.dtype} ({port.type})")
        try:
            return np.array(value, dtype=port.dtype)
        except (TypeError, ValueError, OverflowError):
            raise StratiError(f"{role} '{port.name}' must be a {port.dtype} scalar ({port.type}), got {type(value).__name__}") from None
    if not isinstance(value, np.ndarray):
        raise StratiError(f"{role} '{port.name}' must be a numpy array of type {port.type}, got {type(value).__name__}")
    if value.dtype != port.dtype:
        raise StratiError(f"{role} '{port.name}' has dtype {value.dtype}, expected {port.dtype} ({port.type})")
    if value.shape != port.shape:
        raise StratiError(f"{role} '{port.name}' has shape {list(value.shape)}, expected {port.type}")
    if not value.flags.c_contiguous:
        raise StratiError(f"{role} '{port.name}' is not C-contiguous (pass np.ascontiguousarray({port.name}))")
    if not value.flags.aligned:
        raise StratiError(f"{role} '{port.name}' is not aligned to its element size")
    return value


def optimized_llvm_ir(module: ModuleOp, opt_level: int = 3) -> str:
    """The LLVM IR the JIT would run for a level-3 module (every global embedded), after O3 for the host."""
    llvm = llvm_binding()
    translation = translate_module(module, vector_library=host_vector_library())
    with _LOCK:
        unoptimized = str(translation.module)
        llmod = llvm.parse_assembly(unoptimized)
        llmod.verify()
        tm = host_target_machine(opt_level)
        llmod.triple = tm.triple
        llmod.data_layout = str(tm.target_data)
        if opt_level > 0:
            llmod = optimized_verified(llmod, unoptimized, tm, opt_level)
        return str(llmod)


def compile_module(
    module: ModuleOp,
    entry: str | None = None,
    *,
    opt_level: int = 3,
    vectorize_math: bool = True,
    while_compiling: Callable[[], None] | None = None,
    apart: Apart | None = None,
) -> Executable:
    """Compile a level-3 module; ``entry`` names the function to call (default: the only or first public one).

    ``vectorize_math``: let the vectorizer call glibc's libmvec for exp, tanh, erf, ... (when present).
    ``while_compiling``: the verification of the module (``strati.compile``'s), done here while
    LLVM worker processes compile parts of it, or before LLVM starts on a small one; an error of
    translation is preceded by it (it has the clearer message).  Its seconds are
    ``compile_seconds["verify"]``.  ``apart``: the kernels the module declares, compiled in a
    fork (:mod:`strati.runtime.apart`), linked with it."""
    if compile_cores() > 1 and (apart is not None or sum(1 for _ in module.walk()) >= PRESTART_OPS):
        start_workers(compile_cores() - 1)  # they start up while the module is translated
    fn = find_function(module, entry)
    name = fn.sym_name.data
    names = argument_aliases(fn)
    times: dict[str, float] = {}
    if while_compiling is not None:
        while_compiling = _timed(while_compiling, times, "verify")
    start = time.perf_counter()
    prefix = f"__strati{next(_COUNTER)}_"
    try:
        translation = translate_module(
            module,
            embed_limit=EMBED_LIMIT,
            symbol_prefix=prefix,
            vector_library=host_vector_library() if vectorize_math else None,
        )
    except Exception:
        if while_compiling is not None:
            while_compiling()
        raise
    times["translate"] = time.perf_counter() - start
    info = translation.functions[name]
    if info.entry_symbol is None:
        raise StratiError(f"@{name} is private: only public functions can be called", fn)
    attr = module_target(module)
    targets = [get_target(attr.target_name)] if attr is not None else all_targets()
    exe = _build(translation, info, opt_level, times, targets, names, while_compiling, apart)
    counters = translation.external_data.get(prefix + COUNTERS_SYMBOL)
    if counters is not None:
        exe._profile = (profile_labels(fn) or [], counters)
    return exe


def _timed(work: Callable[[], None], times: dict[str, float], name: str) -> Callable[[], None]:
    def timed() -> None:
        start = time.perf_counter()
        try:
            work()
        finally:
            times[name] = time.perf_counter() - start

    return timed


def optimized_verified(llmod, unoptimized: str, tm, opt_level: int):
    """``llmod`` optimised and verified (:func:`strati.runtime.llvm_worker.optimize_verified`);
    a module still invalid is a one-line internal error, never a signal."""
    try:
        return optimize_verified(llmod, unoptimized, tm, opt_level)
    except InvalidModule as err:
        raise StratiError(f"internal error: LLVM's optimiser produced an invalid module ({err})") from None


SPLIT_SIZE = 1 << 20
"""Characters of LLVM IR from which a module is compiled in parts at once, by this process and
LLVM worker processes (:mod:`strati.runtime.llvm_worker`): on a smaller one, starting a worker
and moving the IR cost more than the second core saves."""
PRESTART_OPS = SPLIT_SIZE // 300
"""Ops of a hw-level module from which its LLVM workers are started before it is translated
(the light ONNX models' modules translate to 190 to 290 characters of IR per op); they are
whenever kernels are compiled apart."""
MAX_CORES = 4
"""Cores that compile one module at most (this process and up to three workers)."""
PARTS_PER_CORE = 8
"""Parts a module is split into per core: each core takes the next part when it is done with
one, so that all finish together, however unevenly LLVM's time follows the characters of a part
(DenseNet-121's entry function, a sixth of its IR, a straight line of calls, takes 0.1 s of 6;
a part of its kernels as large, 2.5 s) and whatever else a core does (this process verifies the
module first)."""
PART_MARK = "; strati: part "
"""Starts each part in ``Executable.llvm_ir`` when the module was compiled in parts (and, in
``llvm_ir_unoptimized``, the IR of the kernels lowered apart: :mod:`strati.runtime.apart`)."""
_WORKERS: list[CompilerProcess] = []


def start_workers(n: int) -> list[CompilerProcess]:
    """``n`` LLVM worker processes (at most ``MAX_CORES - 1``), started if they were not."""
    n = min(n, MAX_CORES - 1)
    while len(_WORKERS) < n:
        _WORKERS.append(CompilerProcess())
    for worker in _WORKERS[:n]:
        try:
            worker.start()
        except OSError:  # no process today: its parts compile here
            pass
    return _WORKERS[:n]


class PartQueue:
    """The parts still to compile, taken by this process and the worker threads in turn; more may
    come (the kernels compiled apart) until it is closed."""

    def __init__(self, parts: list[str]) -> None:
        self.count = 0
        self._items: collections.deque[tuple[int, str]] = collections.deque()
        self._closed = False
        self._ready = threading.Condition()
        self.add(parts)

    def add(self, parts: list[str]) -> None:
        with self._ready:
            for text in parts:
                self._items.append((self.count, text))
                self.count += 1
            self._ready.notify_all()

    def close(self, clear: bool = False) -> None:
        """No more parts will come (``clear``: nor will those waiting be compiled)."""
        with self._ready:
            self._closed = True
            if clear:
                self._items.clear()
            self._ready.notify_all()

    def take(self) -> tuple[int, str] | None:
        """The next part, waiting for one while the queue is open; None once closed and empty."""
        with self._ready:
            while not self._items and not self._closed:
                self._ready.wait()
            return self._items.popleft() if self._items else None


def compile_in_parts(module, text: str, opt_level: int, while_compiling: Callable[[], None] | None,
                     apart: Apart | None = None) -> list[tuple[bytes, str]] | None:
    """A large module's object files and optimised IR, compiled in parts at once (``text``: the
    module's IR): a thread per worker process hands it the next part as it finishes one, and
    this process takes its own once ``while_compiling`` is done; ``apart``'s parts join the
    queue when the fork has them.  None (``while_compiling`` not run) when there is no
    ``apart`` and the module is small or does not split, or the process may use one core."""
    cores = min(MAX_CORES, compile_cores())
    large = cores >= 2 and len(text) >= SPLIT_SIZE
    parts = split_module(module, cores * PARTS_PER_CORE, text) if large else [text]
    if apart is None and len(parts) < 2:
        return None
    queue = PartQueue(parts)
    compiled: dict[int, tuple[bytes, str]] = {}
    errors: list[BaseException] = []

    def compile_here() -> None:
        while (item := queue.take()) is not None:
            compiled[item[0]] = compile_part(item[1], opt_level)

    def compile_by(worker: CompilerProcess) -> None:
        try:
            while (item := queue.take()) is not None:
                try:
                    compiled[item[0]] = worker.result(worker.submit(item[1], opt_level))
                except (EOFError, OSError):  # the worker died: its parts compile here (it starts again next time)
                    worker.stop()
                    compiled[item[0]] = compile_part(item[1], opt_level)
                    return compile_here()
        except BaseException as err:  # noqa: BLE001 - raised by the JIT's thread
            queue.close(clear=True)
            errors.append(err)

    def collect() -> None:  # the fork's parts, as soon as it has them
        try:
            if (answer := apart.answer()) is not None:
                queue.add(answer)
        finally:
            queue.close()

    threads = [threading.Thread(target=compile_by, args=(w,), daemon=True) for w in start_workers(cores - 1)]
    if apart is not None:
        threads.append(threading.Thread(target=collect, daemon=True))
    else:
        queue.close()
    for thread in threads:
        thread.start()
    try:
        if while_compiling is not None:
            while_compiling()
        # The compile's garbage (the IR its passes replaced, its LLVM IR builder's objects) collected
        # while this thread is in LLVM, which holds no GIL: else at the end of the compile, when
        # strati.compiler restores the collector's thresholds (0.4 s of DenseNet-121's compile).
        collector = threading.Thread(target=gc.collect, args=(1,), daemon=True)
        collector.start()
        threads.append(collector)
        compile_here()
    except BaseException:
        queue.close(clear=True)  # the workers finish the part they have (their answers read), and stop
        if apart is not None:
            apart.kill()  # its pipe closes: the thread reading it stops
        raise
    finally:
        for thread in threads:
            thread.join()
        if apart is not None:
            apart.close()
    if errors:
        raise errors[0]
    if apart is not None and apart.failed:  # compiled here, raising what the fork met
        for text in apart.compile_here():
            compiled[len(compiled)] = compile_part(text, opt_level)
    return [compiled[k] for k in sorted(compiled)]


def compile_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _build(
    translation: Translation,
    info: FunctionInfo,
    opt_level: int,
    times: dict[str, float],
    targets: list[Target],
    names: list[tuple[str, ...]],
    while_compiling: Callable[[], None] | None,
    apart: Apart | None = None,
) -> Executable:
    llvm = llvm_binding()
    unoptimized = str(translation.module)
    with _LOCK:
        start = time.perf_counter()
        for target in targets:
            for symbol, symbol_address in target.runtime_symbols().items():
                llvm.add_symbol(symbol, symbol_address)
        for symbol, data in translation.external_data.items():
            llvm.add_symbol(symbol, data.ctypes.data)
        try:
            parts = compile_in_parts(translation.module, unoptimized, opt_level, while_compiling, apart)
        except InvalidModule as err:
            raise StratiError(f"internal error: LLVM's optimiser produced an invalid module ({err})") from None
        if parts is None and while_compiling is not None:
            while_compiling()
        if parts is None:
            start = time.perf_counter()
            llmod = llvm.parse_assembly(unoptimized)
            llmod.verify()
            times["parse"] = time.perf_counter() - start
            start = time.perf_counter()
            tm = host_target_machine(opt_level)
            llmod.triple = tm.triple
            llmod.data_layout = str(tm.target_data)
            if opt_level > 0:
                llmod = optimized_verified(llmod, unoptimized, tm, opt_level)
            times["optimize"] = time.perf_counter() - start
            optimized = str(llmod)
            start = time.perf_counter()
            engine = llvm.create_mcjit_compiler(llmod, host_target_machine(opt_level, jit=True))  # a new TM: MCJIT owns it
        else:
            times["optimize"] = time.perf_counter() - start - times.get("verify", 0.0)  # and code generation
            optimized = "".join(f"{PART_MARK}{k}\n{text}" for k, (_, text) in enumerate(parts))
            start = time.perf_counter()
            engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), host_target_machine(opt_level, jit=True))
            for obj, _ in parts:
                engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        if apart is not None:
            times.update(apart.seconds)
            unoptimized = f"{PART_MARK}0\n{unoptimized}{PART_MARK}apart\n{apart.unoptimized}"
        engine.finalize_object()
        address = engine.get_function_address(info.entry_symbol)
        times["codegen"] = time.perf_counter() - start
    if not address:
        raise RuntimeError(f"the JIT did not produce @{info.entry_symbol}")
    n_in = len(info.arg_types) - info.num_outputs
    types = info.arg_types
    return Executable(
        name=info.name,
        inputs=[_port(n, t) for n, t in zip(names[:n_in], types[:n_in])],
        outputs=[_port(n, t) for n, t in zip(names[n_in:], types[n_in:])],
        results=[_port(f"result{i}", t) for i, t in enumerate(info.result_types)],
        llvm_ir_unoptimized=unoptimized,
        llvm_ir=optimized,
        compile_seconds=times,
        _engine=engine,
        _keep=[*translation.external_data.values()],
        _entry=_ENTRY(address),
        _targets=targets,
        _checked=info.check_record,
    )


__all__ = [
    "EMBED_LIMIT",
    "CallableByPorts",
    "Executable",
    "Port",
    "check_input",
    "order_ports",
    "compile_module",
    "host_target_machine",
    "host_vector_library",
    "optimize",
    "optimized_llvm_ir",
]
