"""A source's images turned into half-truth rows: the source's own columns plus
:data:`~.generate.ADDED_COLUMNS`, one row per half-truth.

Each image's captions are parsed once (every distinct caption once, by the project's parsers);
the vocabulary of foils is the source's units and the reference's most frequent ones
(:class:`~.foils.Vocabulary`); image ``i`` of the source draws its half-truths from a generator
seeded with ``(seed, i)``, so a row depends only on its image, the source's vocabulary, the
reference and the seed. ``max_images`` keeps a seeded sample of that many images, in source
order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import datasets
import numpy as np

from ..errors import BindsplitValueError, SchemaError
from ..parsing import parse_many, parse_relations_many
from ..progress import progress as progress_bar
from .foils import Vocabulary
from .generate import ADDED_COLUMNS, HalfTruth, image_halftruths, unit_kinds
from .units import Unit

__all__ = ["CaptionedImages", "HalfTruthRows", "halftruth_rows", "sample_positions"]


@dataclass
class CaptionedImages:
    """Images with captions: ``dataset`` holds the source's own columns (one row per image, the
    image in ``image_column``), ``captions[i]`` the captions of row ``i``'s image, and
    ``identity`` the source's identity for the build fingerprint (names, never local paths).
    The ``halftruth`` benchmark reads its sources into one
    (:mod:`bindsplit_datasets.benchmarks.halftruth_sources`)."""

    dataset: datasets.Dataset
    image_column: str
    captions: list[list[str]]
    identity: dict[str, Any]


@dataclass
class HalfTruthRows:
    """The half-truth rows of a source, the half-truths themselves (row order), and counts."""

    dataset: datasets.Dataset
    halftruths: list[HalfTruth]
    n_images: int
    #: ``kind/edit/label`` -> rows
    counts: Counter[str] = field(default_factory=Counter)
    #: images that gave no half-truth (too few units that can be written)
    without: int = 0


def sample_positions(n: int, max_images: int | None, seed: int) -> list[int]:
    """All ``n`` positions, or a seeded sample of ``max_images`` of them in order."""
    if max_images is None or max_images >= n:
        return list(range(n))
    if max_images < 1:
        raise BindsplitValueError(f"--max-images must be at least 1; got {max_images}")
    rng = np.random.default_rng([seed, 0x5A3D])
    return sorted(int(i) for i in rng.choice(n, size=max_images, replace=False))


def halftruth_rows(
    source: CaptionedImages,
    index: Any,
    *,
    units: str = "both",
    seed: int = 0,
    max_images: int | None = None,
    numbers: Sequence[int] | None = None,
    progress: bool = False,
) -> HalfTruthRows:
    """The half-truth rows of ``source`` against the reference ``index`` (module docstring).

    ``numbers``: each row's number in the original source, which seeds its image's draws
    (default: its position), so that an image's draws do not depend on which other images a
    sample holds (the words its foils may take come from the sample's vocabulary, which for the
    synthetic world is the whole world's).
    """
    kinds = unit_kinds(units)
    clashes = [c for c in ADDED_COLUMNS if c in source.dataset.column_names]
    if clashes:
        raise SchemaError(
            f"the source already has the column(s) {clashes} a half-truth build adds: it looks "
            "like a half-truth build; build from the original images and captions instead"
        )
    positions = sample_positions(len(source.dataset), max_images, seed)
    texts = list(dict.fromkeys(text for i in positions for text in source.captions[i]))
    bindings = dict(zip(texts, parse_many(texts, progress=progress), strict=True))
    relations = dict(zip(texts, parse_relations_many(texts, progress=progress), strict=True))
    found_units: list[Unit] = []
    for text in texts:
        found_units += [*bindings[text], *relations[text]]
    vocabulary = Vocabulary.of(found_units, index)
    rows: list[int] = []
    made: list[HalfTruth] = []
    counts: Counter[str] = Counter()
    without = 0
    for position in progress_bar(
        positions, desc="half-truths", unit=" images", disable=not progress
    ):
        captions = [(bindings[t], relations[t]) for t in source.captions[position]]
        number = position if numbers is None else int(numbers[position])
        found = image_halftruths(
            captions, index, vocabulary, kinds=kinds, rng=np.random.default_rng([seed, number])
        )
        without += not found
        rows += [position] * len(found)
        made += found
        counts.update(f"{h.added_kind}/{h.edit}/{h.added_label}" for h in found)
    dataset = source.dataset.select(rows).flatten_indices()
    for column in ADDED_COLUMNS:
        dataset = dataset.add_column(column, [getattr(h, column) for h in made])
    return HalfTruthRows(dataset, made, len(positions), counts=counts, without=without)
