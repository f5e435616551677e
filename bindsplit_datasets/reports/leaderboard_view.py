"""What the leaderboard Space shows: one benchmark's models ranked exactly as ``bindsplit
compare`` ranks them, as typed numbers a table can sort, beside the text each cell shows.

:func:`board` ranks one benchmark's models on ``full`` beside ``seen``, ``partial``, ``unseen``
and ``balanced`` (:data:`BOARD_CONFIGS`) with :func:`~.leaderboards.leaderboard` and
:func:`~.leaderboards.rank_changes`, after filtering by reference corpus, model family
(:func:`model_family`) and binding kind. Every number is a number or None: accuracy in percent,
its interval (``ci_low``, ``ci_high``), ``n``, the rank and the rank move from ``full`` as a
signed count of real places (``+2`` up, ``-1`` down, ``0`` none or within noise). Beside them the
gaps (seen minus unseen, seen minus partial, in points) with their intervals, what scored the
model (``scored_by``: imported scores and pair scorers are marked), and in words what a reader
must know: a small or degenerate count (:func:`~.intervals.sample_flag`), a configuration
without samples, a gap that cannot be computed and why (:meth:`Board.messages`).
:meth:`Board.overview_table` is the Space's first table (each accuracy as ``84.3 ±4.1`` beside
its n; :mod:`~.leaderboard_cells`). The options of the Space's filters are those the records
have (:func:`benchmarks`, :func:`benchmark_metrics`, :func:`references`, :func:`binding_kinds`,
:func:`families`, :attr:`Board.configs`). Where the results come from:
:mod:`~.leaderboard_sources`; views over several boards: :mod:`~.leaderboard_across`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import SchemaError
from ..metric_core import GAP_NAMES, SMALL_N
from ..metric_core import GAPS as METRIC_GAPS
from .grouping import group_by_benchmark, unique_labels
from .intervals import GAP_LABELS, SMALL_FLAG, gap_count, is_small, sample_flag
from .leaderboard_cells import (
    Table,
    cell_text,
    column_groups,
    count_column,
    matches,
    visible_columns,
)
from .leaderboard_sources import Source, load_source
from .leaderboards import WITHIN_NOISE, leaderboard, rank_changes
from .results import (
    METRIC_LABELS,
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
    "default_groups",
    "families",
    "picker_groups",
    "load_source",
    "model_family",
    "references",
]

#: The configurations the Space shows, ``full`` first.
BOARD_CONFIGS: tuple[str, ...] = (REFERENCE_CONFIG, "seen", "partial", "unseen", "balanced")
#: Column -> the keys of the difference in a record, then in a results table.
GAPS: dict[str, tuple[str, ...]] = {gap: (gap, GAP_NAMES[gap]) for gap in METRIC_GAPS}
#: The columns of one configuration's rows, in order (``flag``: a small or degenerate count in
#: words, :func:`~.intervals.sample_flag`).
CONFIG_COLUMNS: tuple[str, ...] = (
    "rank",
    "model",
    "scored_by",
    "accuracy",
    "ci_low",
    "ci_high",
    "n",
    "move",
    "flag",
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
#: The legend of :data:`~.intervals.SMALL_FLAG` on the board.
FLAG_LEGEND = (
    f"{SMALL_FLAG} the value rests on fewer than {SMALL_N} samples (small n) or on a degenerate "
    "count (0/n or n/n correct): its interval is valid but wide or one-sided"
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


def references(records: Sequence[Mapping[str, Any]], benchmark: str | None = None) -> list[str]:
    """The reference corpora of a benchmark's records (of every record where ``benchmark`` is
    None; ``unknown`` where a record names none), the most used first."""
    names = [
        reference_name(record) or "unknown"
        for record in records
        if benchmark is None or record["dataset"]["benchmark"] == benchmark
    ]
    return sorted(set(names), key=lambda name: (-names.count(name), name))


def binding_kinds(records: Sequence[Mapping[str, Any]], benchmark: str | None = None) -> list[str]:
    """The binding kinds of a benchmark's records (of every record where ``benchmark`` is None;
    ``attribute`` for records without one), the most used first."""
    kinds = [
        binding_kind(r)
        for r in records
        if benchmark is None or r["dataset"]["benchmark"] == benchmark
    ]
    return sorted(set(kinds), key=lambda kind: (-kinds.count(kind), kind))


def families(records: Sequence[Mapping[str, Any]], benchmark: str | None = None) -> list[str]:
    """The model families of a benchmark's records (of every record where ``benchmark`` is
    None), sorted: the family filter offers no family the benchmark lacks."""
    return sorted(
        {
            model_family(str(record["model"]["id"]))
            for record in records
            if benchmark is None or record["dataset"]["benchmark"] == benchmark
        }
    )


def _overview_columns(configs: Iterable[str]) -> list[str]:
    """The overview's columns for a board with ``configs``."""
    values = [*configs, *GAPS]
    return [
        "rank",
        "model",
        "binding_kind",
        "scored_by",
        *(column for value in values for column in (value, count_column(value))),
    ]


