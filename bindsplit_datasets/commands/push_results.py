"""``bindsplit push-results``: add results records to a Hub dataset that leaderboards read."""

from __future__ import annotations

import argparse

from ._publish import add_publish_arguments, plan_options, run_plan

NAME = "push-results"
HELP = (
    "Add the results records written by `bindsplit eval` to a Hub dataset (dry run unless "
    "--yes); a record already there (same model, revision, benchmark and build) is kept."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit push-results results/*.json --repo my-org/bindsplit-results",
    "bindsplit push-results results/*.json --repo my-org/bindsplit-results --yes",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results",
        nargs="+",
        metavar="RESULTS",
        help="results records (JSON files) or folders searched for them",
    )
    add_publish_arguments(parser, repository="dataset", default_repo=None)


def run(args: argparse.Namespace) -> int:
    from ..publish import plan_results

    return run_plan(plan_results(args.results, args.repo, **plan_options(args)), yes=args.yes)
