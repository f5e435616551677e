"""What every command of the command line shares: ``-v``/``-q``, and a ``--help`` that ends
with two or three example command lines, kept line by line by :class:`HelpFormatter` (argparse
would refill them as prose)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

__all__ = ["HelpFormatter", "examples_epilog", "verbosity_options"]


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that an ``examples:`` epilog keeps its lines and every
    option with a default says it (where its help does not already)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (
            "default" in text
            or default is None
            or default is False
            or default is argparse.SUPPRESS
            or not action.option_strings
            or action.nargs == 0  # a flag
            or default in ("", [], ())
        ):
            return action.help
        if isinstance(default, (list, tuple)):
            default = ",".join(str(item) for item in default)
        return f"{text} (default: {str(default).replace('%', '%%')})"

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "\n".join(indent + line for line in text.splitlines())
        return super()._fill_text(text, width, indent)


def examples_epilog(examples: Sequence[str]) -> str:
    """The ``--help`` epilog of a command: its example command lines."""
    return "examples:\n" + "\n".join(f"  {example}" for example in examples)


def verbosity_options() -> argparse.ArgumentParser:
    """``-v`` / ``-q``, accepted before and after the command's name (a value is set only where
    the option is given, so the sub-command's parser never resets the main parser's)."""
    options = argparse.ArgumentParser(add_help=False)
    group = options.add_mutually_exclusive_group()
    group.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        default=argparse.SUPPRESS,
        help="debug logging, and tracebacks of user errors too",
    )
    group.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        default=argparse.SUPPRESS,
        help="warnings and errors only; no progress bars",
    )
    return options
