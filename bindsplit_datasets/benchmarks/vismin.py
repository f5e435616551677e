"""VisMin (Awal et al., 2024): visual minimal-change understanding, two images and two captions per
sample that differ in one object, attribute, count or relation.

Source: the Hub dataset ``mair-lab/vismin-bench``, split ``test`` (2,084 rows), or a local Parquet
copy with the Hub's columns (``image_0``, ``text_0``, ``image_1``, ``text_1``, ``category`` and
question columns, all kept). Bindings come from the caption parser, each distinct caption parsed
once; ``text_0`` is the positive caption of the familiarity statistics. Breakdowns use
``category``.

Pairing. The current release pairs ``text_0`` with ``image_0`` and ``text_1`` with ``image_1``;
that is what the adapter assumes, and the build log and card say so. An older release stored about
half of the samples the other way round, with the ground truth in a separate ``sim_solution.csv``
(columns ``idx``, ``Text``, ``Image``, ``category``; ``idx`` restarts at 0 in every category).
Given that file (``sim_solution=PATH``, ``--sim-solution``), the adapter matches its rows to the
source's rows by category and position within the category (source order), checks that the file
covers exactly the source's categories and row counts and that its ``Text`` and ``Image`` relations
agree, and swaps ``image_0``/``image_1`` of every sample whose ``text_0`` matches ``image_1``, so
that ``text_i`` describes ``image_i`` in every built row. The outcome is a note in the source
report (build log and dataset card).
"""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..errors import BindsplitFileNotFoundError, SchemaError
from . import register
from .base import LoadedSource, ParsedCaptionsAdapter, sha256_files

__all__ = ["VisMin", "read_sim_solution"]

#: Columns of ``sim_solution.csv``.
SOLUTION_COLUMNS: tuple[str, ...] = ("idx", "Text", "Image", "category")

_CLAUSE = re.compile(r"^T(\d)_I(\d)>T(\d)_I(\d)$")
_STRAIGHT = frozenset({(0, 0), (1, 1)})
_CROSSED = frozenset({(0, 1), (1, 0)})


def _matching_pairs(expression: str) -> frozenset[tuple[int, int]]:
    """The (text, image) pairs an expression like ``"T0_I0 > T1_I0 & T1_I1 > T0_I1"`` declares
    as matching: the left side of every ``>`` clause."""
    pairs = set()
    for clause in expression.split("&"):
        match = _CLAUSE.match(re.sub(r"\s+", "", clause))
        if match is None:
            raise ValueError(f"cannot read the relation {clause.strip()!r}")
        text, image, other_text, other_image = (int(g) for g in match.groups())
        if (text == other_text) == (image == other_image):
            raise ValueError(f"the relation {clause.strip()!r} compares neither texts nor images")
        pairs.add((text, image))
    return frozenset(pairs)


def read_sim_solution(path: str | Path) -> dict[str, list[bool]]:
    """Read ``sim_solution.csv``: per category, in ``idx`` order, whether the sample is crossed
    (``text_0`` matches ``image_1``).

    Raises :class:`~bindsplit_datasets.errors.SchemaError` for a missing column, an unreadable
    relation, ``Text`` and ``Image`` relations that disagree, or ``idx`` values that are not
    ``0..n-1`` within a category.
    """
    path = Path(path)
    if not path.is_file():
        raise BindsplitFileNotFoundError(f"sim_solution file {path} not found")
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in SOLUTION_COLUMNS if c not in (reader.fieldnames or [])]
            rows = list(reader)
    except (UnicodeDecodeError, csv.Error) as error:
        raise SchemaError(
            f"{path} is not a CSV text file ({error}); pass VisMin's sim_solution.csv "
            f"(columns {', '.join(SOLUTION_COLUMNS)})"
        ) from None
    if missing:
        raise SchemaError(
            f"{path} is not a VisMin sim_solution.csv: missing column(s) {missing}; "
            f"expected {list(SOLUTION_COLUMNS)}"
        )
    by_category: dict[str, dict[int, bool]] = defaultdict(dict)
    for line, row in enumerate(rows, start=2):
        try:
            text_pairs = _matching_pairs(row["Text"])
            image_pairs = _matching_pairs(row["Image"])
            idx = int(row["idx"])
        except ValueError as error:
            raise SchemaError(f"{path}, line {line}: {error}") from None
        if text_pairs != image_pairs or text_pairs not in (_STRAIGHT, _CROSSED):
            raise SchemaError(
                f"{path}, line {line}: the Text relation {row['Text']!r} and the Image relation "
                f"{row['Image']!r} do not describe one consistent pairing"
            )
        category = by_category[row["category"]]
        if idx in category:
            raise SchemaError(f"{path}, line {line}: idx {idx} repeats in {row['category']!r}")
        category[idx] = text_pairs == _CROSSED
    solution = {}
    for name, entries in by_category.items():
        if sorted(entries) != list(range(len(entries))):
            raise SchemaError(
                f"{path}: idx of category {name!r} is not 0..{len(entries) - 1} (idx restarts "
                "at 0 in every category)"
            )
        solution[name] = [entries[i] for i in range(len(entries))]
    return solution


