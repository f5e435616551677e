"""Publish a folder made by ``bindsplit build`` as a Hugging Face dataset repository.

    python hub_scripts/push_dataset.py DIR                      # dry run: print the plan
    python hub_scripts/push_dataset.py DIR --yes                # upload to bindsplit/<benchmark>
    python hub_scripts/push_dataset.py DIR --org my-lab --yes   # upload to my-lab/<benchmark>

The same as ``bindsplit push-dataset``; see hub_scripts/README.md.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from bindsplit_datasets.cli import main as bindsplit


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``bindsplit push-dataset`` with these arguments (default: the command line's)."""
    return bindsplit(["push-dataset", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
