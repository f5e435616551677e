"""``bindsplit export``: results records as a model card's ``model-index``, as the Hub's
evaluation results (``.eval_results/*.yaml``) or as a flat results table (Parquet)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..atomic import MODEL_CARD_OUTPUT, check_output
from ..errors import BindsplitValueError
from ..names import is_hub_id
from ..reports import load_results

NAME = "export"
HELP = (
    "Export RESULTS.json files: as the model-index metadata of a model card (printed, or written "
    "into its README with --readme), as the Hub's evaluation results that benchmark leaderboards "
    "aggregate (.eval_results/*.yaml: printed, or written into a model folder with --out), or as "
    "a results table (one row per model, configuration and metric) in a Parquet file (--out)."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit export model-index results/clip-*.json --readme my_model/README.md",
    "bindsplit export eval-results results/clip-*.json --out my_model",
    "bindsplit export results-table results/*.json --out results.parquet",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", choices=FORMATS, help="what to export")
    parser.add_argument("results", nargs="+", metavar="RESULTS.json", help="results records")
    parser.add_argument(
        "--out",
        metavar="PATH",
        help=(
            "results-table: the Parquet file to write (required); eval-results: the model "
            "folder whose .eval_results/ receives one YAML file per benchmark"
        ),
    )
    parser.add_argument(
        "--readme",
        metavar="PATH",
        help="model-index: model card to update: its model-index is replaced (or added)",
    )
    parser.add_argument(
        "--org",
        help="Hub namespace of the BindSplit datasets (default: the canonical one, bindsplit)",
    )
    parser.add_argument(
        "--dataset-id",
        metavar="ORG/NAME",
        help="eval-results, model-index: the dataset the results are reported against (records "
        "of one benchmark); required for a build that is not the canonical bindsplit/<benchmark> "
        "(another reference or source) unless --org names your namespace",
    )
    parser.add_argument(
        "--source-url",
        metavar="URL",
        help="eval-results: where the results come from (e.g. the results dataset), shown on "
        "the Hub beside each score",
    )


def _check_options(args: argparse.Namespace) -> None:
    """Options that do not apply to the format, and a missing --out, fail before any work."""
    if args.readme is not None and args.format != "model-index":
        raise BindsplitValueError(f"--readme applies to model-index, not to {args.format}")
    if args.out is not None and args.format == "model-index":
        raise BindsplitValueError("model-index is written into a model card: use --readme PATH")
    if args.source_url is not None and args.format != "eval-results":
        raise BindsplitValueError(f"--source-url applies to eval-results, not to {args.format}")
    if args.format == "results-table" and args.out is None:
        raise BindsplitValueError("results-table needs --out FILE.parquet")
    if args.dataset_id is not None and args.format == "results-table":
        raise BindsplitValueError("--dataset-id applies to eval-results and model-index")
    if args.dataset_id is not None and not is_hub_id(args.dataset_id):
        raise BindsplitValueError(f"--dataset-id {args.dataset_id!r} is not a Hub id (ORG/NAME)")
    if args.readme is not None:
        check_output(args.readme, MODEL_CARD_OUTPUT, option="--readme")


def _reported_records(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The records, checked to be reportable against the dataset they will name: the canonical
    ``bindsplit/<benchmark>`` only for results of the canonical build (publish/canonical.py)."""
    from ..publish.canonical import check_records

    records = load_results(args.results)
    if args.dataset_id is not None:
        benchmarks = sorted({str(record["dataset"]["benchmark"]) for record in records})
        if len(benchmarks) > 1:
            raise BindsplitValueError(
                f"--dataset-id names one dataset, but the results are of {', '.join(benchmarks)}; "
                "export each benchmark's results separately"
            )
        return records
    check_records(records, org=args.org, what=args.format, override="--dataset-id or --org")
    return records


def _results_table(args: argparse.Namespace) -> None:
    from ..reports.results_table import check_table_output, write_results_table

    check_table_output(args.out)
    records = load_results(args.results)
    path = write_results_table(records, args.out)
    print(f"wrote the results table of {len(records)} results record(s) to {path}")


def _eval_results(args: argparse.Namespace) -> None:
    from ..reports.eval_results import format_eval_results, write_eval_results

    records = _reported_records(args)
    options = {"org": args.org, "dataset_id": args.dataset_id, "source_url": args.source_url}
    if args.out is None:
        for name, text in format_eval_results(records, **options).items():
            print(f"# .eval_results/{name}\n{text}", end="")
        return
    for written in write_eval_results(args.out, records, **options):
        print(f"wrote {written}")


def _model_index(args: argparse.Namespace) -> None:
    from ..reports.model_index import format_model_index, write_model_index

    records = _reported_records(args)
    options = {"org": args.org, "dataset_id": args.dataset_id}
    if args.readme is None:
        print(format_model_index(records, **options), end="")
        return
    path = write_model_index(args.readme, records, **options)
    print(f"wrote the model-index of {len(records)} results record(s) into {path}")


#: What each format runs (the optional report modules are imported only when used).
_EXPORTERS: dict[str, Callable[[argparse.Namespace], None]] = {
    "model-index": _model_index,
    "eval-results": _eval_results,
    "results-table": _results_table,
}
#: What can be exported.
FORMATS: tuple[str, ...] = tuple(_EXPORTERS)


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    _EXPORTERS[args.format](args)
    return 0