def _crossed_rows(
    categories: Sequence[str], solution: Mapping[str, list[bool]], where: str
) -> list[int]:
    """Source rows (positions) whose pairs are crossed, matching rows by category and position
    within the category; raises if the solution does not cover the source exactly."""
    source_counts = Counter(categories)
    solution_counts = {name: len(flags) for name, flags in solution.items()}
    if dict(source_counts) != solution_counts:
        raise SchemaError(
            f"{where} does not belong to this source: it has rows per category "
            f"{dict(sorted(solution_counts.items()))}, the source has "
            f"{dict(sorted(source_counts.items()))}; use the sim_solution.csv of the same release"
        )
    seen: Counter[str] = Counter()
    crossed = []
    for position, category in enumerate(categories):
        if solution[category][seen[category]]:
            crossed.append(position)
        seen[category] += 1
    return crossed


def _swap_images(
    batch: dict[str, list[Any]], indices: list[int], crossed: frozenset[int]
) -> dict[str, list[Any]]:
    for offset, index in enumerate(indices):
        if index in crossed:
            batch["image_0"][offset], batch["image_1"][offset] = (
                batch["image_1"][offset],
                batch["image_0"][offset],
            )
    return batch


@register
class VisMin(ParsedCaptionsAdapter):
    """VisMin: ``text_0``/``image_0`` and ``text_1``/``image_1`` (see the module docstring)."""

    name: ClassVar[str] = "vismin"
    pretty_name: ClassVar[str] = "VisMin"
    hub_id: ClassVar[str | None] = "mair-lab/vismin-bench"
    #: pin: main at the time of writing (no commit sha could be verified offline).
    hub_revision: ClassVar[str | None] = None
    hub_split: ClassVar[str] = "test"
    image_columns: ClassVar[tuple[str, ...]] = ("image_0", "image_1")
    caption_columns: ClassVar[tuple[str, ...]] = ("text_0", "text_1")
    required_columns: ClassVar[tuple[str, ...]] = (
        "image_0",
        "text_0",
        "image_1",
        "text_1",
        "category",
    )
    category_columns: ClassVar[tuple[str, ...]] = ("category",)
    load_options: ClassVar[tuple[str, ...]] = ("sim_solution",)
    license: ClassVar[str] = "cc-by-4.0"
    citation: ClassVar[str] = """@article{awal2024vismin,
  title   = {{VisMin}: Visual Minimal-Change Understanding},
  author  = {Awal, Rabiul and Ahmadi, Saba and Zhang, Le and Agrawal, Aishwarya},
  journal = {arXiv preprint arXiv:2407.16772},
  year    = {2024}
}"""
    paper_figures: ClassVar[Mapping[str, float]] = {"unseen_share": 0.023}

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the source; with ``sim_solution=PATH`` fix the pairing of crossed samples."""
        self.check_options(options)
        dataset, identity = self.read_rows(source)
        sim_solution = options.get("sim_solution")
        if sim_solution is None:
            note = (
                "pairing assumed: text_0 describes image_0 and text_1 describes image_1, as in "
                f"the current release of {self.hub_id}; for an older release whose pairs are "
                "swapped, pass its sim_solution.csv (--sim-solution)"
            )
            identity["pairing"] = "assumed text_i <-> image_i"
        else:
            # match before any row is dropped: the solution is positional within each category
            path = Path(sim_solution)
            solution = read_sim_solution(path)
            crossed = _crossed_rows(dataset["category"], solution, str(path))
            dataset = self._uncross(dataset, crossed)
            note = (
                f"pairing checked against {path.name}: {len(crossed)} of {len(dataset)} samples "
                "have text_0 matching image_1; their image_0 and image_1 were swapped so that "
                "text_i describes image_i in every row"
            )
            identity["pairing"] = {
                "sim_solution": path.name,
                "sha256": sha256_files([path]),
                "swapped": len(crossed),
            }
        loaded = self.checked_source(dataset, identity, strict=strict)
        loaded.report.notes.insert(0, note)
        return loaded

    @staticmethod
    def _uncross(dataset: datasets.Dataset, crossed: Sequence[int]) -> datasets.Dataset:
        if not crossed:
            return dataset
        image_features = {c: dataset.features[c] for c in ("image_0", "image_1")}
        raw = dataset
        for column in image_features:
            raw = raw.cast_column(column, datasets.Image(decode=False))
        swapped = raw.map(
            _swap_images,
            batched=True,
            with_indices=True,
            fn_kwargs={"crossed": frozenset(crossed)},
            desc="swapping crossed VisMin pairs",
        )
        for column, feature in image_features.items():
            swapped = swapped.cast_column(column, feature)
        return swapped
