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
   (:func:`sample_outcomes`: many, with I2T without the hard positives too);
2. :func:`accumulate` reduces many samples to :class:`BindsplitStatistics`: counts of the six
   possible outcomes per split label (and per category / macro group, and for the samples flagged
   ``balanced``); nine where samples have hard positives (I2T can then also be right without
   them and wrong with them). Statistics of disjoint batches or processes add up (``merge`` /
   ``+``) and travel as JSON (``to_dict``/``from_dict``);
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
from typing import Any

import numpy as np

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

# A sample's outcome is one of six cells: index 3 * i2t_state + t2i_state, with i2t_state
# 0 = wrong, 1 = right and t2i_state 0 = wrong, 1 = right, 2 = absent (fewer than two images).
# Statistics of samples with hard positives have nine: i2t_state 2 = dropped (right with the
# hard positives left out, wrong with them); the six cells are their first six.
_N_CELLS = 6
_N_CELLS_HARD = 9
_ABSENT = 2
_DROPPED = 2
_STATISTICS_FORMAT = "bindsplit-metric-statistics/1"

Counts = tuple[int, ...]
"""Counts of the outcome cells (i2t, t2i): (0, wrong), (0, right), (0, absent), (1, wrong),
(1, right), (1, absent); with hard positives also (dropped, wrong), (dropped, right),
(dropped, absent)."""

Result = int | float | str | list[float]


# ---------------------------------------------------------------------------------------------
# One sample


def _as_matrix(matrix: Any) -> np.ndarray:
    """The validated float matrix of one sample; a ValueError says what is wrong with it."""
    try:
        array = np.asarray(matrix, dtype=np.float64)
    except (ValueError, TypeError) as error:
        if isinstance(matrix, Sequence) and all(isinstance(row, Sequence) for row in matrix):
            lengths = [len(row) for row in matrix]
            if len(set(lengths)) > 1:
                raise ValueError(
                    f"the scores matrix is ragged (row lengths {lengths}); every image needs one "
                    "score per caption"
                ) from None
        raise ValueError(f"the scores matrix is not a matrix of numbers ({error})") from None
    if array.ndim != 2:
        raise ValueError(
            f"the scores must be a 2-D n_images x n_captions matrix, got shape {array.shape}"
        )
    _check_shape(*array.shape)
    _check_finite(array)
    return array


def _check_shape(n_images: int, n_captions: int) -> None:
    if n_captions < 2 or not 1 <= n_images <= n_captions:
        raise ValueError(
            f"the scores matrix is {n_images} x {n_captions} (images x captions); it needs at "
            "least two captions and 1 <= n_images <= n_captions, since caption j is the correct "
            "caption of image j (transpose a captions x images matrix)"
        )


def _check_finite(array: np.ndarray) -> None:
    bad = np.argwhere(~np.isfinite(array))
    if len(bad):
        position = [int(i) for i in bad[0]]
        raise ValueError(
            f"the scores matrix holds {array[tuple(bad[0])]} at {position}; every score must be "
            "a finite number"
        )


