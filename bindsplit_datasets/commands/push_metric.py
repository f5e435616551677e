"""``bindsplit push-metric``: publish the BindSplit metric as an evaluate Space on the Hub."""

from __future__ import annotations

import argparse

from ..metric import METRIC_DIR
from ..names import metric_space_id
from ._publish import add_publish_arguments, plan_options, run_plan

NAME = "push-metric"
HELP = (
    "Publish the metric folder as an evaluate Space with its gradio app (dry run unless --yes): "
    "afterwards evaluate.load(REPO) works."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit push-metric --repo my-org/bindsplit",
    "bindsplit push-metric --repo my-org/bindsplit --yes",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--folder",
        default=str(METRIC_DIR),
        metavar="DIR",
        help="metric folder (default: the metric shipped with this package)",
    )
    add_publish_arguments(parser, repository="Space", default_repo=metric_space_id())
    parser.add_argument("--force", action="store_true", help="overwrite a card edited on the Hub")


def run(args: argparse.Namespace) -> int:
    from ..publish import plan_metric

    plan = plan_metric(args.folder, args.repo, org=args.org, **plan_options(args))
    return run_plan(plan, yes=args.yes, force=args.force)
