"""Plain-text tables: one renderer (:func:`render_table`) behind every table BindSplit prints.

The tables built on it here are a results record's accuracy table (``bindsplit eval``) and a
benchmark's composition (``bindsplit build``/``stats``/``reproduce``); the leaderboards of
:mod:`~bindsplit_datasets.reports.leaderboards` use it too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from ..pairing import format_pairing_check
from .results import (
    GAP,
    METRIC_LABELS,
    METRICS,
    count_key,
    interval_key,
    metric_key,
    record_configs,
)

__all__ = ["Align", "format_composition", "format_record_table", "percent", "render_table"]

#: Left (``<``) or right (``>``) alignment of a column.
Align = Literal["<", ">"]


def render_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    align: Align | Sequence[Align] = "<",
    indent: str = "",
    rule: bool = False,
) -> str:
    """Columns padded to their widest cell and separated by two spaces, trailing spaces removed.

    Args:
        header: column titles (a table always has a header line).
        rows: cells as strings, as many per row as ``header``.
        align: ``"<"`` (left) or ``">"`` (right), for every column or one per column.
        indent: prefix of every line.
        rule: draw a line of dashes under the header.

    >>> print(render_table(("model", "n"), [("a", "10"), ("bb", "5")], align=("<", ">")))
    model   n
    a      10
    bb      5
    """
    aligns = [align] * len(header) if isinstance(align, str) else list(align)
    if len(aligns) != len(header) or any(len(row) != len(header) for row in rows):
        raise ValueError(
            f"a table of {len(header)} columns needs {len(header)} alignments and cells per row"
        )
    widths = [max(len(line[i]) for line in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        padded = (
            f"{cell:{side}{width}}" for cell, side, width in zip(cells, aligns, widths, strict=True)
        )
        return (indent + "  ".join(padded)).rstrip()

    lines = [line(header)]
    if rule:
        lines.append(indent + "  ".join("-" * width for width in widths))
    lines += [line(row) for row in rows]
    return "\n".join(lines)


def percent(value: float, *, signed: bool = False) -> str:
    """A fraction as percent with one decimal (``0.712`` -> ``71.2``; signed: ``+71.2``)."""
    return f"{100 * value:+.1f}" if signed else f"{100 * value:.1f}"


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


def format_composition(rows: Sequence[tuple[str, str, str, str]]) -> str:
    """The composition table (``what  n  share  paper``) of
    :func:`~bindsplit_datasets.cards.composition_rows`."""
    return render_table(("", "n", "share", "paper"), rows, align=("<", ">", ">", ">"))
