"""A results record's accuracy table (``bindsplit eval``), and several builds' splits side by side
(:func:`format_split_gaps`: ``bindsplit demo``'s attribute and relation splits), drawn by the one
table renderer, :func:`~bindsplit_datasets.tables.render_table`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..pairing import format_pairing_check
from ..tables import percent, render_table
from .grouping import valid_records
from .halftruth_tables import format_halftruth_table, has_halftruths
from .intervals import GAP_LABELS, SMALL_FLAG, gap_count, interval_note, is_small
from .results import (
    GAP,
    GAPS,
    HARD_POSITIVE_METRICS,
    METRIC_LABELS,
    METRICS,
    binding_kind,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = ["HARD_POSITIVE_NOTE", "format_record_table", "format_split_gaps"]

#: What the printout of a record with hard positives says under its table.
HARD_POSITIVE_NOTE = (
    "hard positives: I2T counts a sample right only if its positive and every hard positive "
    "score above every negative; I2T original leaves them out; I2T drop = original - I2T, the "
    "share of samples right only without them"
)


def _cell(metrics: Mapping[str, Any], config: str, metric: str, *, signed: bool = False) -> str:
    """An accuracy (or a gap) in percent with its interval, flagged when it rests on a small or
    degenerate sample; ``-`` when absent."""
    if metric_key(config, metric) not in metrics:
        return "-"
    value = percent(metrics[metric_key(config, metric)], signed=signed)
    interval = metrics.get(interval_key(config, metric))
    if interval is not None:
        low, high = (percent(bound, signed=signed) for bound in interval)
        value = f"{value} [{low}, {high}]"
    return value + (SMALL_FLAG if is_small(metrics, config, metric) else "")


def format_record_table(record: Mapping[str, Any]) -> str:
    """A results record's accuracies: one row per configuration it reports (percent, interval,
    n), then the gaps (seen - unseen, seen - partial) in points with n the smaller count, and a
    line saying how the intervals were made and what ``*`` flags (n < 30 or 0/n, n/n). A metric
    a benchmark lacks (T2I of a 1 x 2 benchmark) or an empty configuration shows as ``-``. A
    record of a build with hard positives has two more columns, the original I2T (hard
    positives left out) and the drop to I2T with them, and says so under the table."""
    (record,) = valid_records([record])
    metrics = record["metrics"]
    shown = METRICS
    if any(key.endswith(f"/{metric}") for key in metrics for metric in HARD_POSITIVE_METRICS):
        shown = (*METRICS, *HARD_POSITIVE_METRICS)
    header = ["configuration", "n", *(METRIC_LABELS[m] for m in shown)]
    rows = [
        [
            config,
            str(metrics[count_key(config)]),
            *(_cell(metrics, config, m) for m in shown),
        ]
        for config in record_configs(metrics)
    ]
    for gap in GAPS:
        if any(key.startswith(f"{gap}/") for key in metrics):
            n = gap_count(metrics, gap)
            cells = (_cell(metrics, gap, m, signed=True) for m in shown)
            rows.append([f"gap ({GAP_LABELS[gap]})", "" if n is None else str(n), *cells])
    dataset = record["dataset"]
    title = f"{record['model']['id']} on {dataset['benchmark']} ({dataset['data']})"
    table = f"{title}\n{render_table(header, rows, rule=True)}\n{interval_note(metrics)}"
    if shown != METRICS:
        table += f"\n{HARD_POSITIVE_NOTE}"
    check = record.get("pairing_check")
    if check:
        table = f"{table}\n{format_pairing_check(check)}"
    if has_halftruths(record):
        table = f"{table}\n\n{format_halftruth_table(record)}"
    return table


def format_split_gaps(records: Sequence[Mapping[str, Any]], metric: str = "i2t") -> str:
    """Several builds' splits side by side, one row per record (a model on a build): its
    ``seen`` and ``unseen`` accuracy in percent and their gap (seen - unseen) in points, each
    with its interval and n, so that a model's attribute split reads beside its relation split;
    then the records' line on how the intervals were made."""
    records = valid_records(records)
    header = ["model", "build", "n", "seen", "n", "unseen", f"{GAP_LABELS[GAP]} (points)"]
    rows = []
    for record in records:
        metrics = record["metrics"]
        kind = binding_kind(record)
        rows.append(
            [
                str(record["model"]["id"]),
                f"{record['dataset']['benchmark']} ({kind} bindings)",
                *(
                    cell
                    for config in GAPS[GAP]
                    for cell in (
                        str(metrics.get(count_key(config), "-")),
                        _cell(metrics, config, metric),
                    )
                ),
                _cell(metrics, GAP, metric, signed=True),
            ]
        )
    notes = dict.fromkeys(interval_note(record["metrics"]) for record in records)
    title = f"{METRIC_LABELS[metric]} accuracy by split, side by side"
    return "\n".join([title, render_table(header, rows, rule=True), *notes])
