"""Hard positives in the metric (seed 003; docs/protocol.md section 5): I2T with them, the
original I2T without them and the drop between the two, computed by hand on fixed score matrices
and against a naive per-sample reference, through the functional core and `evaluate.load` of the
metric folder; samples without hard positives give exactly the results of no hard positives."""

from __future__ import annotations

import doctest
import itertools
import json
import math
import pickle
import sys
from pathlib import Path
from statistics import NormalDist

import evaluate
import numpy as np
import pytest

from bindsplit_datasets import metric_core

pytestmark = pytest.mark.filterwarnings("error")

REPO_METRIC = Path(__file__).resolve().parents[1] / "metrics" / "bindsplit"
LABELS = ("seen", "unseen", "partial", "none")
HARD_KEYS = ("i2t_original", "i2t_drop")

# SugarCrepe++-shaped samples: 1 image x [positive, hard positive, negative], h = 1. Each line:
# the matrix, its label, then by hand I2T with the hard positive and without it (the original).
HAND = [
    ([[0.9, 0.8, 0.5]], "seen", True, True),  # both positives above the negative
    ([[0.9, 0.4, 0.5]], "seen", False, True),  # the hard positive loses: dropped
    ([[0.6, 0.7, 0.6]], "seen", False, False),  # positive ties the negative: wrong both ways
    ([[0.7, 0.5, 0.5]], "unseen", False, True),  # hard positive ties the negative: dropped
    ([[0.3, 0.9, 0.8]], "partial", False, False),  # the positive loses: wrong both ways
    ([[0.8, 0.8, 0.2]], "unseen", True, True),  # two right captions tied: not a tie, right
]


def load(config_name: str | None = None, **kwargs) -> evaluate.EvaluationModule:
    return evaluate.load(str(REPO_METRIC), config_name, **kwargs)


@pytest.fixture(scope="module")
def metric_cache(tmp_path_factory) -> str:
    return str(tmp_path_factory.mktemp("metric_cache"))


def points(results: dict) -> dict:
    """Results without intervals and settings."""
    settings = {*metric_core.SETTINGS_KEYS, *metric_core.HARD_POSITIVE_SETTINGS_KEYS}
    return {k: v for k, v in results.items() if not k.endswith("_ci") and k not in settings}


