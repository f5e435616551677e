"""Leaderboards from results records, and how ranks move from ``full`` to the other
configurations.

This is what the paper argues should be reported: :func:`leaderboard` ranks models on one
configuration; :func:`rank_changes` shows how ranks move from ``full`` to the shortcut-free
``seen`` and the ``unseen`` configurations, and marks a move only where it is real: where the
models it passed (or that passed it) are separated by the exact McNemar test over the shared
samples (:mod:`~bindsplit_datasets.reports.significance`). :func:`format_comparison` prints both
as text (``bindsplit compare``, the end of a multi-model ``bindsplit eval``, the demo).

Records of different benchmarks are never ranked together: :func:`format_comparison` groups them
per benchmark; :func:`leaderboard` and :func:`rank_changes` refuse a mix.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BindsplitValueError
from ..tables import Align, percent, render_table
from .grouping import group_by_benchmark, single_benchmark, unique_labels
from .intervals import GAP_LABELS, SMALL_FLAG, gap_count, interval_label, interval_note, is_small
from .results import (
    GAPS,
    METRIC_LABELS,
    RANKED_METRICS,
    REFERENCE_CONFIG,
    binding_kind,
    count_key,
    interval_key,
    metric_key,
    reported_configs,
)
from .significance import (
    DEFAULT_CONFIDENCE,
    METHOD_INTERVALS,
    METHOD_PAIRED,
    METHOD_UNTESTED,
    Separation,
    separate,
)

__all__ = [
    "RankChange",
    "Row",
    "format_comparison",
    "leaderboard",
    "rank_changes",
]

#: Marker of a rank move that no real difference backs (shown as a tie with the ``full`` order).
WITHIN_NOISE = "="


@dataclass(frozen=True)
class Row:
    """One model's line on a leaderboard. ``accuracy`` and ``ci`` are fractions."""

    rank: int
    model: str
    accuracy: float
    ci: tuple[float, float] | None
    n: int | None


def _check_metric(metric: str) -> None:
    if metric not in RANKED_METRICS:
        raise BindsplitValueError(
            f"unknown metric {metric!r}; choose one of {', '.join(RANKED_METRICS)}"
        )


def leaderboard(
    records: Sequence[Mapping[str, Any]], config: str, metric: str = "i2t"
) -> list[Row]:
    """Models ranked by ``{config}/{metric}``, best first, for records of one benchmark.

    Equal accuracies share a rank and the next rank skips ("1, 1, 3"); ties are listed by model
    name. Models whose record lacks the metric on ``config`` are left out.
    """
    _check_metric(metric)
    single_benchmark(records)
    entries = []
    for label, record in zip(unique_labels(records), records, strict=True):
        metrics = record["metrics"]
        accuracy = metrics.get(metric_key(config, metric))
        if accuracy is None:
            continue
        interval = metrics.get(interval_key(config, metric))
        n = metrics.get(count_key(config))
        entries.append((label, float(accuracy), tuple(interval) if interval else None, n))
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
    """A model's rank on each configuration (``None`` where it has no value) and its move
    relative to ``full``.

    ``markers[config]``: ``"↑2"`` two places up, ``"↓1"`` one down, counting only places backed
    by a real difference (the models passed, or passing it, are separated at the test's
    confidence); ``"="`` a move that no real difference backs; ``""`` unchanged.
    ``passed[config]``: the models whose order relative to this one changed for real.
    """

    model: str
    ranks: dict[str, int | None]
    markers: dict[str, str]
    passed: dict[str, tuple[str, ...]]

    @property
    def moved(self) -> bool:
        """Whether the model's rank really differs from its ``full`` rank on any
        configuration."""
        return any(marker not in ("", WITHIN_NOISE) for marker in self.markers.values())


class _Tests:
    """The pairwise separations a comparison of one benchmark's records needs, each computed
    once."""

    def __init__(
        self,
        records: Sequence[Mapping[str, Any]],
        metric: str,
        *,
        confidence: float,
    ) -> None:
        self.by_label = dict(zip(unique_labels(records), records, strict=True))
        self.metric = metric
        self.confidence = confidence
        self.done: dict[tuple[str, str, str], Separation] = {}

    def sign(self, model: str, other: str, config: str) -> int:
        """+1: ``model`` is really better than ``other`` on ``config``; -1 worse; 0 neither."""
        key = (min(model, other), max(model, other), config)
        if key not in self.done:
            self.done[key] = separate(
                self.by_label[key[0]],
                self.by_label[key[1]],
                config,
                self.metric,
                confidence=self.confidence,
            )
        sign = self.done[key].sign
        return sign if model == key[0] else -sign

    @property
    def methods(self) -> set[str]:
        return {separation.method for separation in self.done.values()}


