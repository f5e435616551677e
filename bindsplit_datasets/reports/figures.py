"""Figures from results records: grouped bars of accuracy per configuration, one bar per model.

:func:`plot_results` draws, per benchmark, one panel per metric the benchmark reports (a
1-image benchmark such as ARO has no T2I or group panel) with one group of bars per
configuration, each with its interval and n, in the style of the paper's figures
(``bindsplit plot``), and a panel of its gaps (seen - unseen, seen - partial) of every metric
drawn, in percentage points with their intervals; a value resting on fewer than 30 samples or a
degenerate count is labelled with ``*``. Records of different benchmarks never share a panel.
The panels of all benchmarks fill a grid of at most :data:`MAX_COLUMNS` columns, each
benchmark's together, so that several benchmarks make a compact figure with no empty panel.
Needs matplotlib (the ``plot`` extra).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic import atomic_file
from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError, require
from ..tables import percent
from .grouping import group_by_benchmark, unique_labels, valid_records
from .intervals import GAP_LABELS, SMALL_FLAG, gap_count, interval_label, is_small
from .results import (
    GAPS,
    METRIC_LABELS,
    METRICS,
    count_key,
    interval_key,
    metric_key,
    reported_configs,
)

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

__all__ = ["FIGURE_FORMATS", "MAX_COLUMNS", "panel_metrics", "plot_results", "results_figure"]

#: Figure formats matplotlib writes that a paper or a README can embed.
FIGURE_FORMATS: tuple[str, ...] = ("png", "pdf", "svg")
#: At most this many panels side by side; more go onto further rows.
MAX_COLUMNS = 4
#: A panel's width in inches: room for its bars, within these bounds.
_PANEL_WIDTH = (4.2, 7.5)
#: A panel's height in inches, and the legend's.
_PANEL_HEIGHT, _LEGEND_HEIGHT = 3.4, 0.6


def _value(
    record: Mapping[str, Any], config: str, metric: str
) -> tuple[float, tuple[float, float] | None] | None:
    metrics = record["metrics"]
    accuracy = metrics.get(metric_key(config, metric))
    if accuracy is None:
        return None
    interval = metrics.get(interval_key(config, metric))
    return float(accuracy), (tuple(interval) if interval else None)


def _n_label(group: Sequence[Mapping[str, Any]], config: str) -> str:
    key = count_key(config)
    counts = sorted({record["metrics"][key] for record in group if key in record["metrics"]})
    if not counts:
        return config
    if len(counts) == 1:
        return f"{config}\n(n={counts[0]:,})"
    return f"{config}\n(n={counts[0]:,}–{counts[-1]:,})"


def _draw_panel(
    ax: Any,
    group: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    colors: Mapping[str, Any],
    configs: Sequence[str],
    metric: str,
    benchmark: str,
) -> None:
    """One benchmark's panel of ``metric``: per configuration it reports (at least one does:
    :func:`panel_metrics`) one group of bars, one per model, with intervals."""
    from matplotlib.ticker import PercentFormatter

    shown = [
        config
        for config in configs
        if any(_value(record, config, metric) is not None for record in group)
    ]
    width = min(0.8 / len(group), 0.3)  # one model: a narrow bar, not a wall
    label_size = 7 if len(group) <= 4 else 5.5
    for position, (label, record) in enumerate(zip(labels, group, strict=True)):
        for slot, config in enumerate(shown):
            value = _value(record, config, metric)
            if value is None:
                continue
            accuracy, interval = value
            x = slot + (position - (len(group) - 1) / 2) * width
            error = None
            top = accuracy
            if interval is not None:
                error = [[max(accuracy - interval[0], 0.0)], [max(interval[1] - accuracy, 0.0)]]
                top = max(interval[1], accuracy)
            ax.bar(
                x,
                accuracy,
                width * 0.92,
                color=colors[label],
                label=label if slot == 0 else None,
                yerr=error,
                capsize=2.5,
                error_kw={"elinewidth": 0.8, "ecolor": "0.2"},
            )
            flag = SMALL_FLAG if is_small(record["metrics"], config, metric) else ""
            ax.text(
                x,
                top + 0.012,
                percent(accuracy) + flag,
                ha="center",
                va="bottom",
                fontsize=label_size,
            )
    ax.set_xticks(range(len(shown)), [_n_label(group, config) for config in shown])
    ax.set_ylim(0, 1.08)
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=0))
    ax.set_ylabel(f"{METRIC_LABELS[metric]} accuracy")
    ax.set_title(f"{benchmark}: {METRIC_LABELS[metric]}")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)


def _gaps(
    records: Sequence[Mapping[str, Any]], metrics: Sequence[str], configs: Sequence[str]
) -> list[tuple[str, str]]:
    """The (gap, metric) pairs of ``metrics`` a record reports whose two configurations are both
    shown, gap by gap."""
    return [
        (gap, metric)
        for gap, pair in GAPS.items()
        if set(pair) <= set(configs)
        for metric in metrics
        if any(metric_key(gap, metric) in record["metrics"] for record in records)
    ]


def _gap_label(group: Sequence[Mapping[str, Any]], gap: str, metric: str | None) -> str:
    """A gap's tick: its configurations, the metric (where the panel holds several) and n."""
    counts = sorted({n for record in group if (n := gap_count(record["metrics"], gap)) is not None})
    label = GAP_LABELS[gap] + (f"\n{METRIC_LABELS[metric]}" if metric else "")
    if not counts:
        return label
    span = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}–{counts[-1]:,}"
    return f"{label}\n(n={span})" if metric is None else f"{label} (n={span})"


