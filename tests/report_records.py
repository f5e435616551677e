"""Hand-made results records for the report tests: fixed accuracies, or per-sample outcomes from
which the accuracies are computed exactly."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bindsplit_datasets.metric_core import (
    accumulate,
    compute_metrics,
    sample_outcome,
    sample_outcomes,
)
from bindsplit_datasets.metric_halftruth import (
    halftruth_metrics,
    halftruth_outcomes,
    halftruth_samples,
)
from bindsplit_datasets.names import RESULTS_FORMAT
from bindsplit_datasets.reports.results import seal_record

__all__ = [
    "ALPHA",
    "ARO_ALPHA",
    "ARO_GAMMA",
    "BETA",
    "BIVLC",
    "FILE_ALPHA",
    "FILE_ARO_ALPHA",
    "FILE_ARO_GAMMA",
    "FILE_BETA",
    "FILE_GAMMA",
    "GAMMA",
    "N",
    "SAMPLE_BALANCED",
    "SAMPLE_LABELS",
    "record",
    "genuine_halftruth_record",
    "genuine_hard_record",
    "genuine_hard_scores",
    "genuine_record",
    "genuine_scores",
    "record_from_samples",
    "with_samples",
    "write_records",
]

N = {"full": 100, "seen": 60, "unseen": 10, "partial": 20, "balanced": 70}


def record(
    model: str,
    values: Mapping[str, Mapping[str, float]],
    *,
    benchmark: str = "bivlc",
    fingerprint: str = "f1",
    revision: str = "main",
    width: float | None = 0.05,
) -> dict[str, Any]:
    """A results record (sealed, as `bindsplit eval` writes it) with the given accuracies and
    the seen-minus-unseen gaps; every interval is the value +- ``width`` (none when ``width`` is
    None)."""
    metrics: dict[str, Any] = {}
    for config, by_metric in values.items():
        metrics[f"{config}/n"] = N[config]
        for metric, value in by_metric.items():
            metrics[f"{config}/{metric}"] = value
            if width is not None:
                metrics[f"{config}/{metric}_ci"] = [
                    round(value - width, 4),
                    round(value + width, 4),
                ]
    add_gaps(metrics, width)
    return seal_record(
        {
            "format": "bindsplit-results/1",
            "model": {
                "id": model,
                "revision": revision,
                "class": "CLIPModel",
                "scored_by": "encoder",
            },
            "dataset": {"data": "out/bivlc", "benchmark": benchmark, "fingerprint": fingerprint},
            "metrics": metrics,
        }
    )


def add_gaps(metrics: dict[str, Any], width: float | None, *, exact: bool = False) -> None:
    """``gap/{metric}`` (seen minus unseen, with a +- ``2 * width`` interval, kept inside
    [-1, 1] as a difference of fractions is) for every metric that seen and unseen both
    report, as the metric reports it (``exact``: not rounded, as the samples give it)."""
    for metric in ("i2t", "t2i", "group"):
        if f"seen/{metric}" in metrics and f"unseen/{metric}" in metrics:
            gap = metrics[f"seen/{metric}"] - metrics[f"unseen/{metric}"]
            gap = gap if exact else round(gap, 4)
            metrics[f"gap/{metric}"] = gap
            if width is not None:
                low, high = max(-1.0, gap - 2 * width), min(1.0, gap + 2 * width)
                metrics[f"gap/{metric}_ci"] = [round(low, 4), round(high, 4)]


def record_from_samples(
    model: str,
    labels: Sequence[str],
    i2t: Sequence[int],
    t2i: Sequence[int] | None = None,
    *,
    ids: Sequence[str] | None = None,
    configs: Sequence[str] = ("full", "seen", "unseen"),
    width: float = 0.1,
    benchmark: str = "bivlc",
    balanced: Sequence[bool] | None = None,
    reference: str | None = None,
) -> dict[str, Any]:
    """A record whose accuracies are the exact means of the given per-sample outcomes, with
    ``samples`` attached (and ``balanced`` flags, which the ``balanced`` configuration selects);
    intervals are the accuracy +- ``width`` (wide on purpose: the paired test, not the
    intervals, must decide). ``reference``: the reference corpus's name."""
    ids = list(ids) if ids is not None else [f"s{i}" for i in range(len(labels))]
    samples: dict[str, Any] = {"id": ids, "label": list(labels), "i2t": list(i2t)}
    if balanced is not None:
        samples["balanced"] = list(balanced)
    if t2i is not None:
        samples["t2i"] = list(t2i)

    def member(i: int, config: str) -> bool:
        if config == "balanced":
            return balanced is not None and bool(balanced[i])
        return config == "full" or labels[i] == config

    metrics: dict[str, Any] = {}
    for config in configs:
        rows = [i for i in range(len(labels)) if member(i, config)]
        if not rows:
            continue
        metrics[f"{config}/n"] = len(rows)
        outcomes = {"i2t": [i2t[i] for i in rows]}
        if t2i is not None:
            outcomes["t2i"] = [t2i[i] for i in rows]
            outcomes["group"] = [i2t[i] * t2i[i] for i in rows]
        for metric, values in outcomes.items():
            accuracy = sum(values) / len(values)
            metrics[f"{config}/{metric}"] = accuracy
            metrics[f"{config}/{metric}_ci"] = [
                max(0.0, round(accuracy - width, 4)),
                min(1.0, round(accuracy + width, 4)),
            ]
    add_gaps(metrics, width, exact=True)
    dataset: dict[str, Any] = {"data": "out/bivlc", "benchmark": benchmark, "fingerprint": "f1"}
    if reference is not None:
        dataset["reference"] = {"corpus": {"kind": "coco", "name": reference}}
        dataset["fingerprint"] = f"f1-{reference}"
    return seal_record(
        {
            "format": "bindsplit-results/1",
            "model": {
                "id": model,
                "revision": "main",
                "class": "CLIPModel",
                "scored_by": "encoder",
            },
            "dataset": dataset,
            "metrics": metrics,
            "samples": samples,
        }
    )


