"""The ``bindsplit`` command line.

Sub-commands live one per module in :mod:`bindsplit_datasets.commands`; each module defines
``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int`` and is discovered
automatically, so adding a command means adding one module.

Exit codes: 0 success; 2 a user error, printed as one line (BindSplit's own error types, and a
full disk or a denied permission); 130 interrupted (Ctrl-C). Any other exception is a bug and
keeps its traceback; ``-v`` shows the traceback of user errors too.
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
from .errors import BindsplitError, is_user_error

__all__ = ["EXIT_INTERRUPTED", "EXIT_USER_ERROR", "USER_ERRORS", "build_parser", "main"]

#: Exit code of a user error (also argparse's for a bad command line).
EXIT_USER_ERROR = 2
#: Exit code of a run stopped with Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Exception types printed as one line; :func:`~bindsplit_datasets.errors.is_user_error` also
#: counts a denied permission or a full disk.
USER_ERRORS: tuple[type[BaseException], ...] = (BindsplitError,)


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
    except KeyboardInterrupt:
        print(f"bindsplit {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:
        if args.verbose or not is_user_error(error):
            raise
        print(f"bindsplit {args.command}: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_USER_ERROR


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
