"""Every strati tool refuses a bad flag with one line and exit status 1 (ToolArgumentParser), as
it refuses any other bad input; --help still prints the usage and exits 0."""

import os

import pytest

from strati.tools import import_onnx, opt, reduce, run, translate
from strati.tools.argparser import ToolArgumentParser
from helpers import tool

TOOLS = {"strati-opt": opt, "strati-run": run, "strati-import": import_onnx, "strati-translate": translate, "strati-reduce": reduce}


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_every_tool_uses_the_shared_parser(name):
    assert isinstance(TOOLS[name].build_arg_parser(), ToolArgumentParser)


@pytest.mark.parametrize(
    "name, args, message",
    [
        ("strati-opt", ["f.mlir", "--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        ("strati-run", ["f.mlir", "--random-inputs", "-1"], "argument --random-inputs:"),
        ("strati-run", ["f.mlir", "--rtol", "nan"], "argument --rtol:"),
        ("strati-translate", ["f.mlir"], "the following arguments are required: --to"),
        ("strati-import", [], "the following arguments are required"),
    ],
)
def test_a_bad_flag_is_one_line_and_status_1(name, args, message):
    done = tool(name, *args)
    assert done.returncode == 1, done
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{name}: error: {message}"), done.stderr
    assert lines[0].endswith(f"(see {name} --help)")


def test_help_is_not_an_error():
    done = tool("strati-opt", "--help")
    assert done.returncode == 0 and done.stdout.startswith("usage: strati-opt")


def test_outputs_get_the_usual_permissions(tmp_path):
    """-o files are written atomically through a temporary file, yet get the mode open() would
    give a new file (0666 less the umask), or keep the mode of the file they replace."""
    import stat

    from strati.tools.common import write_text

    umask = os.umask(0o022)
    try:
        new = tmp_path / "new.mlir"
        write_text(str(new), "x")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        old = tmp_path / "old.mlir"
        old.write_text("y")
        old.chmod(0o640)
        write_text(str(old), b"z")
        assert stat.S_IMODE(old.stat().st_mode) == 0o640 and old.read_bytes() == b"z"
    finally:
        os.umask(umask)
