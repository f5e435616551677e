"""``bindsplit build``: split a benchmark by binding familiarity into a Hub-ready dataset folder."""

from __future__ import annotations

import argparse

from ..benchmarks import benchmark_choices, get_benchmark
from ..builder import build_benchmark
from ..cards import composition_rows
from ..reports import format_composition

NAME = "build"
HELP = (
    "Annotate a benchmark's captions with seen/unseen bindings against a reference corpus and "
    "write "
    "DIR: the full/seen/unseen/partial configurations as Parquet, a dataset card and a manifest."
)


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by ``build`` and ``stats``: what to read and what to label against."""
    parser.add_argument("benchmark", metavar="BENCHMARK", help=f"one of: {benchmark_choices()}")
    parser.add_argument(
        "--source",
        metavar="SRC",
        help="Hub dataset id or local path (aro_vga: the folder with "
        "visual_genome_attribution.json "
        "and images/, or a Parquet copy of the Hub mirror; others: a Parquet file or folder with "
        "the Hub's columns); default: the benchmark's Hub source",
    )
    parser.add_argument(
        "--reference",
        metavar="REF",
        help="coco2017 (COCO train2017 captions), a COCO-format caption JSON, a .txt file with "
        "one caption per line, or a saved index (.parquet); default: the benchmark's own default "
        "(coco2017 for the real benchmarks)",
    )
    parser.add_argument(
        "--min-count",
        type=int,
        default=1,
        metavar="N",
        help="a binding is seen when it occurs in at least N reference captions (default: 1)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on the first bad source row (missing/unreadable image, ARO template mismatch) "
        "instead of counting and reporting it",
    )
    parser.add_argument(
        "--allow-leakage",
        action="store_true",
        help="proceed although the reference contains the benchmark's own positive captions "
        "(stated on the dataset card)",
    )
    parser.add_argument(
        "--sim-solution",
        metavar="CSV",
        help="vismin only: sim_solution.csv of an older release whose image/text pairs are swapped",
    )
    parser.add_argument(
        "--images",
        metavar="DIR",
        help="sugarcrepe only: the COCO val2017 image folder the subset files name (default: "
        "downloaded once and cached)",
    )


def source_options(args: argparse.Namespace) -> dict[str, str]:
    """Adapter options from the command line (only those given)."""
    given = {"sim_solution": args.sim_solution, "images": args.images}
    return {option: value for option, value in given.items() if value}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument(
        "--out", required=True, metavar="DIR", help="output folder (must not exist or be empty)"
    )
    parser.add_argument("--overwrite", action="store_true", help="replace a non-empty DIR")
    parser.add_argument(
        "--repo-id",
        metavar="ORG/NAME",
        help="Hub repository the folder is meant for (used in the card's loading instructions)",
    )


def run(args: argparse.Namespace) -> int:
    result = build_benchmark(
        args.benchmark,
        out=args.out,
        source=args.source,
        reference=args.reference,
        min_count=args.min_count,
        strict=args.strict,
        allow_leakage=args.allow_leakage,
        overwrite=args.overwrite,
        source_options=source_options(args),
        repo_id=args.repo_id,
        progress=True,
    )
    manifest = result.manifest
    print(f"wrote {result.path}")
    print(", ".join(f"{config}: {n:,} rows" for config, n in manifest["configs"].items()))
    figures = get_benchmark(manifest["benchmark"]).paper_figures
    print(format_composition(composition_rows(manifest["composition"], figures)))
    for note in manifest["source_report"]["notes"]:
        print(f"note: {note}")
    if manifest["leakage"]["override"]:
        print(f"warning: {manifest['leakage']['overlap']:,} positive captions are in the reference")
    return 0
