"""Add results records (``bindsplit eval --out``) to a Hub dataset that leaderboards read.

    python hub_scripts/push_results.py results/ --repo ORG/bindsplit-results          # dry run
    python hub_scripts/push_results.py results/ --repo ORG/bindsplit-results --yes    # upload

The same as ``bindsplit push-results``; see hub_scripts/README.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bindsplit_datasets.cli import main as bindsplit


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bindsplit push-results`` with these arguments (default: the command line's)."""
    return bindsplit(["push-results", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
