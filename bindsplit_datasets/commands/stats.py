"""``bindsplit stats``: a benchmark's composition beside the paper's figures; writes nothing."""

from __future__ import annotations

import argparse

from ._source_options import (
    add_bindings_argument,
    add_source_arguments,
    benchmark_of,
    print_leakage,
    source_options,
)

NAME = "stats"
HELP = (
    "Print how a benchmark splits into seen/unseen/partial/none (and balanced) samples against a "
    "reference corpus, with seen rates and the asymmetric share beside the BindSplit paper's "
    "figures, and per category."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit stats synthetic",
    "bindsplit stats bivlc --reference coco2017",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    add_bindings_argument(parser)


def run(args: argparse.Namespace) -> int:
    from ..builds.builder import prepare_benchmark
    from ..builds.cards import composition_report, paper_comparable

    prepared = prepare_benchmark(
        benchmark_of(args),
        source=args.source,
        reference=args.reference,
        min_count=args.min_count,
        strict=args.strict,
        allow_leakage=args.allow_leakage,
        max_leakage=args.max_leakage,
        source_options=source_options(args),
        progress=True,
        binding_kind=args.bindings,
    )
    adapter = prepared.adapter
    fingerprint = prepared.index.fingerprint
    print(
        f"{adapter.pretty_name}: {len(prepared.annotations):,} samples; reference "
        f"{fingerprint.get('digest')} ({fingerprint.get('n_captions', 0):,} captions), "
        f"min_count {prepared.index.min_count}; labelled by {prepared.binding_kind} bindings"
    )
    composition = prepared.composition().to_dict()
    # the paper's figures are of attribute bindings, beside the paper's reference (COCO
    # train2017), as on the card
    reference = {"reference": fingerprint, "min_count": prepared.index.min_count}
    comparable = prepared.binding_kind == "attribute" and paper_comparable(reference)
    figures = adapter.paper_figures if comparable else {}
    print(composition_report(composition, adapter.name, figures))
    for note in prepared.source.report.notes:
        print(f"note: {note}")
    print_leakage(prepared.leakage)
    return 0
