"""Whether two models really differ on a configuration: an exact McNemar test over shared samples.

Two models evaluated on the same build answer the same samples, so their difference is measured
on pairs of outcomes. A pair of binary outcomes falls into one of three cells: the first model
right and the second wrong (``b``), the reverse (``c``), or both the same. The difference of
accuracies is ``(b - c) / n``, and under "no difference" each of the ``b + c`` discordant samples
is equally likely to favour either model: ``b ~ Binomial(b + c, 1/2)``. The exact McNemar test
(the standard for two classifiers on the same items) takes the two-sided binomial tail of that
count; the models are *separated* at the chosen confidence when its p-value is below
``1 - confidence``. It is exact at any n, which the rank moves of a small ``unseen`` split need.

It replaces a paired percentile bootstrap of the difference, which is too eager at small n: with
4 of 10 samples favouring one model and none the other, a resample draws none of the 4 with
probability 0.6^10 < 0.7%, so the 2.5% quantile of the resampled differences lies above 0 and the
bootstrap calls real a difference that a fair coin makes one time in eight (exact p = 2 / 2^4 =
0.125).

Rows of a results table carry no per-sample outcomes (the table keeps one row per metric): they
are compared by their intervals, the models separated when the two intervals do not overlap
(conservative). Without intervals either, nothing is tested.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..metric_core import DEFAULT_CONFIDENCE, regularized_beta
from ..metric_halftruth import ACCURACIES as HALFTRUTH_ACCURACIES
from .results import REFERENCE_CONFIG, interval_key

__all__ = [
    "DEFAULT_CONFIDENCE",
    "METHOD_INTERVALS",
    "METHOD_PAIRED",
    "METHOD_UNTESTED",
    "PairedTest",
    "Separation",
    "mcnemar_exact",
    "separate",
    "shared_outcomes",
]

Method = Literal["exact McNemar", "interval overlap", "untested"]
#: Two records with per-sample outcomes: the exact McNemar test over their shared samples.
METHOD_PAIRED: Method = "exact McNemar"
#: A record without per-sample outcomes: the two records' intervals must not overlap.
METHOD_INTERVALS: Method = "interval overlap"
#: Neither per-sample outcomes nor intervals: no test, no difference is called real.
METHOD_UNTESTED: Method = "untested"


@dataclass(frozen=True)
class PairedTest:
    """The first model's accuracy minus the second's on ``n`` shared samples (a fraction), from
    ``only_first`` samples only the first got right and ``only_second`` only the second did, with
    the exact McNemar test's two-sided ``p_value``, judged at ``confidence``."""

    difference: float
    n: int
    only_first: int
    only_second: int
    p_value: float
    confidence: float

    @property
    def sign(self) -> int:
        """+1 when the first model is better at this confidence, -1 when the second is, else
        0."""
        if self.p_value >= 1.0 - self.confidence or self.only_first == self.only_second:
            return 0
        return 1 if self.only_first > self.only_second else -1

    def negated(self) -> PairedTest:
        """The same comparison seen from the second model."""
        return PairedTest(
            -self.difference,
            self.n,
            self.only_second,
            self.only_first,
            self.p_value,
            self.confidence,
        )


def _two_sided_p(only_first: int, only_second: int) -> float:
    """``min(1, 2 P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)``; 1 with no discordant
    sample. ``P(X <= k) = I_{1/2}(m - k, k + 1)`` (the regularized incomplete beta function)."""
    m, k = only_first + only_second, min(only_first, only_second)
    if m == 0 or 2 * k == m:
        return 1.0
    return min(1.0, 2.0 * regularized_beta(0.5, m - k, k + 1))


def mcnemar_exact(first: Any, second: Any, *, confidence: float = DEFAULT_CONFIDENCE) -> PairedTest:
    """The exact McNemar test of ``mean(first) - mean(second)`` over paired binary outcomes.

    ``first[i]`` and ``second[i]`` are the two models' outcomes (0/1) on sample ``i``.

    >>> result = mcnemar_exact([1] * 30 + [0] * 170, [0] * 200)
    >>> result.difference, result.sign, result.p_value < 1e-8
    (0.15, 1, True)
    >>> round(mcnemar_exact([1] * 4 + [0] * 6, [0] * 10).p_value, 6)  # 2 / 2^4
    0.125
    """
    a = np.asarray(first, dtype=bool)
    b = np.asarray(second, dtype=bool)
    if a.ndim != 1 or a.shape != b.shape or not a.size:
        raise ValueError(
            f"paired outcomes must be two equally long, non-empty 1-d sequences; got shapes "
            f"{a.shape} and {b.shape}"
        )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    n = int(a.size)
    only_first, only_second = int(np.sum(a & ~b)), int(np.sum(~a & b))
    return PairedTest(
        difference=(only_first - only_second) / n,
        n=n,
        only_first=only_first,
        only_second=only_second,
        p_value=_two_sided_p(only_first, only_second),
        confidence=confidence,
    )


