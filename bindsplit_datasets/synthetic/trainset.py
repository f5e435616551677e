"""The synthetic world's training set on disk (``bindsplit synth``), to train your own models on.

Layout of ``OUT``::

    OUT/README.md                                  dataset card with a ``configs:`` block
    OUT/world.json                                 the world (held-out pairs included)
    OUT/reference.parquet                          reference index of exactly these captions
    OUT/generation.json                            format tag, rows, seed, shards, world and index
                                                   fingerprints (marks OUT as a training set)
    OUT/train/train-0000K-of-0000N.parquet         image (PNG) + caption + structured columns

Row ``i`` is training scene ``i`` of :func:`~.corpus.training_scene`, so shards are independent
and render in parallel (``num_proc``), and any row can be regenerated from the world and the seed.
Shards hold ``shard_size`` rows in row groups of a few hundred, so ``load_dataset(OUT,
streaming=True)`` streams millions of rows without loading a shard whole.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import datasets

from ..atomic import TRAINSET_OUTPUT, atomic_directory
from ..errors import BindsplitValueError
from ..names import size_category
from ..progress import progress as progress_bar
from .corpus import DEFAULT_TRAIN_SEED, reference_index, training_scene
from .limits import MAX_N_TRAIN, check_at_most, check_processes, check_rendering_memory
from .render import render_scene
from .shards import encode_png, shard_name, write_shard
from .world import SyntheticWorld

__all__ = [
    "DEFAULT_N_TRAIN",
    "DEFAULT_SHARD_SIZE",
    "TRAIN_FEATURES",
    "check_trainset_options",
    "training_rows",
    "write_training_set",
]

DEFAULT_N_TRAIN = 100_000
DEFAULT_SHARD_SIZE = 10_000

TRAIN_FEATURES = datasets.Features(
    {
        "id": datasets.Value("int64"),
        "image": datasets.Image(),
        "caption": datasets.Value("string"),
        "objects": datasets.List(datasets.Value("string")),
        "attributes": datasets.List(datasets.Value("string")),
        "boxes": datasets.List(datasets.List(datasets.Value("float32"))),
    }
)


def training_rows(
    world: SyntheticWorld, seed: int, start: int, stop: int
) -> Iterator[dict[str, Any]]:
    """Encoded rows ``start .. stop - 1`` of the training set (schema :data:`TRAIN_FEATURES`)."""
    for index in range(start, stop):
        spec = training_scene(world, seed, index)
        yield {
            "id": index,
            "image": encode_png(render_scene(spec.scene, world.image_size)),
            "caption": spec.caption,
            "objects": spec.scene.shapes,
            "attributes": spec.scene.colours,
            "boxes": [o.box(world.image_size) for o in spec.scene.objects],
        }


def _write_range(world_dict: dict[str, Any], seed: int, start: int, stop: int, path: str) -> int:
    """Worker: one shard (top-level so that process pools can pickle it)."""
    world = SyntheticWorld.from_dict(world_dict)
    return write_shard(training_rows(world, seed, start, stop), TRAIN_FEATURES, Path(path))


def _counted(rows: Iterator[dict[str, Any]], bar: Any) -> Iterator[dict[str, Any]]:
    for row in rows:
        yield row
        bar.update(1)


def _card(world: SyntheticWorld, n_train: int, seed: int, n_shards: int) -> str:

    held_out = ", ".join(f"{c} {s}" for c, s in world.held_out_pairs)
    return f"""---
