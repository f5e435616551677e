"""Hand-made results records for the report tests: fixed accuracies, or per-sample outcomes from
which the accuracies are computed exactly."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bindsplit_datasets.reports.results import seal_record

__all__ = [
    "ALPHA",
    "ARO_ALPHA",
    "ARO_GAMMA",
    "BETA",
    "BIVLC",
    "GAMMA",
    "N",
    "record",
    "record_from_samples",
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


def add_gaps(metrics: dict[str, Any], width: float | None) -> None:
    """``gap/{metric}`` (seen minus unseen, with a +- ``2 * width`` interval, kept inside
    [-1, 1] as a difference of fractions is) for every metric that seen and unseen both
    report, as the metric reports it."""
    for metric in ("i2t", "t2i", "group"):
        if f"seen/{metric}" in metrics and f"unseen/{metric}" in metrics:
            gap = round(metrics[f"seen/{metric}"] - metrics[f"unseen/{metric}"], 4)
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
    add_gaps(metrics, width)
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


def write_records(folder: Path, *records: dict[str, Any]) -> list[str]:
    """Each record, sealed, as ``results_<i>.json`` in ``folder``; their paths."""
    paths = []
    for index, value in enumerate(records):
        path = folder / f"results_{index}.json"
        path.write_text(json.dumps(seal_record(value)), encoding="utf-8")
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
