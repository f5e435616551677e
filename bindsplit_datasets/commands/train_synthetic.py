"""``bindsplit train-synthetic``: retrain the tiny CLIPs of the synthetic world (CPU, seeded)."""

from __future__ import annotations

import argparse

NAME = "train-synthetic"
HELP = (
    "Train the synthetic world's tiny CLIP (plain contrastive loss) and NegCLIP (attribute- and "
    "relation-swap hard negatives) from a fixed seed and write Hugging Face checkpoints with "
    "training reports."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit train-synthetic --out synthetic_checkpoints",
    "bindsplit train-synthetic --model negclip --steps 2000 --out ckpt",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..synthetic.recipes import add_arguments as recipe_arguments

    recipe_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..synthetic.recipes import check_options

    check_options(args)  # before torch is imported
    from ..synthetic.train import run as train_and_save  # imports torch

    return train_and_save(args)
