"""``bindsplit compare``: text leaderboards per configuration, marking rank moves from ``full``."""

from __future__ import annotations

import argparse

from ..plotting import ALL_CONFIGS, CONFIGS, METRICS, format_comparison, load_results

NAME = "compare"
HELP = (
    "Print the leaderboard of every configuration (rank, model, accuracy, 95 percent interval, "
    "n) per benchmark, marking models whose rank differs from full (↑2 / ↓1)."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")
    parser.add_argument(
        "--metric", choices=METRICS, default="i2t", help="metric to rank by (default: i2t)"
    )
    parser.add_argument(
        "--configs",
        nargs="+",
        choices=ALL_CONFIGS,
        default=list(CONFIGS),
        help="configurations to rank, in this order (default: full seen unseen)",
    )
    parser.add_argument(
        "--allow-mixed-builds",
        action="store_true",
        help="rank results of one benchmark evaluated on different builds (different splits)",
    )


def run(args: argparse.Namespace) -> int:
    records = load_results(args.results)
    print(
        format_comparison(
            records, args.metric, args.configs, allow_mixed_builds=args.allow_mixed_builds
        )
    )
    return 0
