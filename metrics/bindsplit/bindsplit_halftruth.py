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
"""Half-truth metrics (seed 004, CS-CLIP), split by the foil's familiarity: numpy only.

A half-truth sample is one image with three descriptions, in the order of a half-truth build's
caption columns: the **anchor** (short, true), the **truthful refinement** (the anchor plus one
more true unit) and the **half-truth** (the anchor plus a foil unit): a 1 x 3 score matrix
``[s(I, anchor), s(I, refinement), s(I, half-truth)]`` (a 1 x 2 matrix ``[anchor, half-truth]``
has no refinement). Per sample:

* **AccHT** (half-truth accuracy): ``s(I, anchor) > s(I, half-truth)``, strict (a tie is wrong);
* **Δ** (the similarity gap): ``s(I, anchor) - s(I, half-truth)``, positive when the wrong detail
  is penalised;
* **refinement accuracy**: ``s(I, refinement) > s(I, half-truth)``, the matched control (the two
  differ only in the added unit; CS-CLIP's "truthful completion vs. matched foil").

:func:`halftruth_metrics` reports each per configuration (``full``; ``seen`` / ``unseen``: the
foil's familiarity, the sample's ``bindsplit_label``), per unit kind (``{config}/kind/{kind}``)
and per category (``{config}/category/{kind}/{edit}``), each with its ``n``: the accuracies with
Wilson score intervals, Δ (a mean) with a Student t interval; and the seen-minus-unseen gaps
(``gap/...``): the accuracies' with Newcombe's hybrid score interval, Δ's with Welch's t interval
(unequal variances). Every interval is closed-form, valid at any n of two or more (Δ's needs two
samples a side; with fewer it is left out, the value kept).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

# evaluate's copy of the folder, or bindsplit_datasets._metric.bindsplit (type checkers read
# this branch: the other one names the same module)
if TYPE_CHECKING or __package__:
    from .bindsplit_intervals import beta_quantile, newcombe_interval, wilson_interval
else:  # the Space's app.py: this folder on sys.path, its modules top-level
    from bindsplit_intervals import beta_quantile, newcombe_interval, wilson_interval

__all__ = [
    "ACCURACIES",
    "CATEGORY",
    "DELTA",
    "HALFTRUTH_CONFIGURATIONS",
    "HALFTRUTH_METRICS",
    "HALFTRUTH_SETTINGS",
    "HalfTruthOutcomes",
    "halftruth_metrics",
    "halftruth_outcome_metrics",
    "halftruth_outcomes",
    "halftruth_results",
    "halftruth_samples",
    "outcomes_from_samples",
    "t_interval",
    "welch_interval",
]

#: The accuracies: half-truth accuracy and refinement accuracy.
ACCURACIES: tuple[str, ...] = ("acc_ht", "ref_acc")
#: The mean similarity gap s(I, anchor) - s(I, half-truth).
DELTA = "delta"
#: A results record's per-sample list of each half-truth sample's ``{kind}/{edit}``.
CATEGORY = "category"
#: Every half-truth metric, in report order.
HALFTRUTH_METRICS: tuple[str, ...] = ("acc_ht", DELTA, "ref_acc")
#: The configurations a half-truth build reports: all samples, seen foils, unseen foils.
HALFTRUTH_CONFIGURATIONS: tuple[str, ...] = ("full", "seen", "unseen")
#: How each number's interval is made (recorded beside the metrics).
HALFTRUTH_SETTINGS: dict[str, str] = {
    "halftruth_interval_method": "wilson",
    "halftruth_gap_interval_method": "newcombe",
    "delta_interval_method": "student-t",
    "delta_gap_interval_method": "welch",
}
_GAP = "gap"
_SEEN, _UNSEEN = "seen", "unseen"


@dataclass(frozen=True)
class HalfTruthOutcomes:
    """Per sample: AccHT (bool), Δ (float) and refinement accuracy (bool; ``None`` for 1 x 2
    matrices, which have no refinement)."""

    acc_ht: np.ndarray
    delta: np.ndarray
    ref_acc: np.ndarray | None


def halftruth_outcomes(scores: Sequence[Any] | np.ndarray) -> HalfTruthOutcomes:
    """The outcomes of 1 x 3 ``[anchor, refinement, half-truth]`` (or 1 x 2 ``[anchor,
    half-truth]``) score matrices, all of one shape.

    >>> outcomes = halftruth_outcomes([[[0.30, 0.35, 0.25]], [[0.30, 0.20, 0.30]]])
    >>> outcomes.acc_ht.tolist(), outcomes.delta.round(2).tolist(), outcomes.ref_acc.tolist()
    ([True, False], [0.05, 0.0], [True, False])
    """
    stack = np.asarray(scores, dtype=np.float64)
    if len(stack) == 0:
        stack = stack.reshape(0, 1, 3)
    if stack.ndim != 3 or stack.shape[1] != 1 or stack.shape[2] not in (2, 3):
        raise ValueError(
            f"half-truth scores are 1 x 3 matrices [anchor, refinement, half-truth] (or 1 x 2 "
            f"[anchor, half-truth]), one per sample; got shape {stack.shape}"
        )
    if not np.isfinite(stack).all():
        index = int(np.argwhere(~np.isfinite(stack))[0][0])
        raise ValueError(f"sample {index}: every score must be a finite number")
    row = stack[:, 0, :]
    anchor, half_truth = row[:, 0], row[:, -1]
    refinement = row[:, 1] > half_truth if row.shape[1] == 3 else None
    return HalfTruthOutcomes(anchor > half_truth, anchor - half_truth, refinement)


def _t_quantile(confidence: float, df: float) -> float:
    """The two-sided Student t quantile: P(|T| <= t) = confidence with ``df`` degrees of freedom
    (from the regularised incomplete beta function: P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2))."""
    x = beta_quantile(1.0 - confidence, df / 2.0, 0.5)
    return math.sqrt(df * (1.0 - x) / x)


def t_interval(
    values: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> tuple[float, float] | None:
    """The Student t interval of the mean of ``values`` (``None`` for fewer than two).

    >>> [round(v, 4) for v in t_interval([1.0, 2.0, 3.0, 4.0])]
    [0.4457, 4.5543]
    """
    data = np.asarray(values, dtype=np.float64)
    n = len(data)
    if n < 2:
        return None
    mean = float(data.mean())
    half = _t_quantile(confidence, n - 1) * float(data.std(ddof=1)) / math.sqrt(n)
    return mean - half, mean + half


def welch_interval(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> tuple[float, float] | None:
    """Welch's t interval of ``mean(a) - mean(b)`` (independent samples, unequal variances;
    Welch-Satterthwaite degrees of freedom); ``None`` unless each side has two values.

    >>> [round(v, 4) for v in welch_interval([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.5])]
    [0.051, 3.949]
    """
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if len(x) < 2 or len(y) < 2:
        return None
    difference = float(x.mean() - y.mean())
    vx, vy = float(x.var(ddof=1)) / len(x), float(y.var(ddof=1)) / len(y)
    spread = vx + vy
    if spread == 0.0:
        return difference, difference
    df = spread**2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    half = _t_quantile(confidence, df) * math.sqrt(spread)
    return difference - half, difference + half


def _proportion(prefix: str, name: str, flags: np.ndarray, confidence: float) -> dict[str, Any]:
    n, right = len(flags), int(flags.sum())
    return {
        f"{prefix}/{name}": right / n,
        f"{prefix}/{name}_ci": list(wilson_interval(right, n, confidence)),
    }


def _scope(
    prefix: str, outcomes: HalfTruthOutcomes, members: np.ndarray, confidence: float
) -> dict[str, Any]:
    """``{prefix}/n`` and, for a non-empty scope, each metric with its interval."""
    n = int(members.sum())
    result: dict[str, Any] = {f"{prefix}/n": n}
    if not n:
        return result
    result.update(_proportion(prefix, "acc_ht", outcomes.acc_ht[members], confidence))
    deltas = outcomes.delta[members]
    result[f"{prefix}/{DELTA}"] = float(deltas.mean())
    interval = t_interval(deltas, confidence)
    if interval is not None:
        result[f"{prefix}/{DELTA}_ci"] = list(interval)
    if outcomes.ref_acc is not None:
        result.update(_proportion(prefix, "ref_acc", outcomes.ref_acc[members], confidence))
    return result


def _gap(
    prefix: str,
    outcomes: HalfTruthOutcomes,
    seen: np.ndarray,
    unseen: np.ndarray,
    confidence: float,
) -> dict[str, Any]:
    """Seen minus unseen of every metric, where both sides have samples."""
    if not seen.any() or not unseen.any():
        return {}
    result: dict[str, Any] = {}
    accuracies = {"acc_ht": outcomes.acc_ht, "ref_acc": outcomes.ref_acc}
    for name, flags in accuracies.items():
        if flags is None:
            continue
        a, b = flags[seen], flags[unseen]
        result[f"{prefix}/{name}"] = float(a.mean() - b.mean())
        result[f"{prefix}/{name}_ci"] = list(
            newcombe_interval(int(a.sum()), len(a), int(b.sum()), len(b), confidence)
        )
    a, b = outcomes.delta[seen], outcomes.delta[unseen]
    result[f"{prefix}/{DELTA}"] = float(a.mean() - b.mean())
    interval = welch_interval(a, b, confidence)
    if interval is not None:
        result[f"{prefix}/{DELTA}_ci"] = list(interval)
    return result


def halftruth_metrics(
    scores: Sequence[Any] | np.ndarray,
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    *,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """The half-truth metrics of samples (module docstring): ``scores`` per sample a 1 x 3 (or
    1 x 2) matrix, ``splits`` each sample's label (the foil's familiarity: ``seen`` or
    ``unseen``), ``categories`` each sample's ``{kind}/{edit}`` (``entity/attribute``); the
    kinds are the categories' first parts.

    >>> metrics = halftruth_metrics(
    ...     [[[0.3, 0.4, 0.2]], [[0.3, 0.1, 0.5]], [[0.6, 0.5, 0.4]]],
    ...     ["seen", "unseen", "unseen"],
    ...     ["entity/attribute", "relation/swap", "relation/swap"],
    ... )
    >>> round(metrics["full/acc_ht"], 4), round(metrics["full/delta"], 4)
    (0.6667, 0.0333)
    >>> metrics["unseen/kind/relation/n"], metrics["gap/acc_ht"], round(metrics["gap/delta"], 4)
    (2, 0.5, 0.1)
    """
    return halftruth_outcome_metrics(
        halftruth_outcomes(scores), splits, categories, confidence=confidence
    )


def halftruth_outcome_metrics(
    outcomes: HalfTruthOutcomes,
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    *,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """:func:`halftruth_metrics` of samples known by their outcomes (a results record's
    ``samples``: ``acc_ht``, ``delta``, ``ref_acc``): what the scores that gave those outcomes
    give, every number and interval (all closed-form), so that a record is re-derived from its
    samples.

    >>> outcomes = HalfTruthOutcomes(
    ...     np.array([True, False]), np.array([0.25, -0.05]), np.array([True, True])
    ... )
    >>> metrics = halftruth_outcome_metrics(outcomes, ["seen", "unseen"], ["entity/object"] * 2)
    >>> metrics["full/acc_ht"], metrics["gap/ref_acc"], metrics["seen/category/entity/object/n"]
    (0.5, 0.0, 1)
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1; got {confidence}")
    n = len(outcomes.acc_ht)
    lengths = [len(outcomes.delta)] + ([] if outcomes.ref_acc is None else [len(outcomes.ref_acc)])
    if any(length != n for length in lengths):
        raise ValueError(f"got {n} AccHT outcomes but {lengths} gaps / refinement outcomes")
    if len(splits) != n:
        raise ValueError(f"got {n} score matrices but {len(splits)} split labels")
    if categories is not None and len(categories) != n:
        raise ValueError(f"got {n} score matrices but {len(categories)} categories")
    labels = np.asarray(list(splits), dtype=object)
    names = np.asarray(
        [c or "" for c in categories] if categories is not None else [""] * n, dtype=object
    )
    kinds = np.asarray([name.split("/", 1)[0] for name in names], dtype=object)
    members = {
        "full": np.ones(n, dtype=bool),
        _SEEN: labels == _SEEN,
        _UNSEEN: labels == _UNSEEN,
    }
    groups = {
        "kind": sorted(k for k in set(kinds.tolist()) if k),
        "category": sorted(c for c in set(names.tolist()) if c),
    }
    values = {"kind": kinds, "category": names}
    result: dict[str, Any] = {}
    for config in HALFTRUTH_CONFIGURATIONS:
        inside = members[config]
        result.update(_scope(config, outcomes, inside, confidence))
        for level, found in groups.items():
            for group in found:
                prefix = f"{config}/{level}/{group}"
                result.update(
                    _scope(prefix, outcomes, inside & (values[level] == group), confidence)
                )
    seen, unseen = members[_SEEN], members[_UNSEEN]
    result.update(_gap(_GAP, outcomes, seen, unseen, confidence))
    for level, found in groups.items():
        for group in found:
            own = values[level] == group
            prefix = f"{_GAP}/{level}/{group}"
            result.update(_gap(prefix, outcomes, seen & own, unseen & own, confidence))
    result.update(HALFTRUTH_SETTINGS)
    result["confidence"] = confidence
    return result


