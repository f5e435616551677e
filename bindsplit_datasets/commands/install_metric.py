"""``bindsplit install-metric``: make ``evaluate.load("bindsplit")`` load the shipped metric."""

from __future__ import annotations

import argparse

from ..metric import install_metric, uninstall_metric, verify_installed

NAME = "install-metric"
HELP = (
    "Install the BindSplit metric in evaluate's modules and downloads caches, so that "
    "evaluate.load('bindsplit') loads it, offline too and without a warning (run by `make "
    "install`; idempotent, refreshed when the metric changes)."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit install-metric",
    "bindsplit install-metric --modules-cache ~/.cache/huggingface/modules",
    "bindsplit install-metric --uninstall",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--modules-cache",
        metavar="DIR",
        help="evaluate's modules cache (default: $HF_MODULES_CACHE or $HF_HOME/modules)",
    )
    parser.add_argument(
        "--uninstall",
        action="store_true",
        help="remove what install-metric wrote (its evaluate-metric--bindsplit entries and "
        "downloads), nothing else",
    )


def run(args: argparse.Namespace) -> int:
    if args.uninstall:
        removed = uninstall_metric(args.modules_cache)
        for entry in removed:
            print(f"removed {entry}")
        if not removed:
            print("nothing to remove: the metric is not installed there")
        return 0
    entry = install_metric(args.modules_cache)
    verify_installed(args.modules_cache)  # a fresh process loads it and computes with it
    print(f"installed: evaluate.load('bindsplit') loads {entry}")
    return 0
