"""The arguments ``build`` and ``stats`` share: what to read, what to label it against, how
strict to be; and what both print: the composition (with the paper's figures, or why not) and
the leakage note."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..argtypes import positive_int
from ..errors import BindsplitValueError
from ..names import BINDING_KINDS, DEFAULT_BINDING_KIND, HALFTRUTH
from ._halftruth_options import halftruth_options

if TYPE_CHECKING:
    from ..benchmarks import BenchmarkAdapter

__all__ = [
    "add_bindings_argument",
    "add_source_arguments",
    "benchmark_of",
    "labelling_options",
    "print_composition",
    "print_leakage",
    "source_options",
]

#: The options of ``bindsplit build custom`` (attribute names), each given only with ``custom``
#: (those of :data:`_HALFTRUTH_TABLE` also with ``halftruth``: its source table's columns).
_CUSTOM_OPTIONS = (
    "image_columns",
    "caption_columns",
    "hard_positive_columns",
    "id_column",
    "name",
    "spec",
)
_HALFTRUTH_TABLE = ("image_columns", "caption_columns")


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments shared by ``build`` and ``stats``: what to read and what to label against."""
    from ..benchmarks import benchmark_choices
    from ..benchmarks.vismin import PAIRINGS
    from ..builds.builder import DEFAULT_MAX_LEAKAGE

    parser.add_argument(
        "benchmark",
        metavar="BENCHMARK",
        help=f"one of: {benchmark_choices()}; or custom: any table of images and captions "
        "(--image-columns, --caption-columns)",
    )
    parser.add_argument(
        "--source",
        metavar="SRC",
        help="Hub dataset id or local path (aro_vga: the folder with "
        "visual_genome_attribution.json "
        "and images/, or a Parquet copy of the Hub mirror; others: a Parquet file or folder with "
        "the Hub's columns; custom and the table benchmarks: also a CSV or JSON lines file, "
        "image cells as bytes or paths relative to the table); default: the benchmark's Hub "
        "source",
    )
    parser.add_argument(
        "--reference",
        metavar="REF",
        help="coco2017 (COCO train2017 captions), a COCO-format caption JSON, a .txt file with "
        "one caption per line, a saved index (`bindsplit reference build`), a Hub dataset id "
        "(streamed), or Parquet caption shards (a folder, a glob or an fsspec URL such as "
        "hf://datasets/... or s3://..., column `caption`); default: the benchmark's own default "
        "(coco2017 for the real benchmarks)",
    )
    parser.add_argument(
        "--min-count",
        type=positive_int,
        default=1,
        metavar="N",
        help="a binding is seen when it occurs in at least N reference captions (default: 1)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail on the first bad source row (missing caption, missing/unreadable image, ARO "
        "template mismatch) "
        "instead of counting and reporting it",
    )
    parser.add_argument(
        "--allow-leakage",
        action="store_true",
        help="proceed although the reference contains a large share of the benchmark's own "
        "positive captions (stated on the dataset card)",
    )
    parser.add_argument(
        "--max-leakage",
        type=_share,
        default=DEFAULT_MAX_LEAKAGE,
        metavar="SHARE",
        help="refuse the build when this share (0-1) or more of the benchmark's positive "
        "captions occur verbatim in the reference (default: %(default)s; fewer are chance "
        "duplicates, counted on the card)",
    )
    parser.add_argument(
        "--sim-solution",
        metavar="CSV",
        help="vismin only: the sim_solution.csv of the release read (default: the official "
        "ground truth shipped with the package)",
    )
    parser.add_argument(
        "--images",
        metavar="DIR",
        help="sugarcrepe, sugarcrepe_pp: the COCO val2017 image folder the subset files name "
        "(default: downloaded once and cached); hard_positives: the Visual Genome image folder "
        "(holding VG_100K/; default: the repository's data/ folder); halftruth: the image "
        "folder of a COCO caption file",
    )
    parser.add_argument(
        "--vismin-pairing",
        choices=PAIRINGS,
        help="vismin only: 'solution' (default) stores every row so that text_i describes "
        "image_i, as the sim_solution.csv says; 'as-stored' keeps the rows unchecked (stated on "
        "the dataset card)",
    )
    custom = parser.add_argument_group(
        "custom tables (BENCHMARK custom)",
        "image_columns[i] pairs with caption_columns[i] (its positive caption); further caption "
        "columns are negatives of image 0; hard-positive columns are further true captions of "
        "image 0, stored right after the positives",
    )
    custom.add_argument(
        "--image-columns", type=_columns, metavar="A[,B...]", help="the image column(s)"
    )
    custom.add_argument(
        "--caption-columns",
        type=_columns,
        metavar="C[,D...]",
        help="the caption columns: one positive per image, then the negatives",
    )
    custom.add_argument(
        "--hard-positive-columns",
        type=_columns,
        metavar="H[,I...]",
        help="captions also true of image 0, worded differently (counted as positive captions)",
    )
    custom.add_argument("--id-column", metavar="COLUMN", help="the table's unique row id")
    custom.add_argument(
        "--name", metavar="NAME", help="the build's benchmark name (default: custom)"
    )
    custom.add_argument(
        "--spec",
        metavar="FILE",
        help="a benchmark spec file (YAML or JSON, the format of the shipped specs) giving the "
        "columns, their roles and the name instead of the options above",
    )


