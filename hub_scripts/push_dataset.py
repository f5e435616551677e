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

from bindsplit_datasets.publish import add_publish_arguments, plan_dataset, script_main

PROG = "push_dataset.py"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "folder", metavar="DIR", help="folder written by `bindsplit build --out DIR`"
    )
    add_publish_arguments(parser, repository="dataset")
    return parser


def main(argv: Sequence[str] | None = None, *, client: Any = None) -> int:
    """Run the script; ``client`` replaces ``huggingface_hub.HfApi`` (tests pass a fake)."""
    return script_main(plan_dataset, build_parser().parse_args(argv), prog=PROG, client=client)


if __name__ == "__main__":
    sys.exit(main())