def _marker(up: bool, places: int) -> str:
    if not places:
        return WITHIN_NOISE
    return f"↑{places}" if up else f"↓{places}"


def _rank_changes(
    records: Sequence[Mapping[str, Any]], metric: str, configs: Sequence[str], tests: _Tests
) -> list[RankChange]:
    boards = {
        config: {row.model: row.rank for row in leaderboard(records, config, metric)}
        for config in dict.fromkeys([REFERENCE_CONFIG, *configs])
    }
    reference = boards[REFERENCE_CONFIG]
    models = sorted(
        {model for board in boards.values() for model in board},
        key=lambda model: (reference.get(model, math.inf), model),
    )
    changes = []
    for model in models:
        markers: dict[str, str] = {}
        passed: dict[str, tuple[str, ...]] = {}
        for config in configs:
            if config == REFERENCE_CONFIG:
                continue
            board, before, after = boards[config], reference.get(model), boards[config].get(model)
            markers[config], passed[config] = "", ()
            if before is None or after is None or before == after:
                continue
            up = after < before
            # the models whose change makes the rank move: ahead on full but no longer ahead
            # (up), or now ahead but not ahead on full (down); ranks count the models ahead
            crossed = [
                other
                for other in board
                if other in reference
                and other != model
                and (reference[other] < before) != (board[other] < after)
                and (reference[other] < before) == up
            ]
            real = tuple(
                other for other in crossed if tests.sign(model, other, config) == (1 if up else -1)
            )
            markers[config] = _marker(up, min(len(real), abs(before - after)))
            passed[config] = real
        changes.append(
            RankChange(
                model=model,
                ranks={config: boards[config].get(model) for config in configs},
                markers=markers,
                passed=passed,
            )
        )
    return changes


def rank_changes(
    records: Sequence[Mapping[str, Any]],
    metric: str = "i2t",
    configs: Sequence[str] | None = None,
    *,
    confidence: float = DEFAULT_CONFIDENCE,
) -> list[RankChange]:
    """Per model of one benchmark, its rank on every configuration and the move relative to
    ``full``, marked only where real (:class:`RankChange`).

    A move is real where the exact McNemar test over the samples both records share
    (:func:`~bindsplit_datasets.reports.significance.separate`, at ``confidence``) separates the
    model from the one it passed or that passed it; records without per-sample outcomes are
    compared by their intervals. Ordered by ``full`` rank (models without a ``full`` value
    last), then by name. ``configs`` default: those of
    :data:`~bindsplit_datasets.reports.results.DEFAULT_CONFIGS` the records report.
    """
    _check_metric(metric)
    single_benchmark(records)
    tests = _Tests(records, metric, confidence=confidence)
    return _rank_changes(records, metric, reported_configs(records, configs), tests)


def _interval_header(records: Sequence[Mapping[str, Any]]) -> str:
    """``"95% CI"`` at the records' level; ``"CI"`` when their levels differ."""
    labels = {interval_label(record["metrics"]) for record in records}
    return labels.pop() if len(labels) == 1 else "CI"


def _format_board(
    records: Sequence[Mapping[str, Any]],
    config: str,
    metric: str,
    markers: Mapping[str, str],
    kind_column: bool = False,
) -> list[str]:
    rows = leaderboard(records, config, metric)
    if not rows:
        return [f"  {config}: no result reports {METRIC_LABELS[metric]} on this configuration"]
    by_label = dict(zip(unique_labels(records), records, strict=True))
    change = f"vs {REFERENCE_CONFIG}" if config != REFERENCE_CONFIG else ""
    header: tuple[str, ...] = (
        "rank",
        "model",
        f"{METRIC_LABELS[metric]} %",
        _interval_header(records),
        "n",
        change,
    )
    table: list[tuple[str, ...]] = [
        (
            str(row.rank),
            row.model,
            percent(row.accuracy) + _flag(by_label[row.model]["metrics"], config, metric),
            f"[{percent(row.ci[0])}, {percent(row.ci[1])}]" if row.ci else "-",
            f"{row.n:,}" if row.n is not None else "-",
            markers.get(row.model, ""),
        )
        for row in rows
    ]
    aligns: tuple[Align, ...] = (">", "<", ">", "<", ">", "<")
    if kind_column:  # the binding kind as its own column, after the model
        kinds = dict(zip(unique_labels(records), map(binding_kind, records), strict=True))
        header = (*header[:2], "bindings", *header[2:])
        table = [(*line[:2], kinds[line[1]], *line[2:]) for line in table]
        aligns = (*aligns[:2], "<", *aligns[2:])
    return [f"  {config}", render_table(header, table, align=aligns, indent="    ")]


