"""Publish the BindSplit metric (``metrics/bindsplit``) as an evaluate Space on the Hub.

    python hub_scripts/push_metric.py --repo ORG/bindsplit          # dry run: print the plan
    python hub_scripts/push_metric.py --repo ORG/bindsplit --yes    # upload

Afterwards ``evaluate.load("ORG/bindsplit")`` works for anyone. The repository name must match
the metric script (``bindsplit.py``). See hub_scripts/README.md; the logic lives in
``bindsplit_datasets.publish``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bindsplit_datasets.publish import add_publish_arguments, plan_metric, script_main

PROG = "push_metric.py"
METRIC_FOLDER = Path(__file__).resolve().parents[1] / "metrics" / "bindsplit"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--folder",
        default=str(METRIC_FOLDER),
        metavar="DIR",
        help="metric folder (default: %(default)s)",
    )
    add_publish_arguments(parser, repository="Space")
    return parser


def main(argv: Sequence[str] | None = None, *, client: Any = None) -> int:
    """Run the script; ``client`` replaces ``huggingface_hub.HfApi`` (tests pass a fake)."""
    return script_main(plan_metric, build_parser().parse_args(argv), prog=PROG, client=client)


if __name__ == "__main__":
    sys.exit(main())