license: apache-2.0
pretty_name: BindSplit synthetic shapes (training set)
size_categories:
- {size_category(n_train)}
configs:
- config_name: default
  data_files:
  - split: train
    path: train/*.parquet
---
# BindSplit synthetic shapes: training set

{n_train:,} scenes of two coloured shapes ({world.image_size} x {world.image_size} px) with captions
such as "a red circle and a blue square" or, for half of them, the spatial relation the scene
shows: "a red circle to the left of a blue square" (left of, right of, above, below, on top of),
written by `bindsplit synth` (seed {seed}, {n_shards} shard(s)). Shapes: {", ".join(world.shapes)}.
Colours: {", ".join(world.colours)}.

Every scene uses **seen** bindings only, and every relation caption a **seen** configuration
({len(world.held_out_relations)} of {len(world.configurations)} configurations of two shapes are
never stated, in any wording). Held out of training ({len(world.held_out)} of
{len(world.pairs)} pairs): {held_out}. `world.json` describes the world exactly (fingerprint
`{world.fingerprint}`); `reference.parquet` is the BindSplit reference index of these captions,
against which the synthetic benchmark's samples are labelled seen / partial / unseen.

Columns: `id` (scene index), `image`, `caption`, `objects` (shapes in caption order),
`attributes` (their colours), `boxes` (tight pixel boxes `[x0, y0, x1, y1]` per object).

```python
from datasets import load_dataset
train = load_dataset("parquet", data_files="PATH/TO/THIS/FOLDER/train/*.parquet", split="train")
stream = load_dataset("PATH/TO/THIS/FOLDER", split="train", streaming=True)
```

`load_dataset("PATH/TO/THIS/FOLDER")` works too, but `datasets` caches a local folder by its
name: after rewriting the folder, pass `download_mode="force_redownload"` (the `parquet` form
above notices changed files by itself).
"""


def check_trainset_options(world: SyntheticWorld, n_train: int, num_proc: int) -> None:
    """Raise :class:`BindsplitValueError` when the training set would not fit the machine: more
    than :data:`~.limits.MAX_N_TRAIN` scenes, more processes than processors, or rendering that
    needs more memory than is available (:mod:`.limits`)."""
    check_at_most(n_train, MAX_N_TRAIN, "--n-train", "about 1 kB of disk per 64-pixel scene")
    check_processes(num_proc)
    check_rendering_memory(world.image_size, num_proc)


def write_training_set(
    world: SyntheticWorld,
    out: str | Path,
    n_train: int = DEFAULT_N_TRAIN,
    seed: int = DEFAULT_TRAIN_SEED,
    *,
    shard_size: int = DEFAULT_SHARD_SIZE,
    num_proc: int = 1,
    overwrite: bool = False,
    progress: bool = True,
) -> Path:
    """Write the training set (layout: module docstring) atomically and return ``out``.

    ``out`` must be new or an empty folder; ``overwrite`` replaces a previous training set
    (never anything else: :func:`~bindsplit_datasets.atomic.check_output`).
    """
    if n_train < 1:
        raise BindsplitValueError(
            f"the training set needs at least one row; got --n-train {n_train}"
        )
    if shard_size < 1:
        raise BindsplitValueError(f"shard size must be at least 1; got --shard-size {shard_size}")
    check_trainset_options(world, n_train, num_proc)
    out = Path(out)
    n_shards = math.ceil(n_train / shard_size)
    ranges = [(k * shard_size, min(n_train, (k + 1) * shard_size)) for k in range(n_shards)]
    with atomic_directory(out, TRAINSET_OUTPUT, overwrite=overwrite) as tmp:
        world.save(tmp / "world.json")
        train_dir = tmp / "train"
        train_dir.mkdir()
        paths = [str(train_dir / shard_name("train", k, n_shards)) for k in range(n_shards)]
        bar = progress_bar(
            total=n_train, unit=" scenes", desc="rendering training set", disable=not progress
        )
        with bar:
            if num_proc <= 1:
                for (start, stop), path in zip(ranges, paths, strict=True):
                    write_shard(
                        _counted(training_rows(world, seed, start, stop), bar),
                        TRAIN_FEATURES,
                        Path(path),
                    )
            else:
                with ProcessPoolExecutor(max_workers=num_proc) as pool:
                    futures = [
                        pool.submit(_write_range, world.to_dict(), seed, start, stop, path)
                        for (start, stop), path in zip(ranges, paths, strict=True)
                    ]
                    for future in as_completed(futures):
                        bar.update(future.result())
        index = reference_index(
            world, n_train, seed, num_proc=num_proc if num_proc > 1 else None, progress=progress
        )
        index.save(tmp / "reference.parquet")
        (tmp / "README.md").write_text(_card(world, n_train, seed, n_shards), encoding="utf-8")
        info = {
            "format": TRAINSET_OUTPUT.format,
            "n_train": n_train,
            "seed": seed,
            "shard_size": shard_size,
            "shards": n_shards,
            "world": world.fingerprint,
            "reference": index.fingerprint,
        }
        manifest = tmp / str(TRAINSET_OUTPUT.manifest)
        manifest.write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return out
