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
"""The BindSplit metric from statistics to results: accuracies, intervals and gaps.

:func:`compute_metrics` turns the :class:`BindsplitStatistics` of ``bindsplit_core.py`` (the
functional core) into the metric's flat results dict; numpy and the standard library only, like
the core. Accuracies get the closed-form intervals of ``bindsplit_intervals.py`` (Wilson by
default, or Clopper-Pearson) and gaps Newcombe's hybrid score interval; the percentile bootstrap
(multinomial draws over the six, or nine, outcome-cell counts) serves the macro averages, which
have no closed form, and everything when asked for (``interval_method="bootstrap"``). The
hard-positive drop (``i2t_drop``) is a proportion of samples, so it gets an accuracy's interval.

This module is imported three ways: by ``bindsplit.py`` in the package evaluate copies the folder
into, as ``bindsplit_datasets._metric.bindsplit.bindsplit_bootstrap`` (both packages, so the core
is a relative import), and by the Space's ``app.py``, which runs with this folder on ``sys.path``
(no package: the core is a top-level module there).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

# evaluate's copy of the folder, or bindsplit_datasets._metric.bindsplit (type checkers read
# this branch: the other one names the same module)
if TYPE_CHECKING or __package__:
    from .bindsplit_core import (
        BALANCED,
        GAPS,
        LABEL_POOLS,
        SPLIT_LABELS,
        BindsplitStatistics,
        Counts,
        Result,
    )
    from .bindsplit_intervals import (
        BOOTSTRAP,
        CONFIDENCE_KEY,
        DEFAULT_CONFIDENCE,
        DEFAULT_INTERVAL_METHOD,
        DROP_INTERVAL_METHOD_KEY,
        GAP_INTERVAL_METHOD_KEY,
        INTERVAL_METHOD_KEY,
        MACRO_INTERVAL_METHOD_KEY,
        N_BOOTSTRAP_KEY,
        NEWCOMBE,
        SEED_KEY,
        SMALL_N_INTERVAL_METHOD_KEY,
        WILSON,
        interval_method_name,
        is_small_sample,
        newcombe_interval,
        proportion_interval,
    )
    from .bindsplit_outcomes import _ABSENT, _DROPPED
else:  # the Space's app.py: this folder on sys.path, its modules top-level
    from bindsplit_core import (
        BALANCED,
        GAPS,
        LABEL_POOLS,
        SPLIT_LABELS,
        BindsplitStatistics,
        Counts,
        Result,
    )
    from bindsplit_intervals import (
        BOOTSTRAP,
        CONFIDENCE_KEY,
        DEFAULT_CONFIDENCE,
        DEFAULT_INTERVAL_METHOD,
        DROP_INTERVAL_METHOD_KEY,
        GAP_INTERVAL_METHOD_KEY,
        INTERVAL_METHOD_KEY,
        MACRO_INTERVAL_METHOD_KEY,
        N_BOOTSTRAP_KEY,
        NEWCOMBE,
        SEED_KEY,
        SMALL_N_INTERVAL_METHOD_KEY,
        WILSON,
        interval_method_name,
        is_small_sample,
        newcombe_interval,
        proportion_interval,
    )
    from bindsplit_outcomes import _ABSENT, _DROPPED

__all__ = ["compute_metrics"]


def _correct(counts: np.ndarray) -> dict[str, np.ndarray]:
    """Correct-sample counts per available metric, for counts of shape (..., 6) or, with hard
    positives, (..., 9); ``i2t_drop`` counts the samples the hard positives turn wrong.

    T2I and group are available only when no sample lacks T2I (absent cells all zero).
    """
    cells = counts.reshape(*counts.shape[:-1], counts.shape[-1] // 3, 3)
    correct = {"i2t": cells[..., 1, :].sum(axis=-1)}
    if not cells[..., _ABSENT].any():
        correct["t2i"] = cells[..., :, 1].sum(axis=-1)
        correct["group"] = cells[..., 1, 1]
    if cells.shape[-2] > _DROPPED:
        dropped = cells[..., _DROPPED, :].sum(axis=-1)
        correct["i2t_original"] = correct["i2t"] + dropped
        correct["i2t_drop"] = dropped
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
    """A point estimate and its interval: closed-form (``interval``), or bootstrap replicates
    (``draws``), or neither; ``counts`` = (correct, n) where the estimate is a proportion."""

    point: float
    draws: np.ndarray | None = None
    interval: list[float] | None = None
    counts: tuple[int, int] | None = None


@dataclass(frozen=True)
class _Options:
    """How intervals are made: ``method`` (a recorded name), resamples, level and seed."""

    method: str
    n_bootstrap: int
    confidence: float
    seed: int
    #: Whether bootstrapped accuracies of a small or degenerate sample get Wilson's interval.
    small_n_fallback: bool = True

    @property
    def bootstrap(self) -> bool:
        """Whether accuracies and gaps are bootstrapped (else: closed-form intervals)."""
        return self.method == BOOTSTRAP

    @property
    def falls_back(self) -> bool:
        """Whether some bootstrapped intervals may be Wilson's (small or degenerate samples)."""
        return self.bootstrap and self.n_bootstrap > 0 and self.small_n_fallback


