"""A results record's accuracy table (``bindsplit eval``), drawn by the one table renderer,
:func:`~bindsplit_datasets.tables.render_table`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..pairing import format_pairing_check
from ..tables import percent, render_table
from .grouping import valid_records
from .intervals import GAP_LABELS, SMALL_FLAG, gap_count, interval_note, is_small
from .results import (
    GAPS,
    HARD_POSITIVE_METRICS,
    METRIC_LABELS,
    METRICS,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = ["HARD_POSITIVE_NOTE", "format_record_table"]

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
    return f"{table}\n{format_pairing_check(check)}" if check else table
