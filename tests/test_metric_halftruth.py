"""The half-truth metrics (AccHT, Δ, refinement accuracy) against a hand computation on a fixed
score matrix, their intervals against their definitions, and their way through a results record,
the results table and the leaderboard."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bindsplit_datasets.metric_core import newcombe_interval
from bindsplit_datasets.metric_halftruth import (
    halftruth_metrics,
    halftruth_outcome_metrics,
    halftruth_outcomes,
    halftruth_samples,
    outcomes_from_samples,
    t_interval,
    welch_interval,
)
from bindsplit_datasets.reports import format_comparison
from bindsplit_datasets.reports.halftruth_tables import format_halftruth_table
from bindsplit_datasets.reports.results_table import results_table, table_records

#: [s(I, anchor), s(I, refinement), s(I, half-truth)] per sample, its foil's familiarity and
#: its kind/edit; by hand: AccHT (anchor > half-truth), Δ (anchor - half-truth), refinement
#: accuracy (refinement > half-truth)
SCORES = [
    [[0.30, 0.40, 0.20]],  # AccHT 1, Δ +0.10, ref 1
    [[0.30, 0.25, 0.35]],  # AccHT 0, Δ -0.05, ref 0
    [[0.50, 0.45, 0.50]],  # a tie: AccHT 0, Δ 0, ref 0
    [[0.20, 0.30, 0.10]],  # AccHT 1, Δ +0.10, ref 1
    [[0.40, 0.35, 0.30]],  # AccHT 1, Δ +0.10, ref 1
    [[0.10, 0.20, 0.25]],  # AccHT 0, Δ -0.15, ref 0
    [[0.60, 0.20, 0.30]],  # AccHT 1, Δ +0.30, ref 0
]
LABELS = ["seen", "seen", "seen", "unseen", "unseen", "unseen", "unseen"]
CATEGORIES = [
    "entity/attribute",
    "entity/object",
    "relation/swap",
    "entity/attribute",
    "relation/relation",
    "relation/argument",
    "relation/swap",
]
ACC_HT = [1, 0, 0, 1, 1, 0, 1]
DELTA = [0.10, -0.05, 0.0, 0.10, 0.10, -0.15, 0.30]
REF_ACC = [1, 0, 0, 1, 1, 0, 0]
#: two-sided 95% Student t quantiles (tables) and the normal one
T_975 = {1: 12.706204736174707, 2: 4.302652729749464, 3: 3.182446305284263, 6: 2.446911848791681}
Z_975 = 1.959963984540054


def _wilson(successes: int, n: int) -> tuple[float, float]:
    p = successes / n
    centre = (p + Z_975**2 / (2 * n)) / (1 + Z_975**2 / n)
    half = Z_975 * math.sqrt(p * (1 - p) / n + Z_975**2 / (4 * n * n)) / (1 + Z_975**2 / n)
    return centre - half, centre + half


def _mean_interval(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = T_975[n - 1] * sd / math.sqrt(n)
    return mean - half, mean + half


def test_outcomes_equal_the_hand_computation():
    outcomes = halftruth_outcomes(SCORES)
    assert outcomes.acc_ht.astype(int).tolist() == ACC_HT
    assert np.allclose(outcomes.delta, DELTA, atol=1e-12)
    assert outcomes.ref_acc is not None and outcomes.ref_acc.astype(int).tolist() == REF_ACC
    plain = halftruth_outcomes([[[s[0][0], s[0][2]]] for s in SCORES])  # no refinement
    assert plain.ref_acc is None and plain.acc_ht.astype(int).tolist() == ACC_HT


def test_metrics_equal_the_hand_computation_on_a_fixed_score_matrix():
    metrics = halftruth_metrics(SCORES, LABELS, CATEGORIES)
    for config, members in (
        ("full", range(7)),
        ("seen", range(3)),
        ("unseen", range(3, 7)),
    ):
        picked = list(members)
        n = len(picked)
        assert metrics[f"{config}/n"] == n
        right = sum(ACC_HT[i] for i in picked)
        assert metrics[f"{config}/acc_ht"] == pytest.approx(right / n)
        assert metrics[f"{config}/acc_ht_ci"] == pytest.approx(_wilson(right, n))
        deltas = [DELTA[i] for i in picked]
        assert metrics[f"{config}/delta"] == pytest.approx(sum(deltas) / n)
        assert metrics[f"{config}/delta_ci"] == pytest.approx(_mean_interval(deltas))
        refined = sum(REF_ACC[i] for i in picked)
        assert metrics[f"{config}/ref_acc"] == pytest.approx(refined / n)
    # AccHT: seen 1/3, unseen 3/4; Δ: seen 0.05/3, unseen 0.35/4
    assert metrics["gap/acc_ht"] == pytest.approx(1 / 3 - 3 / 4)
    assert metrics["gap/acc_ht_ci"] == pytest.approx(newcombe_interval(1, 3, 3, 4))
    assert metrics["gap/delta"] == pytest.approx(0.05 / 3 - 0.35 / 4)
    assert metrics["gap/ref_acc"] == pytest.approx(1 / 3 - 2 / 4)
    # by kind and by edit
    assert metrics["full/kind/entity/n"] == 3 and metrics["full/kind/relation/n"] == 4
    assert metrics["full/kind/entity/acc_ht"] == pytest.approx(2 / 3)
    assert metrics["unseen/kind/relation/delta"] == pytest.approx((0.10 - 0.15 + 0.30) / 3)
    assert metrics["full/category/relation/swap/acc_ht"] == pytest.approx(1 / 2)
    assert metrics["full/category/relation/swap/delta"] == pytest.approx(0.15)
    assert metrics["seen/category/relation/relation/n"] == 0
    assert "seen/category/relation/relation/acc_ht" not in metrics
    assert metrics["gap/kind/entity/acc_ht"] == pytest.approx(1 / 2 - 1)
    # one sample a side: a mean with no interval, a gap without one
    assert "seen/kind/entity/delta" in metrics and "full/category/entity/object/delta_ci" not in (
        metrics
    )
    assert metrics["delta_interval_method"] == "student-t"
    assert metrics["delta_gap_interval_method"] == "welch"


def test_the_metrics_of_a_records_samples_are_those_of_its_scores():
    samples = halftruth_samples(halftruth_outcomes(SCORES), CATEGORIES)
    assert samples["acc_ht"] == ACC_HT and samples["ref_acc"] == REF_ACC
    assert samples["delta"] == pytest.approx(DELTA) and samples["category"] == CATEGORIES
    stored = json.loads(json.dumps(samples))  # as a results record keeps them
    again = halftruth_outcome_metrics(outcomes_from_samples(stored), LABELS, stored["category"])
    assert again == halftruth_metrics(SCORES, LABELS, CATEGORIES)  # every number, exactly


def test_t_and_welch_intervals_follow_their_definitions():
    values = [0.10, -0.05, 0.0]
    assert t_interval(values) == pytest.approx(_mean_interval(values))
    assert t_interval([0.2]) is None
    a, b = [0.10, -0.05, 0.0], [0.10, 0.10, -0.15, 0.30]
    va, vb = np.var(a, ddof=1) / 3, np.var(b, ddof=1) / 4
    df = (va + vb) ** 2 / (va**2 / 2 + vb**2 / 3)
    scipy = pytest.importorskip("scipy.stats")
    half = scipy.t.ppf(0.975, df) * math.sqrt(va + vb)
    difference = np.mean(a) - np.mean(b)
    assert welch_interval(a, b) == pytest.approx((difference - half, difference + half))
    assert welch_interval([1.0, 1.0], [0.0, 0.0]) == (1.0, 1.0)
    for df in T_975:
        assert scipy.t.ppf(0.975, df) == pytest.approx(T_975[df])


def test_bad_scores_and_labels_are_refused():
    with pytest.raises(ValueError, match="1 x 3 matrices"):
        halftruth_outcomes([[[0.1, 0.2], [0.3, 0.4]]])
    with pytest.raises(ValueError, match="sample 1: every score must be a finite number"):
        halftruth_outcomes([[[0.1, 0.2, 0.3]], [[0.1, float("nan"), 0.3]]])
    with pytest.raises(ValueError, match="7 score matrices but 2 split labels"):
        halftruth_metrics(SCORES, LABELS[:2])


def _record(model: str, scores: list) -> dict:
    """A results record of a half-truth build whose metrics the metric made (as evaluation
    does)."""
    from bindsplit_datasets.metric_core import accumulate, compute_metrics

    metrics = compute_metrics(accumulate(scores, LABELS, CATEGORIES), n_bootstrap=0)
    metrics.update(halftruth_metrics(scores, LABELS, CATEGORIES))
    return {
        "format": "bindsplit-results/1",
        "model": {"id": model, "revision": None, "scored_by": "imported"},
        "dataset": {"benchmark": "halftruth", "data": "ht", "fingerprint": "f", "config": "full"},
        "metrics": metrics,
        "samples": {
            "id": [str(i) for i in range(len(scores))],
            "label": LABELS,
            "i2t": [0] * len(scores),
            **halftruth_samples(halftruth_outcomes(scores), CATEGORIES),
        },
    }


def test_halftruth_metrics_reach_the_results_table_and_the_leaderboard():
    first = _record("model-a", SCORES)
    second = _record("model-b", [[[s[0][2], s[0][1], s[0][0]]] for s in SCORES])
    table = results_table([first, second])
    rows = [row for row in table.to_pylist() if row["model"] == "model-a"]
    found = {(row["configuration"], row["metric"]): row for row in rows}
    assert found[("full", "acc_ht")]["value"] == pytest.approx(4 / 7)
    assert found[("full", "acc_ht")]["interval_method"] == "wilson"
    assert found[("full", "delta")]["interval_method"] == "student-t"
    assert found[("gap_seen_unseen", "delta")]["interval_method"] == "welch"
    assert found[("gap_seen_unseen", "acc_ht")]["interval_method"] == "newcombe"
    assert found[("seen", "delta")]["small_n"] and found[("full", "i2t")]["interval_method"]
    back = table_records(table)[0]["metrics"]
    assert back["full/ref_acc"] == pytest.approx(first["metrics"]["full/ref_acc"])
    assert back["interval_method"] == "wilson"  # the accuracies' method is kept apart
    board = format_comparison([first, second], "acc_ht", configs=("full", "seen", "unseen"))
    assert "AccHT accuracy, 2 models" in board and "model-a" in board
    table_text = format_halftruth_table(first)
    assert "entity    seen - unseen" in table_text and "relation/swap" in table_text
    assert "Δ Student t, its gap Welch t" in table_text


def test_the_leaderboard_ranks_halftruth_builds_by_their_own_metrics():
    """The leaderboard Space's board (ranks, intervals, the seen - unseen gap) and the view
    across benchmarks rank a half-truth build by AccHT and refinement accuracy too."""
    from report_records import genuine_halftruth_record, genuine_record

    from bindsplit_datasets.reports.leaderboard_across import across_benchmarks
    from bindsplit_datasets.reports.leaderboard_view import benchmark_metrics, board

    records = [
        genuine_halftruth_record("org/a", 0),
        genuine_halftruth_record("org/b", 1),
        genuine_record("org/a", 0),
        genuine_record("org/b", 1),
    ]
    assert benchmark_metrics(records, "halftruth") == ["i2t", "acc_ht", "ref_acc"]
    found = board(records, "halftruth", "acc_ht")
    assert list(found.rows) == ["full", "seen", "unseen"]
    by_model = {row["model"]: row for row in found.rows["full"]}
    for record in records[:2]:
        metrics = record["metrics"]
        row = by_model[record["model"]["id"]]
        assert row["accuracy"] == pytest.approx(100 * metrics["full/acc_ht"])
        entry = next(e for e in found.models if e["model"] == record["model"]["id"])
        assert entry["gap"] == pytest.approx(100 * metrics["gap/acc_ht"])
        assert entry["gap_low"] == pytest.approx(100 * metrics["gap/acc_ht_ci"][0])
    across = across_benchmarks(records, "acc_ht")
    assert across.benchmarks == ["halftruth"] and "bivlc" in across.left_out
