"""A half-truth build's results as a table: AccHT, Δ and refinement accuracy by unit kind, foil
familiarity and edit (``bindsplit demo``, ``bindsplit eval`` of a ``halftruth`` build)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..metric_core import SMALL_N
from ..metric_halftruth import DELTA, HALFTRUTH_METRICS, HALFTRUTH_SETTINGS
from ..tables import percent, render_table
from .intervals import SMALL_FLAG, interval_label, is_small
from .results import METRIC_LABELS, count_key, interval_key, metric_key

__all__ = ["format_halftruth_table", "has_halftruths"]

_KINDS = ("entity", "relation")
_FOILS = ("seen", "unseen")
_GAP = "gap"
_METHODS = {
    "wilson": "Wilson",
    "newcombe": "Newcombe",
    "student-t": "Student t",
    "welch": "Welch t",
}


def has_halftruths(record: Mapping[str, Any]) -> bool:
    """Whether a results record reports half-truth metrics (a ``halftruth`` build's)."""
    return metric_key("full", "acc_ht") in record["metrics"]


def _cell(metrics: Mapping[str, Any], prefix: str, metric: str, signed: bool) -> str:
    """One value with its interval (accuracies in percent, Δ as a score difference), ``*`` on
    a small or degenerate sample, ``-`` where absent."""
    key = metric_key(prefix, metric)
    if key not in metrics:
        return "-"

    def show(value: float) -> str:
        return f"{value:+.4f}" if metric == DELTA else percent(value, signed=signed)

    text = show(metrics[key])
    interval = metrics.get(interval_key(prefix, metric))
    if interval is not None:
        text += f" [{show(interval[0])}, {show(interval[1])}]"
    return text + (SMALL_FLAG if _small(metrics, prefix, metric) else "")


def _small(metrics: Mapping[str, Any], prefix: str, metric: str) -> bool:
    """The small-sample flag (:func:`~.intervals.is_small`: n < 30, or for an accuracy a
    degenerate count); for a gap, also of a kind or an edit, either side's."""
    head, _, rest = prefix.partition("/")
    if head == _GAP:
        return any(_small(metrics, f"{foil}/{rest}" if rest else foil, metric) for foil in _FOILS)
    return is_small(metrics, prefix, metric)


def _row(metrics: Mapping[str, Any], label: str, foil: str, prefix: str) -> list[str]:
    signed = prefix == _GAP or prefix.startswith(f"{_GAP}/")
    if signed:
        n = min(
            (int(metrics.get(count_key(f"{f}{prefix[len(_GAP) :]}"), 0)) for f in _FOILS),
            default=0,
        )
    else:
        n = int(metrics.get(count_key(prefix), 0))
    return [label, foil, str(n), *(_cell(metrics, prefix, m, signed) for m in HALFTRUTH_METRICS)]


def _scoped(foil: str, scope: str) -> str:
    return f"{foil}/{scope}" if scope else foil


def format_halftruth_table(record: Mapping[str, Any]) -> str:
    """The half-truth table of a record: per unit kind (entity, relation, all) the seen foils,
    the unseen foils and seen - unseen; then per edit the seen and unseen foils. AccHT and
    refinement accuracy in percent (gaps in points), Δ = s(I, anchor) - s(I, half-truth) as a
    score difference; each with its interval and n, and a line naming the methods."""
    metrics = record["metrics"]
    header = ["unit", "foil", "n", *(METRIC_LABELS[m] for m in HALFTRUTH_METRICS)]
    rows = []
    for kind in (*_KINDS, "all"):
        scope = "" if kind == "all" else f"kind/{kind}"
        for foil in _FOILS:
            rows.append(_row(metrics, kind, foil, _scoped(foil, scope)))
        rows.append(_row(metrics, kind, "seen - unseen", _scoped(_GAP, scope)))
        if kind == "all":
            rows.append(_row(metrics, kind, "all", "full"))
    categories = sorted(
        key.removeprefix("full/category/").removesuffix("/n")
        for key in metrics
        if key.startswith("full/category/") and key.endswith("/n")
    )
    by_edit = [
        _row(metrics, category, foil, f"{foil}/category/{category}")
        for category in categories
        for foil in _FOILS
    ]
    dataset = record["dataset"]
    title = f"{record['model']['id']} on {dataset['benchmark']} ({dataset['data']})"
    settings = {key: metrics.get(key, value) for key, value in HALFTRUTH_SETTINGS.items()}
    note = (
        f"{interval_label(metrics).removesuffix(' CI')} intervals: AccHT and refinement "
        f"{_METHODS[settings['halftruth_interval_method']]}, their gaps "
        f"{_METHODS[settings['halftruth_gap_interval_method']]}; Δ "
        f"{_METHODS[settings['delta_interval_method']]}, its gap "
        f"{_METHODS[settings['delta_gap_interval_method']]}; {SMALL_FLAG} n < {SMALL_N} or a "
        "degenerate count (0/n, n/n)\nAccHT: s(I, anchor) > s(I, half-truth); Δ = s(I, anchor) - "
        "s(I, half-truth); refinement: s(I, refinement) > s(I, half-truth); foil: the added "
        "unit's familiarity in the reference"
    )
    return (
        f"{title}\n{render_table(header, rows, rule=True)}\n\nby edit\n"
        f"{render_table(header, by_edit, rule=True)}\n{note}"
    )