def _flag(metrics: Mapping[str, Any], config: str, metric: str) -> str:
    """:data:`~.results.SMALL_FLAG` after a value that rests on a small or degenerate sample."""
    return SMALL_FLAG if is_small(metrics, config, metric) else " "


def _gap_cell(metrics: Mapping[str, Any], gap: str, metric: str) -> tuple[str, str]:
    """A gap in signed points with its interval (flagged), and its n (the smaller count)."""
    value = metrics.get(metric_key(gap, metric))
    if value is None:
        return "-", ""
    text = percent(value, signed=True)
    interval = metrics.get(interval_key(gap, metric))
    if interval is not None:
        text += f" [{percent(interval[0], signed=True)}, {percent(interval[1], signed=True)}]"
    n = gap_count(metrics, gap)
    return text + _flag(metrics, gap, metric).strip(), "" if n is None else f"{n:,}"


def _format_gaps(
    records: Sequence[Mapping[str, Any]], metric: str, order: Sequence[str]
) -> list[str]:
    """The gaps of every model (points, ``full`` order), beside its configurations' boards."""
    by_label = dict(zip(unique_labels(records), records, strict=True))
    gaps = [
        gap
        for gap in GAPS
        if any(metric_key(gap, metric) in record["metrics"] for record in records)
    ]
    if not gaps:
        return []
    header: list[str] = ["model"]
    for gap in gaps:
        header += [f"{GAP_LABELS[gap]} (points)", "n"]
    table = []
    for model in order:
        row = [model]
        for gap in gaps:
            row += _gap_cell(by_label[model]["metrics"], gap, metric)
        table.append(row)
    aligns: tuple[Align, ...] = ("<", *(("<", ">") * len(gaps)))
    return [
        f"  gaps ({METRIC_LABELS[metric]})",
        render_table(header, table, align=aligns, indent="    "),
    ]


def _notes(records: Sequence[Mapping[str, Any]]) -> str:
    """How the block's intervals were made (one line, or a word that they differ) and what
    the flag marks."""
    notes = {interval_note(record["metrics"]) for record in records}
    if len(notes) == 1:
        return f"  {notes.pop()}"
    legend = interval_note({})
    return f"  intervals as each record made them (methods or levels differ); {legend}"


def _by_binding_kind(
    records: Sequence[Mapping[str, Any]],
) -> list[tuple[str, list[Mapping[str, Any]]]]:
    """``records`` split by binding kind (``attribute`` first): builds of different kinds are
    different splits, ranked apart."""
    kinds: dict[str, list[Mapping[str, Any]]] = {}
    for record in records:
        kinds.setdefault(binding_kind(record), []).append(record)
    return sorted(kinds.items(), key=lambda item: item[0] != "attribute")


def _summary(changes: Sequence[RankChange], config: str) -> str | None:
    """The line under a non-``full`` board: which moves are real, which are within noise."""
    if not any(change.ranks.get(config) is not None for change in changes):
        return None
    real = [
        f"{change.model} {change.markers[config]} (vs {', '.join(change.passed[config])})"
        for change in changes
        if change.markers.get(config, "") not in ("", WITHIN_NOISE)
    ]
    noise = [change.model for change in changes if change.markers.get(config) == WITHIN_NOISE]
    if real:
        tail = f"; within noise: {', '.join(noise)}" if noise else ""
        return f"order changes vs {REFERENCE_CONFIG}: {', '.join(real)}{tail}"
    if noise:
        return f"order same as {REFERENCE_CONFIG} within noise (moves of {', '.join(noise)})"
    return f"order same as {REFERENCE_CONFIG}"


