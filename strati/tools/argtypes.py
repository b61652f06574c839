"""Argument types for the tools' flags: a bad value is argparse's one-line usage error."""

from __future__ import annotations

import argparse
import math


def non_negative_int(flag: str):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(f"{flag} takes an integer >= 0, got '{text}'")
        return value

    return parse


def tolerance(flag: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0:
            raise argparse.ArgumentTypeError(f"{flag} takes a finite number >= 0, got '{text}'")
        return value

    return parse
