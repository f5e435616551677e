"""``bindsplit demo``: the whole pipeline, offline, on the embedded synthetic world."""

from __future__ import annotations

import argparse

from ..argtypes import non_negative_int, positive_int

NAME = "demo"
HELP = (
    "Run BindSplit end to end offline: generate the synthetic benchmark, build its "
    "configurations, score the two shipped tiny CLIPs, print leaderboards and write results "
    "and a figure."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit demo",
    "bindsplit demo --out demo_output --overwrite",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        default="demo_output",
        metavar="DIR",
        help="output folder: new or empty, or a previous demo output with --overwrite "
        "(default: demo_output)",
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace DIR if it holds a previous demo output"
    )
    parser.add_argument(
        "--n-per-stratum",
        type=positive_int,
        help="test samples per label seen/partial/unseen (default: 500)",
    )
    parser.add_argument("--batch-size", type=positive_int, default=256, help="encoder batch size")
    parser.add_argument(
        "--n-bootstrap",
        type=non_negative_int,
        default=1000,
        help="bootstrap resamples (macro averages; 0: none)",
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")


def run(args: argparse.Namespace) -> int:
    from ..demo import format_demo_report, run_demo

    result = run_demo(
        args.out,
        n_per_stratum=args.n_per_stratum,
        batch_size=args.batch_size,
        n_bootstrap=args.n_bootstrap,
        seed=args.seed,
        overwrite=args.overwrite,
    )
    print(format_demo_report(result))
    return 0