def _pooled_estimates(counts: np.ndarray, options: _Options, rng: np.random.Generator):
    """Accuracy estimates of one pool of samples (counts (6,), n > 0), each with its interval."""
    n = int(counts.sum())
    resampled = options.bootstrap and options.n_bootstrap > 0
    draws = _correct(_resample(counts, options.n_bootstrap, rng)) if resampled else {}
    found = {}
    for metric, correct in _correct(counts).items():
        estimate = _Estimate(float(correct / n), counts=(int(correct), n))
        if options.falls_back and is_small_sample(int(correct), n):  # no zero-width "95%"
            estimate.interval = list(proportion_interval(int(correct), n, options.confidence))
        elif resampled:
            estimate.draws = draws[metric] / n
        elif not options.bootstrap:
            bounds = proportion_interval(int(correct), n, options.confidence, options.method)
            estimate.interval = list(bounds)
        found[metric] = estimate
    return found


def _macro_estimates(group_counts: np.ndarray, n_bootstrap: int, rng: np.random.Generator):
    """Unweighted means over groups (counts (G, 6), each n > 0); groups resampled separately
    (a mean of proportions has no closed-form interval)."""
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


def _difference(a: _Estimate, b: _Estimate, options: _Options) -> _Estimate:
    """``a - b`` of two independent samples: the replicate-wise differences where both were
    resampled, else Newcombe's interval where both are proportions and intervals are
    closed-form."""
    point = a.point - b.point
    closed_form = not options.bootstrap or a.interval is not None or b.interval is not None
    if a.draws is not None and b.draws is not None:
        return _Estimate(point, draws=a.draws - b.draws)
    if a.counts is not None and b.counts is not None and closed_form:
        bounds = newcombe_interval(*a.counts, *b.counts, options.confidence)
        return _Estimate(point, interval=list(bounds))
    return _Estimate(point)


def _interval(draws: np.ndarray, confidence: float) -> list[float]:
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail])
    return [float(low), float(high)]


def _check_options(n_bootstrap: Any, confidence: Any, seed: Any, macro_min_samples: Any) -> None:
    def is_int(value: Any) -> bool:
        return isinstance(value, (int, np.integer)) and not isinstance(value, bool)

    if not is_int(n_bootstrap) or n_bootstrap < 0:
        raise ValueError(
            f"n_bootstrap must be an integer >= 0 (0: no bootstrap intervals), got {n_bootstrap!r}"
        )
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    if not is_int(seed) or seed < 0:
        raise ValueError(f"seed must be an integer >= 0, got {seed!r}")
    if not is_int(macro_min_samples) or macro_min_samples < 1:
        raise ValueError(f"macro_min_samples must be an integer >= 1, got {macro_min_samples!r}")


def _pool(per_label: Mapping[str, Counts], labels: Sequence[str], width: int) -> np.ndarray:
    total = np.zeros(width, dtype=np.int64)
    for label in labels:
        counts = per_label.get(label, ())
        total[: len(counts)] += np.asarray(counts, dtype=np.int64)  # six cells: no drops
    return total


def _pool_groups(
    nested: Mapping[str, Mapping[str, Counts]],
    labels: Sequence[str],
    names: Sequence[str],
    width: int,
) -> dict[str, np.ndarray]:
    """Pooled counts over ``labels`` of each group in ``names`` (zero where ``nested`` lacks it)."""
    return {
        name: _pool(
            {lab: groups[name] for lab, groups in nested.items() if name in groups}, labels, width
        )
        for name in names
    }


