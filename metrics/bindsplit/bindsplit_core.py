# Copyright 2026 The BindSplit Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
"""The BindSplit metric's functional core: numpy and the standard library only.

The evaluate module ``bindsplit.py`` next to this file is a thin wrapper around it (evaluate
copies this sibling along when it loads the folder), the Space's ``app.py`` calls it directly, and
the BindSplit package imports it as ``bindsplit_datasets.metric_core`` without loading evaluate,
datasets or torch:

1. :func:`sample_outcome` turns one similarity matrix into its (I2T, T2I) outcome
   (:func:`sample_outcomes`: many, with I2T without the hard positives too; both in the sibling
   ``bindsplit_outcomes.py``, with the checks of a matrix);
2. :func:`accumulate` reduces many samples to :class:`BindsplitStatistics`: counts of the six
   possible outcomes per split label (and per category / macro group, and for the samples flagged
   ``balanced``); nine where samples have hard positives (I2T can then also be right without
   them and wrong with them). Statistics of disjoint batches or processes add up (``merge`` /
   ``+``) and travel as JSON (``to_dict``/``from_dict``); :func:`outcome_statistics` makes the
   same statistics from the samples' outcomes (a results record's ``samples``), so that a
   record's numbers can be re-derived without its score matrices;
3. :func:`compute_metrics` (in the sibling ``bindsplit_bootstrap.py``) turns statistics into the
   flat results dict.

Because every sample's outcome is one of six (or nine) cells, resampling samples with
replacement is a multinomial draw over the cell counts: the bootstrap intervals need the counts
only, and a distributed evaluation only has to add counts.

The folder is published on its own, so it restates BindSplit's configuration names, split labels
and citation; the package's tests check that they equal ``bindsplit_datasets.names``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

# evaluate's copy of the folder, or bindsplit_datasets._metric.bindsplit (type checkers read
# this branch: the other one names the same module)
if TYPE_CHECKING or __package__:
    from .bindsplit_outcomes import (
        _N_CELLS,
        _N_CELLS_HARD,
        Outcome,
        _outcome_cells,
        _sample_cells,
        checked_hard_positives,
        sample_outcome,
        sample_outcomes,
    )
else:  # the Space's app.py: this folder on sys.path, its modules top-level
    from bindsplit_outcomes import (
        _N_CELLS,
        _N_CELLS_HARD,
        Outcome,
        _outcome_cells,
        _sample_cells,
        checked_hard_positives,
        sample_outcome,
        sample_outcomes,
    )

__all__ = [
    "CONFIGURATIONS",
    "GAPS",
    "HARD_POSITIVE_METRICS",
    "LABEL_POOLS",
    "METRICS",
    "PAPER_CITATION",
    "SPLIT_LABELS",
    "BindsplitStatistics",
    "Outcome",
    "accumulate",
    "checked_flags",
    "checked_hard_positives",
    "outcome_statistics",
    "sample_outcome",
    "sample_outcomes",
]

PAPER_CITATION = """@inproceedings{peng2026clip,
  title     = {{CLIP} Models Generalize Less Than Compositional Benchmarks Suggest},
  author    = {Peng, Shuman and Uselis, Arnas and Koishigarina, Darina and Ester, Martin and
               Oh, Seong Joon},
  booktitle = {ICML 2026 Workshop on Compositional Learning: Safety, Interpretability, and Agents},
  year      = {2026}
}"""
"""BibTeX of the paper that defines the protocol."""

SPLIT_LABELS: tuple[str, ...] = ("seen", "unseen", "partial", "none")
"""Valid `bindsplit_label` values of a sample."""

LABEL_POOLS: dict[str, tuple[str, ...]] = {
    "full": SPLIT_LABELS,
    "seen": ("seen",),
    "unseen": ("unseen",),
    "partial": ("partial",),
}
"""Configuration defined by split labels -> the labels it pools."""

BALANCED = "balanced"
"""The configuration of the samples flagged balanced (every caption equally familiar, above zero);
a per-sample flag, not a label: ``seen`` samples are balanced, ``unseen`` ones are not."""

CONFIGURATIONS: tuple[str, ...] = (*LABEL_POOLS, BALANCED)
"""Every reported configuration, in report order."""

METRICS: tuple[str, ...] = ("i2t", "t2i", "group")
"""Accuracies, in the order they are reported."""

HARD_POSITIVE_METRICS: tuple[str, ...] = ("i2t_original", "i2t_drop")
"""Reported after :data:`METRICS` only where samples have hard positives (seed 003): then
``i2t`` counts a sample right only if its positive and every hard positive score above every
negative, ``i2t_original`` is I2T with the hard-positive captions left out (the benchmark's own
score), and ``i2t_drop`` = ``i2t_original - i2t``, the share of samples right without the hard
positives and wrong with them (a proportion of samples: a sample right with them is right
without)."""

GAPS: dict[str, tuple[str, str]] = {"gap": ("seen", "unseen"), "gap_partial": ("seen", "partial")}
"""The differences reported, by key prefix: (configuration, configuration subtracted from it);
``gap/i2t`` is seen minus unseen, the paper's headline number."""