def add_bindings_argument(parser: argparse.ArgumentParser) -> None:
    """``--bindings attribute|relation|both``: what labels the samples (SPEC section 1b)."""
    parser.add_argument(
        "--bindings",
        choices=BINDING_KINDS,
        default=DEFAULT_BINDING_KIND,
        help="what labels the samples: (attribute, object) bindings (default, the paper's), "
        "(subject, relation, object) triples, or both; recorded in the manifest and the card",
    )


def _columns(text: str) -> tuple[str, ...]:
    """A comma-separated list of column names."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected column names separated by commas, got {text!r}")
    return names


def benchmark_of(args: argparse.Namespace) -> str | BenchmarkAdapter:
    """The benchmark the command line names: a registry name, or for ``custom`` the adapter of
    the table the custom options describe.

    Raises:
        BindsplitValueError: custom options without ``custom`` (or with a shipped benchmark), a
            custom table without its columns, or ``--spec`` beside the column options.
    """
    table = _HALFTRUTH_TABLE if args.benchmark == HALFTRUTH else ()  # a half-truth source's
    given = [
        f"--{o.replace('_', '-')}"
        for o in _CUSTOM_OPTIONS
        if getattr(args, o, None) and o not in table
    ]
    if args.benchmark != "custom":
        if given:
            raise BindsplitValueError(
                f"{', '.join(given)} describe(s) a table of your own: use `bindsplit "
                f"{args.command} custom ...`, or leave them out for {args.benchmark}"
            )
        return str(args.benchmark)
    from ..benchmarks.custom import custom_adapter, custom_spec

    if args.spec:
        extra = [option for option in given if option != "--spec"]
        if extra:
            raise BindsplitValueError(
                f"--spec gives the columns, their roles and the name; leave out {', '.join(extra)}"
            )
        return custom_adapter(args.spec)
    if not args.image_columns or not args.caption_columns:
        raise BindsplitValueError(
            "a custom table needs --image-columns and --caption-columns (or --spec FILE), e.g. "
            "`bindsplit build custom --source table.csv --image-columns image --caption-columns "
            "caption,negative`"
        )
    spec = custom_spec(
        image_columns=args.image_columns,
        caption_columns=args.caption_columns,
        hard_positive_columns=args.hard_positive_columns or (),
        id_column=args.id_column,
        name=args.name,
    )
    return custom_adapter(spec)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share between 0 and 1, got {text!r}")
    return value


def source_options(args: argparse.Namespace) -> dict[str, str]:
    """Adapter options from the command line (only those given)."""
    options = {}
    if args.sim_solution:
        options["sim_solution"] = args.sim_solution
    if args.images:
        options["images"] = args.images
    if args.vismin_pairing:
        options["pairing"] = args.vismin_pairing
    return options


def labelling_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments ``prepare_benchmark`` and ``build_benchmark`` both take, from the
    shared arguments: what to read, what to label it against and how (with progress)."""
    return {
        "source": args.source,
        "reference": args.reference,
        "min_count": args.min_count,
        "strict": args.strict,
        "allow_leakage": args.allow_leakage,
        "max_leakage": args.max_leakage,
        "source_options": {**source_options(args), **halftruth_options(args)},
        "progress": True,
        "binding_kind": args.bindings,
    }


def print_composition(
    composition: Mapping[str, Any],
    adapter: BenchmarkAdapter,
    labelled: Mapping[str, Any],
    notes: Sequence[str],
    leakage: Mapping[str, Any],
) -> None:
    """Print a benchmark's composition, beside the paper's figures where they apply, else one
    note saying why there is no paper column; then the source's notes and the leakage check.
    ``labelled``: the manifest, or the mapping of its ``reference``, ``min_count`` and
    ``binding_kind`` (what decides whether the paper's figures apply)."""
    from ..builds.cards import composition_report
    from ..builds.paper import paper_column_note

    why_not = paper_column_note(labelled, adapter)
    figures = adapter.paper_figures if why_not is None else {}
    kind = labelled["binding_kind"]
    print(composition_report(composition, adapter.name, figures, kind))
    for note in ([] if why_not is None else [f"no paper column: {why_not}"]) + list(notes):
        print(f"note: {note}")
    print_leakage(leakage)


def print_leakage(leakage: Mapping[str, Any]) -> None:
    """Print the leakage check's outcome when positive captions were found in the reference."""
    if not leakage["overlap"] or not leakage.get("guard", True):
        return
    share = leakage.get("share") or 0.0
    found = (
        f"{leakage['overlap']:,} of {leakage.get('n_positive', 0):,} positive captions "
        f"({100 * share:.1f}%) are in the reference"
    )
    if leakage["override"]:
        print(f"warning: {found}, at or above the threshold (built with --allow-leakage)")
    else:
        print(f"note: {found}: below the threshold, chance duplicates")
