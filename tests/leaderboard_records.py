"""Records for the leaderboard tests (view and Space): models whose ranks move between
configurations, some for real, on two benchmarks and two reference corpora; and a parser of
`bindsplit compare`'s text into rows, to check that the leaderboard shows exactly those."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from report_records import record_from_samples

__all__ = ["LABELS", "as_compare_text", "compare_rows", "leaderboard_records"]

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
