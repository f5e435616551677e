"""Publish the BindSplit metric (``metrics/bindsplit``) as an evaluate Space on the Hub.

    python hub_scripts/push_metric.py                  # dry run: print the plan
    python hub_scripts/push_metric.py --yes            # upload to bindsplit/bindsplit
    python hub_scripts/push_metric.py --org my-lab     # plan my-lab/bindsplit

The same as ``bindsplit push-metric --folder metrics/bindsplit``; see hub_scripts/README.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from bindsplit_datasets.cli import main as bindsplit

METRIC_FOLDER = Path(__file__).resolve().parents[1] / "metrics" / "bindsplit"


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bindsplit push-metric`` on this checkout's metric folder (unless --folder is given)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not any(arg == "--folder" or arg.startswith("--folder=") for arg in argv):
        argv = ["--folder", str(METRIC_FOLDER), *argv]
    return bindsplit(["push-metric", *argv])


if __name__ == "__main__":
    sys.exit(main())