def _in_config(samples: Mapping[str, Any], config: str) -> np.ndarray:
    """Which samples belong to ``config``: all for ``full``; the flag list named after the
    configuration where the record has one (``balanced``); else the samples labelled so."""
    n = len(samples["id"])
    if config == REFERENCE_CONFIG:
        return np.ones(n, dtype=bool)
    if config in samples:
        return np.asarray(samples[config], dtype=bool)
    return np.asarray(samples["label"]) == config


def _outcomes(samples: Mapping[str, Any], metric: str) -> np.ndarray | None:
    """Per-sample outcomes of ``metric`` (group = I2T and T2I; a half-truth accuracy as kept);
    None where undefined."""
    if metric in HALFTRUTH_ACCURACIES:
        return np.asarray(samples[metric], dtype=bool) if metric in samples else None
    if metric == "i2t":
        return np.asarray(samples["i2t"], dtype=bool)
    if "t2i" not in samples:
        return None
    t2i = np.asarray(samples["t2i"], dtype=bool)
    return t2i if metric == "t2i" else np.asarray(samples["i2t"], dtype=bool) & t2i


def shared_outcomes(
    first: Mapping[str, Any], second: Mapping[str, Any], config: str, metric: str
) -> tuple[np.ndarray, np.ndarray] | None:
    """Both records' outcomes of ``metric`` on the samples they share within ``config``
    (same id, in ``config`` in both records), in the first record's order.

    ``None`` when a record has no per-sample outcomes or lacks the metric (T2I of 1-image
    samples).
    """
    if "samples" not in first or "samples" not in second:
        return None
    samples_a, samples_b = first["samples"], second["samples"]
    outcomes_a, outcomes_b = _outcomes(samples_a, metric), _outcomes(samples_b, metric)
    if outcomes_a is None or outcomes_b is None:
        return None
    _, index_a, index_b = np.intersect1d(
        np.asarray(samples_a["id"], dtype=str),
        np.asarray(samples_b["id"], dtype=str),
        assume_unique=True,
        return_indices=True,
    )
    order = np.argsort(index_a)
    index_a, index_b = index_a[order], index_b[order]
    keep = _in_config(samples_a, config)[index_a] & _in_config(samples_b, config)[index_b]
    return outcomes_a[index_a[keep]], outcomes_b[index_b[keep]]


@dataclass(frozen=True)
class Separation:
    """How two models compare on one configuration and metric.

    ``sign``: +1 the first is really better, -1 the second is, 0 not separated (or untested);
    ``method``: how that was decided; ``paired``: the paired test where one was made.
    """

    sign: int
    method: Method
    paired: PairedTest | None = None


def separate(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    config: str,
    metric: str,
    *,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Separation:
    """Whether ``first``'s model is really better or worse than ``second``'s on ``config``.

    The exact McNemar test over the shared samples where both records carry per-sample
    outcomes (``separate(b, a)`` mirrors ``separate(a, b)``); else non-overlapping intervals;
    else untested.
    """
    pair = shared_outcomes(first, second, config, metric)
    if pair is not None and pair[0].size:
        paired = mcnemar_exact(*pair, confidence=confidence)
        return Separation(paired.sign, METHOD_PAIRED, paired)
    interval_a = first["metrics"].get(interval_key(config, metric))
    interval_b = second["metrics"].get(interval_key(config, metric))
    if interval_a is None or interval_b is None:
        return Separation(0, METHOD_UNTESTED)
    if interval_a[0] > interval_b[1]:
        return Separation(1, METHOD_INTERVALS)
    if interval_b[0] > interval_a[1]:
        return Separation(-1, METHOD_INTERVALS)
    return Separation(0, METHOD_INTERVALS)
