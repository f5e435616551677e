"""The ``bindsplit`` command line.

Sub-commands live one per module in :mod:`bindsplit_datasets.commands`; each module defines
``NAME``, ``HELP``, ``EXAMPLES`` (two or three command lines, shown at the end of its ``--help``),
``add_arguments(parser)`` and ``run(args) -> int`` and is discovered automatically, so adding a
command means adding one module. ``python -m bindsplit_datasets`` is the same program.

Exit codes: 0 success; 2 a user error, printed as one line (BindSplit's own error types, and
those of the registry :data:`~bindsplit_datasets.errors.USER_ERRORS`: a full disk, a file-size or
memory limit, also while the modules import, a denied permission, a path below a file, an
unreachable Hub, unreadable data); 130 interrupted (Ctrl-C, also
while the modules are still importing); 143 terminated (SIGTERM: the command stops as on Ctrl-C,
its workers and temporaries cleaned up); 141 the reader of the output went away
(``bindsplit compare ... | head``: the rest of the output is dropped quietly); 1 a bug, which
keeps its traceback.
``-v/--verbose`` (debug logging, and the traceback of user errors too) and ``-q/--quiet`` (warnings
and errors only, no progress bars) are accepted before or after the command's name.

Logging: only the package's own logger (``bindsplit_datasets``) is configured, for the duration of
the command, so other libraries' INFO lines stay out of the output.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import pkgutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from . import commands
from ._version import __version__
from .commands._help import HelpFormatter, examples_epilog, verbosity_options
from .commands._paths import check_path_arguments
from .errors import Terminated, describe_error, is_user_error
from .progress import interactive

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_BUG",
    "EXIT_INTERRUPTED",
    "EXIT_TERMINATED",
    "EXIT_USER_ERROR",
    "build_parser",
    "main",
]

#: Exit code of a bug (an exception that is not a user error; its traceback is printed).
EXIT_BUG = 1

#: Exit code of a user error (also argparse's for a bad command line).
EXIT_USER_ERROR = 2
#: Exit code of a run stopped with Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130
#: Exit code of a run stopped with SIGTERM (128 + SIGTERM).
EXIT_TERMINATED = 143
#: Exit code when the output's reader closed the pipe (128 + SIGPIPE, as shells report it).
EXIT_BROKEN_PIPE = 141
#: The package's logger, the only one the command line configures.
PACKAGE_LOGGER = __name__.rpartition(".")[0]
#: How log lines are printed.
LOG_FORMAT = "%(levelname)s %(name)s: %(message)s"


class CommandParser(argparse.ArgumentParser):
    """A sub-command's parser whose arguments are added when it is first used (parsing, help):
    ``bindsplit --help`` and every other command then import nothing of a command they do not
    run (``build``'s options need the benchmark registry, which imports ``datasets``)."""

    def populate_with(self, add_arguments: Callable[[argparse.ArgumentParser], None]) -> None:
        """Add the arguments with ``add_arguments(self)`` on first use."""
        self._add_arguments: Callable[[argparse.ArgumentParser], None] | None = add_arguments

    def populate(self) -> None:
        """Add the arguments now (once)."""
        add_arguments = getattr(self, "_add_arguments", None)
        if add_arguments is not None:
            self._add_arguments = None
            add_arguments(self)

    def parse_known_args(self, *args: Any, **kwargs: Any) -> Any:
        self.populate()
        return super().parse_known_args(*args, **kwargs)

    def format_usage(self) -> str:
        self.populate()
        return super().format_usage()

    def format_help(self) -> str:
        self.populate()
        return super().format_help()


def _command_modules() -> list[ModuleType]:
    modules = [
        importlib.import_module(f"{commands.__name__}.{info.name}")
        for info in pkgutil.iter_modules(commands.__path__)
        if not info.name.startswith("_")
    ]
    return sorted(modules, key=lambda module: module.NAME)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered sub-command."""
    verbosity = verbosity_options()
    parser = argparse.ArgumentParser(
        prog="bindsplit",
        description="Split compositional benchmarks into seen and unseen bindings: the "
        "(attribute, object) bindings of their captions (the paper's), or their (subject, "
        "relation, object) triples (build --bindings relation|both).",
        epilog=examples_epilog(("bindsplit demo", "bindsplit build --help", "bindsplit eval -h")),
        formatter_class=HelpFormatter,
        parents=[verbosity],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers: Any = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, parser_class=CommandParser
    )
    for module in _command_modules():
        # HELP is %-formatted by argparse in the command list, but not as a description.
        sub = subparsers.add_parser(
            module.NAME,
            help=module.HELP,
            description=module.HELP.replace("%%", "%"),
            epilog=examples_epilog(module.EXAMPLES),
            formatter_class=HelpFormatter,
            parents=[verbosity],
        )
        sub.populate_with(module.add_arguments)
        sub.set_defaults(_run=module.run)
    return parser


def _silence_library_bars() -> Callable[[], None]:
    """Turn off the progress bars of huggingface_hub (downloads) and transformers (weight
    loading), which ignore ``TQDM_DISABLE``; transformers imported later inherits the hub's
    setting. Returns what turns them back on."""
    from huggingface_hub import utils as hub_utils

    undo: list[Callable[[], None]] = []
    if not hub_utils.are_progress_bars_disabled():
        hub_utils.disable_progress_bars()
        undo.append(hub_utils.enable_progress_bars)

    def restore() -> None:
        transformers_logging = sys.modules.get("transformers.utils.logging")
        if undo and transformers_logging is not None:
            transformers_logging.enable_progress_bar()
        for step in undo:
            step()

    transformers_logging = sys.modules.get("transformers.utils.logging")
    if transformers_logging is not None:
        transformers_logging.disable_progress_bar()
    return restore


@contextmanager
def _package_logging(level: int, quiet: bool) -> Iterator[None]:
    """Log the package's messages at ``level`` to stderr (and, ``quiet``, hide progress bars) for
    the duration of a command, and hide the libraries' progress bars off a terminal (where the
    package logs its own progress as lines); the previous state comes back afterwards."""
    package = logging.getLogger(PACKAGE_LOGGER)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    saved = (package.level, package.propagate, os.environ.get("TQDM_DISABLE"))
    package.addHandler(handler)
    package.setLevel(level)
    package.propagate = False
    # off a terminal the package logs its progress (progress.py); the libraries' bars would only
    # write carriage returns between its lines
    restore_bars = _silence_library_bars() if quiet or not interactive() else None
    if quiet:
        os.environ["TQDM_DISABLE"] = "1"
    try:
        yield
    finally:
        if restore_bars is not None:
            restore_bars()
        package.removeHandler(handler)
        package.setLevel(saved[0])
        package.propagate = saved[1]
        if saved[2] is None:
            os.environ.pop("TQDM_DISABLE", None)
        else:
            os.environ["TQDM_DISABLE"] = saved[2]


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


@contextmanager
def _sigterm_raises() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` for the duration of a command (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    # a file-size limit (ulimit -f) makes a write fail with EFBIG, a user error, instead of
    # killing the process with SIGXFSZ halfway through a file
    size_limit = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        signal.signal(signal.SIGXFSZ, size_limit)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``bindsplit`` console script; returns the process exit code."""
    command = "bindsplit"
    try:
        with _sigterm_raises():
            try:  # imports every command module, and the chosen one's arguments' modules
                parser = build_parser()
                args = parser.parse_args(argv)
            except Exception as error:  # memory exhausted while importing (ulimit -v)
                if not is_user_error(error):
                    raise
                print(f"{command}: error: {describe_error(error)}", file=sys.stderr)
                return EXIT_USER_ERROR
            command = f"bindsplit {args.command}"
            return _run(parser, args, command)
    except KeyboardInterrupt:
        print(f"{command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print(f"{command}: terminated", file=sys.stderr)
        return EXIT_TERMINATED
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_BROKEN_PIPE


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace, command: str) -> int:
    verbose, quiet = getattr(args, "verbose", False), getattr(args, "quiet", False)
    level = logging.DEBUG if verbose else logging.WARNING if quiet else logging.INFO
    with _package_logging(level, quiet):
        try:
            check_path_arguments(parser, args)  # a FIFO named anywhere: refused at once
            return int(args._run(args) or 0)
        except (BrokenPipeError, KeyboardInterrupt, Terminated):
            raise
        except Exception as error:
            if verbose or not is_user_error(error):
                raise
            print(f"{command}: error: {describe_error(error)}", file=sys.stderr)
            return EXIT_USER_ERROR


def _drop_stdout() -> None:
    """The reader of stdout went away: the rest of the output goes nowhere, also what Python
    flushes at exit (the Python documentation's advice on SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file descriptor (captured)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
