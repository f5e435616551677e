"""``bindsplit stats``: a benchmark's composition beside the paper's figures; writes nothing."""

from __future__ import annotations

import argparse

from ..builder import prepare_benchmark
from ..cards import composition_rows
from ..reports import format_composition
from .build import add_source_arguments, source_options

NAME = "stats"
HELP = (
    "Print how a benchmark splits into seen/unseen/partial/none samples against a reference "
    "corpus, "
    "with binding seen rates and the asymmetric share, beside the BindSplit paper's figures."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)


def run(args: argparse.Namespace) -> int:
    prepared = prepare_benchmark(
        args.benchmark,
        source=args.source,
        reference=args.reference,
        min_count=args.min_count,
        strict=args.strict,
        allow_leakage=args.allow_leakage,
        source_options=source_options(args),
        progress=True,
    )
    adapter = prepared.adapter
    fingerprint = prepared.index.fingerprint
    print(
        f"{adapter.pretty_name}: {len(prepared.annotations):,} samples; reference "
        f"{fingerprint.get('digest')} ({fingerprint.get('n_captions', 0):,} captions), "
        f"min_count {prepared.index.min_count}"
    )
    print(
        format_composition(
            composition_rows(prepared.composition().to_dict(), adapter.paper_figures)
        )
    )
    for note in prepared.source.report.notes:
        print(f"note: {note}")
    if prepared.leakage["override"]:
        print(f"warning: {prepared.leakage['overlap']:,} positive captions are in the reference")
    return 0
