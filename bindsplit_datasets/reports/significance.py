"""Whether two models really differ on a configuration: a paired bootstrap over shared samples.

Two models evaluated on the same build answer the same samples, so their difference is measured
on pairs of outcomes: resampling samples (with replacement) and recomputing the difference of
accuracies on each resample gives a percentile interval of the difference; the models are
*separated* at the chosen confidence when that interval excludes 0. Per-sample outcomes come from
a results record's ``samples`` (``id``, ``label``, ``i2t``, ``t2i``, optional configuration flags
such as ``balanced``); group = I2T and T2I both right.

A pair of binary outcomes falls into one of three cells: the first model right and the second
wrong, the reverse, or both the same. The difference of accuracies depends on the first two
counts only, so a bootstrap resample is one multinomial draw over the three cells, which is the
same distribution as drawing sample indices (the metric's intervals use the same device).

Rows of a results table carry no per-sample outcomes (the table keeps one row per metric): they
are compared by their intervals, the models separated when the two 95% intervals do not overlap
(conservative). Without intervals either, nothing is tested.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .results import REFERENCE_CONFIG, interval_key

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_N_BOOTSTRAP",
    "METHOD_INTERVALS",
    "METHOD_PAIRED",
    "METHOD_UNTESTED",
    "PairedDifference",
    "Separation",
    "paired_bootstrap",
    "separate",
    "shared_outcomes",
]

#: Confidence of the paired bootstrap intervals that decide whether a rank change is real.
DEFAULT_CONFIDENCE = 0.95
#: Bootstrap resamples per compared pair.
DEFAULT_N_BOOTSTRAP = 2000

Method = Literal["paired bootstrap", "interval overlap", "untested"]
#: Two records with per-sample outcomes: paired bootstrap over their shared samples.
METHOD_PAIRED: Method = "paired bootstrap"
#: A record without per-sample outcomes: the two records' intervals must not overlap.
METHOD_INTERVALS: Method = "interval overlap"
#: Neither per-sample outcomes nor intervals: no test, no difference is called real.
METHOD_UNTESTED: Method = "untested"


@dataclass(frozen=True)
class PairedDifference:
    """Accuracy of the first model minus the second's on ``n`` shared samples (fractions), with
    its percentile-bootstrap interval at ``confidence``."""

    difference: float
    interval: tuple[float, float]
    n: int
    confidence: float

    @property
    def sign(self) -> int:
        """+1 when the first model is better at this confidence, -1 when the second is, else
        0."""
        if self.interval[0] > 0:
            return 1
        if self.interval[1] < 0:
            return -1
        return 0

    def negated(self) -> PairedDifference:
        """The same comparison seen from the second model."""
        low, high = self.interval
        return PairedDifference(-self.difference, (-high, -low), self.n, self.confidence)


def _rng(seed: int, key: str) -> np.random.Generator:
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return np.random.default_rng([seed, *np.frombuffer(digest, dtype=np.uint32).tolist()])


def paired_bootstrap(
    first: Any,
    second: Any,
    *,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    key: str = "",
) -> PairedDifference:
    """Paired percentile bootstrap of ``mean(first) - mean(second)`` over binary outcomes.

    ``first[i]`` and ``second[i]`` are the two models' outcomes (0/1) on sample ``i``; ``key``
    (with ``seed``) seeds the draws, so one comparison gives the same interval in every report.

    >>> result = paired_bootstrap([1] * 30 + [0] * 170, [0] * 200)
    >>> result.difference, result.sign
    (0.15, 1)
    """
    a = np.asarray(first, dtype=bool)
    b = np.asarray(second, dtype=bool)
    if a.ndim != 1 or a.shape != b.shape or not a.size:
        raise ValueError(
            f"paired outcomes must be two equally long, non-empty 1-d sequences; got shapes "
            f"{a.shape} and {b.shape}"
        )
    if n_bootstrap < 1 or not 0 < confidence < 1:
        raise ValueError(
            f"n_bootstrap must be >= 1 and confidence in (0, 1); got {n_bootstrap}, {confidence}"
        )
    n = int(a.size)
    only_first, only_second = int(np.sum(a & ~b)), int(np.sum(~a & b))
    cells = np.array([only_first, only_second, n - only_first - only_second]) / n
    draws = _rng(seed, key).multinomial(n, cells, size=n_bootstrap)
    differences = (draws[:, 0] - draws[:, 1]) / n
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(differences, [tail, 1.0 - tail])
    return PairedDifference(
        difference=(only_first - only_second) / n,
        interval=(float(low), float(high)),
        n=n,
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
    """Per-sample outcomes of ``metric`` (group = I2T and T2I); None where undefined."""
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
    ``method``: how that was decided; ``paired``: the paired difference where one was computed.
    """

    sign: int
    method: Method
    paired: PairedDifference | None = None


def _identity(record: Mapping[str, Any]) -> str:
    model = record["model"]
    return f"{model['id']}@{model.get('revision')}"


def separate(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    config: str,
    metric: str,
    *,
    n_bootstrap: int = DEFAULT_N_BOOTSTRAP,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
) -> Separation:
    """Whether ``first``'s model is really better or worse than ``second``'s on ``config``.

    Paired bootstrap over the shared samples where both records carry per-sample outcomes
    (seeded by the two models and the configuration, so ``separate(b, a)`` mirrors
    ``separate(a, b)``); else non-overlapping intervals; else untested.
    """
    swapped = _identity(second) < _identity(first)
    low_record, high_record = (second, first) if swapped else (first, second)
    pair = shared_outcomes(low_record, high_record, config, metric)
    if pair is not None and pair[0].size:
        key = "\x1f".join((_identity(low_record), _identity(high_record), config, metric))
        paired = paired_bootstrap(
            *pair, n_bootstrap=n_bootstrap, confidence=confidence, seed=seed, key=key
        )
        if swapped:
            paired = paired.negated()
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
