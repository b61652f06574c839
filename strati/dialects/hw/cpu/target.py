"""The ``cpu`` target: the machine strati runs on, as one :class:`~strati.dialects.hw.target.Target`.

Its description, detected once per process (:func:`host_cpu`):

* ``vector_width``: f32 lanes, 16 with AVX-512F, 8 with AVX2 (or AVX), else 4 (SSE, NEON);
* ``fma``: the host CPU's ``fma`` feature (always on aarch64);
* ``cores``: the CPUs this process may run on (``os.sched_getaffinity``), else ``os.cpu_count()``;
* ``l1``, ``l2``, ``l3``: data cache sizes in bytes (per core for L1/L2) from
  ``/sys/devices/system/cpu/cpu0/cache`` when readable, else 32 KiB / 512 KiB / 8 MiB.

A fixed machine (an AVX2 or AVX-512 laptop for a reproducible test) is
``host_cpu().replace(vector_width=8)`` or a ``#hw.target<"cpu", ...>`` in the module.
Loop nests reach it through interchange, vectorisation and ``cpu-parallelize``
(tasks for the thread pool, :mod:`strati.dialects.hw.cpu.threadpool`).
"""

from __future__ import annotations

import functools
import os
import platform

from strati.dialects.hw.ops import TargetAttr
from strati.dialects.hw.target import Field, Target, at_least, power_of_two, size_in_bytes

DEFAULT_CACHES = (32 * 1024, 512 * 1024, 8 * 1024 * 1024)
CACHE_DIR = "/sys/devices/system/cpu/cpu0/cache"


def _parse_size(text: str) -> int | None:
    text = text.strip().upper()
    scale = 1
    for suffix, factor in (("K", 1024), ("M", 1024**2), ("G", 1024**3)):
        if text.endswith(suffix):
            text, scale = text[:-1], factor
            break
    try:
        return int(text) * scale
    except ValueError:
        return None


def host_caches(cache_dir: str = CACHE_DIR) -> tuple[int, int, int]:
    """(L1 data, L2, L3) in bytes of CPU 0; the defaults for the levels that cannot be read."""
    found: dict[int, int] = {}
    try:
        entries = sorted(os.listdir(cache_dir))
    except OSError:
        return DEFAULT_CACHES
    for entry in entries:
        if not entry.startswith("index"):
            continue
        path = os.path.join(cache_dir, entry)
        try:
            with open(os.path.join(path, "level")) as f:
                level = int(f.read())
            with open(os.path.join(path, "type")) as f:
                kind = f.read().strip()
            with open(os.path.join(path, "size")) as f:
                size = _parse_size(f.read())
        except (OSError, ValueError):
            continue
        if kind == "Instruction" or size is None or not 1 <= level <= 3:
            continue
        found[level] = size
    return tuple(found.get(level, DEFAULT_CACHES[level - 1]) for level in (1, 2, 3))  # type: ignore[return-value]


def host_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def host_vector_features() -> tuple[int, bool]:
    """(f32 lanes, FMA) of the host CPU, from LLVM's view of its features."""
    try:
        import llvmlite.binding as llvm

        llvm.initialize_native_target()
        features = llvm.get_host_cpu_features()
    except Exception:  # noqa: BLE001 - no LLVM or no feature detection: assume the baseline
        features = {}
    machine = platform.machine().lower()
    if features.get("avx512f"):
        lanes = 16
    elif features.get("avx2") or features.get("avx"):
        lanes = 8
    else:
        lanes = 4
    fma = bool(features.get("fma")) or machine in ("aarch64", "arm64")
    return lanes, fma


@functools.cache
def host_cpu() -> TargetAttr:
    """The description of this machine (detected once per process)."""
    lanes, fma = host_vector_features()
    l1, l2, l3 = host_caches()
    return TargetAttr("cpu", vector_width=lanes, fma=fma, cores=host_cores(), l1=l1, l2=l2, l3=l3)


class CpuTarget(Target):
    name = "cpu"
    doc = "the host CPU: vectors, FMA, a thread pool"
    fields = (
        Field("vector_width", int, "vector width in f32 lanes (4 SSE/NEON, 8 AVX2, 16 AVX-512)", check=power_of_two),
        Field("fma", bool, "fused multiply-add is native"),
        Field("cores", int, "how many tasks may run at once", check=at_least(1)),
        Field("l1", int, "L1 data cache bytes per core", check=size_in_bytes),
        Field("l2", int, "L2 cache bytes per core", check=size_in_bytes),
        Field("l3", int, "L3 cache bytes", check=size_in_bytes),
    )
    pipeline = "cpu-schedule-matmul,cpu-schedule-conv,unroll-windows,interchange,vectorize-transposes,vectorize,cpu-parallelize,merge-kernels"

    def dialects(self):
        from strati.dialects.hw.cpu import Cpu

        return [Cpu]

    def describe(self) -> TargetAttr:
        return host_cpu()

    def runtime_symbols(self) -> dict[str, int]:
        from strati.dialects.hw.cpu import threadpool

        return {threadpool.SYMBOL: threadpool.address()}

    def before_call(self) -> None:
        from strati.dialects.hw.cpu import threadpool

        threadpool.sync()  # STRATI_NUM_THREADS may have changed since the last call


__all__ = ["CpuTarget", "host_caches", "host_cores", "host_cpu", "host_vector_features"]
