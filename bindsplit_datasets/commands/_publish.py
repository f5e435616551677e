"""Options and output shared by the ``push-*`` commands (not a command: its name starts with _)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..publish import PublishPlan


def add_publish_arguments(
    parser: argparse.ArgumentParser, *, repository: str, default_repo: str | None
) -> None:
    """The options every ``push-*`` command takes. ``repository`` names the kind ("dataset",
    "Space"); ``default_repo`` describes the default of ``--repo`` (``None``: required)."""
    if default_repo is None:
        parser.add_argument(
            "--repo", required=True, metavar="ORG/NAME", help=f"{repository} repository id"
        )
    else:
        parser.add_argument(
            "--repo",
            metavar="ORG/NAME",
            help=f"{repository} repository id (default: {default_repo}; wins over --org)",
        )
        parser.add_argument(
            "--org",
            metavar="ORG",
            help="namespace of the default repository instead of bindsplit (a user or an org)",
        )
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
        "--private", action="store_true", default=None, help=f"create the {repository} private"
    )
    parser.add_argument("--message", metavar="TEXT", help="commit message")


def plan_options(args: argparse.Namespace) -> dict[str, Any]:
    """The planner keyword arguments of the shared options."""
    return {
        "revision": args.revision,
        "create_pr": args.create_pr,
        "private": args.private,
        "commit_message": args.message,
    }


def run_plan(plan: PublishPlan, *, yes: bool, force: bool = False) -> int:
    """Print the plan; with ``yes``, publish it and print what was sent. The dry run makes no
    call at all, not even read-only ones, and needs no token."""
    from ..publish import publish

    print(plan.describe())
    if not yes:
        print("\ndry run: nothing was sent. Run again with --yes to publish.")
        return 0
    result = publish(plan, force=force)
    if result.kept:
        print(f"\nalready on the Hub, kept: {', '.join(result.kept)}")
    if result.url is None:
        print(f"\nnothing new to publish: {plan.repo_id} already holds every record")
    else:
        print(f"\npublished: {result.url}")
    return 0
