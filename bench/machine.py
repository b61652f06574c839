"""The header every benchmark prints: the machine and the versions, so that a table can be read later."""

from __future__ import annotations

import importlib.metadata
import os
import platform


def version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def header(packages: tuple[str, ...] = ("numpy", "llvmlite", "xdsl"), note: str = "") -> str:
    """Two comment lines: CPU, cores, load; Python and the given packages' versions (plus LLVM's)."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = ", load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) if hasattr(os, "getloadavg") else ""
    versions = [f"strati {version('strati')}"]
    for name in packages:
        text = f"{name} {version(name)}"
        if name == "llvmlite":
            import llvmlite.binding as llvm

            text += f" (LLVM {'.'.join(map(str, llvm.llvm_version_info))})"
        versions.append(text)
    return (
        f"# {platform.node()}: {cpu} ({platform.machine()}), {os.cpu_count()} CPUs ({usable} usable){load}, "
        f"{platform.system()} {platform.release()}\n"
        f"# Python {platform.python_version()}, {', '.join(versions)}{'; ' + note if note else ''}"
    )
