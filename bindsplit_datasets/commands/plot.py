"""``bindsplit plot``: grouped bars of accuracy per configuration from results records."""

from __future__ import annotations

import argparse

from ..atomic import FIGURE_OUTPUT, check_output
from ..names import CONFIGURATIONS
from ..reports import DEFAULT_CONFIGS, METRICS, load_results, plot_results

NAME = "plot"
HELP = (
    "Draw I2T/T2I/group accuracy per configuration (full, seen, partial, unseen, balanced) for "
    "one or several models, with 95 percent intervals, from RESULTS.json files written by "
    "`bindsplit eval`."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit plot results/*.json --out accuracy.png",
    "bindsplit plot a.json b.json --metrics i2t --configs full seen unseen --out i2t.pdf",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")
    parser.add_argument(
        "--out", required=True, metavar="FIG.png", help="figure to write (.png, .pdf or .svg)"
    )
    parser.add_argument(
        "--metrics",
        nargs="+",
        choices=METRICS,
        default=list(METRICS),
        help="metrics to draw, one panel each; undefined ones are skipped (default: all)",
    )
    parser.add_argument(
        "--configs",
        nargs="+",
        choices=CONFIGURATIONS,
        default=None,
        help=(
            f"configurations on the x axis, in this order (default: {' '.join(DEFAULT_CONFIGS)}, "
            "those the records report)"
        ),
    )
    parser.add_argument(
        "--allow-mixed-builds",
        action="store_true",
        help="plot results of one benchmark evaluated on different builds (different splits)",
    )


def run(args: argparse.Namespace) -> int:
    check_output(args.out, FIGURE_OUTPUT)  # before any work
    records = load_results(args.results)
    path = plot_results(
        records,
        args.out,
        metrics=args.metrics,
        configs=args.configs,
        allow_mixed_builds=args.allow_mixed_builds,
    )
    print(f"wrote {path}")
    return 0
