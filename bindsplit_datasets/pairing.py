"""The pairing check of a benchmark whose rows were re-paired from its ground truth (VisMin).

VisMin's release stores about half of its rows *crossed* (``text_0`` describes ``image_1``); a build
stores every row so that ``text_i`` describes ``image_i`` and marks the rows it swapped in the
boolean column ``pairing_crossed``. A model cannot know which rows were swapped, so its accuracy on
crossed and on straight rows should agree within sampling error. If the pairing were applied
wrongly (another release, another solution file), every affected row would be scored against
inverted ground truth: accuracy on those rows falls far below chance while the other rows stay
high. :func:`pairing_check` compares the two groups and flags a difference far beyond sampling
error: more than ``z`` standard errors of the difference of two proportions (``z = 4`` by default,
so that a correct build is flagged about once in 16,000 evaluations of one metric).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["DEFAULT_Z", "PAIRING_COLUMN", "format_pairing_check", "pairing_check"]

#: The boolean column a build adds to mark rows stored swapped relative to the source.
PAIRING_COLUMN = "pairing_crossed"

#: Standard errors of the difference beyond which crossed and straight rows disagree.
DEFAULT_Z = 4.0

_METRICS = ("i2t", "t2i", "group")


def _outcomes(samples: Mapping[str, Sequence[int]], metric: str) -> list[int] | None:
    if metric == "group":
        if "t2i" not in samples:
            return None
        return [int(a and b) for a, b in zip(samples["i2t"], samples["t2i"], strict=True)]
    values = samples.get(metric)
    return None if values is None else [int(v) for v in values]


def pairing_check(
    crossed: Sequence[bool], samples: Mapping[str, Sequence[int]], *, z: float = DEFAULT_Z
) -> dict[str, Any] | None:
    """Accuracy on crossed and on straight rows, and whether they disagree far beyond chance.

    Args:
        crossed: per sample, whether its source row was stored crossed.
        samples: per-sample outcomes (0/1) as in a results record's ``samples`` block: ``i2t``
            and, for samples with two images, ``t2i``.
        z: standard errors of the difference beyond which the groups disagree.

    Returns:
        ``None`` when one group is empty (nothing to compare); else ``{"crossed": {metric:
        {"n", "accuracy"}}, "straight": {...}, "z": {metric: float}, "suspect": bool}``.

    >>> check = pairing_check([True, True, False, False], {"i2t": [1, 1, 1, 0]})
    >>> check["crossed"]["i2t"], check["straight"]["i2t"], check["suspect"]
    ({'n': 2, 'accuracy': 1.0}, {'n': 2, 'accuracy': 0.5}, False)
    """
    flags = [bool(flag) for flag in crossed]
    if all(flags) or not any(flags):
        return None
    groups: dict[str, dict[str, dict[str, float | int]]] = {"crossed": {}, "straight": {}}
    scores: dict[str, float] = {}
    for metric in _METRICS:
        values = _outcomes(samples, metric)
        if values is None:
            continue
        split = {
            "crossed": [v for v, f in zip(values, flags, strict=True) if f],
            "straight": [v for v, f in zip(values, flags, strict=True) if not f],
        }
        for name, group in split.items():
            groups[name][metric] = {"n": len(group), "accuracy": sum(group) / len(group)}
        p1, n1 = groups["crossed"][metric]["accuracy"], len(split["crossed"])
        p2, n2 = groups["straight"][metric]["accuracy"], len(split["straight"])
        pooled = (p1 * n1 + p2 * n2) / (n1 + n2)
        se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
        scores[metric] = abs(p1 - p2) / se if se > 0 else (0.0 if p1 == p2 else math.inf)
    return {**groups, "z": scores, "suspect": any(value > z for value in scores.values())}


def format_pairing_check(check: Mapping[str, Any]) -> str:
    """One line per metric, and a warning line when the groups disagree."""
    lines = ["pairing check (rows stored crossed vs straight, should agree):"]
    for metric, z in check["z"].items():
        crossed, straight = check["crossed"][metric], check["straight"][metric]
        lines.append(
            f"  {metric}: crossed {100 * crossed['accuracy']:.1f}% (n={crossed['n']}), straight "
            f"{100 * straight['accuracy']:.1f}% (n={straight['n']}), {z:.1f} standard errors apart"
        )
    if check["suspect"]:
        lines.append(
            "warning: crossed and straight rows disagree far beyond sampling error, the sign of "
            "a pairing error: check that the build's sim_solution.csv belongs to this release "
            "of the benchmark (bindsplit build vismin --sim-solution PATH)"
        )
    return "\n".join(lines)