def _group_names(nested: Mapping[str, Mapping[str, Counts]]) -> list[str]:
    return sorted({name for groups in nested.values() for name in groups})


def _configuration_counts(
    stats: BindsplitStatistics,
) -> dict[str, tuple[BindsplitStatistics, tuple[str, ...]]]:
    """Reported configuration -> (the statistics it reads, the labels it pools)."""
    found = {config: (stats, labels) for config, labels in LABEL_POOLS.items()}
    if stats.balanced is not None:
        found[BALANCED] = (stats.balanced, SPLIT_LABELS)
    return found


def _settings(options: _Options, macro: bool, hard_positives: bool) -> dict[str, Result]:
    """What a result records of how its intervals were made (the keys of
    ``bindsplit_intervals.SETTINGS_KEYS``)."""
    settings: dict[str, Result] = {
        INTERVAL_METHOD_KEY: options.method,
        GAP_INTERVAL_METHOD_KEY: BOOTSTRAP if options.bootstrap else NEWCOMBE,
    }
    if hard_positives:  # the drop is a proportion of samples: an accuracy's interval
        settings[DROP_INTERVAL_METHOD_KEY] = options.method
    if macro:
        settings[MACRO_INTERVAL_METHOD_KEY] = BOOTSTRAP
    if options.falls_back:
        settings[SMALL_N_INTERVAL_METHOD_KEY] = WILSON
    settings[CONFIDENCE_KEY] = float(options.confidence)
    settings[N_BOOTSTRAP_KEY] = int(options.n_bootstrap)
    settings[SEED_KEY] = int(options.seed)
    return settings


