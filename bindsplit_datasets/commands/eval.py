"""``bindsplit eval``: score models on BindSplit datasets and write one results record per pair.

``--model A --data X --out FILE`` scores one model on one dataset. ``--model A --model B --data X
--data Y --out-dir DIR`` scores every pair into ``DIR/<benchmark>__<model>.json``, skips the pairs
whose record is already there for the same model and build (``--force`` redoes them), and ends
with the leaderboards of ``bindsplit compare`` per benchmark. Outputs are checked before any
scoring; a file that is not a BindSplit results record is never overwritten.

``--scores FILE --data X --name NAME --out FILE`` makes the same record from a per-sample scores
file written anywhere (``--save-scores`` writes one; docs/protocol.md documents the format),
without loading a model.

Runs under ``accelerate launch --num_processes N -m bindsplit_datasets.cli eval ...`` unchanged:
every process encodes its shard of the distinct images and captions, and only the main process
prints and writes files. On a machine without GPUs, ``accelerate launch --cpu`` starts a single
process unless MPI is installed; ``ACCELERATE_USE_CPU=true accelerate launch --multi_gpu
--num_processes N ...`` starts N CPU processes through ``torch.distributed.run``, and so does
``torchrun --nproc_per_node N -m bindsplit_datasets eval ...`` (without GPUs the launched
processes run as one data-parallel CPU run; only the main process writes).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..argtypes import non_negative_int, positive_int
from ..errors import BindsplitValueError, SaveScoresError
from ..metric_core import DEFAULT_INTERVAL_METHOD, INTERVAL_METHOD_OPTIONS
from ..names import CONFIGURATIONS
from ._report_options import add_confidence_argument, add_configs_argument

NAME = "eval"
HELP = (
    "Score models (Hub ids, folders or other model specs; any model with get_image_features/"
    "get_text_features) on BindSplit datasets and report I2T/T2I/group accuracy per "
    "configuration with intervals valid at any n and the seen-minus-unseen gap; several models and "
    "datasets write one results record each into --out-dir and end with the leaderboards."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit eval --model openai/clip-vit-base-patch32 --data bindsplit/bivlc --out clip.json",
    "bindsplit eval --model ./my_clip --data synthetic_build --save-scores s.parquet --out r.json",
    "bindsplit eval --scores s.parquet --data synthetic_build --name my-vlm --out r.json",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--model",
        action="append",
        help="Hub model id, local model folder or model spec (open_clip:..., itm:ORG/NAME for a "
        "BLIP image-text matching head); repeat for several models",
    )
    source.add_argument(
        "--scores",
        metavar="FILE",
        help="per-sample scores file (Parquet: id, scores) to import instead of scoring a "
        "model; needs --name, one --data and --out",
    )
    parser.add_argument(
        "--data",
        action="append",
        required=True,
        help="folder made by `bindsplit build`, or a Hub dataset id; repeat for several",
    )
    output = parser.add_mutually_exclusive_group(required=True)
    output.add_argument("--out", help="results record to write (JSON): one model on one dataset")
    output.add_argument(
        "--out-dir",
        metavar="DIR",
        help="folder of results records, one per model and dataset (<benchmark>__<model>.json)",
    )
    parser.add_argument(
        "--name", help="display name of the model (a single --model, or the model of --scores)"
    )
    parser.add_argument(
        "--model-revision",
        metavar="R",
        help="with --scores: the revision of the model that made the scores, as recorded",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="with --out-dir: redo pairs whose results are already there for the same model "
        "and build",
    )
    parser.add_argument(
        "--no-verify",
        action="store_true",
        help="skip checking each build's rows against its manifest (a changed build is refused)",
    )
    add_configs_argument(
        parser, help="configurations to report (default: all)", default=list(CONFIGURATIONS)
    )
    parser.add_argument(
        "--batch-size", type=positive_int, default=64, help="encoder batch size per process"
    )
    parser.add_argument(
        "--mixed-precision", choices=("no", "bf16", "fp16"), default="no", help="(default: no)"
    )
    parser.add_argument(
        "--save-scores",
        metavar="PATH",
        help="also write the per-sample score matrices (Parquet); one model on one dataset only",
    )
    parser.add_argument("--revision", help="model revision (branch, tag or commit)")
    parser.add_argument("--data-revision", help="Hub dataset revision")
    parser.add_argument(
        "--cache-dir",
        help="embedding cache folder: a second run over the same data skips the model",
    )
    parser.add_argument(
        "--num-workers",
        type=non_negative_int,
        default=None,
        help="DataLoader workers decoding images (default: automatic: up to 8 on a GPU, a "
        "background thread on CPU)",
    )
    parser.add_argument(
        "--interval-method",
        choices=INTERVAL_METHOD_OPTIONS,
        default=DEFAULT_INTERVAL_METHOD,
        help="interval of each accuracy: wilson (score) or clopper-pearson (exact), the gaps "
        "then Newcombe's; or bootstrap (percentile) for all (default: wilson)",
    )
    parser.add_argument(
        "--n-bootstrap",
        type=non_negative_int,
        default=1000,
        help="bootstrap resamples: macro averages, and everything with --interval-method "
        "bootstrap (0: none; default: 1000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    add_confidence_argument(
        parser,
        help="level of every interval, and of the test behind rank moves (default: 0.95)",
    )


def _evaluate_options(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of ``evaluate_model`` from the command line (``--name`` travels with
    the plan: :func:`~bindsplit_datasets.runs.run_planned` passes each run's name)."""
    from ..evaluation import parse_configs

    return {
        "configs": parse_configs(args.configs),
        "batch_size": args.batch_size,
        "mixed_precision": args.mixed_precision,
        "cache_dir": args.cache_dir,
        "save_scores": args.save_scores,
        "n_bootstrap": args.n_bootstrap,
        "seed": args.seed,
        "confidence": args.confidence,
        "interval_method": args.interval_method,
        "revision": args.revision,
        "num_workers": args.num_workers,
        "verify": not args.no_verify,
    }


