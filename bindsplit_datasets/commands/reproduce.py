"""``bindsplit reproduce``: the paper's real-data analysis end to end (needs internet, ideally a
GPU)."""

from __future__ import annotations

import argparse

from ..argtypes import non_negative_int, positive_int

NAME = "reproduce"
HELP = (
    "Download COCO train2017 captions and ARO VG-A, BiVLC, VisMin and SugarCrepe, build them, "
    "print their composition beside the paper's figures, evaluate models and write results and "
    "figures."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit reproduce --out reproduce_output",
    "bindsplit reproduce --benchmarks bivlc,vismin --models openai/clip-vit-base-patch32",
)


def _source(text: str) -> tuple[str, str]:
    benchmark, sep, path = text.partition("=")
    if not sep or not benchmark or not path:
        raise argparse.ArgumentTypeError(f"expected BENCHMARK=SRC, got {text!r}")
    return benchmark, path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..reproduce import DEFAULT_MODELS, REAL_BENCHMARKS

    parser.add_argument("--out", default="reproduce_output", help="output folder")
    parser.add_argument(
        "--models",
        default=",".join(DEFAULT_MODELS),
        help="comma-separated Hub ids or local folders (default: %(default)s)",
    )
    parser.add_argument(
        "--benchmarks", default=",".join(REAL_BENCHMARKS), help="comma-separated benchmarks"
    )
    parser.add_argument(
        "--source",
        type=_source,
        action="append",
        default=[],
        metavar="BENCHMARK=SRC",
        help="a local copy or another Hub id for one benchmark (repeatable)",
    )
    parser.add_argument(
        "--sim-solution", metavar="CSV", help="VisMin sim_solution.csv for a swapped release"
    )
    parser.add_argument(
        "--images",
        metavar="DIR",
        help="SugarCrepe's COCO val2017 image folder (default: downloaded once and cached)",
    )
    parser.add_argument(
        "--reference", default="coco2017", help="reference corpus (default: coco2017)"
    )
    parser.add_argument(
        "--min-count", type=positive_int, default=1, help="seen threshold (default: 1)"
    )
    parser.add_argument("--batch-size", type=positive_int, default=64, help="encoder batch size")
    parser.add_argument("--mixed-precision", choices=("no", "bf16", "fp16"), default="no")
    parser.add_argument("--cache-dir", help="embedding cache folder")
    parser.add_argument(
        "--n-bootstrap", type=non_negative_int, default=1000, help="bootstrap resamples"
    )


def run(args: argparse.Namespace) -> int:
    from ..reproduce import reproduce

    options = {}
    if args.sim_solution:
        options["vismin"] = {"sim_solution": args.sim_solution}
    if args.images:
        options["sugarcrepe"] = {"images": args.images}
    result = reproduce(
        args.out,
        models=[m for m in args.models.split(",") if m],
        benchmarks=[b for b in args.benchmarks.split(",") if b],
        sources=dict(args.source),
        source_options=options,
        reference=args.reference,
        min_count=args.min_count,
        batch_size=args.batch_size,
        mixed_precision=args.mixed_precision,
        cache_dir=args.cache_dir,
        n_bootstrap=args.n_bootstrap,
        echo=lambda text: print(text, flush=True),
    )
    print(f"wrote {result.out}: datasets/, results/, figures/, composition.txt, leaderboard.txt")
    return 0