def picker_groups() -> list[str]:
    """What the column picker offers: every column a board can have (:data:`BOARD_CONFIGS`,
    the gaps, ``binding_kind``, ``scored_by``) and ``n`` for the sample counts
    (:func:`~.leaderboard_cells.column_groups`); a column a board lacks is simply not there."""
    return column_groups(_overview_columns(BOARD_CONFIGS))


def default_groups(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """What the picker ticks at first: everything but ``binding_kind`` (a board ranks one kind,
    which the bindings filter says), and ``scored_by`` only where some model of ``records`` is
    marked (imported scores, a pair scorer)."""
    marked = any(SCORED_BY_MARKERS.get(scored_by(r), scored_by(r)) for r in records)
    hidden = {"binding_kind"} | (set() if marked else {"scored_by"})
    return [group for group in picker_groups() if group not in hidden]


def _points(value: Any) -> float | None:
    return None if value is None else 100.0 * float(value)


def _move(marker: str) -> int:
    """A rank marker as a signed count of real places: ``↑2`` -> 2, ``↓1`` -> -1, else 0."""
    match = _MOVE.fullmatch(marker)
    if match is None:
        return 0
    return int(match[2]) if match[1] == "↑" else -int(match[2])


def _gap_problem(metrics: Mapping[str, Any], column: str, metric: str) -> tuple[str, str]:
    """Why a record has no gap ``column``: a short reason for its cell and a sentence."""
    for side in METRIC_GAPS[column]:
        n = metrics.get(count_key(side))
        if n is None:
            return f"no {side}", f"the results do not report {side}"
        if int(n) == 0:
            return f"no {side} samples", f"{side} has no samples in this build (n = 0)"
        if metrics.get(metric_key(side, metric)) is None:
            label = METRIC_LABELS[metric]
            return f"no {label} on {side}", f"the results report no {label} accuracy on {side}"
    return "not recorded", (
        "the results hold no such difference (written before BindSplit reported it; running "
        "bindsplit eval again adds it)"
    )


def _gap(record: Mapping[str, Any], column: str, metric: str) -> dict[str, Any]:
    """One gap of a record in points with its interval, n (the smaller side) and flag, or Nones
    and why it cannot be computed (``{column}_why``: short, ``{column}_reason``: a sentence)."""
    metrics = record["metrics"]
    for name in GAPS[column]:
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
            count_column(column): n,
            f"{column}_flag": sample_flag(metrics, column, metric),
            f"{column}_why": None,
            f"{column}_reason": None,
        }
    why, reason = _gap_problem(metrics, column, metric)
    return {
        column: None,
        f"{column}_low": None,
        f"{column}_high": None,
        count_column(column): gap_count(metrics, column),
        f"{column}_flag": None,
        f"{column}_why": why,
        f"{column}_reason": reason,
    }


def _empty_reason(records: Sequence[Mapping[str, Any]], config: str, metric: str) -> str:
    """Why no model has a value on ``config``, in words."""
    counts = [r["metrics"].get(count_key(config)) for r in records]
    if all(n is None for n in counts):
        return "no result reports it"
    if all(not n for n in counts):
        full = {r["metrics"].get(count_key(REFERENCE_CONFIG)) for r in records} - {None}
        of = f" of {full.pop():,}" if len(full) == 1 else ""
        return f"the build has no sample in it (n = 0{of})"
    return f"no result reports {METRIC_LABELS[metric]} accuracy on it"


def _who(models: Sequence[str], every: int) -> str:
    return "every model" if len(models) == every else ", ".join(models)


