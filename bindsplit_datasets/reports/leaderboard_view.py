"""What the leaderboard Space shows: one benchmark's models ranked exactly as ``bindsplit
compare`` ranks them, as typed numbers a table can sort.

:func:`board` ranks one benchmark's models on ``full`` beside ``seen``, ``partial``, ``unseen``
and ``balanced`` (:data:`BOARD_CONFIGS`) with :func:`~.leaderboards.leaderboard` and
:func:`~.leaderboards.rank_changes`, after filtering by reference corpus and model family
(:func:`model_family`). Every cell is a number or None: accuracy in percent, its interval
(``ci_low``, ``ci_high``), ``n``, the rank and the rank move from ``full`` as a signed count of
real places (``+2`` up, ``-1`` down, ``0`` none or within noise). Beside them the gaps (seen
minus unseen, seen minus partial, in points) with their intervals, and what scored the model
(``scored_by``: imported scores and pair scorers are marked). Where the results come from:
:mod:`~.leaderboard_sources`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import SchemaError
from ..metric_core import GAP_NAMES, SMALL_N
from ..metric_core import GAPS as METRIC_GAPS
from .grouping import group_by_benchmark, unique_labels
from .intervals import gap_count, is_small
from .leaderboard_sources import Source, load_source
from .leaderboards import WITHIN_NOISE, leaderboard, rank_changes
from .results import (
    RANKED_METRICS,
    REFERENCE_CONFIG,
    binding_kind,
    count_key,
    interval_key,
    metric_key,
    scored_by,
)
from .results_table import reference_name
from .significance import DEFAULT_CONFIDENCE, METHOD_PAIRED

__all__ = [
    "BOARD_CONFIGS",
    "CONFIG_COLUMNS",
    "GAPS",
    "SMALL_N",
    "Board",
    "Source",
    "benchmark_metrics",
    "benchmarks",
    "binding_kinds",
    "board",
    "families",
    "load_source",
    "model_family",
    "references",
]

#: The configurations the Space shows, ``full`` first.
BOARD_CONFIGS: tuple[str, ...] = (REFERENCE_CONFIG, "seen", "partial", "unseen", "balanced")
#: Column -> the keys of the difference in a record, then in a results table.
GAPS: dict[str, tuple[str, ...]] = {gap: (gap, GAP_NAMES[gap]) for gap in METRIC_GAPS}
#: The columns of one configuration's rows, in order.
CONFIG_COLUMNS: tuple[str, ...] = (
    "rank",
    "model",
    "scored_by",
    "accuracy",
    "ci_low",
    "ci_high",
    "n",
    "move",
    "small_n",
)
#: What ``scored_by`` shows for each way of scoring (an encoder is the unmarked default).
SCORED_BY_MARKERS: dict[str, str] = {"encoder": "", "pair scorer": "pair scorer"}
#: Model families recognised in a model id, most specific first; otherwise the Hub namespace.
FAMILIES: tuple[str, ...] = (
    "siglip2",
    "siglip",
    "negclip",
    "clip",
    "blip",
    "coca",
    "eva",
    "flava",
    "align",
)
_MOVE = re.compile(r"([↑↓])(\d+)")


def model_family(model_id: str) -> str:
    """A model's family for the filter: the first of :data:`FAMILIES` its id names (case
    insensitive), else its Hub namespace, else the id.

    >>> model_family("openai/clip-vit-base-patch32"), model_family("google/siglip-base-patch16")
    ('clip', 'siglip')
    >>> model_family("open_clip:ViT-B-32/laion2b_s34b_b79k"), model_family("org/my-model")
    ('clip', 'org')
    """
    lowered = model_id.lower()
    for family in FAMILIES:
        if family in lowered:
            return family
    return model_id.split("/", 1)[0] if "/" in model_id else model_id


def benchmarks(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The benchmarks of the records, in order of first appearance."""
    return list(dict.fromkeys(str(record["dataset"]["benchmark"]) for record in records))


def benchmark_metrics(records: Sequence[Mapping[str, Any]], benchmark: str) -> list[str]:
    """The metrics a benchmark's records report, in :data:`RANKED_METRICS` order: 1-image samples
    (ARO, SugarCrepe) have I2T only."""
    keys = {
        key
        for record in records
        if record["dataset"]["benchmark"] == benchmark
        for key in record["metrics"]
    }
    return [
        metric
        for metric in RANKED_METRICS
        if any(metric_key(config, metric) in keys for config in BOARD_CONFIGS)
    ]


