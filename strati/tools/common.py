"""What every strati command-line tool shares: input, output, plug-ins, clean failures."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


from strati.diagnostics import StratiError


class ToolError(StratiError):
    """A failure that ends the tool with one line on stderr and exit status 1."""


def read_bytes(path: str) -> bytes:
    """The bytes of a file ('-' for stdin), or a ToolError that names the file."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise ToolError(f"cannot read '{path}': no such file") from None
    except IsADirectoryError:
        raise ToolError(f"cannot read '{path}': it is a directory") from None
    except PermissionError:
        raise ToolError(f"cannot read '{path}': permission denied") from None
    except OSError as err:
        raise ToolError(f"cannot read '{path}': {err.strerror or err}") from None


def read_text(path: str) -> str:
    """The UTF-8 text of a file ('-' for stdin), or a ToolError that names the file."""
    if path == "-":
        return sys.stdin.read()
    try:
        return read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise ToolError(f"cannot read '{path}': not UTF-8 text") from None


def _mode_for(target: Path) -> int:
    """The permissions a file written over ``target`` gets: the old file's, else as open() would
    create it (0666 less the umask)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_text(path: str, text: str | bytes) -> None:
    """Write all of ``text`` (or bytes) or nothing: a temporary file renamed over ``path``; '-' is stdout."""
    if path == "-":
        sys.stdout.write(text)
        return
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise ToolError(f"cannot write '{path}': {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "wb") if isinstance(text, bytes) else os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, _mode_for(target))  # mkstemp made it 0600
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise ToolError(f"cannot write '{path}': {err.strerror or err}") from None


def load_plugin(spec: str) -> None:
    """Import a plug-in (a ``.py`` file, a package's directory or a module name) that registers
    dialects, attributes or passes; a ``.rules`` file adds its rules to the ``canonicalize`` patterns of the ops they rewrite."""
    if spec.endswith(".rules"):
        from strati.parser import load_rules, register_canonicalization

        register_canonicalization(load_rules(spec))
        return
    try:
        if spec.endswith(".py") or Path(spec, "__init__.py").is_file():
            path = Path(spec)
            if not path.is_file() and not path.is_dir():
                raise ToolError(f"cannot load plug-in '{spec}': no such file")
            if path.is_dir():  # a package: its modules import each other relatively
                module_spec = importlib.util.spec_from_file_location(
                    path.name, path / "__init__.py", submodule_search_locations=[str(path)])
            else:
                module_spec = importlib.util.spec_from_file_location(path.stem, path)
            assert module_spec is not None and module_spec.loader is not None
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[path.stem] = module
            module_spec.loader.exec_module(module)
        else:
            importlib.import_module(spec)
    except ToolError:
        raise
    except Exception as err:  # noqa: BLE001 - a broken plug-in is the user's input
        raise ToolError(f"cannot load plug-in '{spec}': {type(err).__name__}: {err}") from None


def run_tool(tool: str, run: Callable[[list[str] | None], int], argv: list[str] | None = None) -> None:
    """Run a tool's body and exit: its own errors one line each, a bug in strati one line too."""
    from strati.diagnostics import DiagnosticError, file_location, op_diagnostic

    import warnings

    warnings.showwarning = lambda message, *_args, **_kw: print(f"{tool}: warning: {message}", file=sys.stderr)
    try:
        code = run(argv)
    except DiagnosticError as err:  # already a whole diagnostic line (a rules file's error)
        print(err.diagnostic, file=sys.stderr)
        code = 1
    except StratiError as err:  # ToolError included: the user's input, one line
        if err.op is not None and file_location(err.op.location) is not None:
            print(op_diagnostic(err.message, err.op), file=sys.stderr)
            code = 1
        else:
            code = fail(tool, str(err))
    except BrokenPipeError:
        code = 0
    except MemoryError as err:  # the input asks for more memory than there is: not a bug
        code = fail(tool, f"out of memory: {err}" if str(err) else "out of memory")
    except Exception as err:  # noqa: BLE001 - a bug in strati: one line, the traceback on request
        code = internal_error(tool, err)
    sys.exit(code)


def internal_error(tool: str, err: Exception) -> int:
    """A bug in strati: one line naming it; STRATI_TRACEBACK=1 shows the traceback."""
    if os.environ.get("STRATI_TRACEBACK"):
        import traceback

        traceback.print_exception(err)
    return fail(tool, f"internal error: {type(err).__name__}: {err} (set STRATI_TRACEBACK=1 for the traceback)")


def fail(tool: str, message: str) -> int:
    print(f"{tool}: error: {message}", file=sys.stderr)
    return 1


@dataclass
class Timing:
    """Seconds by stage, printed as mlir-opt's ``--mlir-timing`` report (``--time-passes``)."""

    entries: list[tuple[str, float]] = field(default_factory=list)

    def add(self, name: str, seconds: float) -> None:
        self.entries.append((name, seconds))

    def report(self) -> str:
        total = sum(s for _, s in self.entries) or 1e-12
        rule = "===" + "-" * 73 + "==="
        lines = [rule, "Execution time report".center(79), rule, f"  Total Execution Time: {total:.4f} seconds", "",
                 "  ----Wall Time----  ----Name----"]
        merged: dict[str, float] = {}
        for name, s in self.entries:
            merged[name] = merged.get(name, 0.0) + s
        for name, s in merged.items():
            lines.append(f"  {s:10.4f} ({100 * s / total:5.1f}%)  {name}")
        lines.append(f"  {total:10.4f} (100.0%)  Total")
        return "\n".join(lines) + "\n"
