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
    "bindsplit push-results results/ --repo my-org/bindsplit-results --with-scores",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results",
        nargs="+",
        metavar="RESULTS",
        help="results records (JSON files) or folders searched for them",
    )
    parser.add_argument(
        "--with-scores",
        action="store_true",
        help="also upload each record's per-sample scores (the --save-scores file beside it), so "
        "that others can test a new model against it sample by sample",
    )
    add_publish_arguments(parser, repository="dataset", default_repo=None)


def run(args: argparse.Namespace) -> int:
    from ..publish import plan_results

    plan = plan_results(args.results, args.repo, with_scores=args.with_scores, **plan_options(args))
    return run_plan(plan, yes=args.yes)
