"""Figures and leaderboards from results records (``"format": "bindsplit-results/1"``).

A results record (written by :mod:`bindsplit_datasets.evaluation`) holds one model's accuracy on
one built benchmark, per configuration: ``metrics["{config}/{i2t,t2i,group}"]`` (fractions),
``"{config}/{metric}_ci"`` (95% bootstrap interval) and ``"{config}/n"``. T2I and group are absent
for 1 image x 2 captions benchmarks (ARO VG-Attribution); they are never reported as 0.

This module turns several such records into what the paper argues should be reported:

- :func:`leaderboard` ranks models on one configuration; :func:`rank_changes` shows how ranks move
  from ``full`` to the shortcut-free ``seen`` and the ``unseen`` configurations;
  :func:`format_comparison` prints both as text (``bindsplit compare``).
- :func:`plot_results` draws grouped bars per configuration, one bar per model, with the 95%
  intervals and each configuration's n (``bindsplit plot``), in the style of the paper's figures.

Records of different benchmarks are never ranked together: every function that takes several
benchmarks groups them per benchmark (:func:`group_by_benchmark`); the single-benchmark functions
refuse a mix. Records of one benchmark evaluated on different builds (different dataset
fingerprints, e.g. built against different reference corpora, hence different seen/unseen splits)
are refused unless ``allow_mixed_builds=True``.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .atomic import atomic_file
from .errors import SchemaError
from .names import CONFIGURATIONS, RESULTS_FORMAT

__all__ = [
    "ALL_CONFIGS",
    "CONFIGS",
    "METRICS",
    "METRIC_LABELS",
    "RankChange",
    "Row",
    "format_comparison",
    "group_by_benchmark",
    "leaderboard",
    "load_results",
    "model_label",
    "panel_metrics",
    "plot_results",
    "rank_changes",
    "validate_record",
]

METRICS: tuple[str, ...] = ("i2t", "t2i", "group")
CONFIGS: tuple[str, ...] = ("full", "seen", "unseen")
ALL_CONFIGS: tuple[str, ...] = CONFIGURATIONS
METRIC_LABELS: dict[str, str] = {"i2t": "I2T", "t2i": "T2I", "group": "group"}
#: The configuration every other one is compared against when ranks move.
REFERENCE_CONFIG = "full"
#: Figure formats matplotlib writes that a paper or a README can embed.
FIGURE_FORMATS: tuple[str, ...] = ("png", "pdf", "svg")


# ---------------------------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------------------------


def _is_fraction(value: Any) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and 0.0 <= value <= 1.0
    )


def _check_metrics(metrics: Mapping[str, Any], source: str) -> None:
    """Check the per-configuration keys this module reads; other keys (breakdowns) pass through."""
    for config in ALL_CONFIGS:
        for metric in METRICS:
            key = f"{config}/{metric}"
            if key in metrics and not _is_fraction(metrics[key]):
                raise SchemaError(
                    f"{source}: metrics[{key!r}] = {metrics[key]!r} is not a fraction in [0, 1]; "
                    "results records store accuracies as fractions (0.75, not 75)"
                )
            interval = metrics.get(f"{key}_ci")
            if interval is not None and not (
                isinstance(interval, (list, tuple))
                and len(interval) == 2
                and all(_is_fraction(bound) for bound in interval)
                and interval[0] <= interval[1]
            ):
                raise SchemaError(
                    f"{source}: metrics[{key + '_ci'!r}] = {interval!r} is not an interval "
                    "[low, high] of fractions with low <= high"
                )
        n = metrics.get(f"{config}/n")
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise SchemaError(f"{source}: metrics['{config}/n'] = {n!r} is not a sample count")


def validate_record(record: Any, source: str = "results record") -> dict[str, Any]:
    """Return ``record`` if it is a well-formed results record, else raise :class:`SchemaError`.

    ``source`` names the record in error messages (the file it came from).
    """
    if not isinstance(record, dict) or record.get("format") != RESULTS_FORMAT:
        found = record.get("format") if isinstance(record, dict) else type(record).__name__
        raise SchemaError(
            f'{source} is not a BindSplit results record (expected "format": '
            f'"{RESULTS_FORMAT}", found {found!r}); make one with `bindsplit eval`'
        )
    model, dataset, metrics = record.get("model"), record.get("dataset"), record.get("metrics")
    if not isinstance(model, dict) or not isinstance(model.get("id"), str) or not model["id"]:
        raise SchemaError(f"{source}: the record has no model.id")
    if not isinstance(dataset, dict) or not isinstance(dataset.get("benchmark"), str):
        raise SchemaError(f"{source}: the record has no dataset.benchmark")
    if not isinstance(metrics, dict):
        raise SchemaError(f"{source}: the record has no metrics dictionary")
    _check_metrics(metrics, source)
    return record


def load_results(paths: Iterable[str | os.PathLike[str]]) -> list[dict[str, Any]]:
    """Read and validate results records (JSON files), in the order given.

    A file holds one record (``bindsplit eval --out``) or a JSON list of records (a collection,
    such as ``demo_output/results.json``). Raises ``FileNotFoundError`` for a missing file and
    :class:`SchemaError` naming the file for anything that is not a results record.
    """
    records = []
    for raw in paths:
        path = Path(raw)
        if not path.is_file():
            raise FileNotFoundError(f"results file not found: {path}")
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise SchemaError(
                f"{path} is not a BindSplit results record: not JSON ({error}); pass the "
                "RESULTS.json files written by `bindsplit eval`"
            ) from None
        if isinstance(record, list):
            if not record:
                raise SchemaError(f"{path} is an empty list: it holds no results records")
            records.extend(
                validate_record(item, source=f"{path}[{i}]") for i, item in enumerate(record)
            )
        else:
            records.append(validate_record(record, source=str(path)))
    if not records:
        raise ValueError("no results files given: pass one or more RESULTS.json files")
    return records


# ---------------------------------------------------------------------------------------------
# Grouping and labels
# ---------------------------------------------------------------------------------------------


def model_label(record: Mapping[str, Any]) -> str:
    """The name a record's model is shown under: its ``model.id``."""
    return str(record["model"]["id"])


