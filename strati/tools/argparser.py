"""The tools' argument parser: a bad flag is one line and exit status 1, as any other bad input."""

from __future__ import annotations

import argparse
from typing import NoReturn

from strati.tools.common import ToolError


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse's parser whose errors are ``TOOL: error: ...`` (one line, status 1), not usage and status 2."""

    def error(self, message: str) -> NoReturn:
        raise ToolError(f"{message} (see {self.prog} --help)")