def references(records: Sequence[Mapping[str, Any]], benchmark: str) -> list[str]:
    """The reference corpora of a benchmark's records (``unknown`` where a record names none),
    the most used first."""
    names = [
        reference_name(record) or "unknown"
        for record in records
        if record["dataset"]["benchmark"] == benchmark
    ]
    return sorted(set(names), key=lambda name: (-names.count(name), name))


def binding_kinds(records: Sequence[Mapping[str, Any]], benchmark: str) -> list[str]:
    """The binding kinds of a benchmark's records (``attribute`` for records without one), the
    most used first."""
    kinds = [binding_kind(r) for r in records if r["dataset"]["benchmark"] == benchmark]
    return sorted(set(kinds), key=lambda kind: (-kinds.count(kind), kind))


def families(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The model families of the records, sorted."""
    return sorted({model_family(str(record["model"]["id"])) for record in records})


def _points(value: Any) -> float | None:
    return None if value is None else 100.0 * float(value)


def _move(marker: str) -> int:
    """A rank marker as a signed count of real places: ``↑2`` -> 2, ``↓1`` -> -1, else 0."""
    match = _MOVE.fullmatch(marker)
    if match is None:
        return 0
    return int(match[2]) if match[1] == "↑" else -int(match[2])


def _gap(record: Mapping[str, Any], column: str, metric: str) -> dict[str, Any]:
    """One gap of a record in points with its interval and n (the smaller side), or Nones."""
    metrics = record["metrics"]
    names = GAPS[column]
    for name in names:
        value = metrics.get(metric_key(name, metric))
        if value is None:
            continue
        interval = metrics.get(interval_key(name, metric)) or (None, None)
        n = metrics.get(count_key(name))
        if n is None:
            n = gap_count(metrics, column)
        return {
            column: _points(value),
            f"{column}_low": _points(interval[0]),
            f"{column}_high": _points(interval[1]),
            f"{column}_n": n,
        }
    return {column: None, f"{column}_low": None, f"{column}_high": None, f"{column}_n": None}


@dataclass(frozen=True)
class Board:
    """One benchmark's leaderboard as the Space shows it, every cell typed.

    ``rows[config]``: ``compare``'s rows of that configuration (:data:`CONFIG_COLUMNS`; accuracy
    and interval in percent); ``models``: one entry per model in ``full`` order, with its
    ``full`` rank, ``scored_by``, its accuracy on each configuration and the gaps with their
    intervals and n; ``records``: the ranked records (for the figure); ``note``: how moves were
    tested, or why there is no board.
    """

    benchmark: str
    metric: str
    rows: dict[str, list[dict[str, Any]]]
    models: list[dict[str, Any]]
    records: list[Mapping[str, Any]]
    note: str

    def overview_columns(self) -> list[str]:
        """The columns of :meth:`overview`: rank, model, its binding kind, scored_by, one
        accuracy per configuration, the gaps and the seen-unseen gap's interval."""
        return [
            "rank",
            "model",
            "binding_kind",
            "scored_by",
            *self.rows,
            "gap",
            "gap_low",
            "gap_high",
            "gap_partial",
        ]

    def overview(self) -> list[list[Any]]:
        """One row per model (:meth:`overview_columns`), numbers rounded to one decimal: the
        Space's main table, sortable on any column."""
        return [
            [
                _rounded(model[column]) if column not in _TEXT_COLUMNS else model[column]
                for column in self.overview_columns()
            ]
            for model in self.models
        ]

    def table(self, config: str) -> list[list[Any]]:
        """One configuration's rows as lists (:data:`CONFIG_COLUMNS`), rounded to one
        decimal."""
        return [
            [_rounded(row[column]) for column in CONFIG_COLUMNS]
            for row in self.rows.get(config, [])
        ]


#: The overview's columns that hold text, not numbers.
_TEXT_COLUMNS = frozenset({"model", "binding_kind", "scored_by"})


def _rounded(value: Any) -> Any:
    return round(value, 1) if isinstance(value, float) else value


