"""``bindsplit synth``: write the synthetic world's training set for training your own models."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..argtypes import non_negative_int, positive_int
from ..atomic import TRAINSET_OUTPUT, check_output

NAME = "synth"
HELP = (
    "Write the synthetic shapes world (world.json, its reference index) and a training set of "
    "rendered scenes that use seen bindings only, as sharded Parquet that load_dataset reads."
)
#: Shown at the end of ``--help``.
EXAMPLES = (
    "bindsplit synth --out synthetic_world",
    "bindsplit synth --out synthetic_world --n-train 20000 --seed 1",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..synthetic.corpus import DEFAULT_TRAIN_SEED
    from ..synthetic.trainset import DEFAULT_N_TRAIN, DEFAULT_SHARD_SIZE
    from ..synthetic.world import (
        DEFAULT_COLOURS,
        DEFAULT_HELD_OUT_FRACTION,
        DEFAULT_IMAGE_SIZE,
        DEFAULT_SEED,
        DEFAULT_SHAPES,
    )

    parser.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="folder to create (or empty folder)"
    )
    parser.add_argument(
        "--n-train",
        type=positive_int,
        default=DEFAULT_N_TRAIN,
        metavar="N",
        help="training scenes (default: %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=non_negative_int,
        default=DEFAULT_TRAIN_SEED,
        help="seed of the training scenes (default: %(default)s)",
    )
    parser.add_argument(
        "--world-seed",
        type=non_negative_int,
        default=DEFAULT_SEED,
        help="seed of the held-out set (default: %(default)s, the embedded default world)",
    )
    parser.add_argument(
        "--held-out",
        type=float,
        default=DEFAULT_HELD_OUT_FRACTION,
        metavar="F",
        help="fraction of (colour, shape) pairs held out of training (default: %(default)s)",
    )
    parser.add_argument(
        "--image-size",
        type=positive_int,
        default=DEFAULT_IMAGE_SIZE,
        metavar="P",
        help="image side in pixels (default: %(default)s)",
    )
    parser.add_argument(
        "--shapes",
        nargs="+",
        default=list(DEFAULT_SHAPES),
        help="object names (default: %(default)s)",
    )
    parser.add_argument(
        "--colours",
        nargs="+",
        default=list(DEFAULT_COLOURS),
        help="attribute names (default: %(default)s)",
    )
    parser.add_argument(
        "--shard-size",
        type=positive_int,
        default=DEFAULT_SHARD_SIZE,
        help="rows per Parquet shard (default: %(default)s)",
    )
    parser.add_argument(
        "--num-proc", type=positive_int, default=1, help="processes rendering shards in parallel"
    )
    parser.add_argument(
        "--overwrite", action="store_true", help="replace DIR if it holds a previous training set"
    )


def run(args: argparse.Namespace) -> int:
    from ..synthetic.trainset import write_training_set
    from ..synthetic.world import make_world

    check_output(args.out, TRAINSET_OUTPUT, overwrite=args.overwrite)  # before any work
    world = make_world(
        args.shapes,
        args.colours,
        held_out_fraction=args.held_out,
        seed=args.world_seed,
        image_size=args.image_size,
    )
    out = write_training_set(
        world,
        args.out,
        args.n_train,
        args.seed,
        shard_size=args.shard_size,
        num_proc=args.num_proc,
        overwrite=args.overwrite,
    )
    print(f"wrote {args.n_train} training scenes of world {world.fingerprint[:12]} to {out}")
    print(
        f"held out ({len(world.held_out)} of {len(world.pairs)}): "
        + ", ".join(f"{c} {s}" for c, s in world.held_out_pairs)
    )
    return 0
