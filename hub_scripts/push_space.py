"""Publish a Space shipped with BindSplit (the leaderboard) to the Hub.

    python hub_scripts/push_space.py leaderboard --results ORG/bindsplit-results          # dry run
    python hub_scripts/push_space.py leaderboard --results ORG/bindsplit-results --yes    # upload

The same as ``bindsplit push-space``; see hub_scripts/README.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bindsplit_datasets.cli import main as bindsplit


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bindsplit push-space`` with these arguments (default: the command line's)."""
    return bindsplit(["push-space", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
