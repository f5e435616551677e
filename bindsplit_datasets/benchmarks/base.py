"""The contract every benchmark adapter fulfils.

An adapter knows one benchmark's *source*: where it lives (a Hub id with a pinned revision and/or a
local layout), how its raw rows are read, which columns hold the images and captions and how they
pair, how the (attribute, object) bindings of each caption are obtained, and the benchmark's licence
and citation. Everything downstream (builder, cards, scorer, metric) works from this description
alone, so adding a benchmark means writing one module that defines a subclass and registers it.

Pairing convention (SPEC section 5): ``image_columns[i]`` pairs with ``caption_columns[i]``; captions
beyond the number of images are negatives of image 0 (ARO: one image, ``true_caption`` then
``false_caption``). Caption 0 is the sample's *positive* caption, all others its *negatives*, for
the familiarity statistics.
"""

from __future__ import annotations

import abc
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..bindings import Binding

__all__ = ["BenchmarkAdapter", "LoadedSource", "SourceReport"]


@dataclass
class SourceReport:
    """What happened while reading a source: counts of every problem, and notes for the build log.

    ``problems`` maps a short problem name (``"unreadable_image"``, ``"template_mismatch"``, ...) to
    how many rows had it; ``notes`` are human-readable lines (for example the outcome of a pairing
    check) that the builder logs and writes into the dataset card.
    """

    n_rows: int = 0
    problems: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"n_rows": self.n_rows, "problems": dict(self.problems), "notes": list(self.notes)}


@dataclass
class LoadedSource:
    """Raw benchmark rows plus where they came from.

    ``dataset`` holds the source benchmark's own columns (images as ``datasets.Image``);
    ``identity`` describes the source for the build fingerprint: ``{"hub_id", "revision"}`` for the
    Hub or ``{"path", "sha256"}`` for local files.
    """

    dataset: datasets.Dataset
    report: SourceReport
    identity: dict[str, Any]


class BenchmarkAdapter(abc.ABC):
    """One benchmark's source description. Subclasses set the class variables and implement
    :meth:`load` and :meth:`caption_bindings`, then decorate themselves with
    :func:`bindsplit_datasets.benchmarks.register`."""

    #: Registry name used on the command line (``bindsplit build NAME``).
    name: ClassVar[str]
    #: Human-readable name used in dataset cards.
    pretty_name: ClassVar[str]
    #: Hub dataset id of the canonical source, or ``None`` if it has none.
    hub_id: ClassVar[str | None] = None
    #: Pinned Hub revision (commit sha) of ``hub_id``.
    hub_revision: ClassVar[str | None] = None
    #: Split of the Hub dataset that holds the benchmark.
    hub_split: ClassVar[str] = "test"
    #: Image columns, in image order.
    image_columns: ClassVar[tuple[str, ...]]
    #: Caption columns, in caption order (caption j is the correct caption of image j).
    caption_columns: ClassVar[tuple[str, ...]]
    #: Columns the source must have; a missing one is an error that names it.
    required_columns: ClassVar[tuple[str, ...]]
    #: Columns that give per-category breakdowns in the metric (BiVLC ``type``/``subtype``).
    category_columns: ClassVar[tuple[str, ...]] = ()
    #: SPDX-style licence identifier of the source benchmark (for the card's YAML).
    license: ClassVar[str]
    #: BibTeX of the source benchmark.
    citation: ClassVar[str]
    #: The paper's figures for this benchmark (SPEC section 6), keyed like the composition stats.
    paper_figures: ClassVar[Mapping[str, float]] = {}

    @abc.abstractmethod
    def load(self, source: str | Path | None = None, *, strict: bool = False, **options: Any) -> LoadedSource:
        """Read the raw rows from ``source`` (``None``: the pinned Hub source).

        ``source`` is a Hub id or a local path in the adapter's documented layout. Problems are
        counted in the report; with ``strict=True`` the first problem raises instead.
        """

    @abc.abstractmethod
    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        """Bindings of each caption of ``row``, in ``caption_columns`` order."""

    def category(self, row: Mapping[str, Any]) -> str | None:
        """Category of ``row`` for per-category breakdowns (``None``: no breakdown)."""
        if not self.category_columns:
            return None
        return "/".join(str(row[column]) for column in self.category_columns)

    def macro_group(self, row: Mapping[str, Any]) -> str | None:
        """Group for a macro accuracy (ARO: the attribute pair); ``None`` when not defined."""
        return None

    @property
    def n_images(self) -> int:
        return len(self.image_columns)

    @property
    def n_captions(self) -> int:
        return len(self.caption_columns)

    def check_columns(self, column_names: Sequence[str], where: str) -> None:
        """Raise a :class:`ValueError` naming every required column missing from ``where``."""
        missing = [c for c in self.required_columns if c not in column_names]
        if missing:
            raise ValueError(
                f"{where} is not a {self.pretty_name} source: missing column(s) {missing}; "
                f"expected at least {list(self.required_columns)}."
            )