def _cells(n: int, metrics: Mapping[str, Any], config: str, two_images: bool) -> list[tuple]:
    """``n`` (i2t, t2i) outcomes whose means are ``config``'s accuracies in ``metrics``."""

    def count(metric: str) -> int:
        value = metrics[f"{config}/{metric}"] * n
        if abs(value - round(value)) > 1e-9:
            raise ValueError(f"{config}/{metric} is not a share of {n} samples")
        return round(value)

    right = count("i2t")
    if not 0 <= right <= n:
        raise ValueError(f"{config}: no outcomes give these accuracies")
    if not two_images:
        return [(1, None)] * right + [(0, None)] * (n - right)
    t2i, group = count("t2i"), count("group")
    parts = [(1, 1, group), (1, 0, right - group), (0, 1, t2i - group)]
    parts.append((0, 0, n - right - t2i + group))
    if any(size < 0 for *_, size in parts):
        raise ValueError(f"{config}: no outcomes give these accuracies")
    return [(a, b) for a, b, size in parts for _ in range(size)]


def _minus(total: Mapping[str, Any], parts: list[tuple], config: str, n: int) -> dict[str, Any]:
    """``config``'s accuracies in the samples left when ``parts`` are taken out of ``total``."""
    left = {}
    for metric, score in (("i2t", lambda c: c[0]), ("t2i", lambda c: c[1])):
        if f"{config}/{metric}" in total:
            taken = sum(score(c) for c in parts)
            left[f"rest/{metric}"] = (
                total[f"{config}/{metric}"] * total[f"{config}/n"] - taken
            ) / n
    if f"{config}/group" in total:
        taken = sum(c[0] * c[1] for c in parts)
        left["rest/group"] = (total[f"{config}/group"] * total[f"{config}/n"] - taken) / n
    return left


def with_samples(value: Mapping[str, Any]) -> dict[str, Any]:
    """``value`` (a :func:`record`) with per-sample outcomes that give its accuracies, sealed:
    each label configuration's samples, the rest of ``full`` labelled none, and the ``balanced``
    flags on samples whose outcomes give its accuracies; ids named after the model, so that no
    two models share a sample (their rank moves are decided by intervals, as without samples).
    Raises ValueError where no outcomes give the accuracies."""
    metrics = value["metrics"]
    two_images = any(key.endswith("/t2i") for key in metrics)
    labels: list[str] = []
    outcomes: list[tuple] = []
    for config in ("seen", "unseen", "partial"):
        n = metrics.get(f"{config}/n")
        if n:
            outcomes += _cells(n, metrics, config, two_images)
            labels += [config] * n
    rest = metrics.get("full/n", len(outcomes)) - len(outcomes)
    if rest < 0:
        raise ValueError("the configurations hold more samples than full")
    left = _minus(metrics, outcomes, "full", max(rest, 1)) if "full/n" in metrics else {}
    if rest:
        outcomes += _cells(rest, {**left, "rest/n": rest}, "rest", two_images)
        labels += ["none"] * rest
    elif any(abs(v) > 1e-9 for v in left.values()):
        raise ValueError("full is not the pool of the other configurations")
    samples: dict[str, Any] = {
        "id": [f"{value['model']['id']}/{i}" for i in range(len(labels))],
        "label": labels,
        "i2t": [a for a, _ in outcomes],
    }
    if metrics.get("balanced/n"):
        flags = [False] * len(outcomes)
        for cell in _cells(metrics["balanced/n"], metrics, "balanced", two_images):
            free = [i for i, c in enumerate(outcomes) if c == cell and not flags[i]]
            if not free:
                raise ValueError("balanced: no samples give these accuracies")
            flags[free[0]] = True
        samples["balanced"] = flags
    if two_images:
        samples["t2i"] = [b for _, b in outcomes]
    return seal_record({**value, "samples": samples})