def compute_metrics(
    stats: BindsplitStatistics,
    *,
    n_bootstrap: int = 1000,
    confidence: float = DEFAULT_CONFIDENCE,
    seed: int = 0,
    macro_min_samples: int = 25,
    interval_method: str = DEFAULT_INTERVAL_METHOD,
    small_n_fallback: bool = True,
) -> dict[str, Result]:
    """The flat results dict of the metric.

    For each configuration ``{config}`` (full, seen, unseen, partial, and balanced when the
    statistics have balanced flags): ``{config}/n``; ``{config}/{metric}`` and
    ``{config}/{metric}_ci`` for each accuracy that applies (T2I and group only where every sample
    has at least two images); the gaps ``gap/{metric}`` (seen minus unseen) and
    ``gap_partial/{metric}`` (seen minus partial), each with ``_ci``; breakdowns
    ``{config}/category/{name}/...`` and ``{config}/macro_...`` when categories or macro groups
    were given. Accuracies are fractions in [0, 1].

    Intervals (``[low, high]`` at ``confidence``): ``interval_method`` "wilson" (default) or
    "clopper-pearson" gives each accuracy that closed-form interval and each gap Newcombe's
    hybrid score interval, valid at any n (an accuracy of 0/10 is not [0, 0]); "bootstrap" gives
    both percentile-bootstrap intervals from ``n_bootstrap`` multinomial resamples of the outcome
    counts (0: none), except that an accuracy of fewer than 30 samples or a degenerate count
    (0/n, n/n; where the percentile bootstrap gives a zero-width interval, [1, 1] at n = 1) gets
    its Wilson interval and a gap with such a side Newcombe's, recorded as
    ``small_n_interval_method`` ("wilson"; ``small_n_fallback=False``: bootstrap them too, as
    results computed before the fallback were). Macro averages are always bootstrapped
    (``n_bootstrap`` > 0), seeded per configuration and block so that adding a breakdown or a
    configuration leaves the other intervals unchanged. The settings are part of the result:
    ``interval_method`` ("wilson", "clopper-pearson" or "bootstrap-percentile"),
    ``gap_interval_method`` ("newcombe" or "bootstrap-percentile"), ``macro_interval_method``
    (with macro groups), ``confidence``, ``n_bootstrap``, ``seed`` and
    ``small_n_interval_method`` (see above).

    Statistics with hard positives (``stats.hard_positives``) add, wherever ``i2t`` is reported
    (configurations, categories, macro averages, gaps), ``i2t_original`` (I2T with the
    hard-positive captions left out) and ``i2t_drop`` (``i2t_original - i2t``), each with its
    ``_ci``, and the setting ``drop_interval_method``: the drop is the share of samples right
    without the hard positives and wrong with them (a sample right with them is right without),
    a binomial proportion, so it gets the accuracies' interval (Wilson by default), not a
    difference's.

    >>> # accumulate([[[0.9, 0.1], [0.2, 0.8]], [[0.3, 0.3]]], ["seen", "unseen"]) in the core:
    >>> seen, unseen = (0, 0, 0, 0, 1, 0), (0, 0, 1, 0, 0, 0)
    >>> stats = BindsplitStatistics(splits={"seen": seen, "unseen": unseen})
    >>> results = compute_metrics(stats, n_bootstrap=0)
    >>> results["full/n"], results["full/i2t"], results["seen/group"], results["gap/i2t"]
    (2, 0.5, 1.0, 1.0)
    >>> [round(bound, 4) for bound in results["unseen/i2t_ci"]], results["interval_method"]
    ([0.0, 0.7935], 'wilson')
    >>> "balanced/n" in results, "gap_partial/i2t" in results
    (False, False)
    >>> # accumulate([[[0.9, 0.5, 0.6]], [[0.9, 0.7, 0.6]]], ["seen"] * 2, hard_positives=[1, 1])
    >>> seen = (0, 0, 0, 0, 0, 1, 0, 0, 1)  # one right, one dropped
    >>> hard = BindsplitStatistics(splits={"seen": seen}, hard_positives=True)
    >>> results = compute_metrics(hard, n_bootstrap=0)
    >>> results["seen/i2t"], results["seen/i2t_original"], results["seen/i2t_drop"]
    (0.5, 1.0, 0.5)
    >>> results["drop_interval_method"]
    'wilson'
    """
    _check_options(n_bootstrap, confidence, seed, macro_min_samples)
    method = interval_method_name(interval_method)
    options = _Options(method, n_bootstrap, confidence, seed, bool(small_n_fallback))
    results: dict[str, Result] = {}
    estimates: dict[str, dict[str, _Estimate]] = {}
    category_names = _group_names(stats.categories)

    def report(prefix: str, found: Mapping[str, _Estimate]) -> None:
        for suffix, estimate in found.items():
            results[f"{prefix}/{suffix}"] = estimate.point
            if estimate.interval is not None:
                results[f"{prefix}/{suffix}_ci"] = estimate.interval
            elif estimate.draws is not None:
                results[f"{prefix}/{suffix}_ci"] = _interval(estimate.draws, confidence)

    width = stats.n_cells
    for config, (source, labels) in _configuration_counts(stats).items():
        found: dict[str, _Estimate] = {}
        counts = _pool(source.splits, labels, width)
        results[f"{config}/n"] = int(counts.sum())
        if counts.sum():
            pooled = _pooled_estimates(counts, options, _rng(seed, config))
            report(config, pooled)
            found.update(pooled)
        if stats.macro_groups:
            names = _group_names(source.macro_groups)
            groups = _pool_groups(source.macro_groups, labels, names, width)
            kept = np.array(
                [c for c in groups.values() if c.sum() >= macro_min_samples], dtype=np.int64
            ).reshape(-1, width)
            results[f"{config}/macro_n_groups"] = len(kept)
            results[f"{config}/macro_n"] = int(kept.sum())
            if len(kept):
                macro = _macro_estimates(kept, n_bootstrap, _rng(seed, config, "macro"))
                report(config, macro)
                found.update(macro)
        for name, counts in _pool_groups(source.categories, labels, category_names, width).items():
            prefix = f"category/{name}"
            results[f"{config}/{prefix}/n"] = int(counts.sum())
            if counts.sum():
                block = _pooled_estimates(counts, options, _rng(seed, config, prefix))
                report(f"{config}/{prefix}", block)
                found.update({f"{prefix}/{metric}": value for metric, value in block.items()})
        estimates[config] = found

    for gap, (minuend, subtrahend) in GAPS.items():
        first, second = estimates[minuend], estimates[subtrahend]
        report(
            gap,
            {key: _difference(first[key], second[key], options) for key in first if key in second},
        )
    results.update(_settings(options, bool(stats.macro_groups), stats.hard_positives))
    return results