def wilson(successes: int, n: int, confidence: float = 0.95) -> list[float]:
    """The Wilson score interval, written out from its formula (Wilson 1927)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return [max(0.0, centre - half), min(1.0, centre + half)]


# -- by hand -----------------------------------------------------------------------------------

# the table above, counted by hand per configuration: n, right with, right without, dropped
BY_HAND = {
    "full": (6, 2, 4, 2),
    "seen": (3, 1, 2, 1),
    "unseen": (2, 1, 2, 1),
    "partial": (1, 0, 0, 0),
}


def expected_by_hand() -> dict[str, float | int]:
    expected: dict[str, float | int] = {}
    for config, (n, right, original, dropped) in BY_HAND.items():
        expected[f"{config}/n"] = n
        expected[f"{config}/i2t"] = right / n
        expected[f"{config}/i2t_original"] = original / n
        expected[f"{config}/i2t_drop"] = dropped / n
    for gap, other in (("gap", "unseen"), ("gap_partial", "partial")):
        for metric in ("i2t", *HARD_KEYS):
            expected[f"{gap}/{metric}"] = expected[f"seen/{metric}"] - expected[f"{other}/{metric}"]
    return expected


def check_by_hand(results: dict) -> None:
    got = points(results)
    expected = expected_by_hand()
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-15), key
    # the drop is a proportion of the samples (Wilson by default): 2 of 6, 1 of 3, 1 of 2, 0 of 1
    for config, (n, _, _, dropped) in BY_HAND.items():
        assert results[f"{config}/i2t_drop_ci"] == pytest.approx(wilson(dropped, n), abs=1e-12)
        low, high = results[f"{config}/i2t_drop_ci"]
        assert low <= results[f"{config}/i2t_drop"] <= high
    assert results["drop_interval_method"] == "wilson"
    assert results["interval_method"] == "wilson" and results["gap_interval_method"] == "newcombe"


def test_sample_outcomes_by_hand():
    core = metric_core
    outcomes = core.sample_outcomes([m for m, *_ in HAND], [1] * len(HAND))
    assert [(o.i2t, o.i2t_original, o.t2i) for o in outcomes] == [
        (hard, original, None) for _, _, hard, original in HAND
    ]
    for matrix, _, hard, original in HAND:
        assert core.sample_outcome(matrix, hard_positives=1) == (hard, None)
        assert core.sample_outcome(np.delete(matrix, 1, axis=1)) == (original, None)


def test_hard_positive_i2t_original_and_drop_by_hand_in_the_core():
    stats = metric_core.accumulate(
        [m for m, *_ in HAND], [label for _, label, *_ in HAND], hard_positives=[1] * len(HAND)
    )
    assert stats.hard_positives and stats.n_cells == 9
    # cells 3 * I2T state + T2I state; I2T state 0 wrong, 1 right, 2 dropped; T2I absent (2)
    assert stats.splits == {
        "partial": (0, 0, 1, 0, 0, 0, 0, 0, 0),
        "seen": (0, 0, 1, 0, 0, 1, 0, 0, 1),
        "unseen": (0, 0, 0, 0, 0, 1, 0, 0, 1),
    }
    check_by_hand(metric_core.compute_metrics(stats, n_bootstrap=0))


def test_hard_positive_i2t_original_and_drop_by_hand_through_evaluate(metric_cache):
    scores, splits = [m for m, *_ in HAND], [label for _, label, *_ in HAND]
    declared = load("hard_positives", cache_dir=metric_cache)
    results = declared.compute(
        scores=scores, split=splits, hard_positives=[1] * len(HAND), n_bootstrap=0
    )
    check_by_hand(results)
    # the default configuration takes them as a compute argument in a single call
    single = load(cache_dir=metric_cache).compute(
        scores=scores, split=splits, hard_positives=[1] * len(HAND), n_bootstrap=0
    )
    assert single == results
    # and batches add up (the counts are stored with each sample)
    batched = load("hard_positives", cache_dir=metric_cache)
    batched.add_batch(scores=scores[:4], split=splits[:4], hard_positives=[1] * 4)
    for matrix, label in zip(scores[4:], splits[4:], strict=True):
        batched.add(scores=matrix, split=label, hard_positives=1)
    assert batched.compute(n_bootstrap=0) == results


def test_two_images_with_hard_positives_by_hand():
    # 2 images x [caption 0, caption 1, hard positive of image 0, negative]
    matrix = [[0.9, 0.2, 0.7, 0.5], [0.1, 0.6, 0.65, 0.3]]
    # image 0: min(0.9, 0.7) > max(0.2, 0.5); image 1: 0.6 < 0.65, image 0's hard positive
    assert metric_core.sample_outcome(matrix, hard_positives=1) == (False, True)
    # without it: [[0.9, 0.2, 0.5], [0.1, 0.6, 0.3]] is right for both images
    assert metric_core.sample_outcome([[0.9, 0.2, 0.5], [0.1, 0.6, 0.3]]) == (True, True)
    (outcome,) = metric_core.sample_outcomes([matrix], [1])
    assert (outcome.i2t, outcome.i2t_original, outcome.t2i) == (False, True, True)
    # a hard positive of image 0 above image 1's caption is no rival of image 0
    right = [[0.9, 0.2, 0.95, 0.5], [0.1, 0.8, 0.65, 0.3]]
    assert metric_core.sample_outcome(right, hard_positives=1) == (True, True)
    results = metric_core.compute_metrics(
        metric_core.accumulate([matrix, right], ["seen", "seen"], hard_positives=[1, 1]),
        n_bootstrap=0,
    )
    assert {k: v for k, v in points(results).items() if k.startswith("seen/")} == {
        "seen/n": 2,
        "seen/i2t": 0.5,
        "seen/t2i": 1.0,
        "seen/group": 0.5,  # group = I2T with the hard positives and T2I
        "seen/i2t_original": 1.0,
        "seen/i2t_drop": 0.5,
    }


def test_several_hard_positives_every_one_must_beat_every_negative():
    # [positive, hard 1, hard 2, negative 1, negative 2]
    assert metric_core.sample_outcome([[0.9, 0.8, 0.7, 0.6, 0.5]], 2) == (True, None)
    assert metric_core.sample_outcome([[0.9, 0.8, 0.55, 0.6, 0.5]], 2) == (False, None)
    assert metric_core.sample_outcome([[0.9, 0.8, 0.7, 0.6, 0.75]], 2) == (False, None)
    # with h = 1 the third caption is a negative, which beats the hard positive
    assert metric_core.sample_outcome([[0.9, 0.6, 0.7, 0.1, 0.2]], 1) == (False, None)
    assert metric_core.sample_outcome([[0.9, 0.6, 0.7, 0.1, 0.2]], 2) == (True, None)


# -- a naive per-sample reference --------------------------------------------------------------


def naive_outcome(matrix: list[list[float]], hard: int) -> tuple[bool, bool, bool | None]:
    """(I2T with the hard positives, I2T without them, T2I) of one sample, by the definition:
    plain loops over every pair of scores."""
    n_images, n_captions = len(matrix), len(matrix[0])
    hard_columns = set(range(n_images, n_images + hard))

    def image_right(i: int, columns: list[int], right: set[int]) -> bool:
        return all(matrix[i][p] > matrix[i][j] for p in right for j in columns if j not in right)

    everything = list(range(n_captions))
    with_hard = all(
        image_right(i, everything, {0, *hard_columns} if i == 0 else {i}) for i in range(n_images)
    )
    kept = [j for j in everything if j not in hard_columns]
    original = all(image_right(i, kept, {i}) for i in range(n_images))
    t2i = None
    if n_images > 1:
        t2i = all(
            matrix[j][j] > matrix[i][j] for j in range(n_images) for i in range(n_images) if i != j
        )
    return with_hard, original, t2i


def naive_metrics(samples) -> dict[str, float | int]:
    """Per configuration: n and the accuracies by counting outcomes; the gaps; the hard-positive
    keys where some sample has hard positives (as the protocol reports them)."""
    outcomes = [naive_outcome(matrix, hard) for matrix, _, hard in samples]
    hard_any = any(hard for _, _, hard in samples)
    pools = {"full": LABELS, "seen": ("seen",), "unseen": ("unseen",), "partial": ("partial",)}
    out: dict[str, float | int] = {}
    for config, labels in pools.items():
        chosen = [o for o, (_, label, _) in zip(outcomes, samples, strict=True) if label in labels]
        n = len(chosen)
        out[f"{config}/n"] = n
        if not n:
            continue
        out[f"{config}/i2t"] = sum(o[0] for o in chosen) / n
        if all(o[2] is not None for o in chosen):
            out[f"{config}/t2i"] = sum(bool(o[2]) for o in chosen) / n
            out[f"{config}/group"] = sum(o[0] and bool(o[2]) for o in chosen) / n
        if hard_any:
            out[f"{config}/i2t_original"] = sum(o[1] for o in chosen) / n
            out[f"{config}/i2t_drop"] = sum(o[1] and not o[0] for o in chosen) / n
    for gap, other in (("gap", "unseen"), ("gap_partial", "partial")):
        for key in [k for k in out if k.startswith("seen/") and k != "seen/n"]:
            metric = key.split("/", 1)[1]
            if f"{other}/{metric}" in out:
                out[f"{gap}/{metric}"] = out[key] - out[f"{other}/{metric}"]
    return out


SHAPES = [(1, 3), (1, 4), (2, 3), (2, 4), (3, 5), (1, 2), (2, 2)]


def random_samples(seed: int, n: int, *, with_zero: bool):
    """Random samples of mixed shapes with 0..(room) hard positives; tied integer scores for
    even seeds, continuous ones otherwise; a diagonal bias so that many are right."""
    rng = np.random.default_rng(seed)
    samples = []
    for _ in range(n):
        n_images, n_captions = SHAPES[rng.integers(len(SHAPES))]
        room = min(n_captions - n_images, n_captions - 2)
        hard = int(rng.integers(0 if with_zero else min(1, room), room + 1))
        shape = (n_images, n_captions)
        matrix = rng.integers(0, 3, size=shape) if seed % 2 == 0 else rng.normal(size=shape)
        bias = np.eye(*shape)
        bias[0, n_images : n_images + hard] = 1  # the hard positives of image 0
        matrix = (matrix + 2 * bias * rng.random()).tolist()
        label = LABELS[rng.choice(len(LABELS), p=[0.45, 0.25, 0.25, 0.05])]
        samples.append((matrix, label, hard))
    return samples


@pytest.mark.parametrize(("seed", "with_zero"), list(itertools.product(range(4), (False, True))))
def test_matches_a_naive_per_sample_reference(seed, with_zero):
    samples = random_samples(seed, 600, with_zero=with_zero)
    stats = metric_core.accumulate(
        [m for m, _, _ in samples],
        [label for _, label, _ in samples],
        hard_positives=[hard for _, _, hard in samples],
    )
    assert stats.hard_positives == any(hard for _, _, hard in samples)
    results = metric_core.compute_metrics(stats, n_bootstrap=0)
    expected = naive_metrics(samples)
    got = points(results)
    assert sorted(got) == sorted(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, abs=1e-12), key
    outcomes = metric_core.sample_outcomes(
        [m for m, _, _ in samples], [hard for _, _, hard in samples]
    )
    assert [(o.i2t, o.i2t_original, o.t2i) for o in outcomes] == [
        naive_outcome(matrix, hard) for matrix, _, hard in samples
    ]
    # sample by sample, with and without the hard positives
    for (matrix, _, hard), outcome in zip(samples[:50], outcomes, strict=False):
        assert metric_core.sample_outcome(matrix, hard) == (outcome.i2t, outcome.t2i)


# -- builds without hard positives: exactly today's results -----------------------------------


def test_no_hard_positives_gives_exactly_the_results_of_none():
    samples = random_samples(9, 300, with_zero=True)
    scores, labels = [m for m, _, _ in samples], [label for _, label, _ in samples]
    flags = [label == "seen" for label in labels]
    plain = metric_core.accumulate(scores, labels, balanced=flags)
    zeros = metric_core.accumulate(scores, labels, balanced=flags, hard_positives=[0] * 300)
    assert zeros == plain and not zeros.hard_positives and zeros.n_cells == 6
    assert json.dumps(zeros.to_dict()) == json.dumps(plain.to_dict())
    assert "hard_positives" not in plain.to_dict()
    for method in ("wilson", "bootstrap"):
        assert metric_core.compute_metrics(
            zeros, n_bootstrap=50, interval_method=method
        ) == metric_core.compute_metrics(plain, n_bootstrap=50, interval_method=method)
    results = metric_core.compute_metrics(plain, n_bootstrap=0)
    assert not any(key.endswith(HARD_KEYS) or "_original" in key for key in results)
    assert "drop_interval_method" not in results


# -- statistics: merging, JSON, pickling -------------------------------------------------------


def test_statistics_with_hard_positives_merge_and_round_trip():
    samples = random_samples(4, 400, with_zero=True)
    labels = [label for _, label, _ in samples]
    categories = [("swap/att", "replace/rel", "")[i % 3] for i in range(len(samples))]
    groups = [f"g{i % 5}" for i in range(len(samples))]
    flags = [label == "seen" or i % 4 == 0 for i, label in enumerate(labels)]

    def part(chunk: slice, zero: bool = False):
        return metric_core.accumulate(
            [m for m, _, _ in samples[chunk]],
            labels[chunk],
            categories[chunk],
            groups[chunk],
            balanced=flags[chunk],
            hard_positives=[0 if zero else h for _, _, h in samples[chunk]],
        )

    whole = part(slice(None))
    parts = [part(slice(0, 150)), part(slice(150, 151)), part(slice(151, None))]
    assert whole.hard_positives and all(p.n_cells in (6, 9) for p in parts)
    assert sum(parts) == whole and parts[2] + parts[0] + parts[1] == whole
    # samples without hard positives merge into statistics with them: their I2T is the same
    zero = [i for i, (_, _, h) in enumerate(samples) if h == 0]
    first = zero[0]
    plain = part(slice(first, first + 1))
    assert not plain.hard_positives
    rest = [part(slice(0, first)), part(slice(first + 1, None))]
    assert plain + rest[0] + rest[1] == whole == rest[1] + plain + rest[0]
    restored = metric_core.BindsplitStatistics.from_dict(json.loads(json.dumps(whole.to_dict())))
    assert restored == whole and whole.to_dict()["hard_positives"] is True
    assert len(whole.to_dict()["splits"]["seen"]) == 9
    assert whole.balanced is not None and whole.balanced.hard_positives
    assert metric_core.compute_metrics(restored) == metric_core.compute_metrics(whole)
    assert pickle.loads(pickle.dumps(whole)) == whole
    results = metric_core.compute_metrics(whole, n_bootstrap=50, macro_min_samples=10)
    for key in ("full/i2t_original", "balanced/i2t_drop", "full/macro_i2t_drop"):
        assert key in results and f"{key}_ci" in results, key
    assert "full/category/swap/att/i2t_original" in results
    assert "gap/i2t_drop_ci" in results and "gap_partial/i2t_original" in results


@pytest.mark.parametrize(
    "data",
    [
        {
            "format": "bindsplit-metric-statistics/1",
            "splits": {"seen": [0, 0, 0, 0, 1, 0]},
            "hard_positives": True,
        },
        {"format": "bindsplit-metric-statistics/1", "splits": {"seen": [0] * 8 + [1]}},
        {"format": "bindsplit-metric-statistics/1", "splits": {}, "hard_positives": "yes"},
    ],
)
def test_statistics_with_hard_positives_from_bad_dict(data):
    with pytest.raises(ValueError, match="statistics"):
        metric_core.BindsplitStatistics.from_dict(data)


# -- intervals --------------------------------------------------------------------------------


def test_the_drop_gets_the_accuracies_interval_method():
    stats = metric_core.accumulate(
        [m for m, *_ in HAND], [label for _, label, *_ in HAND], hard_positives=[1] * len(HAND)
    )
    exact = metric_core.compute_metrics(stats, n_bootstrap=0, interval_method="clopper-pearson")
    assert exact["drop_interval_method"] == "clopper-pearson"
    assert exact["full/i2t_drop_ci"] == pytest.approx(
        list(metric_core.proportion_interval(2, 6, method="clopper-pearson")), abs=1e-12
    )
    booted = metric_core.compute_metrics(stats, n_bootstrap=200, interval_method="bootstrap")
    assert booted["drop_interval_method"] == "bootstrap-percentile"
    low, high = booted["full/i2t_drop_ci"]
    assert 0.0 <= low <= 2 / 6 <= high <= 1.0
    # the gaps of drops compare disjoint samples: Newcombe's interval
    wilson_results = metric_core.compute_metrics(stats, n_bootstrap=0)
    assert wilson_results["gap/i2t_drop_ci"] == pytest.approx(
        list(metric_core.newcombe_interval(1, 3, 1, 2)), abs=1e-12
    )


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ([1, 2], r"sample 1: a 1 x 3 scores matrix cannot hold 2 hard positive"),
        ([1, -1], r"sample 1: hard_positives must be >= 0"),
        ([1, True], r"sample 1: hard_positives must be a count"),
        ([1, 1.0], r"sample 1: hard_positives must be a count"),
        ([1], r"2 score matrices but 1 hard_positives counts"),
    ],
)
def test_bad_hard_positive_counts_name_the_sample(counts, message):
    scores = [[[0.9, 0.8, 0.5]], [[0.9, 0.8, 0.5]]]
    with pytest.raises(ValueError, match=message):
        metric_core.accumulate(scores, ["seen", "seen"], hard_positives=counts)


def test_hard_positives_need_room_after_the_positives():
    with pytest.raises(ValueError, match=r"sample 0: a 2 x 2 scores matrix cannot hold 1"):
        metric_core.accumulate([[[0.9, 0.1], [0.2, 0.8]]], ["seen"], hard_positives=[1])
    with pytest.raises(ValueError, match="cannot hold 1 hard positive"):
        metric_core.sample_outcome([[0.9, 0.5]], hard_positives=1)  # no rival left


def test_bad_counts_through_evaluate(metric_cache):
    declared = load("hard_positives", cache_dir=metric_cache)
    with pytest.raises(ValueError, match="missing: hard_positives"):
        declared.compute(scores=[[[0.9, 0.8, 0.5]]], split=["seen"])
    with pytest.raises(ValueError, match="hard_positives must be a count"):
        declared.add_batch(scores=[[[0.9, 0.8, 0.5]]], split=["seen"], hard_positives=[True])


# -- ties, and the outcomes module's own examples -------------------------------------------------


def test_count_ties_with_hard_positives():
    scores = [m for m, *_ in HAND]
    # without hard positives column 1 is a negative: samples 2 (0.6 = 0.6) and 5 (0.8 = 0.8)
    assert metric_core.count_ties(scores) == 2
    # with them: sample 2 (positive = negative) and 3 (hard positive = negative); 5 is no tie
    assert metric_core.count_ties(scores, [1] * len(HAND)) == 2
    assert metric_core.count_ties([[[0.8, 0.8, 0.2]]], [1]) == 0
    assert metric_core.count_ties([[[0.7, 0.5, 0.5]]], [1]) == 1


def test_outcomes_module_doctests_run():
    module = sys.modules[metric_core.sample_outcomes.__module__]
    assert module.__name__.endswith("bindsplit_outcomes")
    failed, attempted = doctest.testmod(module)
    assert failed == 0 and attempted >= 6


@pytest.mark.slow  # imports gradio
def test_the_space_app_takes_hard_positives(monkeypatch):
    """The metric Space's app, run as the Space runs it (the folder's modules top-level)."""
    pytest.importorskip("gradio")
    import importlib

    monkeypatch.syspath_prepend(str(REPO_METRIC))
    names = ("app", "bindsplit_core", "bindsplit_outcomes", "bindsplit_bootstrap")
    names += ("bindsplit_intervals",)
    for name in names:
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        app = importlib.import_module("app")
        samples = {
            "scores": [m for m, *_ in HAND],
            "split": [label for _, label, *_ in HAND],
            "hard_positives": [1] * len(HAND),
        }
        results = app.compute(json.dumps(samples), n_bootstrap=0)
    finally:
        for name in names:
            sys.modules.pop(name, None)
    check_by_hand(results)
    assert "hard_positives" in app.INPUTS
