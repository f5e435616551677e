"""``bindsplit eval``: score a CLIP-like model on a BindSplit dataset and write a results record.

Runs under ``accelerate launch --num_processes N -m bindsplit_datasets.cli eval ...`` unchanged:
every process encodes its shard of the distinct images and captions, and only the main process
prints and writes files. On a machine without GPUs, ``accelerate launch --cpu`` starts a single
process unless MPI is installed; ``ACCELERATE_USE_CPU=true accelerate launch --multi_gpu
--num_processes N ...`` starts N CPU processes through ``torch.distributed.run``.
"""

from __future__ import annotations

import argparse

NAME = "eval"
HELP = (
    "Score a model (Hub id or folder; any model with get_image_features/get_text_features) on a "
    "BindSplit dataset and report I2T/T2I/group accuracy per configuration with bootstrap "
    "intervals and the seen-minus-unseen gap."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", required=True, help="Hub model id or local model folder")
    parser.add_argument(
        "--data", required=True, help="folder made by `bindsplit build`, or a Hub dataset id"
    )
    parser.add_argument("--out", required=True, help="results record to write (JSON)")
    parser.add_argument(
        "--configs",
        default="full,seen,unseen,partial",
        help="comma-separated configurations to report (default: full,seen,unseen,partial)",
    )
    parser.add_argument("--batch-size", type=int, default=64, help="encoder batch size per process")
    parser.add_argument(
        "--mixed-precision", choices=("no", "bf16", "fp16"), default="no", help="(default: no)"
    )
    parser.add_argument(
        "--save-scores", metavar="PATH", help="also write the per-sample score matrices (Parquet)"
    )
    parser.add_argument("--revision", help="model revision (branch, tag or commit)")
    parser.add_argument("--data-revision", help="Hub dataset revision")
    parser.add_argument(
        "--cache-dir",
        help="embedding cache folder: a second run over the same data skips the model",
    )
    parser.add_argument(
        "--num-workers", type=int, default=0, help="DataLoader workers decoding images (default: 0)"
    )
    parser.add_argument(
        "--n-bootstrap", type=int, default=1000, help="bootstrap resamples (0: no intervals)"
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")


def run(args: argparse.Namespace) -> int:
    from ..evaluation import evaluate_model, format_table, parse_configs, write_record

    record = evaluate_model(
        args.model,
        args.data,
        configs=parse_configs(args.configs),
        batch_size=args.batch_size,
        mixed_precision=args.mixed_precision,
        cache_dir=args.cache_dir,
        save_scores=args.save_scores,
        n_bootstrap=args.n_bootstrap,
        seed=args.seed,
        revision=args.revision,
        num_workers=args.num_workers,
        data_revision=args.data_revision,
    )
    from accelerate import PartialState

    if PartialState().is_main_process:
        write_record(record, args.out)
        print(format_table(record))
        print(f"results written to {args.out}")
    return 0
