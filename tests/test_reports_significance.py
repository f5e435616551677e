"""The exact McNemar test behind rank moves: exact p-values on hand-made outcome vectors,
agreement with naive binomial sums, the comparison with the paired bootstrap it replaced,
symmetry, shared-sample selection per configuration, and the interval test of table rows."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from report_records import record, record_from_samples

from bindsplit_datasets.reports.significance import (
    METHOD_INTERVALS,
    METHOD_PAIRED,
    METHOD_UNTESTED,
    PairedTest,
    mcnemar_exact,
    separate,
    shared_outcomes,
)


def naive_two_sided_p(b: int, c: int) -> float:
    """Reference: twice the smaller binomial(b + c, 1/2) tail, by exact integer sums."""
    m = b + c
    tail = sum(math.comb(m, k) for k in range(min(b, c) + 1))
    return min(1.0, 2 * tail / 2**m)


def naive_paired_bootstrap_low(first: list[int], second: list[int], seed: int = 0) -> float:
    """The 2.5% quantile of the paired percentile bootstrap this test replaced, by resampling
    sample indices."""
    rng = np.random.default_rng(seed)
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    n = len(a)
    draws = [np.mean(a[index] - b[index]) for index in rng.integers(0, n, size=(4000, n))]
    return float(np.quantile(draws, 0.025))


def test_identical_outcomes_are_never_separated() -> None:
    outcomes = [1, 0, 1, 1, 0] * 40
    result = mcnemar_exact(outcomes, outcomes)
    assert result == PairedTest(0.0, 200, 0, 0, 1.0, 0.95)
    assert result.sign == 0


@pytest.mark.parametrize(
    ("first", "second", "b", "c", "p_value"),
    [
        # 4 discordant samples, all for the first model: p = 2 / 2^4
        ([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], [0] * 10, 4, 0, 0.125),
        # 6 for the first, 0 for the second: p = 2 / 2^6 = 0.03125
        ([1] * 6 + [1, 0, 1, 0], [0] * 6 + [1, 0, 1, 0], 6, 0, 0.03125),
        # 5 against 1: p = 2 * (1 + 6) / 2^6 = 0.21875
        ([1, 1, 1, 1, 1, 0, 1, 1], [0, 0, 0, 0, 0, 1, 1, 1], 5, 1, 0.21875),
        # 2 against 2: p = 1
        ([1, 1, 0, 0, 1], [0, 0, 1, 1, 1], 2, 2, 1.0),
    ],
)
def test_exact_p_values_on_hand_made_outcomes(first, second, b, c, p_value) -> None:
    result = mcnemar_exact(first, second)
    assert (result.only_first, result.only_second, result.n) == (b, c, len(first))
    assert result.p_value == pytest.approx(p_value, abs=1e-12)
    assert result.difference == pytest.approx((b - c) / len(first))
    assert result.sign == (1 if p_value < 0.05 else 0)
    assert mcnemar_exact(second, first).sign == -result.sign
    assert mcnemar_exact(second, first) == result.negated()


def test_confidence_decides() -> None:
    first, second = [1] * 5 + [0] * 5, [0] * 10  # 5 against 0: p = 2 / 32 = 0.0625
    assert mcnemar_exact(first, second, confidence=0.9).sign == 1
    assert mcnemar_exact(first, second, confidence=0.95).sign == 0


@pytest.mark.parametrize(("b", "c"), [(0, 1), (3, 9), (17, 30), (120, 80), (400, 361)])
def test_agrees_with_naive_binomial_sums(b: int, c: int) -> None:
    first = [1] * b + [0] * c + [1] * 7
    second = [0] * b + [1] * c + [1] * 7
    assert mcnemar_exact(first, second).p_value == pytest.approx(naive_two_sided_p(b, c), rel=1e-9)


def test_the_paired_bootstrap_it_replaced_calls_noise_real_at_small_n() -> None:
    """4 of 10 samples favour one model, none the other: the bootstrap's interval excludes 0,
    while a fair coin gives such a split one time in eight."""
    first, second = [1] * 4 + [0] * 6, [0] * 10
    assert naive_paired_bootstrap_low(first, second) > 0
    assert mcnemar_exact(first, second).sign == 0
    # at large n the two agree: 60 against 20 of 400
    first, second = [1] * 60 + [0] * 20 + [1] * 320, [0] * 60 + [1] * 20 + [1] * 320
    assert naive_paired_bootstrap_low(first, second) > 0
    assert mcnemar_exact(first, second).sign == 1


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="equally long, non-empty"):
        mcnemar_exact([1, 0], [1])
    with pytest.raises(ValueError, match="equally long, non-empty"):
        mcnemar_exact([], [])
    with pytest.raises(ValueError, match="confidence must be in"):
        mcnemar_exact([1], [0], confidence=95)


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
