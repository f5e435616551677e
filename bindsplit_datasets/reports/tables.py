"""A results record's accuracy table (``bindsplit eval``), drawn by the one table renderer,
:func:`~bindsplit_datasets.tables.render_table`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..pairing import format_pairing_check
from ..tables import percent, render_table
from .results import (
    GAP,
    METRIC_LABELS,
    METRICS,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = ["format_record_table"]


def _cell(metrics: Mapping[str, Any], config: str, metric: str, *, signed: bool = False) -> str:
    """An accuracy in percent with its interval; ``-`` when absent."""
    if metric_key(config, metric) not in metrics:
        return "-"
    value = percent(metrics[metric_key(config, metric)], signed=signed)
    interval = metrics.get(interval_key(config, metric))
    if interval is None:
        return value
    low, high = (percent(bound, signed=signed) for bound in interval)
    return f"{value} [{low}, {high}]"


def format_record_table(record: Mapping[str, Any]) -> str:
    """A results record's accuracies: one row per configuration it reports (percent, 95%
    interval, n) and the seen-minus-unseen gap in points. A metric a benchmark lacks (T2I of a
    1 x 2 benchmark) or an empty configuration shows as ``-``."""
    metrics = record["metrics"]
    header = ["configuration", "n", *(METRIC_LABELS[m] for m in METRICS)]
    rows = [
        [
            config,
            str(metrics[count_key(config)]),
            *(_cell(metrics, config, m) for m in METRICS),
        ]
        for config in record_configs(metrics)
    ]
    if any(key.startswith(f"{GAP}/") for key in metrics):
        rows.append(
            ["gap (seen - unseen)", "", *(_cell(metrics, GAP, m, signed=True) for m in METRICS)]
        )
    dataset = record["dataset"]
    title = f"{record['model']['id']} on {dataset['benchmark']} ({dataset['data']})"
    table = f"{title}\n{render_table(header, rows, rule=True)}"
    check = record.get("pairing_check")
    return f"{table}\n{format_pairing_check(check)}" if check else table
