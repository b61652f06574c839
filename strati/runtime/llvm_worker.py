"""LLVM's half of the JIT, and a process that does it for a second part of a module.

The JIT hands LLVM one module: ``compile_part`` parses it into a context, optimises it (the
new pass manager's pipeline, :func:`optimize`), verifies the result and emits an object file.
That is half of compiling a model (ResNet-50: 3 of 5.5 s), on one core: llvmlite serialises
every call into LLVM behind one lock per process (``llvmlite.binding.ffi``), so threads cannot
overlap two modules.  A large module is therefore split into parts (:mod:`strati.codegen.split`,
several per core), which the JIT's process and :class:`CompilerProcess` workers (this file run
by Python, llvmlite only, started once and kept) take one at a time
(:func:`strati.runtime.jit.compile_in_parts`); MCJIT links the object files.

The worker reads requests from stdin and answers on stdout, both framed: a request is the
optimisation level (1 byte) and the IR text; an answer is a status byte (0 ok, 1 invalid
module) and either the object file and the optimised IR or a one-line reason.
"""

from __future__ import annotations

import atexit
import os
import struct
import subprocess
import sys

LLVM_PIPELINE_LEVEL = 2
"""The speed level of LLVM's pipeline at -O3 and above: O2's.  O3 adds non-trivial loop
unswitching (a fifth of the optimisation time on ResNet-50: it copies loop nests that our own
passes already scheduled), aggressive instcombine and argument promotion; on the conv and matmul
rows of bench/kernels.py the code was as fast.  The machine code is still generated at O3."""

_INITIALIZED = False


class InvalidModule(Exception):
    """LLVM's optimiser returned a module that does not verify (even without SLP)."""


def llvm_binding():
    """llvmlite's binding, with the native target initialised."""
    global _INITIALIZED
    import llvmlite.binding as llvm

    if not _INITIALIZED:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _INITIALIZED = True
    return llvm


def host_target_machine(opt: int = 3, jit: bool = False):
    """A new TargetMachine for the host CPU (its name and features: AVX2, FMA, AVX-512 where present)."""
    llvm = llvm_binding()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt,
        codemodel="jitdefault",
        jit=jit,
    )


def optimize(llvm_module, tm, speed_level: int = 3, slp: bool = True) -> None:
    """The new pass manager's default pipeline (O2's for any level above), with loop and SLP
    vectorization (``slp``) and LLVM's loop unroller (it fully unrolls the short window loops of
    convolutions)."""
    llvm = llvm_binding()
    pto = llvm.PipelineTuningOptions(speed_level=min(speed_level, LLVM_PIPELINE_LEVEL))
    pto.loop_vectorization = True
    pto.slp_vectorization = slp
    pto.loop_unrolling = True
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(llvm_module, pb)


def optimize_verified(llmod, unoptimized: str, tm, opt_level: int, context=None):
    """``llmod`` optimised, then verified: LLVM's code generator aborts the whole process on an
    invalid function, and LLVM 22's SLP vectorizer, after the loop vectorizer and the unroller,
    has made one ("Instruction does not dominate all uses": log_softmax, clip and asin on
    4x3x3, tests/unit/test_reproducers.py).  Such a module is optimised once more from
    ``unoptimized`` without SLP; one that is still invalid raises :class:`InvalidModule`."""
    llvm = llvm_binding()
    optimize(llmod, tm, opt_level)
    try:
        llmod.verify()
        return llmod
    except RuntimeError:
        pass
    llmod = llvm.parse_assembly(unoptimized, context=context)
    llmod.triple, llmod.data_layout = tm.triple, str(tm.target_data)
    optimize(llmod, tm, opt_level, slp=False)
    try:
        llmod.verify()
    except RuntimeError as err:
        first = str(err).strip().splitlines()[0] if str(err).strip() else "invalid IR"
        raise InvalidModule(first) from None
    return llmod


def compile_part(text: str, opt_level: int) -> tuple[bytes, str]:
    """A module's IR text, parsed into a context of its own, optimised, verified and compiled:
    its object file and its optimised IR."""
    llvm = llvm_binding()
    context = llvm.create_context()
    llmod = llvm.parse_assembly(text, context=context)
    llmod.verify()
    tm = host_target_machine(opt_level, jit=True)
    llmod.triple = tm.triple
    llmod.data_layout = str(tm.target_data)
    if opt_level > 0:
        llmod = optimize_verified(llmod, text, tm, opt_level, context)
    return tm.emit_object(llmod), str(llmod)


# --- the worker process ------------------------------------------------------------------

_LENGTH = struct.Struct("<Q")


def _write(stream, *chunks: bytes) -> None:
    for chunk in chunks:
        stream.write(_LENGTH.pack(len(chunk)))
        stream.write(chunk)
    stream.flush()


def _read(stream) -> bytes:
    header = stream.read(_LENGTH.size)
    if len(header) < _LENGTH.size:
        raise EOFError("the LLVM worker closed its pipe")
    (n,) = _LENGTH.unpack(header)
    data = stream.read(n)
    if len(data) < n:
        raise EOFError("the LLVM worker closed its pipe")
    return data


def main() -> int:
    """The worker's loop: a request in, an answer out, until stdin closes."""
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    llvm_binding()
    while True:
        try:
            level = _read(stdin)
            text = _read(stdin).decode()
        except EOFError:
            return 0
        try:
            obj, optimized = compile_part(text, level[0])
            _write(stdout, b"\0", obj, optimized.encode())
        except (InvalidModule, RuntimeError) as err:
            _write(stdout, b"\1", str(err).encode())


class CompilerProcess:
    """One more core for LLVM: a worker process, started on first use, kept until exit."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        atexit.register(self.stop)

    def start(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen(  # this file as a script (-P: its folder not on the path),
                [sys.executable, "-P", os.path.abspath(__file__)],  # without strati's package
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            )
        return self.process

    def submit(self, text: str, opt_level: int) -> subprocess.Popen:
        """Send a part (the answer is read by :meth:`result`)."""
        process = self.start()
        _write(process.stdin, bytes([opt_level]), text.encode())
        return process

    @staticmethod
    def result(process: subprocess.Popen) -> tuple[bytes, str]:
        """The object file and optimised IR of the part sent; InvalidModule or EOFError (the
        worker died: it is started again next time) otherwise."""
        status = _read(process.stdout)
        if status == b"\1":
            raise InvalidModule(_read(process.stdout).decode())
        obj = _read(process.stdout)
        return obj, _read(process.stdout).decode()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process = None

__all__ = ["LLVM_PIPELINE_LEVEL", "CompilerProcess", "InvalidModule", "compile_part", "host_target_machine",
           "llvm_binding", "optimize", "optimize_verified"]

if __name__ == "__main__":
    sys.exit(main())
