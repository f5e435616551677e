"""Records for the leaderboard tests (view and Space): models whose ranks move between
configurations, some for real, on two benchmarks and two reference corpora; records made from
counts (:func:`counted_record`: Wilson intervals, empty configurations as the metric reports
them); the Space's whole test set (:func:`space_records`: three benchmarks, a relation build, a
small and an empty configuration); and a parser of `bindsplit compare`'s text into rows, to check
that the leaderboard shows exactly those."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from report_records import record_from_samples

from bindsplit_datasets.metric_core import newcombe_interval, proportion_interval
from bindsplit_datasets.reports.results import seal_record

__all__ = [
    "LABELS",
    "as_compare_text",
    "compare_rows",
    "counted_record",
    "leaderboard_records",
    "relation_records",
    "space_records",
]

LABELS = ["seen"] * 120 + ["unseen"] * 60 + ["partial"] * 60 + ["none"] * 20


def _model(
    name: str, seen: float, unseen: float, seed: int, *, benchmark: str, reference: str
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    accuracy = {"seen": seen, "unseen": unseen, "partial": 0.7, "none": 0.5}
    i2t = [int(rng.random() < accuracy[label]) for label in LABELS]
    t2i = [int(rng.random() < accuracy[label] - 0.1) for label in LABELS]
    balanced = [
        label == "seen" or (label == "partial" and i % 2 == 0) for i, label in enumerate(LABELS)
    ]
    return record_from_samples(
        name,
        LABELS,
        i2t,
        t2i,
        configs=("full", "seen", "unseen", "partial", "balanced"),
        benchmark=benchmark,
        balanced=balanced,
        reference=reference,
    )


def leaderboard_records() -> list[dict[str, Any]]:
    """BiVLC against COCO: a CLIP that leads on full and unseen, a NegCLIP that leads on seen
    (far ahead: a real move), a SigLIP close to both (moves within noise); BiVLC against another
    corpus (another build); VisMin against COCO."""
    return [
        _model("org/clip-b", 0.80, 0.85, 1, benchmark="bivlc", reference="coco2017"),
        _model("org/negclip-b", 0.98, 0.30, 2, benchmark="bivlc", reference="coco2017"),
        _model("google/siglip-b", 0.82, 0.80, 3, benchmark="bivlc", reference="coco2017"),
        _model("org/clip-b", 0.70, 0.60, 4, benchmark="bivlc", reference="laion2b"),
        _model("org/negclip-b", 0.75, 0.50, 5, benchmark="bivlc", reference="laion2b"),
        _model("org/clip-b", 0.60, 0.50, 6, benchmark="vismin", reference="coco2017"),
        _model("google/siglip-b", 0.65, 0.40, 7, benchmark="vismin", reference="coco2017"),
    ]


def counted_record(
    model: str,
    counts: dict[str, tuple[int, int]],
    *,
    benchmark: str,
    reference: str = "coco2017",
    kind: str = "attribute",
) -> dict[str, Any]:
    """A sealed I2T-only record (one image, two captions) from ``counts`` (configuration ->
    (correct, n)), as the metric reports them: Wilson intervals, a configuration of n = 0 with
    its count and no accuracy, each gap with its Newcombe interval where both sides have
    samples; with per-sample outcomes that give the counts (``full``'s samples beyond seen,
    partial and unseen labelled none; ids named after the model, so that no two models share a
    sample and rank moves are decided by intervals), from which every reader re-derives it."""
    metrics: dict[str, Any] = {"interval_method": "wilson", "confidence": 0.95}
    for config, (correct, n) in counts.items():
        metrics[f"{config}/n"] = n
        if n:
            metrics[f"{config}/i2t"] = correct / n
            metrics[f"{config}/i2t_ci"] = list(proportion_interval(correct, n))
    for gap, other in (("gap", "unseen"), ("gap_partial", "partial")):
        (a, n_a), (b, n_b) = counts.get("seen", (0, 0)), counts.get(other, (0, 0))
        if n_a and n_b:
            metrics[f"{gap}/i2t"] = a / n_a - b / n_b
            metrics[f"{gap}/i2t_ci"] = list(newcombe_interval(a, n_a, b, n_b))
    labels: list[str] = []
    i2t: list[int] = []
    for label in ("seen", "partial", "unseen"):
        correct, n = counts.get(label, (0, 0))
        labels += [label] * n
        i2t += [1] * correct + [0] * (n - correct)
    correct, n = counts["full"][0] - sum(i2t), counts["full"][1] - len(labels)
    if not 0 <= correct <= n:
        raise ValueError(f"{model}: full is not the pool of seen, partial, unseen and none")
    labels += ["none"] * n
    i2t += [1] * correct + [0] * (n - correct)
    samples = {"id": [f"{model}/{i}" for i in range(len(labels))], "label": labels, "i2t": i2t}
    fingerprint = f"{benchmark}-{reference}-{kind}"
    return seal_record(
        {
            "format": "bindsplit-results/1",
            "model": {
                "id": model,
                "revision": "main",
                "class": "CLIPModel",
                "scored_by": "encoder",
            },
            "dataset": {
                "data": f"out/{benchmark}",
                "benchmark": benchmark,
                "fingerprint": fingerprint,
                "binding_kind": kind,
                "reference": {"corpus": {"kind": "coco", "name": reference}},
            },
            "metrics": metrics,
            "samples": samples,
        }
    )


def relation_records() -> list[dict[str, Any]]:
    """BiVLC's relation build against COCO (its own build): SigLIP ahead of CLIP on unseen
    triples, where the attribute build has CLIP ahead."""
    return [
        counted_record(
            "org/clip-b",
            {"full": (150, 200), "seen": (90, 110), "partial": (36, 50), "unseen": (24, 40)},
            benchmark="bivlc",
            kind="relation",
        ),
        counted_record(
            "google/siglip-b",
            {"full": (160, 200), "seen": (92, 110), "partial": (38, 50), "unseen": (30, 40)},
            benchmark="bivlc",
            kind="relation",
        ),
    ]


#: SugarCrepe against COCO: 10 seen samples (small n), none partial, 30 unseen.
SUGARCREPE_COUNTS: dict[str, dict[str, tuple[int, int]]] = {
    "org/negclip-b": {"full": (35, 40), "seen": (8, 10), "partial": (0, 0), "unseen": (27, 30)},
    "google/siglip-b": {"full": (26, 40), "seen": (8, 10), "partial": (0, 0), "unseen": (18, 30)},
    "org/clip-b": {"full": (28, 40), "seen": (10, 10), "partial": (0, 0), "unseen": (18, 30)},
}


def space_records() -> list[dict[str, Any]]:
    """What the Space's tests show: :func:`leaderboard_records`, BiVLC's relation build, and
    SugarCrepe with a small ``seen`` (10 samples; CLIP 10/10), an empty ``partial`` and no
    ``balanced``.

    Across benchmarks against COCO (attribute builds), the unseen I2T accuracies are
    BiVLC: CLIP 88.3, SigLIP 81.7, NegCLIP 30.0; VisMin: CLIP 41.7, SigLIP 33.3;
    SugarCrepe: NegCLIP 90.0, SigLIP 60.0, CLIP 60.0. Borda shares (share of the other models
    beaten, a tie half): BiVLC CLIP 1, SigLIP 1/2, NegCLIP 0; VisMin CLIP 1, SigLIP 0;
    SugarCrepe NegCLIP 1, SigLIP 1/4, CLIP 1/4. Means over each model's benchmarks: CLIP
    (1 + 1 + 1/4) / 3 = 0.75, NegCLIP (0 + 1) / 2 = 0.5, SigLIP (1/2 + 0 + 1/4) / 3 = 0.25:
    ranks CLIP 1, NegCLIP 2, SigLIP 3.
    """
    sugarcrepe = [
        counted_record(model, counts, benchmark="sugarcrepe")
        for model, counts in SUGARCREPE_COUNTS.items()
    ]
    return [*leaderboard_records(), *relation_records(), *sugarcrepe]


_ROW = re.compile(
    r"\s+(?P<rank>\d+)\s+(?P<model>\S+)\s+(?P<accuracy>\d+\.\d)\*?\s+(?P<ci>\[[^\]]*\]|-)"
    r"\s+(?P<n>[\d,]+|-)(?:\s+(?P<move>\S+))?"
)


def compare_rows(text: str) -> dict[str, list[dict[str, str]]]:
    """The rows of `bindsplit compare`'s output for one benchmark: configuration -> rows of
    rank, model, accuracy, ci, n and move (the cells as printed)."""
    rows: dict[str, list[dict[str, str]]] = {}
    config = None
    for line in text.splitlines():
        if re.fullmatch(r"  \w+", line):
            config = line.strip()
            rows[config] = []
        elif config is not None and (match := _ROW.fullmatch(line)):
            rows[config].append({**match.groupdict(), "move": match["move"] or ""})
    return rows


def _marker(row: dict[str, Any]) -> str:
    move = row["move"]
    if move:
        return f"↑{move}" if move > 0 else f"↓{-move}"
    return "=" if row["within_noise"] else ""


def as_compare_text(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, str]]]:
    """The leaderboard's typed rows (numbers) printed as `bindsplit compare` prints them."""
    return {
        config: [
            {
                "rank": str(row["rank"]),
                "model": row["model"],
                "accuracy": f"{row['accuracy']:.1f}",
                "ci": "-"
                if row["ci_low"] is None
                else f"[{row['ci_low']:.1f}, {row['ci_high']:.1f}]",
                "n": "-" if row["n"] is None else f"{row['n']:,}",
                "move": _marker(row),
            }
            for row in config_rows
        ]
        for config, config_rows in rows.items()
    }
