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
"""Confidence intervals that hold at any n: score intervals for proportions and their difference.

BindSplit's headline numbers live in its smallest split (tens of unseen samples), where the
percentile bootstrap collapses: at 0/10 it gives [0, 0], and its coverage at n = 20, p = 0.05 is
about 65%. An accuracy is a binomial proportion, so it gets a closed-form interval:

- :func:`wilson_interval` (the default): the Wilson score interval, never degenerate, coverage
  close to nominal from n of about 10 (Brown, Cai & DasGupta 2001);
- :func:`clopper_pearson_interval`: the exact (conservative) interval from beta quantiles;
- :func:`newcombe_interval`: the difference of two independent proportions (the gap of seen and
  unseen, disjoint samples), Newcombe's hybrid score interval (1998, method 10).

The bootstrap stays for what has no closed form (macro averages over groups) and as an option.
The names under which a result records how its intervals were made are defined here, once:
:data:`INTERVAL_METHOD_KEY` and the others; the package reads them through ``metric_core``.
Standard library only (``math``, ``statistics``), like the rest of the metric folder's numpy core.
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = [
    "BOOTSTRAP",
    "CLOPPER_PEARSON",
    "CONFIDENCE_KEY",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_INTERVAL_METHOD",
    "DROP_INTERVAL_METHOD_KEY",
    "GAP_INTERVAL_METHOD_KEY",
    "HARD_POSITIVE_SETTINGS_KEYS",
    "INTERVAL_METHODS",
    "INTERVAL_METHOD_KEY",
    "INTERVAL_METHOD_OPTIONS",
    "MACRO_INTERVAL_METHOD_KEY",
    "NEWCOMBE",
    "N_BOOTSTRAP_KEY",
    "PROPORTION_INTERVALS",
    "SEED_KEY",
    "SETTINGS_KEYS",
    "SMALL_N",
    "SMALL_N_INTERVAL_METHOD_KEY",
    "WILSON",
    "clopper_pearson_interval",
    "interval_method_name",
    "is_small_sample",
    "newcombe_interval",
    "beta_quantile",
    "proportion_interval",
    "regularized_beta",
    "wilson_interval",
]

WILSON = "wilson"
"""The Wilson score interval of a proportion (the default)."""
CLOPPER_PEARSON = "clopper-pearson"
"""The exact Clopper-Pearson interval of a proportion (conservative)."""
BOOTSTRAP = "bootstrap-percentile"
"""The percentile bootstrap (multinomial resamples of the outcome counts)."""
NEWCOMBE = "newcombe"
"""Newcombe's hybrid score interval for a difference of independent proportions (method 10)."""

DEFAULT_INTERVAL_METHOD = WILSON
DEFAULT_CONFIDENCE = 0.95
"""The level of every interval unless another is asked for."""
INTERVAL_METHODS: tuple[str, ...] = (WILSON, CLOPPER_PEARSON, BOOTSTRAP)
"""The values of a result's ``interval_method``."""
_ALIASES = {"bootstrap": BOOTSTRAP}
INTERVAL_METHOD_OPTIONS: tuple[str, ...] = (WILSON, CLOPPER_PEARSON, *_ALIASES)
"""The values the ``interval_method`` option takes ("bootstrap" is recorded as
"bootstrap-percentile")."""

# the keys of a results dict (and of a results record's metrics) that say how its intervals
# were made; not ``{config}/...`` keys, so no configuration is named after them
INTERVAL_METHOD_KEY = "interval_method"
"""How each accuracy's interval was made: one of :data:`INTERVAL_METHODS`."""
GAP_INTERVAL_METHOD_KEY = "gap_interval_method"
"""How each gap's interval was made: :data:`NEWCOMBE`, or :data:`BOOTSTRAP`."""
DROP_INTERVAL_METHOD_KEY = "drop_interval_method"
"""How each hard-positive drop's interval (``{config}/i2t_drop_ci``) was made: the drop is a
proportion of samples (those right without the hard positives and wrong with them), so one of
:data:`INTERVAL_METHODS`, the accuracies' own; only with hard positives."""
MACRO_INTERVAL_METHOD_KEY = "macro_interval_method"
"""How the macro averages' intervals were made (always :data:`BOOTSTRAP`); only with macro
groups."""
CONFIDENCE_KEY = "confidence"
"""The intervals' confidence level, e.g. 0.95."""
N_BOOTSTRAP_KEY = "n_bootstrap"
"""Bootstrap resamples (of the macro averages, or of everything with ``interval_method``
bootstrap)."""
SEED_KEY = "seed"
"""The bootstrap's seed."""
SMALL_N_INTERVAL_METHOD_KEY = "small_n_interval_method"
"""With bootstrapped accuracies: how those resting on a small or degenerate sample
(:func:`is_small_sample`) got their interval instead, :data:`WILSON` (the percentile bootstrap
gives 1/1 a zero-width "95%" interval), and a gap with such a side :data:`NEWCOMBE`'s; absent
otherwise (and in results computed before the fallback)."""
SETTINGS_KEYS: tuple[str, ...] = (
    INTERVAL_METHOD_KEY,
    GAP_INTERVAL_METHOD_KEY,
    MACRO_INTERVAL_METHOD_KEY,
    CONFIDENCE_KEY,
    N_BOOTSTRAP_KEY,
    SEED_KEY,
    SMALL_N_INTERVAL_METHOD_KEY,
)
"""Every key of a results dict that is a setting, not a number of a configuration (with
:data:`HARD_POSITIVE_SETTINGS_KEYS` where samples have hard positives)."""
HARD_POSITIVE_SETTINGS_KEYS: tuple[str, ...] = (DROP_INTERVAL_METHOD_KEY,)
"""The settings a results dict has only where samples have hard positives."""