def halftruth_samples(
    outcomes: HalfTruthOutcomes, categories: Sequence[str | None] | None = None
) -> dict[str, list[Any]]:
    """Per-sample outcomes as a results record keeps them: ``acc_ht`` (0/1), ``delta`` (the
    sample's s(I, anchor) - s(I, half-truth)), ``ref_acc`` (0/1) where there is a refinement and
    ``category`` (``{kind}/{edit}``) where given: what paired comparisons of models read and what
    :func:`halftruth_outcome_metrics` re-derives every half-truth number from.

    >>> halftruth_samples(halftruth_outcomes([[[0.5, 0.25, 0.25]]]), ["relation/swap"])
    {'acc_ht': [1], 'delta': [0.25], 'ref_acc': [0], 'category': ['relation/swap']}
    """
    lists: dict[str, list[Any]] = {
        "acc_ht": [int(v) for v in outcomes.acc_ht],
        "delta": [float(v) for v in outcomes.delta],
    }
    if outcomes.ref_acc is not None:
        lists["ref_acc"] = [int(v) for v in outcomes.ref_acc]
    if categories is not None:
        lists[CATEGORY] = [c or "" for c in categories]
    return lists


def halftruth_results(
    scores: Sequence[Any] | np.ndarray,
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    *,
    confidence: float = 0.95,
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """What a results record of a half-truth build adds: :func:`halftruth_metrics` of
    ``scores`` and the per-sample lists (:func:`halftruth_samples`) they are re-derived from."""
    outcomes = halftruth_outcomes(scores)
    metrics = halftruth_outcome_metrics(outcomes, splits, categories, confidence=confidence)
    return metrics, halftruth_samples(outcomes, categories)


def outcomes_from_samples(samples: Mapping[str, Sequence[Any]]) -> HalfTruthOutcomes:
    """The outcomes a results record's ``samples`` keep (:func:`halftruth_samples`); a
    KeyError names a missing list.

    >>> outcomes_from_samples({"acc_ht": [1, 0], "delta": [0.5, -0.5]}).ref_acc is None
    True
    """
    ref_acc = samples.get("ref_acc")
    return HalfTruthOutcomes(
        np.asarray(samples["acc_ht"], dtype=bool),
        np.asarray(samples[DELTA], dtype=np.float64),
        None if ref_acc is None else np.asarray(ref_acc, dtype=bool),
    )
