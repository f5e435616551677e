"""``bindsplit stats``: a benchmark's composition beside the paper's figures; writes nothing."""

from __future__ import annotations

import argparse

from ._source_options import (
    add_bindings_argument,
    add_source_arguments,
    benchmark_of,
    labelling_options,
    print_composition,
)

NAME = "stats"
HELP = (
    "Print how a benchmark splits into seen/unseen/partial/none (and balanced) samples against a "
    "reference corpus, by attribute bindings or (--bindings) relation triples, with seen rates "
    "and the asymmetric share beside the BindSplit paper's figures where they apply, and per "
    "category."
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

    prepared = prepare_benchmark(benchmark_of(args), **labelling_options(args))
    adapter = prepared.adapter
    fingerprint = prepared.index.fingerprint
    print(
        f"{adapter.pretty_name}: {len(prepared.annotations):,} samples; reference "
        f"{fingerprint.get('digest')} ({fingerprint.get('n_captions', 0):,} captions), "
        f"min_count {prepared.index.min_count}; labelled by {prepared.binding_kind} bindings"
    )
    labelled = {
        "reference": fingerprint,
        "min_count": prepared.index.min_count,
        "binding_kind": prepared.binding_kind,
    }
    print_composition(
        prepared.composition().to_dict(),
        adapter,
        labelled,
        prepared.source.report.notes,
        prepared.leakage,
    )
    return 0
