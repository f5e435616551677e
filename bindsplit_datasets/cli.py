"""The ``bindsplit`` command line.

Sub-commands live one per module in :mod:`bindsplit_datasets.commands`; each module defines
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int`` and is discovered
automatically, so adding a command means adding one module.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__, commands
from .errors import BindsplitError

__all__ = ["build_parser", "main"]

#: Errors caused by the user's input: printed as one message, without a traceback.
USER_ERRORS: tuple[type[BaseException], ...] = (
    BindsplitError,
    ValueError,
    FileNotFoundError,
    FileExistsError,
    NotADirectoryError,
)


def _command_modules() -> list[ModuleType]:
    modules = [
        importlib.import_module(f"{commands.__name__}.{info.name}")
        for info in pkgutil.iter_modules(commands.__path__)
        if not info.name.startswith("_")
    ]
    return sorted(modules, key=lambda module: module.NAME)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered sub-command."""
    parser = argparse.ArgumentParser(
        prog="bindsplit",
        description="Split compositional benchmarks into seen and unseen attribute-object "
        "bindings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging and tracebacks")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _command_modules():
        # HELP is %-formatted by argparse in the command list, but not as a description.
        description = module.HELP.replace("%%", "%")
        sub = subparsers.add_parser(module.NAME, help=module.HELP, description=description)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bindsplit`` console script; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        return int(args._run(args) or 0)
    except USER_ERRORS as error:
        if args.verbose:
            raise
        print(f"bindsplit {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
