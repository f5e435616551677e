"""``bindsplit build``: split a benchmark by binding familiarity into a Hub-ready dataset folder."""

from __future__ import annotations

import argparse

from ._source_options import (
    add_bindings_argument,
    add_source_arguments,
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
    "bindsplit build synthetic --out synthetic_build",
    "bindsplit build aro_vgr --source aro --bindings relation --out builds/aro_vgr",
    "bindsplit build sugarcrepe --source sugarcrepe/data --images val2017 --out builds/sugarcrepe",
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
    parser.add_argument(
        "--repo-id",
        metavar="ORG/NAME",
        help="Hub repository the folder is meant for (used in the card's loading instructions)",
    )


def run(args: argparse.Namespace) -> int:
    from ..builds.builder import build_benchmark

    result = build_benchmark(
        args.benchmark,
        out=args.out,
        overwrite=args.overwrite,
        repo_id=args.repo_id,
        **labelling_options(args),
    )
    manifest = result.manifest
    print(f"wrote {result.path}")
    print(", ".join(f"{config}: {n:,} rows" for config, n in manifest["configs"].items()))
    print_composition(
        manifest["composition"],
        manifest["benchmark"],
        manifest,
        manifest["source_report"]["notes"],
        manifest["leakage"],
    )
    return 0
