"""Upper bounds of the synthetic world's size and count options, checked before any work.

A size or count the machine cannot hold (``bindsplit synth --image-size 100000`` would allocate a
400,000-pixel-wide canvas per scene) is refused up front with one line that names the option,
the largest value accepted and why, instead of allocating until the kernel kills the process.

Two kinds of bound: a fixed ceiling where a larger value only makes sense for another program
(this world's scenes are a few flat shapes; models see 64-pixel images), and a memory bound
computed from what the options hold at once and the memory available now
(:func:`available_memory`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..errors import BindsplitValueError

__all__ = [
    "MAX_BATCH_SIZE",
    "MAX_EVAL_N",
    "MAX_IMAGE_SIZE",
    "MAX_N_PER_STRATUM",
    "MAX_N_TRAIN",
    "MAX_STEPS",
    "MIN_IMAGE_SIZE",
    "available_memory",
    "check_at_most",
    "check_finite_positive",
    "check_image_size",
    "check_processes",
    "check_rendering_memory",
]

#: Smallest image side a scene can be drawn at (its objects are a few pixels across).
MIN_IMAGE_SIZE = 8
#: Largest image side: scenes are drawn at 4x that before being reduced (a 16-megapixel canvas).
MAX_IMAGE_SIZE = 1024
#: Largest training set (``synth --n-train``): ~10 GB of 64-pixel PNGs.
MAX_N_TRAIN = 10_000_000
#: Largest test benchmark per label (the ``n_per_stratum`` option of ``build synthetic``).
MAX_N_PER_STRATUM = 100_000
#: Largest ``train-synthetic --batch-size`` (also bounded by memory).
MAX_BATCH_SIZE = 65_536
#: Largest ``train-synthetic --steps``.
MAX_STEPS = 10_000_000
#: Largest ``train-synthetic --eval-n`` (test samples per label of the report).
MAX_EVAL_N = 100_000
#: Rows of rendered images held before a Parquet row group is written (``shards.ROW_GROUP_SIZE``).
_ROWS_HELD = 500
#: Bytes of the supersampled canvases (RGB, drawn at 4x the side) alive while rendering a scene.
_CANVAS_FACTOR = 2 * 3 * 4 * 4
#: Processes or threads per processor accepted.
_PER_CORE = 4
#: Share of the available memory the options may claim.
_MEMORY_SHARE = 0.5


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now (``MemAvailable`` on Linux, physical
    memory elsewhere); ``None`` where that cannot be told."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="ascii").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB"


def check_at_most(value: int, maximum: int, option: str, why: str) -> None:
    """Raise :class:`BindsplitValueError` when ``value`` of ``option`` exceeds ``maximum``."""
    if value > maximum:
        raise BindsplitValueError(
            f"{option} {value:,} is more than the {maximum:,} accepted ({why}); pass a smaller "
            f"{option}"
        )


def check_finite_positive(value: float, option: str, example: str) -> None:
    """Raise :class:`BindsplitValueError` unless ``value`` is a finite number above zero."""
    if not math.isfinite(value) or value <= 0:
        raise BindsplitValueError(
            f"{option} must be a finite number above zero, got {value}; pass e.g. {option} "
            f"{example}"
        )


def check_image_size(image_size: int, option: str = "--image-size") -> None:
    """Raise unless ``image_size`` lies in [:data:`MIN_IMAGE_SIZE`, :data:`MAX_IMAGE_SIZE`]."""
    if image_size < MIN_IMAGE_SIZE:
        raise BindsplitValueError(
            f"{option} {image_size} is below {MIN_IMAGE_SIZE} pixels, too small to draw a scene "
            f"on; pass {option} {MIN_IMAGE_SIZE} or more"
        )
    check_at_most(
        image_size,
        MAX_IMAGE_SIZE,
        option,
        f"each scene is drawn on a canvas 4 times that wide, and {MAX_IMAGE_SIZE} pixels is "
        "already far more than this world's flat shapes need",
    )


def check_processes(num_proc: int, option: str = "--num-proc") -> None:
    """Raise when ``num_proc`` is more than :data:`_PER_CORE` per processor of the machine (each
    one costs memory and start-up time, and more than the processors only wait for them)."""
    cores = os.cpu_count() or 1
    check_at_most(
        num_proc,
        _PER_CORE * cores,
        option,
        f"{_PER_CORE} per processor; this machine has {cores} processor(s)",
    )


def check_rendering_memory(
    image_size: int, num_proc: int, *, option: str = "--image-size", memory: int | None = None
) -> None:
    """Raise when rendering at ``image_size`` in ``num_proc`` processes would claim more than
    half the available memory (``memory``, default :func:`available_memory`): each process holds
    a row group of encoded images (at worst the raw pixels) and its canvases."""
    memory = available_memory() if memory is None else memory
    if memory is None:
        return
    per_process = image_size * image_size * 3 * (_ROWS_HELD + _CANVAS_FACTOR)
    needed = per_process * num_proc
    if needed > memory * _MEMORY_SHARE:
        raise BindsplitValueError(
            f"{option} {image_size} with {num_proc} process(es) needs about {_gib(needed)} of "
            f"memory, more than half of the {_gib(memory)} available; pass a smaller {option} "
            "or fewer --num-proc"
        )