def _level(confidence: float) -> str:
    return f"{100 * confidence:g}%"


def _method_note(methods: set[str], records: Sequence[Mapping[str, Any]], confidence: float) -> str:
    """How the block's rank moves were tested, with the level."""
    intervals = _interval_header(records).replace("CI", "intervals")
    if not methods:  # no move to test: say how one would have been
        methods = {METHOD_PAIRED if all("samples" in r for r in records) else METHOD_INTERVALS}
    if methods == {METHOD_UNTESTED}:
        return (
            f"  rank moves vs {REFERENCE_CONFIG}: not tested (no per-sample outcomes or "
            f"intervals); {WITHIN_NOISE} marks every move"
        )
    paired = (
        f"the exact McNemar test over the shared samples separates the models at "
        f"{_level(confidence)}"
    )
    if methods == {METHOD_PAIRED}:
        how = paired
    elif METHOD_PAIRED in methods:
        how = (
            f"{paired},\n"
            f"    or non-overlapping {intervals} where a record has no per-sample outcomes"
        )
    else:
        how = f"non-overlapping {intervals}; the records have no per-sample outcomes"
    if METHOD_UNTESTED in methods:
        how += ";\n    untested where a record has neither per-sample outcomes nor intervals"
    return (
        f"  rank moves vs {REFERENCE_CONFIG}: ↑/↓ where the difference is real, "
        f"{WITHIN_NOISE} where it is within noise\n    (real: {how})"
    )


def format_comparison(
    records: Sequence[Mapping[str, Any]],
    metric: str = "i2t",
    configs: Sequence[str] | None = None,
    *,
    allow_mixed_builds: bool = False,
    confidence: float = DEFAULT_CONFIDENCE,
) -> str:
    """Text leaderboards per benchmark and configuration, with rank moves relative to ``full``.

    One block per benchmark (records of different benchmarks are never ranked together): a
    line saying how moves are tested and at which level, then one table per configuration
    (rank, model, accuracy %, 95% CI, n) where non-``full`` tables mark each model whose rank
    differs from its ``full`` rank (``↑2``/``↓1`` where real, ``=`` within noise), followed by
    one line saying whether the order changed; then each model's gaps (seen - unseen, seen -
    partial, in points, with their intervals and n) and a line saying how the intervals were
    made. ``*`` flags a value resting on fewer than 30 samples or a degenerate count.
    ``configs`` default: those of :data:`~bindsplit_datasets.reports.results.DEFAULT_CONFIGS`
    (full, seen, partial, unseen, balanced) the records report. Records of builds of another
    binding kind than ``attribute`` (``relation``, ``both``) are ranked in blocks of their own,
    whose tables show the kind as a ``bindings`` column.
    """
    _check_metric(metric)
    configs = reported_configs(records, configs)
    blocks = []
    groups = [
        (benchmark, kind, group)
        for kind, of_kind in _by_binding_kind(records)
        for benchmark, group in group_by_benchmark(
            of_kind, allow_mixed_builds=allow_mixed_builds
        ).items()
    ]
    for benchmark, kind, group in groups:
        label = METRIC_LABELS[metric]
        title = benchmark if kind == "attribute" else f"{benchmark} ({kind} bindings)"
        lines = [f"{title}: {label} accuracy, {len(group)} model{'s' * (len(group) != 1)}"]
        if not any(
            metric_key(config, metric) in record["metrics"]
            for record in group
            for config in configs
        ):
            lines.append(
                f"  no result reports {label} on {benchmark} (undefined for 1-image samples)"
            )
            blocks.append("\n".join(lines))
            continue
        tests = _Tests(group, metric, confidence=confidence)
        changes = _rank_changes(group, metric, configs, tests)
        boards = []
        for config in configs:
            markers = {change.model: change.markers.get(config, "") for change in changes}
            boards.extend(_format_board(group, config, metric, markers, kind != "attribute"))
            summary = _summary(changes, config) if config != REFERENCE_CONFIG else None
            if summary:
                boards.append(f"    {summary}")
        boards.extend(_format_gaps(group, metric, [change.model for change in changes]))
        boards.append(_notes(group))
        lines.append(_method_note(tests.methods, group, confidence))
        blocks.append("\n".join(lines + boards))
    return "\n\n".join(blocks)