def _import_scores(args: argparse.Namespace) -> int:
    """``--scores``: the results record of an imported scores file."""
    from ..evaluation import evaluate_scores, parse_configs
    from ..reports.tables import format_record_table
    from ..runs import check_output_file

    configs = parse_configs(args.configs)
    model_options = [
        flag
        for flag, value in (
            ("--save-scores", args.save_scores),
            ("--revision", args.revision),
            ("--cache-dir", args.cache_dir),
            ("--out-dir", args.out_dir),
        )
        if value
    ]
    if model_options:
        raise BindsplitValueError(
            f"{', '.join(model_options)} do(es) not apply to --scores (no model is run); "
            "pass --out FILE, and --model-revision for the model's revision"
        )
    if not args.name or not args.name.strip():
        raise BindsplitValueError("--scores needs --name NAME: the model that made the scores")
    if len(args.data) != 1:
        raise BindsplitValueError("--scores imports the scores of one build: pass one --data")
    check_output_file(args.out, "--out")
    record = evaluate_scores(
        args.scores,
        args.data[0],
        name=args.name,
        model_revision=args.model_revision,
        configs=configs,
        n_bootstrap=args.n_bootstrap,
        seed=args.seed,
        confidence=args.confidence,
        interval_method=args.interval_method,
        data_revision=args.data_revision,
        verify=not args.no_verify,
    )
    from ..evaluation import write_record

    write_record(record, args.out)
    print(format_record_table(record))
    print(f"results written to {args.out}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.scores is not None:
        return _import_scores(args)
    from ..reports import format_comparison
    from ..runs import plan_runs, run_planned

    if args.model_revision:
        raise BindsplitValueError(
            "--model-revision records the revision of imported --scores; use --revision "
            "for a --model"
        )
    options = _evaluate_options(args)  # bad configurations fail before anything is read
    pairs = len(set(args.model)) * len(set(args.data))
    if args.save_scores and pairs > 1:
        raise BindsplitValueError(
            "--save-scores writes one file: use it with a single --model and --data (the "
            "records keep the per-sample outcomes)"
        )
    plan = plan_runs(
        args.model,
        args.data,
        out=args.out,
        out_dir=args.out_dir,
        name=args.name,
        revision=args.revision,
        data_revision=args.data_revision,
        force=args.force,
    )
    # one Accelerator for every pair; it also says which process writes and prints
    from ..scoring.scorer import check_launch, default_accelerator

    accelerator = default_accelerator(args.mixed_precision)
    check_launch(accelerator)
    main = accelerator.is_main_process
    records = run_planned(
        plan, write=main, echo=print if main else _quiet, accelerator=accelerator, **options
    )
    failed = [
        record["save_scores"]
        for record in records
        if (record.get("save_scores") or {}).get("error")
    ]
    if failed:
        raise SaveScoresError(
            f"the results record was written, but the per-sample scores could not be written "
            f"to {failed[0]['path']} ({failed[0]['error']}); free space or choose another "
            "--save-scores path and re-run"
        )
    if main and args.out_dir is not None:
        print()
        print(format_comparison(records, configs=options["configs"], confidence=args.confidence))
    return 0


def _quiet(text: str) -> None:
    """Output of a process other than the main one: nothing (the main process prints)."""
