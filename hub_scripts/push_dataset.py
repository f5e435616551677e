"""Publish a folder made by ``bindsplit build`` as a Hugging Face dataset repository.

    python hub_scripts/push_dataset.py DIR --repo ORG/NAME          # dry run: print the plan
    python hub_scripts/push_dataset.py DIR --repo ORG/NAME --yes    # upload

Afterwards ``load_dataset("ORG/NAME", "unseen")`` works for anyone (``full`` is the default
configuration). See hub_scripts/README.md; the logic lives in ``bindsplit_datasets.publish``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from bindsplit_datasets.cli import USER_ERRORS
from bindsplit_datasets.publish import plan_dataset, run_publish

PROG = "push_dataset.py"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folder", metavar="DIR", help="folder written by `bindsplit build --out DIR`"
    )
    parser.add_argument("--repo", required=True, metavar="ORG/NAME", help="dataset repository id")
    parser.add_argument(
        "--yes", action="store_true", help="upload (without it: dry run, nothing sent)"
    )
    parser.add_argument(
        "--revision", metavar="BRANCH", help="branch to commit to (created if missing)"
    )
    parser.add_argument(
        "--create-pr", action="store_true", help="open a pull request instead of committing"
    )
    parser.add_argument(
        "--private", action="store_true", default=None, help="create the repository private"
    )
    parser.add_argument(
        "--force", action="store_true", help="overwrite a dataset card edited on the Hub"
    )
    parser.add_argument("--message", metavar="TEXT", help="commit message")
    return parser


def main(argv: Sequence[str] | None = None, *, client: Any = None) -> int:
    """Run the script; ``client`` replaces ``huggingface_hub.HfApi`` (tests pass a fake)."""
    args = build_parser().parse_args(argv)
    try:
        plan = plan_dataset(
            args.folder,
            args.repo,
            revision=args.revision,
            create_pr=args.create_pr,
            private=args.private,
            commit_message=args.message,
        )
        return run_publish(plan, yes=args.yes, force=args.force, client=client)
    except USER_ERRORS as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
