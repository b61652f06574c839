"""The registry of hardware targets: a name -> a function that describes it (a ``#hw.target``).

``cpu`` is the machine strati runs on, detected when first asked for:

* vector width: 16 f32 lanes with AVX-512F, 8 with AVX2 (or AVX), else 4 (SSE, NEON);
* FMA: the host CPU's ``fma`` feature (always on aarch64);
* cores: the CPUs this process may run on (``os.sched_getaffinity``), else ``os.cpu_count()``;
* caches: L1 data, L2 and L3 sizes from ``/sys/devices/system/cpu/cpu0/cache`` when
  readable, else 32 KiB / 512 KiB / 8 MiB.

Other targets (an accelerator, a fixed CPU for reproducible tests) join with
:func:`register_target`.  Passes get a description with :func:`get_target`, or take
the one the module already carries (``hw.target``), and never hard-code a machine.
"""

from __future__ import annotations

import functools
import os
import platform
from collections.abc import Callable

from strati.dialects.hw.ops import TargetAttr

DEFAULT_CACHES = (32 * 1024, 512 * 1024, 8 * 1024 * 1024)
CACHE_DIR = "/sys/devices/system/cpu/cpu0/cache"

_TARGETS: dict[str, Callable[[], TargetAttr]] = {}


def register_target(name: str, describe: Callable[[], TargetAttr]) -> None:
    """Make a target known by name (a later registration of the same name replaces it)."""
    _TARGETS[name] = describe


def target_names() -> list[str]:
    return sorted(_TARGETS)


def get_target(name: str) -> TargetAttr:
    """The description of a registered target, or a KeyError naming the known ones."""
    describe = _TARGETS.get(name)
    if describe is None:
        raise KeyError(f"unknown target '{name}' (targets: {', '.join(target_names())})")
    return describe()


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


register_target("cpu", host_cpu)

__all__ = ["get_target", "host_caches", "host_cores", "host_cpu", "host_vector_features", "register_target", "target_names"]
