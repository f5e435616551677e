"""``argparse`` value types for the command line options of BindSplit.

Used by the ``bindsplit`` commands and by the package's ``python -m`` entry points, so that a
count below its minimum is refused by the parser, with the usage line, before any work starts.
"""

from __future__ import annotations

import argparse

__all__ = ["non_negative_int", "positive_int"]


def _int_at_least(text: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
    return value


def positive_int(text: str) -> int:
    """An integer of at least 1 (counts, sizes, steps, threads)."""
    return _int_at_least(text, 1)


def non_negative_int(text: str) -> int:
    """An integer of at least 0 (``0`` meaning none, as for bootstrap resamples)."""
    return _int_at_least(text, 0)