def write_records(folder: Path, *records: dict[str, Any]) -> list[str]:
    """Each record, sealed, with per-sample outcomes (:func:`with_samples`, where it has none) as
    ``results_<i>.json`` in ``folder``; their paths."""
    paths = []
    for index, value in enumerate(records):
        path = folder / f"results_{index}.json"
        complete = value if "samples" in value else with_samples(value)
        path.write_text(json.dumps(seal_record(complete)), encoding="utf-8")
        paths.append(str(path))
    return paths


# full: alpha and beta tie at 0.80, gamma third. seen: beta, gamma, alpha, all within +-0.05 of
# each other. unseen: alpha and gamma tie at 0.50, beta third, 0.20 below (intervals apart).
ALPHA = record(
    "alpha",
    {
        "full": {"i2t": 0.80, "t2i": 0.50, "group": 0.40},
        "seen": {"i2t": 0.70, "t2i": 0.55, "group": 0.45},
        "unseen": {"i2t": 0.50, "t2i": 0.30, "group": 0.20},
    },
)
BETA = record(
    "beta",
    {
        "full": {"i2t": 0.80, "t2i": 0.60, "group": 0.50},
        "seen": {"i2t": 0.75, "t2i": 0.60, "group": 0.50},
        "unseen": {"i2t": 0.30, "t2i": 0.20, "group": 0.10},
    },
)
GAMMA = record(
    "gamma",
    {
        "full": {"i2t": 0.60, "t2i": 0.40, "group": 0.30},
        "seen": {"i2t": 0.72, "t2i": 0.45, "group": 0.35},
        "unseen": {"i2t": 0.50, "t2i": 0.25, "group": 0.15},
    },
)
BIVLC = [ALPHA, BETA, GAMMA]
# 1 image x 2 captions: no T2I, no group.
ARO_ALPHA = record(
    "alpha",
    {"full": {"i2t": 0.90}, "seen": {"i2t": 0.70}, "unseen": {"i2t": 0.60}},
    benchmark="aro_vga",
    fingerprint="a1",
)
ARO_GAMMA = record(
    "gamma",
    {"full": {"i2t": 0.85}, "seen": {"i2t": 0.75}, "unseen": {"i2t": 0.55}},
    benchmark="aro_vga",
    fingerprint="a1",
)

# What a results file holds: records with their per-sample outcomes, from which every reader
# re-derives their numbers (ALPHA and ARO_GAMMA above have none: in-memory records only).
_FILE_LABELS = ["seen"] * 6 + ["unseen"] * 2 + ["partial"] * 2
FILE_ALPHA = record_from_samples(
    "alpha", _FILE_LABELS, [1, 1, 1, 1, 0, 1, 0, 1, 1, 0], [1, 0, 1, 1, 0, 1, 0, 0, 1, 1]
)
FILE_BETA = record_from_samples(
    "beta", _FILE_LABELS, [1, 1, 1, 1, 1, 1, 0, 0, 1, 1], [1, 1, 0, 1, 1, 0, 0, 1, 0, 1]
)
FILE_GAMMA = record_from_samples(
    "gamma", _FILE_LABELS, [1, 0, 1, 0, 1, 0, 1, 1, 0, 0], [0, 0, 1, 1, 0, 1, 1, 0, 1, 0]
)
FILE_ARO_ALPHA = record_from_samples(
    "alpha", _FILE_LABELS, [1, 1, 1, 1, 1, 0, 1, 0, 1, 1], benchmark="aro_vga"
)
FILE_ARO_GAMMA = record_from_samples(
    "gamma", _FILE_LABELS, [1, 1, 0, 1, 1, 1, 1, 0, 0, 1], benchmark="aro_vga"
)


SAMPLE_LABELS = ["seen"] * 40 + ["unseen"] * 30 + ["partial"] * 20 + ["none"] * 10


#: The ``balanced`` flags of :func:`genuine_record`'s samples.
SAMPLE_BALANCED = [i % 3 == 0 for i in range(len(SAMPLE_LABELS))]


def genuine_scores(seed: int = 0) -> np.ndarray:
    """The 2 x 2 score matrices of :func:`genuine_record`'s samples."""
    return np.random.default_rng(seed).random((len(SAMPLE_LABELS), 2, 2))


