"""``bindsplit export model-index``: results records as the ``model-index`` of a model card."""

from __future__ import annotations

import argparse

from ..reports import load_results
from ..reports.model_index import format_model_index, write_model_index

NAME = "export"
HELP = (
    "Export one model's RESULTS.json files as the model-index metadata the Hub shows as an "
    "evaluation widget (I2T/T2I/group accuracy in percent per benchmark and configuration): "
    "printed, or written into a README's YAML front matter with --readme."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit export model-index results/clip-*.json",
    "bindsplit export model-index results/clip-*.json --readme my_model/README.md",
)

#: What can be exported.
FORMATS: tuple[str, ...] = ("model-index",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", choices=FORMATS, help="what to export")
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")
    parser.add_argument(
        "--readme",
        metavar="PATH",
        help="model card to update: its model-index is replaced (or added), the rest kept",
    )
    parser.add_argument(
        "--org",
        help="Hub namespace of the BindSplit datasets (default: the canonical one, bindsplit)",
    )


def run(args: argparse.Namespace) -> int:
    records = load_results(args.results)
    if args.readme is None:
        print(format_model_index(records, org=args.org), end="")
        return 0
    path = write_model_index(args.readme, records, org=args.org)
    print(f"wrote the model-index of {len(records)} results record(s) into {path}")
    return 0
