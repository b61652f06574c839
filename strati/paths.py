"""Files named inside a file we read (ONNX external data, a .mlir's weights file): only
regular files inside the reader's own directory."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class UnsafePath(ValueError):
    """A location that is absolute, climbs out, leads out through a link, or is not a regular file."""


def inside(directory: Path, location: str, what: str, home: str, label: str = "location") -> Path:
    """The path of ``location`` inside ``directory``, or an UnsafePath naming ``what``: an absolute
    location, ``..``, a symbolic link leading out, a missing file, a device, FIFO or directory."""
    parts = location.replace("\\", "/").split("/")
    if os.path.isabs(location) or location.startswith(("/", "\\")) or (len(location) > 1 and location[1] == ":"):
        raise UnsafePath(f"{what}: {label} '{location}' is absolute (it must be a file in {home})")
    if ".." in parts:
        raise UnsafePath(f"{what}: {label} '{location}' leaves {home}")
    base = directory.resolve()
    path = (base / location).resolve()
    if os.path.commonpath([base, path]) != str(base):
        raise UnsafePath(f"{what}: {label} '{location}' leads out of {home} (a symbolic link)")
    try:
        mode = os.stat(path).st_mode
    except OSError as err:
        raise UnsafePath(f"{what}: cannot read '{location}': {err.strerror or err}") from None
    if not stat.S_ISREG(mode):
        raise UnsafePath(f"{what}: {label} '{location}' is not a regular file")
    return path