SMALL_N = 30
"""Below this many samples an accuracy is flagged as resting on a small sample (its interval is
valid but wide, and one sample moves it by more than 3 points)."""


def is_small_sample(successes: int, n: int) -> bool:
    """Whether ``successes / n`` deserves a flag: fewer than :data:`SMALL_N` samples, or a
    degenerate count (0/n or n/n, where every interval leans on one side).

    >>> is_small_sample(5, 29), is_small_sample(0, 500), is_small_sample(499, 500)
    (True, True, False)
    """
    return n < SMALL_N or successes in (0, n)


def interval_method_name(method: str) -> str:
    """The recorded name of an ``interval_method`` option ("bootstrap" is
    "bootstrap-percentile"); a ValueError lists the valid ones."""
    name = _ALIASES.get(method, method) if isinstance(method, str) else method
    if name not in INTERVAL_METHODS:
        raise ValueError(
            f"interval_method must be one of {', '.join(INTERVAL_METHOD_OPTIONS)}, got {method!r}"
        )
    return name


def _check(successes: int, n: int, confidence: float) -> None:
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"a proportion needs 0 <= successes <= n and n >= 1, got {successes}/{n}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")


def _z(confidence: float) -> float:
    """The two-sided standard normal quantile of ``confidence`` (1.959964 at 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of ``successes / n``.

    >>> [round(bound, 4) for bound in wilson_interval(0, 10)]
    [0.0, 0.2775]
    >>> [round(bound, 4) for bound in wilson_interval(1, 10)]
    [0.0179, 0.4042]
    """
    _check(successes, n, confidence)
    z2 = _z(confidence) ** 2
    centre = (successes + z2 / 2.0) / (n + z2)
    half = math.sqrt(z2) / (n + z2) * math.sqrt(successes * (n - successes) / n + z2 / 4.0)
    # the bounds are exact at 0/n and n/n; rounding must not push them past [0, 1]
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny, eps = 1e-300, 1e-15
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 100_000):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < eps:
            break
    return result


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (the Beta(a, b) CDF at ``x``)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(a * math.log(x) + b * math.log1p(-x) - _log_beta(a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(1.0 - x, b, a) / b


def beta_quantile(q: float, a: float, b: float) -> float:
    """The ``q`` quantile of Beta(a, b), by bisection on :func:`regularized_beta` (to 1e-12)."""
    low, high = 0.0, 1.0
    while high - low > 1e-12:
        middle = (low + high) / 2.0
        if regularized_beta(middle, a, b) < q:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


def clopper_pearson_interval(
    successes: int, n: int, confidence: float = 0.95
) -> tuple[float, float]:
    """The exact Clopper-Pearson interval of ``successes / n``: beta quantiles, each tail at most
    ``(1 - confidence) / 2``.

    >>> [round(bound, 4) for bound in clopper_pearson_interval(0, 10)]
    [0.0, 0.3085]
    """
    _check(successes, n, confidence)
    tail = (1.0 - confidence) / 2.0
    low = 0.0 if successes == 0 else beta_quantile(tail, successes, n - successes + 1)
    high = 1.0 if successes == n else beta_quantile(1.0 - tail, successes + 1, n - successes)
    return low, high


PROPORTION_INTERVALS = {WILSON: wilson_interval, CLOPPER_PEARSON: clopper_pearson_interval}
"""The closed-form interval of a proportion, by method name."""


def proportion_interval(
    successes: int, n: int, confidence: float = 0.95, method: str = DEFAULT_INTERVAL_METHOD
) -> tuple[float, float]:
    """The interval of ``successes / n`` by a closed-form ``method`` (:data:`WILSON` or
    :data:`CLOPPER_PEARSON`)."""
    if method not in PROPORTION_INTERVALS:
        raise ValueError(
            f"no closed-form interval named {method!r}; valid: {', '.join(PROPORTION_INTERVALS)}"
        )
    return PROPORTION_INTERVALS[method](successes, n, confidence)


def newcombe_interval(
    successes_a: int, n_a: int, successes_b: int, n_b: int, confidence: float = 0.95
) -> tuple[float, float]:
    """Newcombe's hybrid score interval of ``successes_a / n_a - successes_b / n_b`` for two
    independent samples (method 10 of Newcombe 1998): the Wilson limits of each proportion
    combined by squares.

    >>> [round(bound, 4) for bound in newcombe_interval(0, 10, 1, 10)]
    [-0.4042, 0.1894]
    """
    p_a, p_b = successes_a / n_a, successes_b / n_b
    low_a, high_a = wilson_interval(successes_a, n_a, confidence)
    low_b, high_b = wilson_interval(successes_b, n_b, confidence)
    difference = p_a - p_b
    low = difference - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2)
    high = difference + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2)
    return max(-1.0, low), min(1.0, high)
