"""``bindsplit plot``: grouped bars of accuracy per configuration from results records."""

from __future__ import annotations

import argparse

from ..atomic import FIGURE_OUTPUT, check_output
from ..reports import METRICS, load_results, plot_results
from ._report_options import add_results_argument, add_selection_arguments

NAME = "plot"
HELP = (
    "Draw I2T/T2I/group accuracy per configuration (full, seen, partial, unseen, balanced) for "
    "one or several models, with their intervals, and a panel of the gaps (seen - unseen, "
    "seen - partial), from RESULTS.json files written by `bindsplit eval`."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit plot results/*.json --out accuracy.png",
    "bindsplit plot a.json b.json --metrics i2t --configs full seen unseen --out i2t.pdf",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_results_argument(parser)
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
    add_selection_arguments(parser, verb="plot", configs_help="configurations on the x axis")


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
