"""``bindsplit push-dataset``: publish a ``bindsplit build`` folder as a Hub dataset repository."""

from __future__ import annotations

import argparse

from ._publish import add_publish_arguments, plan_options, run_plan

NAME = "push-dataset"
HELP = (
    "Publish a folder written by `bindsplit build` as a Hugging Face dataset (dry run unless "
    "--yes): afterwards load_dataset(REPO, 'unseen') works."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit push-dataset builds/aro --repo my-org/aro",
    "bindsplit push-dataset builds/aro --repo my-org/aro --yes",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder", metavar="DIR", help="folder written by `bindsplit build --out DIR`"
    )
    add_publish_arguments(
        parser, repository="dataset", default_repo="bindsplit/<name of the build's benchmark>"
    )
    parser.add_argument("--force", action="store_true", help="overwrite a card edited on the Hub")
    parser.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        help="skip checking the rows against the build's manifest (a changed build is refused)",
    )


def run(args: argparse.Namespace) -> int:
    from ..publish import plan_dataset

    plan = plan_dataset(
        args.folder, args.repo, org=args.org, verify=args.verify, **plan_options(args)
    )
    return run_plan(plan, yes=args.yes, force=args.force)
