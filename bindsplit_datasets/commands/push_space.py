"""``bindsplit push-space``: publish a Space shipped with BindSplit (the leaderboard)."""

from __future__ import annotations

import argparse

from ..names import leaderboard_space_id, results_dataset_id
from ._publish import add_publish_arguments, plan_options, run_plan

NAME = "push-space"
HELP = (
    "Publish a Space shipped with BindSplit as a gradio Space (dry run unless --yes): "
    "'leaderboard' ranks the models of a results dataset per benchmark and configuration."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit push-space leaderboard --results my-org/bindsplit-results",
    "bindsplit push-space leaderboard --org my-org --yes",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..publish.space import SPACES

    parser.add_argument("space", choices=tuple(SPACES), help="which Space")
    add_publish_arguments(parser, repository="Space", default_repo=leaderboard_space_id())
    parser.add_argument(
        "--results",
        metavar="ORG/NAME",
        help=(
            "results dataset the Space reads (default: the Space's results.txt, "
            f"{results_dataset_id()}, or <org>/bindsplit-results with --org)"
        ),
    )
    parser.add_argument(
        "--folder", metavar="DIR", help="Space folder (default: the one shipped with BindSplit)"
    )
    parser.add_argument(
        "--wheel",
        metavar="FILE",
        help="BindSplit wheel bundled into the Space, which installs it from there (default: "
        "built from this source checkout; `python -m build` makes one)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite a card edited on the Hub")


def run(args: argparse.Namespace) -> int:
    from ..publish import plan_space

    plan = plan_space(
        args.space,
        args.repo,
        folder=args.folder,
        org=args.org,
        results=args.results,
        wheel=args.wheel,
        **plan_options(args),
    )
    return run_plan(plan, yes=args.yes, force=args.force)