@dataclass(frozen=True)
class Board:
    """One benchmark's leaderboard as the Space shows it, every cell typed.

    ``rows[config]``: ``compare``'s rows of that configuration (:data:`CONFIG_COLUMNS`; accuracy
    and interval in percent); ``models``: one entry per model in ``full`` order, with its
    ``full`` rank, ``scored_by``, on each configuration its accuracy, interval, n and flag, and
    the gaps with their intervals, n and flags (or why they cannot be computed); ``records``:
    the ranked records (for the figure); ``note``: how moves were tested, or why there is no
    board; ``empty``: the configurations of :data:`BOARD_CONFIGS` without a value, and why.
    """

    benchmark: str
    metric: str
    rows: dict[str, list[dict[str, Any]]]
    models: list[dict[str, Any]]
    records: list[Mapping[str, Any]]
    note: str
    empty: dict[str, str] = field(default_factory=dict)

    @property
    def configs(self) -> list[str]:
        """The configurations that have rows: what the configuration filter offers."""
        return list(self.rows)

    def value_columns(self) -> list[str]:
        """The configurations the overview shows: those with rows, and those the build has but
        holds no sample of (shown as ``no samples``)."""
        order = {config: i for i, config in enumerate(BOARD_CONFIGS)}
        return sorted(
            (
                config
                for config in [*self.rows, *self.empty]
                if config in self.rows or any(m[count_column(config)] == 0 for m in self.models)
            ),
            key=lambda config: order.get(config, len(order)),
        )

    def overview_columns(self) -> list[str]:
        """The columns of :meth:`overview`: rank, model, its binding kind, scored_by, each
        configuration's accuracy and n, each gap and its n."""
        return _overview_columns(self.value_columns())

    def overview(self) -> list[list[Any]]:
        """One row per model (:meth:`overview_columns`), numbers rounded to one decimal: the
        Space's main table, sortable on any column."""
        columns = self.overview_columns()
        return [[_rounded(model.get(column)) for column in columns] for model in self.models]

    def _text(self, model: Mapping[str, Any], column: str, values: Sequence[str]) -> str:
        """What the overview's cell of ``model`` in ``column`` shows (``values``: the columns
        of accuracies and gaps)."""
        value = model.get(column)
        if column in _TEXT_COLUMNS:
            return str(value or "")
        if column in values:
            return cell_text(
                value,
                model.get(f"{column}_low"),
                model.get(f"{column}_high"),
                model.get(f"{column}_flag"),
                missing=model.get(f"{column}_why") or "-",
            )
        return "-" if value is None else f"{value:,}" if isinstance(value, int) else str(value)

    def overview_table(
        self, picked: Iterable[str] | None = None, query: str | None = None
    ) -> Table:
        """The Space's first table: :meth:`overview`'s numbers (what a click on a header sorts)
        beside what each cell shows (an accuracy or gap with its interval and flag:
        ``84.3 ±4.1``, ``100.0 +0.0/-11.4 *``; ``no samples``; why a gap is missing), only the
        models whose name answers the search ``query`` and only the ``picked`` columns
        (:func:`~.leaderboard_cells.visible_columns`). Ranks stay those of every model: a
        search hides rows, it does not rank again."""
        columns = self.overview_columns()
        values = [*self.value_columns(), *GAPS]
        table = Table(
            columns,
            self.overview(),
            [[self._text(model, column, values) for column in columns] for model in self.models],
            [
                [
                    model.get(column) is not None and model.get(f"{column}_flag") is not None
                    for column in columns
                ]
                for model in self.models
            ],
        )
        shown = table.lines([matches(str(model["model"]), query) for model in self.models])
        return shown.columns(visible_columns(columns, picked))

    def table(self, config: str) -> list[list[Any]]:
        """One configuration's rows as lists (:data:`CONFIG_COLUMNS`), rounded to one
        decimal."""
        return [
            [_rounded(row[column]) for column in CONFIG_COLUMNS]
            for row in self.rows.get(config, [])
        ]

    def messages(self, config: str | None = None) -> list[str]:
        """What the tables cannot show by a number, one line each: every configuration without
        a value and why (``config`` only, where given), every gap that cannot be computed, for
        which models and why."""
        wanted = self.empty if config is None else {config: self.empty.get(config, "")}
        lines = [f"{name} is empty: {why}" for name, why in wanted.items() if why]
        if config is not None and config not in self.rows and not wanted[config]:
            lines.append(f"{config} is not on this board")
        if config is not None:
            return lines
        for column in GAPS:
            reasons: dict[str, list[str]] = {}
            for model in self.models:
                if model[f"{column}_reason"] is not None:
                    reasons.setdefault(model[f"{column}_reason"], []).append(model["model"])
            label = GAP_LABELS[column]
            lines += [
                f"{column} ({label}) cannot be computed for {_who(who, len(self.models))}: {reason}"
                for reason, who in reasons.items()
            ]
        return lines


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
        metrics = labelled[row.model]["metrics"]
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
                "small_n": is_small(metrics, config, metric),
                "flag": sample_flag(metrics, config, metric) or "",
            }
        )
    return rows


def _models(
    labelled: Mapping[str, Mapping[str, Any]],
    rows: Mapping[str, list[dict[str, Any]]],
    metric: str,
    configs: Sequence[str],
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
        metrics = labelled[label]["metrics"]
        full = cells.get((label, REFERENCE_CONFIG))
        entry: dict[str, Any] = {
            "rank": full["rank"] if full else None,
            "model": label,
            "binding_kind": binding_kind(labelled[label]),
            "scored_by": SCORED_BY_MARKERS.get(how, how),
        }
        for config in configs:
            cell = cells.get((label, config))
            entry[config] = cell["accuracy"] if cell else None
            entry[f"{config}_low"] = cell["ci_low"] if cell else None
            entry[f"{config}_high"] = cell["ci_high"] if cell else None
            n = metrics.get(count_key(config))
            entry[count_column(config)] = None if n is None else int(n)
            entry[f"{config}_flag"] = sample_flag(metrics, config, metric)
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
    empty = {
        config: _empty_reason(chosen, config, metric) for config in configs if config not in shown
    }
    if not shown:
        note = f"no result reports {metric} here"
        return Board(benchmark, metric, {}, [], chosen, note, empty)
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
    if any(row["flag"] for config_rows in rows.values() for row in config_rows):
        note += f"; {FLAG_LEGEND}"
    models = _models(labelled, rows, metric, configs)
    return Board(benchmark, metric, rows, models, chosen, note, empty)
