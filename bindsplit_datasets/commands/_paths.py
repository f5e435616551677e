"""Every file or folder a command line names, checked before the command runs.

A named pipe, a device or a socket given where BindSplit reads or writes a file blocks or never
ends (``--readme`` of a FIFO waited for a writer for ever); :func:`check_path_arguments` refuses
each of them at once, in one line naming the option, whichever command it is given to. The
readers of the library check the files they open themselves as well
(:func:`~bindsplit_datasets.input_files.check_input_file`): also a file found inside a named
folder, and a file named from Python.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

from ..input_files import check_input_file

__all__ = ["PATH_ARGUMENTS", "check_path_arguments", "path_arguments"]

#: The argument names (argparse ``dest``) that name a file or folder to read or write, in any
#: command: inputs (sources, references, records, scores, builds, indexes, wheels) and outputs
#: (``--out``, ``--readme``, ``--save-scores``, caches). A value that is not an existing path (a
#: Hub id, ``coco2017``) is left to the command.
PATH_ARGUMENTS: frozenset[str] = frozenset(
    {
        "cache_dir",
        "data",
        "folder",
        "images",
        "index",
        "model",
        "modules_cache",
        "out",
        "out_dir",
        "readme",
        "reference",
        "results",
        "save_scores",
        "scores",
        "sim_solution",
        "source",
        "wheel",
    }
)

#: What a special file given as a path argument is told to do instead.
_FIX = "pass a regular file or folder (a named pipe or device blocks or never ends)"


def _commands(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> Iterator[argparse.ArgumentParser]:
    """``parser`` and the sub-command parsers ``args`` chose below it, outermost first."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = action.choices.get(getattr(args, action.dest, None) or "")
            if chosen is not None:
                yield from _commands(chosen, args)


def path_arguments(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> Iterator[tuple[str, str]]:
    """``(name, value)`` of every path argument of ``args`` (:data:`PATH_ARGUMENTS`; not one
    with fixed choices, such as ``train-synthetic --model``), named as the user wrote it: the
    option (``--readme``), or a positional argument's metavar. A ``BENCHMARK=SRC`` pair (parsed
    as a tuple) gives its ``SRC``."""
    for command in _commands(parser, args):
        for action in command._actions:
            if action.dest not in PATH_ARGUMENTS or action.choices is not None:
                continue
            values = getattr(args, action.dest, None)
            name = action.option_strings[-1] if action.option_strings else action.metavar
            for value in values if isinstance(values, list) else [values]:
                value = value[-1] if isinstance(value, tuple) and value else value
                if isinstance(value, (str, os.PathLike)):
                    yield str(name or action.dest), os.fspath(value)


def check_path_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse, before the command runs, a path argument naming a FIFO, a device or a socket
    (:class:`~bindsplit_datasets.errors.NotARegularFileError`, naming the argument)."""
    for name, value in path_arguments(parser, args):
        check_input_file(value, name, fix=_FIX)
