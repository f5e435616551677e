"""Options shared by the commands that report results records (``compare``, ``plot``, and the
confidence of ``eval``'s rank moves); not a command: its name starts with _."""

from __future__ import annotations

import argparse
from typing import Any

from ..names import CONFIGURATIONS
from ..reports import DEFAULT_CONFIGS
from ..reports.significance import DEFAULT_CONFIDENCE


def add_results_argument(parser: argparse.ArgumentParser) -> None:
    """The results records to report (one or more RESULTS.json files)."""
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")


class _Configs(argparse.Action):
    """``--configs`` values, comma- or space-separated (``full,seen`` = ``full seen``), each a
    known configuration; repeats dropped, order kept."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        names = [name.strip() for value in values for name in str(value).split(",")]
        names = [name for name in names if name]
        unknown = [name for name in names if name not in CONFIGURATIONS]
        if unknown or not names:
            problem = (
                f"unknown configuration {', '.join(map(repr, unknown))}"
                if unknown
                else "no configuration given"
            )
            parser.error(
                f"argument --configs: {problem}; choose from {', '.join(CONFIGURATIONS)} "
                "(comma- or space-separated)"
            )
        setattr(namespace, self.dest, list(dict.fromkeys(names)))


def add_configs_argument(parser: argparse.ArgumentParser, *, help: str, default: Any) -> None:
    """``--configs``, the same for ``eval``, ``compare`` and ``plot``: comma- or
    space-separated configuration names."""
    parser.add_argument(
        "--configs",
        nargs="+",
        action=_Configs,
        default=default,
        metavar="CONFIG",
        help=f"{help}, comma- or space-separated ({', '.join(CONFIGURATIONS)})",
    )


def add_selection_arguments(
    parser: argparse.ArgumentParser, *, verb: str, configs_help: str
) -> None:
    """``--configs`` (default: those of :data:`~bindsplit_datasets.reports.DEFAULT_CONFIGS` the
    records report) and ``--allow-mixed-builds``. ``verb`` says what the command does with the
    records ("rank", "plot"); ``configs_help`` what the chosen configurations are."""
    add_configs_argument(
        parser,
        help=f"{configs_help}, in this order (default: {','.join(DEFAULT_CONFIGS)}, those the "
        "records report)",
        default=None,
    )
    parser.add_argument(
        "--allow-mixed-builds",
        action="store_true",
        help=f"{verb} results of one benchmark evaluated on different builds (different splits)",
    )


def _confidence(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a confidence in (0, 1), e.g. 0.95")
    return value


def add_confidence_argument(
    parser: argparse.ArgumentParser,
    help: str = "confidence at which a rank move must be real to be marked (default: 0.95)",
) -> None:
    """``--confidence``: of the paired test behind rank moves (``compare``), and for ``eval``
    also the level of every interval (``help`` says which)."""
    parser.add_argument("--confidence", type=_confidence, default=DEFAULT_CONFIDENCE, help=help)
