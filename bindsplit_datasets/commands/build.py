"""``bindsplit build``: split a benchmark by binding familiarity into a Hub-ready dataset folder."""

from __future__ import annotations

import argparse

from ._halftruth_options import add_halftruth_arguments
from ._source_options import (
    add_bindings_argument,
    add_source_arguments,
    benchmark_of,
    labelling_options,
    print_composition,
)

NAME = "build"
HELP = (
    "Annotate a benchmark's captions with seen/unseen bindings against a reference corpus "
    "((attribute, object) bindings, or with --bindings relation|both (subject, relation, object) "
    "triples) and write DIR: the full/seen/unseen/partial/balanced configurations as Parquet, a "
    "dataset card and a manifest."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit build whatsup --source whatsup_vlms/data --bindings relation --out builds/whatsup",
    "bindsplit build custom --source table.csv --image-columns picture "
    "--caption-columns good,bad_a,bad_b --out builds/mine",
    "bindsplit build halftruth --source annotations/captions_val2017.json --images val2017 "
    "--out builds/coco_halftruths",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument(
        "--out", required=True, metavar="DIR", help="output folder (new, or an empty folder)"
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace DIR if it holds a previous build"
    )
    add_bindings_argument(parser)
    add_halftruth_arguments(parser)
    parser.add_argument(
        "--repo-id",
        metavar="ORG/NAME",
        help="Hub repository the folder is meant for (used in the card's loading instructions)",
    )


def run(args: argparse.Namespace) -> int:
    from ..benchmarks import BenchmarkAdapter, get_benchmark
    from ..builds.builder import build_benchmark

    benchmark = benchmark_of(args)
    result = build_benchmark(
        benchmark,
        out=args.out,
        overwrite=args.overwrite,
        repo_id=args.repo_id,
        **labelling_options(args),
    )
    manifest = result.manifest
    print(f"wrote {result.path}")
    print(", ".join(f"{config}: {n:,} rows" for config, n in manifest["configs"].items()))
    adapter = benchmark if isinstance(benchmark, BenchmarkAdapter) else get_benchmark(benchmark)
    print_composition(
        manifest["composition"],
        adapter,
        manifest,
        manifest["source_report"]["notes"],
        manifest["leakage"],
    )
    return 0