def _points(value: float, _position: object = None) -> str:
    """A gap axis tick in percentage points: ``+5``, ``0``, ``-10``."""
    return f"{100 * value:+.0f}" if round(100 * value) else "0"


def _draw_gaps(
    ax: Any,
    group: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    colors: Mapping[str, Any],
    gaps: Sequence[tuple[str, str]],
    benchmark: str,
) -> None:
    """The gaps panel: per (gap, metric) one group of bars (one per model) from 0, with
    intervals, on an axis of percentage points."""
    from matplotlib.ticker import FuncFormatter

    width = min(0.8 / len(group), 0.3)
    label_size = 7 if len(group) <= 4 else 5.5
    bounds = [0.0]
    for position, (label, record) in enumerate(zip(labels, group, strict=True)):
        metrics = record["metrics"]
        for slot, (gap, metric) in enumerate(gaps):
            value = metrics.get(metric_key(gap, metric))
            if value is None:
                continue
            interval = metrics.get(interval_key(gap, metric))
            x = slot + (position - (len(group) - 1) / 2) * width
            error = None
            low, high = value, value
            if interval is not None:
                low, high = min(interval[0], value), max(interval[1], value)
                error = [[value - low], [high - value]]
            bounds += [low, high]
            ax.bar(
                x,
                value,
                width * 0.92,
                color=colors[label],
                yerr=error,
                capsize=2.5,
                error_kw={"elinewidth": 0.8, "ecolor": "0.2"},
            )
            flag = SMALL_FLAG if is_small(metrics, gap, metric) else ""
            above = value >= 0
            ax.text(
                x,
                (high + 0.012) if above else (low - 0.012),
                percent(value, signed=True) + flag,
                ha="center",
                va="bottom" if above else "top",
                fontsize=label_size,
            )
    ax.axhline(0.0, color="0.3", linewidth=0.8)
    drawn = list(dict.fromkeys(metric for _, metric in gaps))
    several = len(drawn) > 1
    ticks = [_gap_label(group, gap, metric if several else None) for gap, metric in gaps]
    ax.set_xticks(range(len(gaps)), ticks)
    ax.set_ylim(min(bounds) - 0.1, max(bounds) + 0.1)
    ax.yaxis.set_major_formatter(FuncFormatter(_points))
    level = interval_label(group[0]["metrics"])
    names = ", ".join(METRIC_LABELS[metric] for metric in drawn)
    ax.set_ylabel(f"{'' if several else names + ' '}gap (percentage points, {level})")
    ax.set_title(f"{benchmark}: {names} gap")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)


def panel_metrics(
    records: Sequence[Mapping[str, Any]],
    metrics: Sequence[str] = METRICS,
    configs: Sequence[str] | None = None,
) -> list[str]:
    """The metrics :func:`plot_results` draws a panel column for.

    Those that at least one record reports on at least one of ``configs``: T2I and group drop out
    when only 1 image x 2 captions benchmarks are given.
    """
    configs = reported_configs(records, configs)
    return [
        metric
        for metric in metrics
        if any(
            _value(record, config, metric) is not None for record in records for config in configs
        )
    ]


def results_figure(
    records: Sequence[Mapping[str, Any]],
    metrics: Sequence[str] = METRICS,
    configs: Sequence[str] | None = None,
    *,
    allow_mixed_builds: bool = False,
) -> Figure:
    """The figure :func:`plot_results` writes, as a matplotlib ``Figure`` (not attached to
    pyplot, so nothing is shown or kept open): what the leaderboard Space draws.

    Raises :class:`~bindsplit_datasets.errors.MissingExtraError` (one line: install the
    ``plot`` extra) without matplotlib.
    """
    if isinstance(metrics, str) or not isinstance(metrics, Sequence):
        raise BindsplitValueError(
            f"metrics must be a list of metric names ({', '.join(METRICS)}), got {metrics!r}"
        )
    unknown = [metric for metric in metrics if metric not in METRICS]
    if unknown:
        raise BindsplitValueError(
            f"unknown metric {unknown[0]!r}; choose among {', '.join(METRICS)}"
        )
    configs = reported_configs(records, configs)
    groups = group_by_benchmark(records, allow_mixed_builds=allow_mixed_builds)
    panels = panel_metrics(records, metrics, configs)
    if not panels:
        raise SchemaError(
            f"no results record reports {', '.join(metrics)} on {', '.join(configs)}: "
            "nothing to plot"
        )
    require("plot", "matplotlib", purpose="a figure")
    import matplotlib

    # model ids are user data, shown as text: "$" never starts mathtext (every text made here)
    with matplotlib.rc_context({"text.parse_math": False}):
        return _figure(records, configs, groups, panels)