def _unique_labels(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """Model labels of records of one benchmark; ``id@revision`` where one id has several."""
    ids = [model_label(record) for record in records]
    labels = [
        f"{model_id}@{record['model'].get('revision')}" if ids.count(model_id) > 1 else model_id
        for model_id, record in zip(ids, records, strict=True)
    ]
    duplicates = sorted({label for label in labels if labels.count(label) > 1})
    if duplicates:
        raise SchemaError(
            f"model {duplicates[0]!r} has several results for benchmark "
            f"{records[0]['dataset']['benchmark']!r}; pass one results file per model"
        )
    return labels


def group_by_benchmark(
    records: Sequence[Mapping[str, Any]], *, allow_mixed_builds: bool = False
) -> dict[str, list[Mapping[str, Any]]]:
    """Records grouped by ``dataset.benchmark``, benchmarks in order of first appearance.

    Raises :class:`SchemaError` when one benchmark's records come from builds with different
    dataset fingerprints (their seen/unseen splits differ) unless ``allow_mixed_builds``.
    """
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        groups.setdefault(record["dataset"]["benchmark"], []).append(record)
    for benchmark, group in groups.items():
        fingerprints = sorted({str(record["dataset"].get("fingerprint")) for record in group})
        if len(fingerprints) > 1 and not allow_mixed_builds:
            shown = ", ".join(fingerprint[:12] for fingerprint in fingerprints)
            raise SchemaError(
                f"the results for benchmark {benchmark!r} come from different builds "
                f"(dataset fingerprints {shown}): their seen/unseen splits differ, so the models "
                "are not comparable; evaluate every model on the same build, or pass "
                "--allow-mixed-builds (allow_mixed_builds=True) to compare them anyway"
            )
    return groups


def _single_benchmark(records: Sequence[Mapping[str, Any]]) -> str:
    benchmarks = list(dict.fromkeys(record["dataset"]["benchmark"] for record in records))
    if len(benchmarks) != 1:
        raise SchemaError(
            f"records of {len(benchmarks)} benchmarks ({', '.join(benchmarks) or 'none'}) cannot "
            "be ranked together; group them with group_by_benchmark() first"
        )
    return benchmarks[0]


# ---------------------------------------------------------------------------------------------
# Leaderboards
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    """One model's line on a leaderboard. ``accuracy`` and ``ci`` are fractions."""

    rank: int
    model: str
    accuracy: float
    ci: tuple[float, float] | None
    n: int | None


def leaderboard(
    records: Sequence[Mapping[str, Any]], config: str, metric: str = "i2t"
) -> list[Row]:
    """Models ranked by ``{config}/{metric}``, best first, for records of one benchmark.

    Equal accuracies share a rank and the next rank skips ("1, 1, 3"); ties are listed by model
    name. Models whose record lacks the metric on ``config`` are left out.
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    _single_benchmark(records)
    entries = []
    for label, record in zip(_unique_labels(records), records, strict=True):
        metrics = record["metrics"]
        accuracy = metrics.get(f"{config}/{metric}")
        if accuracy is None:
            continue
        interval = metrics.get(f"{config}/{metric}_ci")
        entries.append(
            (
                label,
                float(accuracy),
                tuple(interval) if interval else None,
                metrics.get(f"{config}/n"),
            )
        )
    entries.sort(key=lambda entry: (-entry[1], entry[0]))
    return [
        Row(
            rank=1 + sum(other[1] > accuracy for other in entries),
            model=label,
            accuracy=accuracy,
            ci=interval,
            n=n,
        )
        for label, accuracy, interval, n in entries
    ]


@dataclass(frozen=True)
class RankChange:
    """A model's rank on each configuration (``None`` where it has no value) and the move
    relative to ``full``: ``"↑2"`` two places up, ``"↓1"`` one place down, ``""`` unchanged."""

    model: str
    ranks: dict[str, int | None]
    markers: dict[str, str]

    @property
    def moved(self) -> bool:
        """Whether the model's rank differs from its ``full`` rank on any configuration."""
        return any(self.markers.values())


def _marker(reference: int | None, rank: int | None) -> str:
    if reference is None or rank is None or reference == rank:
        return ""
    return f"↑{reference - rank}" if rank < reference else f"↓{rank - reference}"


def rank_changes(
    records: Sequence[Mapping[str, Any]],
    metric: str = "i2t",
    configs: Sequence[str] = CONFIGS,
) -> list[RankChange]:
    """Per model, its rank on every configuration and the move relative to ``full``.

    Ordered by ``full`` rank (models without a ``full`` value last), then by name.
    """
    boards = {
        config: {row.model: row.rank for row in leaderboard(records, config, metric)}
        for config in configs
    }
    reference = {row.model: row.rank for row in leaderboard(records, REFERENCE_CONFIG, metric)}
    models = sorted(
        {model for board in boards.values() for model in board} | set(reference),
        key=lambda model: (reference.get(model, math.inf), model),
    )
    changes = []
    for model in models:
        ranks = {config: boards[config].get(model) for config in configs}
        markers = {
            config: _marker(reference.get(model), ranks[config])
            for config in configs
            if config != REFERENCE_CONFIG
        }
        changes.append(RankChange(model=model, ranks=ranks, markers=markers))
    return changes


def _percent(value: float) -> str:
    return f"{100 * value:.1f}"


def _format_board(
    records: Sequence[Mapping[str, Any]], config: str, metric: str, moves: Mapping[str, str]
) -> list[str]:
    rows = leaderboard(records, config, metric)
    if not rows:
        return [f"  {config}: no result reports {METRIC_LABELS[metric]} on this configuration"]
    change = f"vs {REFERENCE_CONFIG}" if config != REFERENCE_CONFIG else ""
    table = [("rank", "model", f"{METRIC_LABELS[metric]} %", "95% CI", "n", change)]
    for row in rows:
        interval = f"[{_percent(row.ci[0])}, {_percent(row.ci[1])}]" if row.ci else "-"
        n = f"{row.n:,}" if row.n is not None else "-"
        table.append(
            (
                str(row.rank),
                row.model,
                _percent(row.accuracy),
                interval,
                n,
                moves.get(row.model, ""),
            )
        )
    widths = [max(len(line[column]) for line in table) for column in range(len(table[0]))]
    aligns = [">", "<", ">", "<", ">", "<"]
    lines = [f"  {config}"]
    for line in table:
        cells = [
            f"{cell:{align}{width}}"
            for cell, align, width in zip(line, aligns, widths, strict=True)
        ]
        lines.append("    " + "  ".join(cells).rstrip())
    return lines


def format_comparison(
    records: Sequence[Mapping[str, Any]],
    metric: str = "i2t",
    configs: Sequence[str] = CONFIGS,
    *,
    allow_mixed_builds: bool = False,
) -> str:
    """Text leaderboards per benchmark and configuration, with rank moves relative to ``full``.

    One block per benchmark (records of different benchmarks are never ranked together); in it,
    one table per configuration (rank, model, accuracy %, 95% CI, n) where non-``full`` tables mark
    each model whose rank differs from its ``full`` rank (``↑2``/``↓1``), followed by one line
    saying whether the order changed.
    """
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    blocks = []
    for benchmark, group in group_by_benchmark(
        records, allow_mixed_builds=allow_mixed_builds
    ).items():
        label = METRIC_LABELS[metric]
        lines = [f"{benchmark}: {label} accuracy, {len(group)} model{'s' * (len(group) != 1)}"]
        if not any(
            f"{config}/{metric}" in record["metrics"] for record in group for config in configs
        ):
            lines.append(
                f"  no result reports {label} on {benchmark} (undefined for 1-image samples)"
            )
            blocks.append("\n".join(lines))
            continue
        changes = rank_changes(group, metric, configs)
        for config in configs:
            moves = {change.model: change.markers.get(config, "") for change in changes}
            lines.extend(_format_board(group, config, metric, moves))
            if config == REFERENCE_CONFIG:
                continue
            moved = [f"{model} {marker}" for model, marker in moves.items() if marker]
            ranked = any(change.ranks.get(config) is not None for change in changes)
            if ranked:
                summary = (
                    f"order changes vs {REFERENCE_CONFIG}: {', '.join(moved)}"
                    if moved
                    else f"order same as {REFERENCE_CONFIG}"
                )
                lines.append(f"    {summary}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# ---------------------------------------------------------------------------------------------
# Figure
# ---------------------------------------------------------------------------------------------


def _value(
    record: Mapping[str, Any], config: str, metric: str
) -> tuple[float, tuple[float, float] | None] | None:
    metrics = record["metrics"]
    accuracy = metrics.get(f"{config}/{metric}")
    if accuracy is None:
        return None
    interval = metrics.get(f"{config}/{metric}_ci")
    return float(accuracy), (tuple(interval) if interval else None)


def _n_label(group: Sequence[Mapping[str, Any]], config: str) -> str:
    counts = sorted(
        {record["metrics"][f"{config}/n"] for record in group if f"{config}/n" in record["metrics"]}
    )
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
    from matplotlib.ticker import PercentFormatter

    shown = [
        config
        for config in configs
        if any(_value(record, config, metric) is not None for record in group)
    ]
    if not shown:
        ax.set_axis_off()
        ax.set_title(f"{benchmark}: {METRIC_LABELS[metric]}")
        ax.text(
            0.5,
            0.5,
            f"{METRIC_LABELS[metric]} not reported\n(undefined for 1-image samples)",
            ha="center",
            va="center",
            transform=ax.transAxes,
            color="0.4",
        )
        return
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
            ax.text(
                x, top + 0.012, _percent(accuracy), ha="center", va="bottom", fontsize=label_size
            )
    ax.set_xticks(range(len(shown)), [_n_label(group, config) for config in shown])
    ax.set_ylim(0, 1.08)
    ax.yaxis.set_major_formatter(PercentFormatter(xmax=1, decimals=0))
    ax.set_ylabel(f"{METRIC_LABELS[metric]} accuracy")
    ax.set_title(f"{benchmark}: {METRIC_LABELS[metric]}")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    ax.spines[["top", "right"]].set_visible(False)


def panel_metrics(
    records: Sequence[Mapping[str, Any]],
    metrics: Sequence[str] = METRICS,
    configs: Sequence[str] = CONFIGS,
) -> list[str]:
    """The metrics :func:`plot_results` draws a panel column for.

    Those that at least one record reports on at least one of ``configs``: T2I and group drop out
    when only 1 image x 2 captions benchmarks are given.
    """
    return [
        metric
        for metric in metrics
        if any(
            _value(record, config, metric) is not None for record in records for config in configs
        )
    ]


def plot_results(
    records: Sequence[Mapping[str, Any]],
    out: str | os.PathLike[str],
    metrics: Sequence[str] = METRICS,
    configs: Sequence[str] = CONFIGS,
    *,
    allow_mixed_builds: bool = False,
    dpi: int = 150,
) -> Path:
    """Grouped bars of accuracy per configuration, one bar per model, with 95% intervals.

    One row of panels per benchmark and one panel per metric that at least one record reports
    (T2I/group are absent on 1 image x 2 captions benchmarks; such a cell says so). Each x tick is
    a configuration with its n; bars carry their accuracy in percent. The format follows the
    suffix of ``out`` (png, pdf or svg); the file is written to a temporary sibling and renamed
    into place. Returns the path written.
    Needs matplotlib (``pip install bindsplit-datasets[plot]``).
    """
    out = Path(out)
    file_format = out.suffix.lower().lstrip(".")
    if file_format not in FIGURE_FORMATS:
        raise ValueError(f"cannot write a figure to {out}: use a .png, .pdf or .svg file name")
    if not out.parent.is_dir():
        raise FileNotFoundError(
            f"folder {out.parent} does not exist: create it or choose another --out"
        )
    unknown = [metric for metric in metrics if metric not in METRICS]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}; choose among {', '.join(METRICS)}")
    groups = group_by_benchmark(records, allow_mixed_builds=allow_mixed_builds)
    panels = panel_metrics(records, metrics, configs)
    if not panels:
        raise SchemaError(
            f"no results record reports {', '.join(metrics)} on {', '.join(configs)}: "
            "nothing to plot"
        )
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
    except ImportError:  # pragma: no cover - matplotlib is an optional extra
        raise ImportError(
            "plotting needs matplotlib: pip install 'bindsplit-datasets[plot]'"
        ) from None

    labels_per_group = {benchmark: _unique_labels(group) for benchmark, group in groups.items()}
    every_label = list(
        dict.fromkeys(label for labels in labels_per_group.values() for label in labels)
    )
    palette = [f"C{index % 10}" for index in range(len(every_label))]
    colors = dict(zip(every_label, palette, strict=True))

    n_models = max(len(group) for group in groups.values())
    figure = Figure(
        figsize=(
            max(4.2, 1.1 + 0.5 * n_models * len(configs)) * len(panels),
            3.4 * len(groups) + 0.6,
        ),
        layout="constrained",
    )
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(groups), len(panels), squeeze=False)
    for row, (benchmark, group) in enumerate(groups.items()):
        for column, metric in enumerate(panels):
            _draw_panel(
                axes[row][column],
                group,
                labels_per_group[benchmark],
                colors,
                configs,
                metric,
                benchmark,
            )
    handles = [Patch(color=colors[label], label=label) for label in every_label]
    figure.legend(
        handles,
        every_label,
        loc="outside lower center",
        ncols=min(len(every_label), 4),
        frameon=False,
        fontsize=8,
    )

    with atomic_file(out) as temporary:
        figure.savefig(temporary, format=file_format, dpi=dpi)
    return out
