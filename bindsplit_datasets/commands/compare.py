"""``bindsplit compare``: text leaderboards per configuration, marking real rank moves from
``full``."""

from __future__ import annotations

import argparse

from ..reports import METRICS, format_comparison, load_results
from ._report_options import add_confidence_argument, add_results_argument, add_selection_arguments

NAME = "compare"
HELP = (
    "Print the leaderboard of every configuration (rank, model, accuracy, interval, n) per "
    "benchmark, marking models whose rank differs from full (↑2 / ↓1) where the exact McNemar "
    "test over the shared samples says the difference is real (= otherwise), then each model's "
    "gaps (seen - unseen, seen - partial); * flags values on fewer than 30 samples."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit compare results/*.json",
    "bindsplit compare a.json b.json --metric group --configs full seen unseen balanced",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_results_argument(parser)
    parser.add_argument(
        "--metric", choices=METRICS, default="i2t", help="metric to rank by (default: i2t)"
    )
    add_selection_arguments(parser, verb="rank", configs_help="configurations to rank")
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