def _figure(
    records: Sequence[Mapping[str, Any]],
    configs: Sequence[str],
    groups: Mapping[str, Sequence[Mapping[str, Any]]],
    panels: Sequence[str],
) -> Figure:
    """The body of :func:`results_figure`, once the records are checked."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    labels_per_group = {benchmark: unique_labels(group) for benchmark, group in groups.items()}
    every_label = list(
        dict.fromkeys(label for labels in labels_per_group.values() for label in labels)
    )
    palette = [f"C{index % 10}" for index in range(len(every_label))]
    colors = dict(zip(every_label, palette, strict=True))

    # each benchmark's panels: the metrics it reports, then its gaps (if any): no empty panel
    cells: list[tuple[str, str | None, int]] = []  # (benchmark, metric or None: gaps, bars)
    for benchmark, group in groups.items():
        own = panel_metrics(group, panels, configs)
        cells += [(benchmark, metric, len(group) * len(configs)) for metric in own]
        gaps = _gaps(group, own, configs)
        if gaps:
            cells.append((benchmark, None, len(group) * len(gaps)))
    columns = min(len(cells), MAX_COLUMNS)
    rows = -(-len(cells) // columns)
    narrowest, widest = _PANEL_WIDTH
    width = min(widest, max(narrowest, 1.1 + 0.5 * max(bars for _, _, bars in cells)))
    figure = Figure(
        figsize=(width * columns, _PANEL_HEIGHT * rows + _LEGEND_HEIGHT), layout="constrained"
    )
    FigureCanvasAgg(figure)
    axes = list(figure.subplots(rows, columns, squeeze=False).flat)
    for ax, (benchmark, metric, _) in zip(axes, cells, strict=False):
        group, labels = groups[benchmark], labels_per_group[benchmark]
        if metric is None:
            own = panel_metrics(group, panels, configs)
            _draw_gaps(ax, group, labels, colors, _gaps(group, own, configs), benchmark)
        else:
            _draw_panel(ax, group, labels, colors, configs, metric, benchmark)
    for ax in axes[len(cells) :]:
        ax.remove()
    handles = [Patch(color=colors[label], label=label) for label in every_label]
    figure.legend(
        handles,
        every_label,
        loc="outside lower center",
        ncols=min(len(every_label), 4),
        frameon=False,
        fontsize=8,
    )
    return figure


def plot_results(
    records: Sequence[Mapping[str, Any]],
    out: str | os.PathLike[str],
    metrics: Sequence[str] = METRICS,
    configs: Sequence[str] | None = None,
    *,
    allow_mixed_builds: bool = False,
    dpi: int = 150,
) -> Path:
    """Grouped bars of accuracy per configuration, one bar per model, with their intervals.

    Per benchmark one panel per metric it reports (T2I/group are absent on 1 image x 2 captions
    benchmarks), then a panel of its gaps (seen - unseen, seen - partial, where both
    configurations are drawn) of every metric drawn, in percentage points, with their intervals
    and n; the panels fill a grid of at most :data:`MAX_COLUMNS` columns. ``*`` marks a value
    resting on fewer than 30 samples or a degenerate count. Each x tick is
    a configuration with its n; bars carry their accuracy in percent. ``configs`` default: those
    of :data:`~bindsplit_datasets.reports.results.DEFAULT_CONFIGS` (full, seen, partial, unseen,
    balanced) the records report. The format follows the suffix of ``out`` (png, pdf or svg); the
    file is written to a temporary sibling and renamed into place. Returns the path written.
    Needs matplotlib (the ``plot`` extra).
    """
    out = Path(out)
    file_format = out.suffix.lower().lstrip(".")
    if file_format not in FIGURE_FORMATS:
        raise BindsplitValueError(
            f"cannot write a figure to {out}: use a .png, .pdf or .svg file name"
        )
    if not out.parent.is_dir():
        raise BindsplitFileNotFoundError(
            f"folder {out.parent} does not exist: create it or choose another --out"
        )
    records = valid_records(records)  # the Space draws table records: results_figure takes them
    figure = results_figure(records, metrics, configs, allow_mixed_builds=allow_mixed_builds)
    with atomic_file(out) as temporary:
        figure.savefig(temporary, format=file_format, dpi=dpi)
    return out
