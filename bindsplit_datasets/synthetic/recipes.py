"""Recipes of the shipped tiny CLIPs and the options of the training command (no torch needed).

Kept apart from :mod:`.train` so that ``bindsplit --help`` lists ``train-synthetic`` without
importing torch.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from ..argtypes import non_negative_int, positive_int
from .corpus import DEFAULT_TRAIN_SEED
from .limits import (
    MAX_BATCH_SIZE,
    MAX_EVAL_N,
    MAX_STEPS,
    available_memory,
    check_at_most,
    check_finite_positive,
    check_processes,
)
from .testset import DEFAULT_N_PER_STRATUM
from .world import DEFAULT_IMAGE_SIZE

__all__ = ["DEFAULT_OUT", "RECIPES", "Recipe", "add_arguments", "check_options"]

#: Bytes of memory one training image claims at most (float32 pixels and the activations of the
#: tiny vision tower, with their gradients), used to bound ``--batch-size`` by memory.
_BYTES_PER_IMAGE = DEFAULT_IMAGE_SIZE * DEFAULT_IMAGE_SIZE * 3 * 4 * 32

#: Where ``train-synthetic`` writes checkpoints unless told otherwise: a folder of the working
#: directory, never the installed package (that takes ``--into-package``).
DEFAULT_OUT = "synthetic_checkpoints"


@dataclass(frozen=True)
class Recipe:
    """What distinguishes the shipped models: the batch kind and the default step budget."""

    batches: str
    steps: int
    description: str


RECIPES: dict[str, Recipe] = {
    "clip": Recipe("plain", 1000, "CLIP: in-batch contrastive loss on seen training scenes"),
    "negclip": Recipe(
        "swap",
        1000,
        "NegCLIP-style: batches of seen scene / attribute- or relation-swapped-scene pairs",
    ),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``bindsplit train-synthetic`` and of ``python -m ...synthetic.train``."""
    parser.add_argument(
        "--model",
        nargs="+",
        choices=sorted(RECIPES),
        default=sorted(RECIPES),
        help="which model(s) to train (default: both)",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--out",
        type=Path,
        default=Path(DEFAULT_OUT),
        metavar="DIR",
        help="each model is written to DIR/<model> (default: %(default)s)",
    )
    where.add_argument(
        "--into-package",
        action="store_true",
        help="write into the installed package's checkpoints/<model> instead, replacing the "
        "shipped checkpoints that `bindsplit demo` scores",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace DIR/<model> if it holds a previous checkpoint (never anything else)",
    )
    parser.add_argument(
        "--steps",
        type=positive_int,
        default=None,
        help="optimiser steps (default: the model's recipe)",
    )
    parser.add_argument("--batch-size", type=positive_int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=non_negative_int, default=DEFAULT_TRAIN_SEED)
    parser.add_argument("--threads", type=positive_int, default=2, help="torch CPU threads")
    parser.add_argument(
        "--max-minutes", type=float, default=15.0, help="stop a model's training after this long"
    )
    parser.add_argument(
        "--eval-n",
        type=positive_int,
        default=DEFAULT_N_PER_STRATUM,
        help="test samples per label for the report",
    )


def check_options(args: argparse.Namespace) -> None:
    """Raise :class:`~bindsplit_datasets.errors.BindsplitValueError` for an option the training
    cannot use or the machine cannot hold (before torch is imported, so it costs nothing):
    ``--lr`` and ``--max-minutes`` finite and above zero, ``--steps``, ``--eval-n`` and
    ``--batch-size`` within :mod:`.limits` (the batch also within half the available memory),
    ``--threads`` at most the machine's processors."""
    check_finite_positive(args.lr, "--lr", "0.001")
    check_finite_positive(args.max_minutes, "--max-minutes", "15")
    if args.steps is not None:
        check_at_most(args.steps, MAX_STEPS, "--steps", "the time limit is --max-minutes")
    check_at_most(args.eval_n, MAX_EVAL_N, "--eval-n", "test samples per label of the report")
    check_at_most(args.batch_size, MAX_BATCH_SIZE, "--batch-size", "scenes per optimiser step")
    memory = available_memory()
    if memory is not None:
        fits = max(1, memory // 2 // _BYTES_PER_IMAGE)
        check_at_most(args.batch_size, fits, "--batch-size", "what half the available memory holds")
    check_processes(args.threads, "--threads")