def _outcomes(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """I2T and T2I outcomes (bool arrays) of a validated stack of equal-shape matrices (N, I, C).

    I2T: every image i scores its caption strictly above every other caption. T2I (``None`` for
    fewer than two images): every caption j < n_images scores its image strictly above every
    other image.
    """
    n_images, n_captions = stack.shape[1:]
    own = np.eye(n_images, n_captions, dtype=bool)
    diagonal = stack[:, own].reshape(len(stack), n_images)
    rivals = np.where(own, -np.inf, stack)
    i2t = (diagonal > rivals.max(axis=2)).all(axis=1)
    if n_images < 2:
        return i2t, None
    t2i = (diagonal > rivals[:, :, :n_images].max(axis=1)).all(axis=1)
    return i2t, t2i


def _hard_positive_outcomes(
    stack: np.ndarray, hard: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(I2T with the hard positives, I2T without them, T2I) of a validated stack (N, I, C) whose
    samples have ``hard`` >= 1 hard positives, the columns I .. I + hard - 1.

    With them, image 0 is right when its caption and every hard positive score strictly above
    every other caption (the other images' captions and the negatives); every other image keeps
    its rule, the hard positives among its rivals. Without them, the hard-positive columns are
    left out and the rule is :func:`_outcomes`'. T2I compares captions j < I only, which the hard
    positives do not change.
    """
    n_images, n_captions = stack.shape[1:]
    original, t2i = _outcomes(np.delete(stack, np.s_[n_images : n_images + hard], axis=2))
    positive = np.zeros(n_captions, dtype=bool)
    positive[0] = True
    positive[n_images : n_images + hard] = True
    first = stack[:, 0, :]
    right = first[:, positive].min(axis=1) > first[:, ~positive].max(axis=1)
    if n_images > 1:
        own = np.eye(n_images, n_captions, dtype=bool)[1:]
        others = stack[:, 1:, :]
        diagonal = others[:, own].reshape(len(stack), n_images - 1)
        rivals = np.where(own, -np.inf, others).max(axis=2)
        right &= (diagonal > rivals).all(axis=1)
    return right, original, t2i


def _check_hard(n_images: int, n_captions: int, hard: int) -> None:
    if n_images + hard > n_captions or hard > n_captions - 2:
        raise ValueError(
            f"a {n_images} x {n_captions} scores matrix cannot hold {hard} hard positive(s): "
            f"they are the caption columns after the {n_images} positive one(s), and at least "
            "one other caption must remain as a rival of image 0 (pass hard_positives=0 for a "
            "sample without hard positives)"
        )


def sample_outcome(matrix: Any, hard_positives: int = 0) -> tuple[bool, bool | None]:
    """(I2T correct, T2I correct) of one n_images x n_captions matrix (strict >: ties are wrong).

    T2I is ``None`` (absent, not wrong) for a sample with one image. Ties are wrong. With
    ``hard_positives`` = h > 0, the h columns after the positives are hard positives of image 0
    and I2T is their rule (image 0's caption and every hard positive above every other caption).
    Raises ValueError for a ragged, wrongly shaped or non-finite matrix.

    >>> sample_outcome([[0.9, 0.1], [0.2, 0.8]])
    (True, True)
    >>> sample_outcome([[0.6, 0.7], [0.1, 0.8]])
    (False, True)
    >>> sample_outcome([[0.3, 0.3]])
    (False, None)
    >>> sample_outcome([[0.9, 0.5, 0.6]]), sample_outcome([[0.9, 0.5, 0.6]], hard_positives=1)
    ((True, None), (False, None))
    """
    array = _as_matrix(matrix)
    if hard_positives:
        (outcome,) = sample_outcomes([array], [hard_positives])
        return outcome.i2t, outcome.t2i
    i2t, t2i = _outcomes(array[None])
    return bool(i2t[0]), None if t2i is None else bool(t2i[0])


@dataclass(frozen=True)
class Outcome:
    """One sample's outcome: ``i2t`` (with its hard positives, if any), ``t2i`` (``None`` for
    one image) and ``i2t_original`` (I2T with the hard-positive columns left out; ``i2t`` for a
    sample without hard positives)."""

    i2t: bool
    t2i: bool | None
    i2t_original: bool


def sample_outcomes(
    scores: Sequence[Any] | np.ndarray, hard_positives: Sequence[int] | None = None
) -> list[Outcome]:
    """The :class:`Outcome` of every sample (vectorised per matrix shape); ``hard_positives``:
    per sample its number of hard positives (``None``: none). ValueErrors name the sample.

    >>> first, second = sample_outcomes([[[0.9, 0.5, 0.6]], [[0.9, 0.7, 0.6]]], [1, 1])
    >>> first  # the hard positive (0.5) loses to the negative (0.6)
    Outcome(i2t=False, t2i=None, i2t_original=True)
    >>> second.i2t, second.i2t_original
    (True, True)
    """
    cells = _sample_cells(scores, checked_hard_positives(hard_positives, len(scores)))
    states, t2i_states = np.divmod(cells, 3)
    return [
        Outcome(
            i2t=bool(state == 1),
            t2i=None if t2i_state == _ABSENT else bool(t2i_state),
            i2t_original=bool(state != 0),
        )
        for state, t2i_state in zip(states.tolist(), t2i_states.tolist(), strict=True)
    ]


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


def _equal_shape_stacks(scores: Any) -> list[tuple[list[int], np.ndarray]]:
    """Validated samples as (indices, stack of their matrices) per matrix shape.

    ValueErrors name the index of the first bad sample.
    """
    if not isinstance(scores, np.ndarray) and len(scores):
        try:  # one conversion when every matrix has the same shape (the common case)
            whole = np.asarray(scores, dtype=np.float64)
        except (ValueError, TypeError):
            whole = None
        if whole is not None and whole.ndim == 3:
            scores = whole
    if isinstance(scores, np.ndarray) and scores.ndim == 3 and scores.dtype.kind in "fiu":
        stack = scores.astype(np.float64, copy=False)
        if len(stack):
            try:
                _check_shape(*stack.shape[1:])
            except ValueError as error:
                raise ValueError(f"sample 0: {error}") from None
        bad = np.argwhere(~np.isfinite(stack))
        if len(bad):
            index = int(bad[0][0])
            try:
                _check_finite(stack[index])
            except ValueError as error:
                raise ValueError(f"sample {index}: {error}") from None
        return [(list(range(len(stack))), stack)]
    by_shape: dict[tuple[int, ...], tuple[list[int], list[np.ndarray]]] = {}
    for index, matrix in enumerate(scores):
        try:
            array = _as_matrix(matrix)
        except ValueError as error:
            raise ValueError(f"sample {index}: {error}") from None
        indices, arrays = by_shape.setdefault(array.shape, ([], []))
        indices.append(index)
        arrays.append(array)
    return [(indices, np.stack(arrays)) for indices, arrays in by_shape.values()]


def _sample_cells(scores: Any, hard_positives: Sequence[int] | None = None) -> np.ndarray:
    """The outcome cell (0..5; 6..8: I2T dropped by the hard positives) of every sample."""
    cells = np.empty(len(scores), dtype=np.int64)
    for indices, stack in _equal_shape_stacks(scores):
        hard = np.zeros(len(indices), dtype=np.int64)
        if hard_positives is not None:
            hard = np.asarray([hard_positives[i] for i in indices], dtype=np.int64)
        for count in np.unique(hard).tolist():
            chosen = np.flatnonzero(hard == count)
            if count:
                try:
                    _check_hard(stack.shape[1], stack.shape[2], count)
                except ValueError as error:
                    raise ValueError(f"sample {indices[chosen[0]]}: {error}") from None
                i2t, original, t2i = _hard_positive_outcomes(stack[chosen], count)
                state = np.where(i2t, 1, np.where(original, _DROPPED, 0))
            else:
                i2t, t2i = _outcomes(stack[chosen] if len(chosen) < len(stack) else stack)
                state = i2t.astype(np.int64)
            t2i_state = np.full(len(chosen), _ABSENT) if t2i is None else t2i.astype(np.int64)
            cells[np.asarray(indices)[chosen]] = 3 * state + t2i_state
    return cells


def checked_hard_positives(values: Sequence[Any] | None, n: int) -> list[int] | None:
    """Per-sample counts of hard positives, or None when none were given; a ValueError names the
    first sample whose count is not an integer >= 0 (``True`` or ``1.0`` are refused)."""
    if values is None:
        return None
    if len(values) != n:
        raise ValueError(f"got {n} score matrices but {len(values)} hard_positives counts")
    for index, value in enumerate(values):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise ValueError(
                f"sample {index}: hard_positives must be a count (an integer >= 0: how many "
                f"caption columns after the positives are hard positives), got {value!r}"
            )
        if value < 0:
            raise ValueError(f"sample {index}: hard_positives must be >= 0, got {value!r}")
    return [int(value) for value in values]


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