_STATISTICS_FORMAT = "bindsplit-metric-statistics/1"

Counts = tuple[int, ...]
"""Counts of the outcome cells (i2t, t2i): (0, wrong), (0, right), (0, absent), (1, wrong),
(1, right), (1, absent); with hard positives also (dropped, wrong), (dropped, right),
(dropped, absent)."""

Result = int | float | str | list[float]


# ---------------------------------------------------------------------------------------------
# Sufficient statistics


@dataclass
class BindsplitStatistics:
    """Outcome-cell counts per split label, and per (label, category) and (label, macro group).

    ``balanced`` holds the same counts for the samples flagged balanced, or is ``None`` when no
    flags were given (then no ``balanced`` configuration is reported). ``hard_positives`` says
    that some sample had hard positives: the counts then have nine cells, not six, and the
    :data:`HARD_POSITIVE_METRICS` are reported. Only non-zero counts are stored, so equal data
    give equal statistics however they were batched. Statistics of disjoint samples add up:
    ``a.merge(b)``, ``a + b`` or ``sum(parts)`` (samples without hard positives merge with
    samples with them: their I2T is the same either way).
    """

    splits: dict[str, Counts] = field(default_factory=dict)
    categories: dict[str, dict[str, Counts]] = field(default_factory=dict)
    macro_groups: dict[str, dict[str, Counts]] = field(default_factory=dict)
    balanced: BindsplitStatistics | None = None
    hard_positives: bool = False

    @property
    def n(self) -> int:
        """Number of samples counted."""
        return sum(sum(counts) for counts in self.splits.values())

    @property
    def n_cells(self) -> int:
        """The number of outcome cells of each count: 9 with hard positives, else 6."""
        return _N_CELLS_HARD if self.hard_positives else _N_CELLS

    def merge(self, other: BindsplitStatistics) -> BindsplitStatistics:
        """Statistics of the samples of ``self`` and ``other`` together.

        Raises ValueError when only one side has balanced flags (and the other has samples): the
        balanced configuration of the union would silently miss samples.
        """
        if not isinstance(other, BindsplitStatistics):
            raise TypeError(f"cannot merge BindsplitStatistics with {type(other).__name__}")
        width = max(self.n_cells, other.n_cells)
        balanced = _merge_balanced(self, other)
        return BindsplitStatistics(
            splits=_add_counts(self.splits, other.splits, width),
            categories=_add_nested(self.categories, other.categories, width),
            macro_groups=_add_nested(self.macro_groups, other.macro_groups, width),
            balanced=None if balanced is None else balanced.widened(width),
            hard_positives=width == _N_CELLS_HARD,
        )

    def widened(self, width: int) -> BindsplitStatistics:
        """These statistics with ``width`` cells per count (9: as statistics with hard
        positives, the samples' I2T the same with them and without)."""
        if width == self.n_cells:
            return self
        return BindsplitStatistics(hard_positives=width == _N_CELLS_HARD).merge(self)

    def __add__(self, other: BindsplitStatistics) -> BindsplitStatistics:
        return self.merge(other)

    def __radd__(self, other: object) -> BindsplitStatistics:
        if other == 0:  # the start value of sum()
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable copy (keys sorted), e.g. to gather statistics across processes;
        ``"hard_positives": true`` (and nine counts a cell list) only with hard positives."""
        data: dict[str, Any] = {"format": _STATISTICS_FORMAT, **self._counts_to_dict()}
        if self.balanced is not None:
            data["balanced"] = self.balanced._counts_to_dict()
        if self.hard_positives:
            data["hard_positives"] = True
        return data

    def _counts_to_dict(self) -> dict[str, Any]:
        return {
            "splits": {label: list(self.splits[label]) for label in sorted(self.splits)},
            "categories": _nested_to_lists(self.categories),
            "macro_groups": _nested_to_lists(self.macro_groups),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BindsplitStatistics:
        """Inverse of :meth:`to_dict`; raises ValueError for anything else."""
        if not isinstance(data, Mapping) or data.get("format") != _STATISTICS_FORMAT:
            raise ValueError(
                f"not BindSplit metric statistics: expected a dict with format "
                f"{_STATISTICS_FORMAT!r}, as written by BindsplitStatistics.to_dict()"
            )
        balanced = data.get("balanced")
        if balanced is not None and not isinstance(balanced, Mapping):
            raise ValueError(
                f"statistics entry 'balanced' must be a dict of counts, got {balanced!r}"
            )
        hard = data.get("hard_positives", False)
        if not isinstance(hard, bool):
            raise ValueError(f"statistics entry 'hard_positives' must be true, got {hard!r}")
        width = _N_CELLS_HARD if hard else _N_CELLS
        return cls._counts_from_dict(
            data,
            width,
            balanced=None if balanced is None else cls._counts_from_dict(balanced, width),
        )

    @classmethod
    def _counts_from_dict(
        cls, data: Mapping[str, Any], width: int, balanced: BindsplitStatistics | None = None
    ) -> BindsplitStatistics:
        splits = {}
        for label, counts in dict(data.get("splits", {})).items():
            splits[_checked_label(label, "statistics")] = _checked_counts(counts, label, width)
        nested: dict[str, dict[str, dict[str, Counts]]] = {}
        for kind in ("categories", "macro_groups"):
            nested[kind] = {}
            for label, groups in dict(data.get(kind, {})).items():
                _checked_label(label, "statistics")
                nested[kind][label] = {
                    str(name): _checked_counts(counts, f"{label}/{name}", width)
                    for name, counts in dict(groups).items()
                }
        return cls(
            splits=_add_counts(splits, {}, width),
            categories=_add_nested(nested["categories"], {}, width),
            macro_groups=_add_nested(nested["macro_groups"], {}, width),
            balanced=balanced,
            hard_positives=width == _N_CELLS_HARD,
        )


def _merge_balanced(a: BindsplitStatistics, b: BindsplitStatistics) -> BindsplitStatistics | None:
    """The balanced subset of ``a + b``: both subsets added, or the one side's if the other side
    is empty; an error if a side with samples has no flags."""
    if a.balanced is not None and b.balanced is not None:
        return a.balanced.merge(b.balanced)
    if a.balanced is None and b.balanced is None:
        return None
    flagged, unflagged = (a, b) if b.balanced is None else (b, a)
    if unflagged.n:
        raise ValueError(
            f"cannot merge statistics with balanced flags and statistics of {unflagged.n} "
            "samples without them; pass balanced= to every accumulate call, or to none"
        )
    return flagged.balanced


def _add_counts(
    a: Mapping[str, Counts], b: Mapping[str, Counts], width: int = _N_CELLS
) -> dict[str, Counts]:
    """``a + b`` per key, each count widened to ``width`` cells (new cells zero)."""
    total: dict[str, Counts] = {}
    for key in sorted(set(a) | set(b)):
        first, second = (
            (*counts.get(key, ()), *(0,) * (width - len(counts.get(key, ())))) for counts in (a, b)
        )
        counts = tuple(x + y for x, y in zip(first, second, strict=True))
        if any(counts):
            total[key] = counts
    return total


def _add_nested(
    a: Mapping[str, Mapping[str, Counts]],
    b: Mapping[str, Mapping[str, Counts]],
    width: int = _N_CELLS,
) -> dict[str, dict[str, Counts]]:
    total = {}
    for label in sorted(set(a) | set(b)):
        groups = _add_counts(a.get(label, {}), b.get(label, {}), width)
        if groups:
            total[label] = groups
    return total


def _nested_to_lists(nested: Mapping[str, Mapping[str, Counts]]) -> dict[str, dict[str, list]]:
    return {
        label: {name: list(nested[label][name]) for name in sorted(nested[label])}
        for label in sorted(nested)
    }


def _checked_counts(counts: Any, where: str, width: int) -> Counts:
    if (
        not isinstance(counts, Sequence)
        or len(counts) != width
        or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
    ):
        hard = " (statistics with hard_positives)" if width == _N_CELLS_HARD else ""
        raise ValueError(
            f"statistics entry {where!r} must be {width} non-negative integer counts{hard}, "
            f"got {counts!r}"
        )
    return tuple(counts)


def _checked_label(label: Any, where: str) -> str:
    index = isinstance(label, (int, np.integer)) and not isinstance(label, bool)
    if index or (isinstance(label, str) and label.isdigit()):  # evaluate casts indices to str
        raise ValueError(
            f"{where}: split label {label!r} is a class index; pass the label names, e.g. "
            "ds.features['bindsplit_label'].int2str(ds['bindsplit_label']) (the column is a "
            f"ClassLabel of {', '.join(SPLIT_LABELS)})"
        )
    if label not in SPLIT_LABELS:
        raise ValueError(
            f"{where}: unknown split label {label!r}; valid labels: {', '.join(SPLIT_LABELS)} "
            "(the bindsplit_label column)"
        )
    return label


def _checked_groups(values: Sequence[Any] | None, n: int, name: str) -> list[str] | None:
    """Per-sample group names ("" for none), or None when no groups were given."""
    if values is None:
        return None
    if len(values) != n:
        raise ValueError(f"got {n} score matrices but {len(values)} {name} values")
    groups = []
    for index, value in enumerate(values):
        if value is not None and not isinstance(value, str):
            raise ValueError(f"sample {index}: {name} must be a string or None, got {value!r}")
        groups.append(value or "")
    return groups


def checked_flags(values: Sequence[Any] | None, n: int) -> list[bool] | None:
    """Per-sample balanced flags, or None when none were given; a ValueError names the first
    sample whose flag is not a boolean (``"no"`` or ``1`` are refused, not read as True)."""
    if values is None:
        return None
    if len(values) != n:
        raise ValueError(f"got {n} score matrices but {len(values)} balanced flags")
    for index, value in enumerate(values):
        if not isinstance(value, (bool, np.bool_)):
            raise ValueError(
                f"sample {index}: balanced must be True or False (every caption equally familiar "
                f"and above zero), got {value!r}"
            )
    return [bool(value) for value in values]


def accumulate(
    scores: Sequence[Any] | np.ndarray,
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    macro_groups: Sequence[str | None] | None = None,
    *,
    balanced: Sequence[bool] | None = None,
    hard_positives: Sequence[int] | None = None,
) -> BindsplitStatistics:
    """Sufficient statistics of a batch of samples.

    ``scores``: per sample an n_images x n_captions matrix (nested lists, arrays, or one
    (N, n_images, n_captions) array); ``splits``: per sample its ``bindsplit_label``;
    ``categories`` / ``macro_groups``: optional per-sample group names ("" or None: no group);
    ``balanced``: optional per-sample flags (the dataset's ``balanced`` column), which add the
    ``balanced`` configuration; ``hard_positives``: optional per-sample counts h >= 0, the
    caption columns ``n_images .. n_images + h - 1`` being hard positives of image 0 (the
    build's ``columns.hard_positive``). Where some sample has h > 0 the statistics have
    ``hard_positives`` (nine cells); counts of 0 only give exactly the statistics of no counts.
    Errors name the sample index within this batch.

    >>> stats = accumulate([[[0.9, 0.1], [0.2, 0.8]], [[0.3, 0.3]]], ["seen", "unseen"])
    >>> stats.splits
    {'seen': (0, 0, 0, 0, 1, 0), 'unseen': (0, 0, 1, 0, 0, 0)}
    >>> flags = [True, False]
    >>> flagged = accumulate([[[0.9, 0.1]], [[0.3, 0.3]]], ["seen", "partial"], balanced=flags)
    >>> flagged.balanced.splits  # the balanced samples only
    {'seen': (0, 0, 0, 0, 0, 1)}
    >>> matrices = [[[0.9, 0.5, 0.6]], [[0.9, 0.7, 0.6]]]  # caption 1: a hard positive
    >>> hard = accumulate(matrices, ["seen", "seen"], hard_positives=[1, 1])
    >>> hard.splits  # one sample dropped (cell 8: right without the hard positive), one right
    {'seen': (0, 0, 0, 0, 0, 1, 0, 0, 1)}
    """
    n = len(scores)
    if len(splits) != n:
        raise ValueError(f"got {n} score matrices but {len(splits)} split labels")
    labels = [_checked_label(label, f"sample {index}") for index, label in enumerate(splits)]
    category_names = _checked_groups(categories, n, "category")
    macro_names = _checked_groups(macro_groups, n, "macro_group")
    flags = checked_flags(balanced, n)
    hard = checked_hard_positives(hard_positives, n)
    width = _N_CELLS_HARD if hard is not None and any(hard) else _N_CELLS
    cells = _sample_cells(scores, hard).tolist()
    subset = None
    if flags is not None:
        kept = [index for index, flag in enumerate(flags) if flag]
        subset = _count_statistics(
            [labels[i] for i in kept],
            None if category_names is None else [category_names[i] for i in kept],
            None if macro_names is None else [macro_names[i] for i in kept],
            [cells[i] for i in kept],
            width,
        )
    stats = _count_statistics(labels, category_names, macro_names, cells, width)
    stats.balanced = subset
    return stats


def outcome_statistics(
    splits: Sequence[str],
    i2t: Sequence[Any],
    t2i: Sequence[Any] | None = None,
    *,
    i2t_original: Sequence[Any] | None = None,
    balanced: Sequence[bool] | None = None,
) -> BindsplitStatistics:
    """Sufficient statistics of samples known by their outcomes, not their score matrices (a
    results record's ``samples``): what :func:`accumulate` gives for matrices with these
    outcomes, without categories or macro groups (outcomes do not keep them).

    ``i2t``: per sample 0/1 (or a boolean); ``t2i``: the same where samples have two images;
    ``i2t_original``: per sample I2T with the hard positives left out, where samples have them
    (``i2t`` then being I2T with them: the statistics have nine cells, as :func:`accumulate`'s
    of samples with hard positives); ``balanced``: the flags. ValueErrors name the sample.

    >>> outcome_statistics(["seen", "unseen"], [1, 0], [1, 0]).splits
    {'seen': (0, 0, 0, 0, 1, 0), 'unseen': (1, 0, 0, 0, 0, 0)}
    >>> hard = outcome_statistics(["seen", "seen"], [0, 1], i2t_original=[1, 1])
    >>> hard.splits, hard.hard_positives  # one sample dropped, one right
    ({'seen': (0, 0, 0, 0, 0, 1, 0, 0, 1)}, True)
    """
    n = len(i2t)
    if len(splits) != n:
        raise ValueError(f"got {n} i2t outcomes but {len(splits)} split labels")
    labels = [_checked_label(label, f"sample {index}") for index, label in enumerate(splits)]
    flags = checked_flags(balanced, n)
    cells = _outcome_cells(i2t, t2i, i2t_original)
    width = _N_CELLS if i2t_original is None else _N_CELLS_HARD
    stats = _count_statistics(labels, None, None, cells, width)
    if flags is not None:
        kept = [index for index, flag in enumerate(flags) if flag]
        stats.balanced = _count_statistics(
            [labels[i] for i in kept], None, None, [cells[i] for i in kept], width
        )
    return stats


def _count_statistics(
    labels: Sequence[str],
    category_names: Sequence[str] | None,
    macro_names: Sequence[str] | None,
    cells: Sequence[int],
    width: int,
) -> BindsplitStatistics:
    return BindsplitStatistics(
        splits=_count_cells(labels, cells, width),
        categories=_count_nested(labels, category_names, cells, width),
        macro_groups=_count_nested(labels, macro_names, cells, width),
        hard_positives=width == _N_CELLS_HARD,
    )


def _count_cells(keys: Sequence[str], cells: Sequence[int], width: int) -> dict[str, Counts]:
    """Outcome-cell counts (``width`` cells) per key, keys sorted."""
    table: dict[str, list[int]] = {}
    for key, cell in zip(keys, cells, strict=True):
        table.setdefault(key, [0] * width)[cell] += 1
    return {key: tuple(table[key]) for key in sorted(table)}


def _count_nested(
    labels: Sequence[str], names: Sequence[str] | None, cells: Sequence[int], width: int
) -> dict[str, dict[str, Counts]]:
    """Outcome-cell counts per label and group name; samples without a group ("") left out."""
    if names is None:
        return {}
    nested = {}
    for label in sorted(set(labels)):
        picked = [
            (name, cell)
            for lab, name, cell in zip(labels, names, cells, strict=True)
            if lab == label and name
        ]
        if picked:
            names_picked, cells_picked = zip(*picked, strict=True)
            nested[label] = _count_cells(names_picked, cells_picked, width)
    return nested
