"""The arguments of ``bindsplit build halftruth`` (the half-truths of a captioned source)."""

from __future__ import annotations

import argparse
from typing import Any

from ..argtypes import positive_int
from ..names import HALFTRUTH

__all__ = ["add_halftruth_arguments", "halftruth_options"]


def add_halftruth_arguments(parser: argparse.ArgumentParser) -> None:
    """``--units`` and ``--max-images``, for the ``halftruth`` benchmark only."""
    from ..halftruths.generate import UNITS

    group = parser.add_argument_group("half-truths (halftruth only)")
    group.add_argument(
        "--units",
        choices=tuple(UNITS),
        help="what the half-truths add to their anchor: an entity (a wrong attribute or object), "
        "a relation (a changed relation, swapped roles or a changed argument), or both "
        "(default: both)",
    )
    group.add_argument(
        "--max-images",
        type=positive_int,
        metavar="N",
        help="make half-truths of a seeded sample of N of the source's images (default: all)",
    )


def halftruth_options(args: argparse.Namespace) -> dict[str, Any]:
    """The half-truth options given on the command line (none when none was given), with a
    source table's ``--image-columns`` / ``--caption-columns`` (``benchmark_of`` allows them for
    ``halftruth`` only)."""
    options: dict[str, Any] = {}
    if args.benchmark == HALFTRUTH:
        for name in ("image_columns", "caption_columns"):
            if getattr(args, name, None):
                options[name] = getattr(args, name)
    for name in ("units", "max_images"):  # build's own (stats reads a source with the defaults)
        if getattr(args, name, None):
            options[name] = getattr(args, name)
    return options
