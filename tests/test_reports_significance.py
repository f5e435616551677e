"""The paired bootstrap behind rank moves: exact cases, agreement with a naive index-resampling
loop, symmetry, shared-sample selection per configuration, and the interval test of table rows."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from report_records import record, record_from_samples

from bindsplit_datasets.reports.significance import (
    METHOD_INTERVALS,
    METHOD_PAIRED,
    METHOD_UNTESTED,
    PairedDifference,
    paired_bootstrap,
    separate,
    shared_outcomes,
)


def naive_paired_bootstrap(
    first: np.ndarray, second: np.ndarray, n_bootstrap: int, confidence: float, seed: int
) -> tuple[float, float]:
    """Reference: one loop iteration per resample, drawing sample indices with replacement."""
    rng = np.random.default_rng(seed)
    n = len(first)
    differences = []
    for _ in range(n_bootstrap):
        index = rng.integers(0, n, size=n)
        differences.append(first[index].mean() - second[index].mean())
    tail = (1 - confidence) / 2
    low, high = np.quantile(differences, [tail, 1 - tail])
    return float(low), float(high)


def test_identical_outcomes_are_never_separated() -> None:
    outcomes = [1, 0, 1, 1, 0] * 40
    result = paired_bootstrap(outcomes, outcomes)
    assert result == PairedDifference(0.0, (0.0, 0.0), 200, 0.95)
    assert result.sign == 0


def test_one_model_better_on_200_paired_samples_is_separated() -> None:
    # both right on 100 samples, only the first on 20 more, neither on the other 80
    first = [1] * 120 + [0] * 80
    second = [1] * 100 + [0] * 100
    result = paired_bootstrap(first, second)
    assert result.difference == pytest.approx(0.1) and result.n == 200
    assert result.interval[0] > 0 and result.sign == 1
    assert paired_bootstrap(second, first).sign == -1
    # everything right against everything wrong: every resample differs by exactly 1
    assert paired_bootstrap([1] * 200, [0] * 200).interval == (1.0, 1.0)


def test_one_discordant_sample_is_noise() -> None:
    # a resample misses the single discordant sample with probability (1 - 1/200)^200 ~ 37%
    result = paired_bootstrap([1] + [0] * 199, [0] * 200)
    assert result.difference == 0.005 and result.interval[0] == 0.0 and result.sign == 0


@pytest.mark.parametrize(
    ("n", "first_rate", "second_rate", "agreement", "confidence"),
    [
        (50, 0.6, 0.5, 0.3, 0.95),
        (200, 0.7, 0.6, 0.5, 0.95),
        (300, 0.5, 0.5, 0.2, 0.9),
        (120, 0.9, 0.4, 0.0, 0.99),
    ],
)
def test_agrees_with_the_naive_index_resampling_loop(
    n: int, first_rate: float, second_rate: float, agreement: float, confidence: float
) -> None:
    rng = np.random.default_rng(n)
    first = rng.random(n) < first_rate
    second = np.where(rng.random(n) < agreement, first, rng.random(n) < second_rate)
    expected = naive_paired_bootstrap(
        first.astype(float), second.astype(float), 4000, confidence, seed=0
    )
    result = paired_bootstrap(first, second, n_bootstrap=4000, confidence=confidence)
    assert result.difference == pytest.approx(first.mean() - second.mean())
    # both are Monte Carlo estimates of the same quantiles, on a grid of step 1/n
    assert result.interval == pytest.approx(expected, abs=2 / n)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="equally long, non-empty"):
        paired_bootstrap([1, 0], [1])
    with pytest.raises(ValueError, match="equally long, non-empty"):
        paired_bootstrap([], [])
    with pytest.raises(ValueError, match="confidence in"):
        paired_bootstrap([1], [0], confidence=95)


# --- which samples are compared -------------------------------------------------------------


def sampled(model: str, ids: list[str], labels: list[str], i2t: list[int], **extra: Any):
    value = record_from_samples(model, labels, i2t, extra.pop("t2i", None), ids=ids)
    value["samples"].update(extra)
    return value


def test_shared_outcomes_match_ids_and_restrict_to_the_configuration() -> None:
    first = sampled(
        "a",
        ["x", "y", "z", "w"],
        ["seen", "unseen", "seen", "unseen"],
        [1, 1, 0, 0],
        t2i=[1, 0, 1, 0],
        balanced=[True, True, False, True],
    )
    # the same build's samples in another order, one missing
    second = sampled(
        "b",
        ["w", "z", "x"],
        ["unseen", "seen", "seen"],
        [1, 1, 0],
        t2i=[1, 1, 1],
        balanced=[True, False, True],
    )

    def shared(config: str, metric: str = "i2t") -> tuple[list[int], list[int]]:
        pair = shared_outcomes(first, second, config, metric)
        assert pair is not None
        return pair[0].astype(int).tolist(), pair[1].astype(int).tolist()

    assert shared("full") == ([1, 0, 0], [0, 1, 1])  # x, z, w in the first record's order
    assert shared("seen") == ([1, 0], [0, 1])
    assert shared("unseen") == ([0], [1])
    assert shared("balanced") == ([1, 0], [0, 1])  # x and w carry the flag in both records
    assert shared("full", "t2i") == ([1, 1, 0], [1, 1, 1])
    assert shared("full", "group") == ([1, 0, 0], [0, 1, 1])


def test_no_shared_outcomes_without_samples_or_t2i() -> None:
    with_samples = sampled("a", ["x"], ["seen"], [1])
    assert shared_outcomes(with_samples, with_samples, "full", "t2i") is None
    bare = record("b", {"full": {"i2t": 0.5}})
    assert shared_outcomes(with_samples, bare, "full", "i2t") is None


# --- separate: the decision, paired or by intervals -------------------------------------------


def test_separate_is_symmetric_and_paired_where_possible() -> None:
    labels = ["unseen"] * 200
    better = record_from_samples("m1", labels, [1] * 120 + [0] * 80)
    worse = record_from_samples("m2", labels, [1] * 100 + [0] * 100)
    forward, backward = (
        separate(better, worse, "unseen", "i2t"),
        separate(worse, better, "unseen", "i2t"),
    )
    assert (forward.sign, forward.method) == (1, METHOD_PAIRED)
    assert backward.sign == -1 and backward.paired == forward.paired.negated()
    # intervals of +-0.10 around 0.60 and 0.50 overlap, yet the pairs separate them
    assert better["metrics"]["unseen/i2t_ci"][0] < worse["metrics"]["unseen/i2t_ci"][1]


def test_separate_falls_back_to_intervals_then_to_untested() -> None:
    high = record("h", {"full": {"i2t": 0.8}})
    low = record("l", {"full": {"i2t": 0.6}})
    close = record("c", {"full": {"i2t": 0.75}})
    assert (separate(high, low, "full", "i2t").sign, separate(high, low, "full", "i2t").method) == (
        1,
        METHOD_INTERVALS,
    )
    assert separate(low, high, "full", "i2t").sign == -1
    assert separate(high, close, "full", "i2t").sign == 0
    bare = record("b", {"full": {"i2t": 0.1}}, width=None)
    assert separate(high, bare, "full", "i2t").method == METHOD_UNTESTED
    assert separate(high, bare, "full", "i2t").sign == 0