def _config_rows(
    labelled: Mapping[str, Mapping[str, Any]],
    config: str,
    metric: str,
    markers: Mapping[str, str],
) -> list[dict[str, Any]]:
    rows = []
    for row in leaderboard(list(labelled.values()), config, metric):
        marker = markers.get(row.model, "")
        how = scored_by(labelled[row.model])
        rows.append(
            {
                "rank": row.rank,
                "model": row.model,
                "scored_by": SCORED_BY_MARKERS.get(how, how),
                "accuracy": _points(row.accuracy),
                "ci_low": _points(row.ci[0]) if row.ci else None,
                "ci_high": _points(row.ci[1]) if row.ci else None,
                "n": row.n,
                "move": None if config == REFERENCE_CONFIG else _move(marker),
                "within_noise": marker == WITHIN_NOISE,
                "small_n": is_small(labelled[row.model]["metrics"], config, metric),
            }
        )
    return rows


def _models(
    labelled: Mapping[str, Mapping[str, Any]],
    rows: Mapping[str, list[dict[str, Any]]],
    metric: str,
) -> list[dict[str, Any]]:
    """The overview entries: one per model, in ``full`` order (then the others in the order of
    the configurations they appear on)."""
    cells = {
        (row["model"], config): row for config, config_rows in rows.items() for row in config_rows
    }
    models = []
    for label in dict.fromkeys(
        row["model"] for config_rows in rows.values() for row in config_rows
    ):
        how = scored_by(labelled[label])
        full = cells.get((label, REFERENCE_CONFIG))
        entry: dict[str, Any] = {
            "rank": full["rank"] if full else None,
            "model": label,
            "binding_kind": binding_kind(labelled[label]),
            "scored_by": SCORED_BY_MARKERS.get(how, how),
        }
        for config in rows:
            cell = cells.get((label, config))
            entry[config] = cell["accuracy"] if cell else None
            entry[f"{config}_n"] = cell["n"] if cell else None
        for column in GAPS:
            entry.update(_gap(labelled[label], column, metric))
        models.append(entry)
    return models


def board(
    records: Sequence[Mapping[str, Any]],
    benchmark: str,
    metric: str = "i2t",
    *,
    reference: str | None = None,
    family: Sequence[str] | None = None,
    kind: str | None = None,
    configs: Sequence[str] = BOARD_CONFIGS,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Board:
    """The leaderboard of ``benchmark`` on ``configs`` for the records of that ``reference``
    corpus, those model ``family`` s and that binding ``kind`` (None: all), ranked as
    ``compare`` ranks them. Builds of different binding kinds are different splits: filter by
    ``kind`` to rank one kind (the overview shows each model's kind)."""
    if metric not in RANKED_METRICS:
        raise SchemaError(f"unknown metric {metric!r}; choose one of {', '.join(RANKED_METRICS)}")
    chosen = [
        record
        for record in records
        if record["dataset"]["benchmark"] == benchmark
        and (reference is None or (reference_name(record) or "unknown") == reference)
        and (family is None or model_family(str(record["model"]["id"])) in family)
        and (kind is None or binding_kind(record) == kind)
    ]
    if not chosen:
        return Board(benchmark, metric, {}, [], [], "no results match the filters")
    try:
        group_by_benchmark(chosen)
    except SchemaError as error:
        return Board(benchmark, metric, {}, [], [], str(error))
    shown = [
        config
        for config in configs
        if any(metric_key(config, metric) in record["metrics"] for record in chosen)
    ]
    if not shown:
        return Board(benchmark, metric, {}, [], chosen, f"no result reports {metric} here")
    changes = rank_changes(chosen, metric, shown, confidence=confidence)
    markers = {change.model: change.markers for change in changes}
    labelled = dict(zip(unique_labels(chosen), chosen, strict=True))
    rows = {
        config: _config_rows(
            labelled,
            config,
            metric,
            {model: marks.get(config, "") for model, marks in markers.items()},
        )
        for config in shown
    }
    paired = all("samples" in record for record in chosen)
    level = f"{100 * confidence:g}%"
    note = (
        f"rank moves vs {REFERENCE_CONFIG} (move: places up, negative down) count only real "
        "differences; 0 where a move is within noise (real: "
        + (
            f"the {METHOD_PAIRED} test over the shared samples separates the models at {level})"
            if paired
            else "non-overlapping 95% intervals; the table has no per-sample outcomes)"
        )
    )
    if any(row["small_n"] for config_rows in rows.values() for row in config_rows):
        note += f"; small_n: fewer than {SMALL_N} samples or a degenerate count (0/n, n/n)"
    return Board(benchmark, metric, rows, _models(labelled, rows, metric), chosen, note)
