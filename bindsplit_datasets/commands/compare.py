"""``bindsplit compare``: text leaderboards per configuration, marking real rank moves from
``full``."""

from __future__ import annotations

import argparse

from ..names import CONFIGURATIONS
from ..reports import DEFAULT_CONFIGS, METRICS, format_comparison, load_results
from ..reports.significance import DEFAULT_CONFIDENCE

NAME = "compare"
HELP = (
    "Print the leaderboard of every configuration (rank, model, accuracy, 95 percent interval, "
    "n) per benchmark, marking models whose rank differs from full (↑2 / ↓1) where a paired "
    "bootstrap over the shared samples says the difference is real (= otherwise)."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit compare results/*.json",
    "bindsplit compare a.json b.json --metric group --configs full seen unseen balanced",
)


def _confidence(text: str) -> float:
    value = float(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a confidence in (0, 1), e.g. 0.95")
    return value


def add_confidence_argument(parser: argparse.ArgumentParser) -> None:
    """``--confidence`` of the paired test behind rank moves (``compare`` and ``eval``)."""
    parser.add_argument(
        "--confidence",
        type=_confidence,
        default=DEFAULT_CONFIDENCE,
        help="confidence at which a rank move must be real to be marked (default: 0.95)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")
    parser.add_argument(
        "--metric", choices=METRICS, default="i2t", help="metric to rank by (default: i2t)"
    )
    parser.add_argument(
        "--configs",
        nargs="+",
        choices=CONFIGURATIONS,
        default=None,
        help=(
            f"configurations to rank, in this order (default: {' '.join(DEFAULT_CONFIGS)}, "
            "those the records report)"
        ),
    )
    parser.add_argument(
        "--allow-mixed-builds",
        action="store_true",
        help="rank results of one benchmark evaluated on different builds (different splits)",
    )
    add_confidence_argument(parser)


def run(args: argparse.Namespace) -> int:
    records = load_results(args.results)
    print(
        format_comparison(
            records,
            args.metric,
            args.configs,
            allow_mixed_builds=args.allow_mixed_builds,
            confidence=args.confidence,
        )
    )
    return 0
