"""A share of a large module's kernels lowered to the hw level and translated in a fork.

Python lowers one function after another, and the LLVM worker processes
(:mod:`strati.runtime.llvm_worker`) start only once the whole module is at the hw level and
translated: through the loop-to-hw lowering (scheduling, unroll-and-jam, vectorisation), the
verification and the translation, the second core sat idle (half of DenseNet-121's compile).
The kernels that ``outline-kernels`` makes are independent of each other by then: a kernel is a
private function that calls nothing and reads no global, and once the target's passes that
read across functions have run on the whole module (``interprocedural``: the CPU's matmul
schedule packs the constant weights a kernel's calls pass it), its lowering, translation and
code look at nothing else (:meth:`ConvertLoopToHwPass.split
<strati.transforms.convert_loop_to_hw.ConvertLoopToHwPass.split>`).  So, then,
:func:`split_off` takes them out of the module (declared in their place) in groups of kernels
alike (those ``merge-kernels`` may make one family, so that a family stays in one process and
is compiled once), writes a ticket per group into a pipe, largest group first, and forks.
Each process claims the next ticket once it is done with a group (a read of 4 bytes from a
pipe is atomic), so the two balance whatever a group's lowering costs (a split fixed in
advance, by the ops at the loop level, gave one side twice the other's work).  The fork lowers
each group it claims as a module of its own, then verifies them and translates them (in Python
alone: the fork never calls into LLVM, whose locks another thread may hold) and sends back
their LLVM IR in parts; this process lowers the groups it claims, then the rest
(:meth:`Apart.lower_here`).  The parts join the queue this process and the LLVM workers compile
(:func:`strati.runtime.jit.compile_in_parts`), and MCJIT links them all.

If the fork fails (an error in a pass, invalid IR, a process that died or could not start),
:meth:`Apart.compile_here` lowers its groups (all those this process did not claim) here, so
that an error is raised as it would be without a fork.  Nothing is forked but on Linux (elsewhere a fork beside threads is
unsafe, or absent), on two cores or more, for a module of :data:`MIN_OPS` ops of kernels or
more, and whose functions take no check record (``cf.assert``: a hidden argument of every
function).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Region

MIN_OPS = 1000
"""Ops of kernels (at the loop level) from which a fork shares the lowering: below, forking and
a second object file cost more than the core saves (ResNet-50's kernels have 13,000)."""


@dataclass
class Apart:
    """Kernels lowered and translated in a fork (``pid``), their answer read from ``fd``: the
    groups of kernels (``groups``) that it claims from ``tickets`` before this process does."""

    groups: list[list[func.FuncOp]]
    lower: Callable[[ModuleOp], None]
    attributes: dict
    tickets: int | None = None
    vector_library: object = None
    module: ModuleOp | None = None
    """The kernels the fork lowers (known once every group is claimed), at the loop level."""
    pid: int | None = None
    fd: int | None = None
    failed: bool = False
    unoptimized: str = ""
    seconds: dict[str, float] = field(default_factory=dict)

    def claims(self) -> Iterator[tuple[int, ModuleOp]]:
        """The groups this process claims, one at a time (the next when it asks), each in a module."""
        while self.tickets is not None and len(ticket := os.read(self.tickets, _TICKET.size)) == _TICKET.size:
            (g,) = _TICKET.unpack(ticket)
            yield g, self._module(self.groups[g])

    def _module(self, functions: list[func.FuncOp]) -> ModuleOp:
        for fn in functions:
            if fn.parent is not None:
                fn.detach()
        return ModuleOp(list(functions), attributes=dict(self.attributes))

    def lower_here(self, module: ModuleOp) -> None:
        """Lower the groups this process claims, then the rest of ``module``; the fork's kernels
        stay declared there (and go to :attr:`module`, in case the fork fails)."""
        lowered, mine = [], set()
        for g, kernels in self.claims():
            mine.add(g)
            self.lower(kernels)
            lowered.append(kernels)
        os.close(self.tickets)  # type: ignore[arg-type]
        self.tickets = None
        self.module = self._module([fn for g, fns in enumerate(self.groups) if g not in mine for fn in fns])
        self.lower(module)
        declared = {fn.sym_name.data: fn for fn in module.ops if isinstance(fn, func.FuncOp) and not fn.body.blocks}
        for kernels in lowered:
            for fn in list(kernels.ops):
                fn.detach()
                if (declaration := declared.get(fn.sym_name.data)) is not None:
                    module.body.block.insert_op_before(fn, declaration)
                    declaration.detach()
                    declaration.erase()
                else:
                    module.body.block.add_op(fn)

    def answer(self) -> list[str] | None:
        """The fork's parts of LLVM IR, waiting for them; None (``failed``) when it has none."""
        chunks = []
        if self.fd is not None:
            while chunk := os.read(self.fd, 1 << 20):
                chunks.append(chunk)
        try:
            self.unoptimized, parts, seconds = pickle.loads(b"".join(chunks))
        except Exception:  # noqa: BLE001 - the fork failed, or died, before it answered
            self.failed = True
            return None
        self.seconds["kernels apart (in a fork)"] = seconds
        return parts

    def compile_here(self) -> list[str]:
        """The parts, lowered and translated in this process (the fork failed): raises what the
        fork met, if anything."""
        start = time.perf_counter()
        assert self.module is not None
        self.unoptimized, parts = lower_kernels([self.module], self.lower, self.vector_library)
        self.seconds["kernels apart (here: the fork failed)"] = time.perf_counter() - start
        return parts

    def kill(self) -> None:
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def close(self) -> None:
        """Stop the fork if it still runs, reap it, and close the pipes."""
        if self.pid is not None:
            self.kill()
            try:
                os.waitpid(self.pid, 0)
            except ChildProcessError:  # reaped already (SIGCHLD ignored, another thread's wait)
                pass
            self.pid = None
        for name in ("fd", "tickets"):
            if (fd := getattr(self, name)) is not None:
                os.close(fd)
                setattr(self, name, None)


_TICKET = struct.Struct("<I")
MAX_GROUPS = 4096
"""Groups handed out at most (their tickets fill a pipe before the fork; Linux's holds 64 KiB):
the smallest beyond go with the last."""


def split_off(module: ModuleOp, lower: Callable[[ModuleOp], None]) -> Apart | None:
    """Take ``module``'s kernels out (declared where they were) in groups of kernels alike, and
    fork a process that lowers (``lower``: the compile driver's ``convert-loop-to-hw``) the
    groups it claims, then translates them; :meth:`Apart.lower_here` lowers the others.  None
    (the module untouched) when nothing is forked."""
    from strati.runtime.jit import compile_cores, host_vector_library

    if not sys.platform.startswith("linux") or compile_cores() < 2 or any(o.name == "cf.assert" for o in module.walk()):
        return None
    alike: dict[tuple, list[func.FuncOp]] = defaultdict(list)  # the kernels that may merge
    for fn in module.ops:
        if _is_kernel(fn):
            alike[_alike(fn)].append(fn)
    size = {id(fns): len(fns) * sum(1 for _ in fns[0].walk()) for fns in alike.values()}
    if sum(size.values()) < MIN_OPS:
        return None
    groups = sorted(alike.values(), key=lambda fns: -size[id(fns)])  # the largest first
    if len(groups) > MAX_GROUPS:
        groups[MAX_GROUPS - 1 :] = [[fn for fns in groups[MAX_GROUPS - 1 :] for fn in fns]]
    for fns in groups:
        for fn in fns:
            declaration = func.FuncOp.create(properties=dict(fn.properties), attributes=dict(fn.attributes), regions=[Region()])
            module.body.block.insert_op_before(declaration, fn)
            fn.detach()
    read, write = os.pipe()
    os.write(write, b"".join(_TICKET.pack(g) for g in range(len(groups))))
    os.close(write)
    job = Apart(groups, lower, dict(module.attributes), read, host_vector_library())  # (loaded here: the fork does not call LLVM)
    _fork(job)
    return job


def _alike(fn: func.FuncOp) -> tuple:
    """Kernels that ``merge-kernels`` may merge once lowered have the same ops, attributes (the
    schedules) and properties but for their constants' values."""
    return tuple((o.name, tuple(o.attributes.items()), tuple(o.properties.items())) for o in fn.body.walk() if o.name != "arith.constant")


def _is_kernel(op) -> bool:
    """A private function with a body that calls nothing and reads no global."""
    return (
        isinstance(op, func.FuncOp)
        and op.sym_visibility is not None
        and op.sym_visibility.data == "private"
        and bool(op.body.blocks)
        and not any(isinstance(o, (func.CallOp, memref.GetGlobalOp)) for o in op.walk())
    )


def _fork(job: Apart) -> None:
    read, write = os.pipe()
    try:
        with warnings.catch_warnings():  # Python 3.12 warns of a fork beside threads: the fork runs none of theirs
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:  # no process today: every group is lowered here
        os.close(read)
        os.close(write)
        return
    if pid == 0:  # the fork: answer, and leave without running anything of the parent's
        status = 1
        try:
            os.close(read)
            start = time.perf_counter()
            unoptimized, parts = lower_kernels((kernels for _, kernels in job.claims()), job.lower, job.vector_library)
            view = memoryview(pickle.dumps((unoptimized, parts, time.perf_counter() - start)))
            while view:
                view = view[os.write(write, view) :]
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    job.pid, job.fd = pid, read


def lower_kernels(modules: Iterable[ModuleOp], lower: Callable[[ModuleOp], None], vector_library) -> tuple[str, list[str]]:
    """Modules of kernels lowered to the hw level one after the other, then, together, verified
    and translated (Python alone: no call into LLVM): their LLVM IR (the kernels defined for
    other parts to call), and that IR in parts (:func:`split_module`)."""
    from strati.codegen.llvm import translate_module
    from strati.codegen.split import split_module
    from strati.diagnostics import verify_module
    from strati.runtime.jit import EMBED_LIMIT, MAX_CORES, PARTS_PER_CORE, compile_cores

    module = None
    for kernels in modules:
        lower(kernels)
        if module is None:
            module = kernels
        else:
            for fn in list(kernels.ops):
                fn.detach()
                module.body.block.add_op(fn)
    if module is None:
        return "", []
    if (diag := verify_module(module)) is not None:
        raise RuntimeError(f"internal error: the IR after the standard pipeline does not verify: {diag}")
    translation = translate_module(module, embed_limit=EMBED_LIMIT, vector_library=vector_library)
    for fn in module.ops:
        translation.module.get_global(fn.sym_name.data).linkage = ""  # called from the other parts
    text = str(translation.module)
    return text, split_module(translation.module, min(MAX_CORES, compile_cores()) * PARTS_PER_CORE, text)


__all__ = ["MAX_GROUPS", "MIN_OPS", "Apart", "lower_kernels", "split_off"]