def genuine_record(
    model: str = "org/clip", seed: int = 0, method: str = "wilson", **settings: Any
) -> dict[str, Any]:
    """A record as evaluation makes it: the metric's core over random 2 x 2 score matrices
    (:func:`genuine_scores`; another path to the numbers than the one every reader re-derives
    them by)."""
    scores = genuine_scores(seed)
    balanced = SAMPLE_BALANCED
    stats = accumulate(scores, SAMPLE_LABELS, balanced=balanced)
    metrics = compute_metrics(stats, interval_method=method, **settings)
    outcomes = [sample_outcome(matrix) for matrix in scores]
    return seal_record(
        {
            "format": RESULTS_FORMAT,
            "model": {"id": model, "revision": None, "scored_by": "encoder"},
            "dataset": {"data": "bivlc", "benchmark": "bivlc", "fingerprint": "f" * 64},
            "metrics": metrics,
            "samples": {
                "id": [str(i) for i in range(len(SAMPLE_LABELS))],
                "label": SAMPLE_LABELS,
                "balanced": balanced,
                "i2t": [int(i2t) for i2t, _ in outcomes],
                "t2i": [int(bool(t2i)) for _, t2i in outcomes],
            },
        }
    )


def genuine_hard_scores(seed: int = 0) -> np.ndarray:
    """The 2 x 3 score matrices of :func:`genuine_hard_record`'s samples: caption 2 is a hard
    positive of image 0 (a build's ``columns.hard_positive``)."""
    return np.random.default_rng(seed).random((len(SAMPLE_LABELS), 2, 3))


def genuine_hard_record(
    model: str = "org/clip", seed: int = 0, method: str = "wilson", **settings: Any
) -> dict[str, Any]:
    """A record of a build with one hard positive per sample, as evaluation makes it: the
    metric's core over :func:`genuine_hard_scores` (I2T with the hard positive, the original
    I2T and the drop; T2I and group), its samples' outcomes from ``sample_outcomes``."""
    scores = genuine_hard_scores(seed)
    hard = [1] * len(SAMPLE_LABELS)
    stats = accumulate(scores, SAMPLE_LABELS, balanced=SAMPLE_BALANCED, hard_positives=hard)
    metrics = compute_metrics(stats, interval_method=method, **settings)
    outcomes = sample_outcomes(scores, hard)
    return seal_record(
        {
            "format": RESULTS_FORMAT,
            "model": {"id": model, "revision": None, "scored_by": "encoder"},
            "dataset": {"data": "hard", "benchmark": "sugarcrepe_pp", "fingerprint": "h" * 64},
            "metrics": metrics,
            "samples": {
                "id": [str(i) for i in range(len(SAMPLE_LABELS))],
                "label": SAMPLE_LABELS,
                "balanced": SAMPLE_BALANCED,
                "i2t": [int(outcome.i2t) for outcome in outcomes],
                "i2t_original": [int(outcome.i2t_original) for outcome in outcomes],
                "t2i": [int(bool(outcome.t2i)) for outcome in outcomes],
            },
        }
    )


#: The foils' familiarity and the ``{kind}/{edit}`` of :func:`genuine_halftruth_record`'s samples.
HALFTRUTH_LABELS = ["seen"] * 24 + ["unseen"] * 36
HALFTRUTH_CATEGORIES = [
    ("entity/attribute", "entity/object", "relation/swap", "relation/relation")[i % 4]
    for i in range(len(HALFTRUTH_LABELS))
]


def genuine_halftruth_record(model: str = "org/clip", seed: int = 0) -> dict[str, Any]:
    """A record of a half-truth build as evaluation makes it: 1 x 3 score matrices ``[anchor,
    refinement, half-truth]`` (the refinement a hard positive), the metric's core and its
    half-truth metrics over them, the samples' outcomes."""
    scores = np.random.default_rng(seed).normal(size=(len(HALFTRUTH_LABELS), 1, 3))
    hard = [1] * len(HALFTRUTH_LABELS)
    stats = accumulate(scores, HALFTRUTH_LABELS, HALFTRUTH_CATEGORIES, hard_positives=hard)
    metrics = compute_metrics(stats, interval_method="wilson")
    metrics.update(halftruth_metrics(scores, HALFTRUTH_LABELS, HALFTRUTH_CATEGORIES))
    outcomes = sample_outcomes(scores, hard)
    return seal_record(
        {
            "format": RESULTS_FORMAT,
            "model": {"id": model, "revision": None, "scored_by": "encoder"},
            "dataset": {"data": "ht", "benchmark": "halftruth", "fingerprint": "d" * 64},
            "metrics": metrics,
            "samples": {
                "id": [str(i) for i in range(len(HALFTRUTH_LABELS))],
                "label": HALFTRUTH_LABELS,
                "i2t": [int(outcome.i2t) for outcome in outcomes],
                "i2t_original": [int(outcome.i2t_original) for outcome in outcomes],
                **halftruth_samples(halftruth_outcomes(scores), HALFTRUTH_CATEGORIES),
            },
        }
    )
