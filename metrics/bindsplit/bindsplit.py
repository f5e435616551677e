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
"""BindSplit metric: image-text matching accuracy per seen/unseen binding split, with intervals.

The module is self-contained (numpy, datasets, evaluate and the standard library only) so that
the folder can be published as a Hugging Face Space unchanged. It has a pure functional core that
the BindSplit package, its scorer and its command line use directly:

1. :func:`sample_outcome` turns one similarity matrix into its (I2T, T2I) outcome;
2. :func:`accumulate` reduces many samples to :class:`BindsplitStatistics`: counts of the six
   possible outcomes per split label (and per category / macro group). Statistics of disjoint
   batches or processes add up (``merge`` / ``+``) and travel as JSON (``to_dict``/``from_dict``);
3. :func:`compute_metrics` turns statistics into the flat results dict.

Because every sample's outcome is one of six cells, resampling samples with replacement is a
multinomial draw over the cell counts: the bootstrap intervals need the counts only, and a
distributed evaluation only has to add counts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import datasets
import evaluate
import numpy as np

__all__ = [
    "CONFIGURATIONS",
    "METRICS",
    "SPLIT_LABELS",
    "Bindsplit",
    "BindsplitStatistics",
    "accumulate",
    "compute_metrics",
    "sample_outcome",
]

_CITATION = """\
@inproceedings{peng2026clip,
  title={{CLIP} Models Generalize Less Than Compositional Benchmarks Suggest},
  author={Shuman Peng and Arnas Uselis and Darina Koishigarina and Martin Ester and Seong Joon Oh},
  booktitle={2nd Workshop on Compositional Learning: Safety, Interpretability, and Agents},
  year={2026},
  url={https://openreview.net/forum?id=C8MlQkr4bw}
}
@inproceedings{thrush2022winoground,
  title={Winoground: Probing Vision and Language Models for Visio-Linguistic Compositionality},
  author={Tristan Thrush and Ryan Jiang and Max Bartolo and Amanpreet Singh and Adina Williams
          and Douwe Kiela and Candace Ross},
  booktitle={Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition},
  pages={5238--5248},
  year={2022}
}
"""

_DESCRIPTION = """\
BindSplit scores image-text matching on compositional benchmarks (ARO VG-Attribution, BiVLC,
VisMin, ...) separately for samples whose (attribute, object) bindings a model has seen in its
training captions and for samples whose bindings are novel. Each sample is a similarity matrix
S[i][j] = sim(image_i, caption_j) in which caption j is the correct caption of image j (for a
1 x 2 sample, caption 0 is the true caption), plus its BindSplit label (seen / unseen / partial /
none). Reported per configuration full / seen / unseen / partial: I2T accuracy (Winoground text
score), T2I accuracy (image score) and group accuracy where every sample has at least two images,
the number of samples, percentile-bootstrap intervals, and the seen-minus-unseen gap. A tie is
wrong (strict >).
"""

_KWARGS_DESCRIPTION = """
Computes BindSplit accuracies per binding split.
Args:
    scores (`list` of `list` of `list` of `float`): per sample an n_images x n_captions matrix,
        scores[i][j] = sim(image_i, caption_j), caption j the correct caption of image j. Needs
        at least two captions and 1 <= n_images <= n_captions; all values finite.
    split (`list` of `str`): per sample its `bindsplit_label`: "seen", "unseen", "partial" or
        "none" ("none" samples count in `full` only).
    category (`list` of `str`, config "category" or "category+macro_group" only): per sample a
        category for the breakdown, e.g. BiVLC "swap/att" (type/subtype) or a VisMin category;
        "" or None leaves a sample out of the breakdown.
    macro_group (`list` of `str`, config "macro_group" or "category+macro_group" only): per
        sample a group for a macro average, e.g. ARO's attribute pair "brown|white"; "" or None
        leaves a sample out of the macro average.
        In a single `compute` call, the default configuration also takes `category` and
        `macro_group` as compute arguments; with `add`/`add_batch` or several processes, load
        the configuration that declares them so that they are stored with each sample.
    n_bootstrap (`int`, default 1000): bootstrap resamples per interval; 0 reports no intervals.
    confidence (`float`, default 0.95): coverage of the percentile-bootstrap intervals.
    seed (`int`, default 0): seed of the bootstrap; equal inputs give equal intervals.
    macro_min_samples (`int`, default 25): groups with fewer samples stay out of the macro
        average (ARO's headline macro accuracy uses attribute pairs with at least 25 samples).
Returns:
    One flat dict. For each configuration `{config}` in full, seen, unseen, partial:
    `{config}/n` (int); `{config}/i2t`, `{config}/t2i`, `{config}/group`: accuracies in [0, 1],
    T2I and group only where every sample of the configuration has at least two images (absent,
    never 0, otherwise); `{config}/{metric}_ci`: [low, high] bootstrap interval. An empty
    configuration reports only `{config}/n` = 0.
    `gap/{metric}` and `gap/{metric}_ci`: seen minus unseen, for every metric both report (seen
    and unseen resampled independently).
    With categories: `{config}/category/{category}/n`, `.../{metric}`, `.../{metric}_ci` for
    every category given (n = 0 where a configuration has none of it).
    With macro groups: `{config}/macro_n_groups` and `{config}/macro_n` (groups with at least
    `macro_min_samples` samples, and their samples), `{config}/macro_{metric}` (unweighted mean
    over those groups) and `{config}/macro_{metric}_ci` (each group resampled within itself).
Examples:

    Two 2 x 2 samples (BiVLC, VisMin) labelled seen and two 1 x 2 samples (ARO) labelled unseen:

    >>> import evaluate
    >>> bindsplit = evaluate.load("metrics/bindsplit")  # this folder; in Python also load_metric()
    >>> results = bindsplit.compute(
    ...     scores=[
    ...         [[0.9, 0.1], [0.2, 0.8]],  # both images and both captions right
    ...         [[0.6, 0.7], [0.1, 0.8]],  # image 0 prefers caption 1: I2T wrong, T2I right
    ...         [[0.5, 0.5]],  # a tie is wrong
    ...         [[0.4, 0.6]],
    ...     ],
    ...     split=["seen", "seen", "unseen", "unseen"],
    ...     n_bootstrap=200,
    ... )
    >>> results["full/n"], results["full/i2t"], "full/t2i" in results
    (4, 0.25, False)
    >>> results["seen/i2t"], results["seen/t2i"], results["seen/group"]
    (0.5, 1.0, 0.5)
    >>> results["unseen/i2t"], results["gap/i2t"], results["partial/n"]
    (0.0, 0.5, 0)
    >>> low, high = results["seen/i2t_ci"]
    >>> 0.0 <= low <= results["seen/i2t"] <= high <= 1.0
    True

    A breakdown per category needs the "category" configuration:

    >>> by_type = evaluate.load("metrics/bindsplit", "category")
    >>> results = by_type.compute(
    ...     scores=[[[0.9, 0.1], [0.2, 0.8]], [[0.6, 0.7], [0.1, 0.8]]],
    ...     split=["seen", "partial"],
    ...     category=["swap/att", "replace/obj"],
    ...     n_bootstrap=0,
    ... )
    >>> results["full/category/swap/att/group"], results["full/category/replace/obj/group"]
    (1.0, 0.0)
    >>> results["seen/category/replace/obj/n"]
    0
"""

SPLIT_LABELS: tuple[str, ...] = ("seen", "unseen", "partial", "none")
"""Valid `bindsplit_label` values of a sample."""

CONFIGURATIONS: dict[str, tuple[str, ...]] = {
    "full": SPLIT_LABELS,
    "seen": ("seen",),
    "unseen": ("unseen",),
    "partial": ("partial",),
}
"""Reported configuration -> the split labels it pools."""

METRICS: tuple[str, ...] = ("i2t", "t2i", "group")
"""Accuracies, in the order they are reported."""

# The optional inputs each evaluate configuration (config_name) adds to `scores` and `split`.
# evaluate requires every declared input on every call, so optional inputs are configurations.
_CONFIG_INPUTS: dict[str, tuple[str, ...]] = {
    "default": (),
    "category": ("category",),
    "macro_group": ("macro_group",),
    "category+macro_group": ("category", "macro_group"),
}

# A sample's outcome is one of six cells: index 3 * i2t + t2i_state, with t2i_state
# 0 = wrong, 1 = right, 2 = absent (fewer than two images).
_N_CELLS = 6
_ABSENT = 2
_STATISTICS_FORMAT = "bindsplit-metric-statistics/1"

Counts = tuple[int, ...]
"""Counts of the six outcome cells (i2t, t2i): (0, wrong), (0, right), (0, absent), (1, wrong),
(1, right), (1, absent)."""

Result = int | float | list[float]


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


def sample_outcome(matrix: Any) -> tuple[bool, bool | None]:
    """(I2T correct, T2I correct) of one n_images x n_captions matrix (strict >: ties are wrong).

    T2I is ``None`` (absent, not wrong) for a sample with one image. Ties are wrong. Raises
    ValueError for a ragged, wrongly shaped or non-finite matrix.

    >>> sample_outcome([[0.9, 0.1], [0.2, 0.8]])
    (True, True)
    >>> sample_outcome([[0.6, 0.7], [0.1, 0.8]])
    (False, True)
    >>> sample_outcome([[0.3, 0.3]])
    (False, None)
    """
    array = _as_matrix(matrix)
    i2t, t2i = _outcomes(array[None])
    return bool(i2t[0]), None if t2i is None else bool(t2i[0])


# ---------------------------------------------------------------------------------------------
# Sufficient statistics


@dataclass
class BindsplitStatistics:
    """Outcome-cell counts per split label, and per (label, category) and (label, macro group).

    Only non-zero counts are stored, so equal data give equal statistics however they were
    batched. Statistics of disjoint samples add up: ``a.merge(b)``, ``a + b`` or ``sum(parts)``.
    """

    splits: dict[str, Counts] = field(default_factory=dict)
    categories: dict[str, dict[str, Counts]] = field(default_factory=dict)
    macro_groups: dict[str, dict[str, Counts]] = field(default_factory=dict)

    @property
    def n(self) -> int:
        """Number of samples counted."""
        return sum(sum(counts) for counts in self.splits.values())

    def merge(self, other: BindsplitStatistics) -> BindsplitStatistics:
        """Statistics of the samples of ``self`` and ``other`` together."""
        if not isinstance(other, BindsplitStatistics):
            raise TypeError(f"cannot merge BindsplitStatistics with {type(other).__name__}")
        return BindsplitStatistics(
            splits=_add_counts(self.splits, other.splits),
            categories=_add_nested(self.categories, other.categories),
            macro_groups=_add_nested(self.macro_groups, other.macro_groups),
        )

    def __add__(self, other: BindsplitStatistics) -> BindsplitStatistics:
        return self.merge(other)

    def __radd__(self, other: object) -> BindsplitStatistics:
        if other == 0:  # the start value of sum()
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable copy (keys sorted), e.g. to gather statistics across processes."""
        return {
            "format": _STATISTICS_FORMAT,
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
        splits = {}
        for label, counts in dict(data.get("splits", {})).items():
            splits[_checked_label(label, "statistics")] = _checked_counts(counts, label)
        nested: dict[str, dict[str, dict[str, Counts]]] = {}
        for kind in ("categories", "macro_groups"):
            nested[kind] = {}
            for label, groups in dict(data.get(kind, {})).items():
                _checked_label(label, "statistics")
                nested[kind][label] = {
                    str(name): _checked_counts(counts, f"{label}/{name}")
                    for name, counts in dict(groups).items()
                }
        return cls(
            splits=_add_counts(splits, {}),
            categories=_add_nested(nested["categories"], {}),
            macro_groups=_add_nested(nested["macro_groups"], {}),
        )


def _add_counts(a: Mapping[str, Counts], b: Mapping[str, Counts]) -> dict[str, Counts]:
    total: dict[str, Counts] = {}
    zero = (0,) * _N_CELLS
    for key in sorted(set(a) | set(b)):
        counts = tuple(x + y for x, y in zip(a.get(key, zero), b.get(key, zero), strict=True))
        if any(counts):
            total[key] = counts
    return total


def _add_nested(
    a: Mapping[str, Mapping[str, Counts]], b: Mapping[str, Mapping[str, Counts]]
) -> dict[str, dict[str, Counts]]:
    total = {}
    for label in sorted(set(a) | set(b)):
        groups = _add_counts(a.get(label, {}), b.get(label, {}))
        if groups:
            total[label] = groups
    return total


def _nested_to_lists(nested: Mapping[str, Mapping[str, Counts]]) -> dict[str, dict[str, list]]:
    return {
        label: {name: list(nested[label][name]) for name in sorted(nested[label])}
        for label in sorted(nested)
    }


def _checked_counts(counts: Any, where: str) -> Counts:
    if (
        not isinstance(counts, Sequence)
        or len(counts) != _N_CELLS
        or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts)
    ):
        raise ValueError(
            f"statistics entry {where!r} must be {_N_CELLS} non-negative integer counts, "
            f"got {counts!r}"
        )
    return tuple(counts)


def _checked_label(label: Any, where: str) -> str:
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


def _sample_cells(scores: Any) -> np.ndarray:
    """The outcome cell (0..5) of every sample."""
    cells = np.empty(len(scores), dtype=np.int64)
    for indices, stack in _equal_shape_stacks(scores):
        i2t, t2i = _outcomes(stack)
        t2i_state = np.full(len(indices), _ABSENT) if t2i is None else t2i.astype(np.int64)
        cells[indices] = 3 * i2t.astype(np.int64) + t2i_state
    return cells


def accumulate(
    scores: Sequence[Any] | np.ndarray,
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    macro_groups: Sequence[str | None] | None = None,
) -> BindsplitStatistics:
    """Sufficient statistics of a batch of samples.

    ``scores``: per sample an n_images x n_captions matrix (nested lists, arrays, or one
    (N, n_images, n_captions) array); ``splits``: per sample its ``bindsplit_label``;
    ``categories`` / ``macro_groups``: optional per-sample group names ("" or None: no group).
    Errors name the sample index within this batch.

    >>> stats = accumulate([[[0.9, 0.1], [0.2, 0.8]], [[0.3, 0.3]]], ["seen", "unseen"])
    >>> stats.splits
    {'seen': (0, 0, 0, 0, 1, 0), 'unseen': (0, 0, 1, 0, 0, 0)}
    """
    n = len(scores)
    if len(splits) != n:
        raise ValueError(f"got {n} score matrices but {len(splits)} split labels")
    labels = [_checked_label(label, f"sample {index}") for index, label in enumerate(splits)]
    category_names = _checked_groups(categories, n, "category")
    macro_names = _checked_groups(macro_groups, n, "macro_group")
    cells = _sample_cells(scores).tolist()
    return BindsplitStatistics(
        splits=_count_cells(labels, cells),
        categories=_count_nested(labels, category_names, cells),
        macro_groups=_count_nested(labels, macro_names, cells),
    )


def _count_cells(keys: Sequence[str], cells: Sequence[int]) -> dict[str, Counts]:
    """Outcome-cell counts per key, keys sorted."""
    table: dict[str, list[int]] = {}
    for key, cell in zip(keys, cells, strict=True):
        table.setdefault(key, [0] * _N_CELLS)[cell] += 1
    return {key: tuple(table[key]) for key in sorted(table)}


def _count_nested(
    labels: Sequence[str], names: Sequence[str] | None, cells: Sequence[int]
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
            nested[label] = _count_cells(*zip(*picked, strict=True))
    return nested


# ---------------------------------------------------------------------------------------------
# From statistics to metrics


def _correct(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Correct-sample counts per available metric, for counts of shape (..., 6).

    T2I and group are available only when no sample lacks T2I (absent cells all zero).
    """
    cells = counts.reshape(*counts.shape[:-1], 2, 3)
    correct = {"i2t": cells[..., 1, :].sum(axis=-1)}
    if not cells[..., _ABSENT].any():
        correct["t2i"] = cells[..., :, 1].sum(axis=-1)
        correct["group"] = cells[..., 1, 1]
    return correct


def _rng(seed: int, *names: str) -> np.random.Generator:
    """A generator keyed by seed and names, so each block's draws do not depend on the others."""
    digest = hashlib.blake2b("\x1f".join(names).encode(), digest_size=8).digest()
    return np.random.default_rng([seed, *np.frombuffer(digest, dtype=np.uint32).tolist()])


def _resample(counts: np.ndarray, n_bootstrap: int, rng: np.random.Generator) -> np.ndarray:
    """Bootstrap resamples of the cell counts (n_bootstrap, 6): a multinomial draw over cells."""
    n = int(counts.sum())
    return rng.multinomial(n, counts / n, size=n_bootstrap)


@dataclass
class _Estimate:
    """A point estimate and its bootstrap replicates (None without bootstrap)."""

    point: float
    draws: np.ndarray | None


def _pooled_estimates(counts: np.ndarray, n_bootstrap: int, rng: np.random.Generator):
    """Accuracy estimates of one pool of samples (counts (6,), n > 0)."""
    n = counts.sum()
    draws = _correct(_resample(counts, n_bootstrap, rng)) if n_bootstrap else {}
    return {
        metric: _Estimate(float(correct / n), draws[metric] / n if n_bootstrap else None)
        for metric, correct in _correct(counts).items()
    }


def _macro_estimates(group_counts: np.ndarray, n_bootstrap: int, rng: np.random.Generator):
    """Unweighted means over groups (counts (G, 6), each n > 0); groups resampled separately."""
    n = group_counts.sum(axis=1)
    points = _correct(group_counts)
    draws = {}
    if n_bootstrap:
        resampled = np.stack([_resample(c, n_bootstrap, rng) for c in group_counts], axis=1)
        draws = {m: (c / n).mean(axis=1) for m, c in _correct(resampled).items()}
    return {
        f"macro_{metric}": _Estimate(float((c / n).mean()), draws.get(metric))
        for metric, c in points.items()
    }


def _interval(draws: np.ndarray, confidence: float) -> list[float]:
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    return [float(low), float(high)]


def _check_options(n_bootstrap: Any, confidence: Any, seed: Any, macro_min_samples: Any) -> None:
    def is_int(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)

    if not is_int(n_bootstrap) or n_bootstrap < 0:
        raise ValueError(
            f"n_bootstrap must be an integer >= 0 (0: no intervals), got {n_bootstrap!r}"
        )
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if not is_int(macro_min_samples) or macro_min_samples < 1:
        raise ValueError(f"macro_min_samples must be an integer >= 1, got {macro_min_samples!r}")


def _pool(per_label: Mapping[str, Counts], labels: Sequence[str]) -> np.ndarray:
    total = np.zeros(_N_CELLS, dtype=np.int64)
    for label in labels:
        total += np.asarray(per_label.get(label, (0,) * _N_CELLS), dtype=np.int64)
    return total


def _pool_groups(
    nested: Mapping[str, Mapping[str, Counts]], labels: Sequence[str]
) -> dict[str, np.ndarray]:
    """Pooled counts over ``labels`` of every group named anywhere in ``nested`` (may be zero)."""
    names = sorted({name for groups in nested.values() for name in groups})
    return {
        name: _pool({lab: groups[name] for lab, groups in nested.items() if name in groups}, labels)
        for name in names
    }


def compute_metrics(
    stats: BindsplitStatistics,
    *,
    n_bootstrap: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
    macro_min_samples: int = 25,
) -> dict[str, Result]:
    """The flat results dict of the module (key scheme in ``_KWARGS_DESCRIPTION``).

    Accuracies are fractions in [0, 1]; intervals are percentile-bootstrap ``[low, high]`` lists
    from ``n_bootstrap`` multinomial resamples of the outcome counts, seeded per configuration
    and block so that adding a breakdown leaves the other intervals unchanged.

    >>> stats = accumulate([[[0.9, 0.1], [0.2, 0.8]], [[0.3, 0.3]]], ["seen", "unseen"])
    >>> results = compute_metrics(stats, n_bootstrap=0)
    >>> results["full/n"], results["full/i2t"], results["seen/group"], results["gap/i2t"]
    (2, 0.5, 1.0, 1.0)
    """
    _check_options(n_bootstrap, confidence, seed, macro_min_samples)
    results: dict[str, Result] = {}
    estimates: dict[str, dict[str, _Estimate]] = {}

    def report(prefix: str, found: Mapping[str, _Estimate]) -> None:
        for suffix, estimate in found.items():
            results[f"{prefix}/{suffix}"] = estimate.point
            if estimate.draws is not None:
                results[f"{prefix}/{suffix}_ci"] = _interval(estimate.draws, confidence)

    for config, labels in CONFIGURATIONS.items():
        found: dict[str, _Estimate] = {}
        counts = _pool(stats.splits, labels)
        results[f"{config}/n"] = int(counts.sum())
        if counts.sum():
            pooled = _pooled_estimates(counts, n_bootstrap, _rng(seed, config))
            report(config, pooled)
            found.update(pooled)
        if stats.macro_groups:
            groups = _pool_groups(stats.macro_groups, labels)
            kept = np.array(
                [c for c in groups.values() if c.sum() >= macro_min_samples], dtype=np.int64
            ).reshape(-1, _N_CELLS)
            results[f"{config}/macro_n_groups"] = len(kept)
            results[f"{config}/macro_n"] = int(kept.sum())
            if len(kept):
                macro = _macro_estimates(kept, n_bootstrap, _rng(seed, config, "macro"))
                report(config, macro)
                found.update(macro)
        for name, counts in _pool_groups(stats.categories, labels).items():
            prefix = f"category/{name}"
            results[f"{config}/{prefix}/n"] = int(counts.sum())
            if counts.sum():
                block = _pooled_estimates(counts, n_bootstrap, _rng(seed, config, prefix))
                report(f"{config}/{prefix}", block)
                found.update({f"{prefix}/{metric}": value for metric, value in block.items()})
        estimates[config] = found

    seen, unseen = estimates["seen"], estimates["unseen"]
    gaps = {
        suffix: _Estimate(
            seen[suffix].point - unseen[suffix].point,
            None if n_bootstrap == 0 else seen[suffix].draws - unseen[suffix].draws,
        )
        for suffix in seen
        if suffix in unseen
    }
    report("gap", gaps)
    return results


# ---------------------------------------------------------------------------------------------
# The evaluate module


def _features(config_name: str) -> datasets.Features:
    try:
        extra = _CONFIG_INPUTS[config_name]
    except KeyError:
        raise ValueError(
            f"unknown configuration {config_name!r} of the bindsplit metric; valid: "
            f"{', '.join(_CONFIG_INPUTS)} (they add the optional inputs category / macro_group)"
        ) from None
    features = {
        "scores": datasets.Sequence(datasets.Sequence(datasets.Value("float64"))),
        "split": datasets.Value("string"),
    }
    features.update({name: datasets.Value("string") for name in extra})
    return datasets.Features(features)


@evaluate.utils.file_utils.add_start_docstrings(_DESCRIPTION, _KWARGS_DESCRIPTION)
class Bindsplit(evaluate.Metric):
    """Seen/unseen binding-split accuracies (I2T, T2I, group) with bootstrap intervals.

    Configurations (``evaluate.load(path, config_name)``): "default" takes ``scores`` and
    ``split``; "category", "macro_group" and "category+macro_group" also take those inputs.
    """

    def _info(self) -> evaluate.MetricInfo:
        return evaluate.MetricInfo(
            module_type="metric",
            description=_DESCRIPTION,
            citation=_CITATION,
            inputs_description=_KWARGS_DESCRIPTION,
            features=_features(self.config_name),
            reference_urls=[
                "https://openreview.net/forum?id=C8MlQkr4bw",
                "https://arxiv.org/abs/2204.03162",
            ],
        )

    def add_batch(self, *, predictions=None, references=None, **kwargs) -> None:
        """Add a batch of samples (all inputs of the configuration, one entry per sample)."""
        self._require_inputs(kwargs)
        super().add_batch(predictions=predictions, references=references, **kwargs)

    def add(self, *, prediction=None, reference=None, **kwargs) -> None:
        """Add one sample (all inputs of the configuration)."""
        self._require_inputs(kwargs)
        super().add(prediction=prediction, reference=reference, **kwargs)

    def _require_inputs(self, inputs: Mapping[str, Any]) -> None:
        """A clear error for a declared input left out (evaluate would fail on ``len(None)``)."""
        missing = [name for name in self._feature_names() if inputs.get(name) is None]
        if missing:
            raise ValueError(
                f"the bindsplit metric's {self.config_name!r} configuration needs the inputs "
                f"{', '.join(self._feature_names())}; missing: {', '.join(missing)}. Load the "
                "configuration that declares only the inputs you have (default: scores, split)"
            )

    def _compute(
        self,
        scores: Sequence[Any],
        split: Sequence[str],
        category: Sequence[str | None] | None = None,
        macro_group: Sequence[str | None] | None = None,
        n_bootstrap: int = 1000,
        confidence: float = 0.95,
        seed: int = 0,
        macro_min_samples: int = 25,
    ) -> dict[str, Result]:
        stats = accumulate(scores, split, category, macro_group)
        return compute_metrics(
            stats,
            n_bootstrap=n_bootstrap,
            confidence=confidence,
            seed=seed,
            macro_min_samples=macro_min_samples,
        )
