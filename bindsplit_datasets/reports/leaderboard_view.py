"""What the leaderboard Space shows: results from a table or a results dataset, filtered and
ranked exactly as ``bindsplit compare`` ranks them.

:func:`load_source` reads a results table (a local ``.parquet`` file), a folder laid out as a
results dataset (``records/**/*.json`` and ``data/results.parquet``, as ``bindsplit push-results``
writes it) or a Hub dataset id (downloaded, then read as that folder). Complete records are
preferred: with their per-sample outcomes, a rank move is tested with the exact McNemar test, as
``compare`` tests it; from the table alone, by non-overlapping intervals (``compare``'s own test
for records without outcomes).

:func:`board` ranks one benchmark's models on ``full`` beside ``seen``, ``unseen`` and
``balanced`` (:data:`BOARD_CONFIGS`) with :func:`~.leaderboards.leaderboard` and
:func:`~.leaderboards.rank_changes`, after filtering by reference corpus and model family
(:func:`model_family`). Its rows are ``compare``'s rows, cell for cell; each model's binding kind
(what its build labels by: ``attribute``, ``relation`` or ``both``) is in ``Board.kinds``, which
:meth:`Board.wide` shows as its own column; :func:`board` can filter by kind.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BindsplitError, BindsplitFileNotFoundError, SchemaError
from ..names import DEFAULT_BINDING_KIND, is_hub_id
from ..tables import percent
from .consistency import check_table_record
from .grouping import group_by_benchmark, unique_labels
from .leaderboards import leaderboard, rank_changes
from .results import METRICS, REFERENCE_CONFIG, ResultsRecord, binding_kind, metric_key
from .results_table import read_results_table, reference_name, table_records
from .significance import DEFAULT_CONFIDENCE, METHOD_PAIRED

__all__ = [
    "BOARD_CONFIGS",
    "Board",
    "Source",
    "benchmarks",
    "binding_kinds",
    "board",
    "families",
    "load_source",
    "model_family",
    "rankable_records",
    "references",
]

logger = logging.getLogger(__name__)

#: The configurations the Space shows, ``full`` first.
BOARD_CONFIGS: tuple[str, ...] = (REFERENCE_CONFIG, "seen", "unseen", "balanced")
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
#: Where a results dataset keeps its records and its table.
RECORDS_GLOB = "records/**/*.json"
TABLE_GLOB = "data/*.parquet"


@dataclass(frozen=True)
class Source:
    """Results as read: the records (complete ones, or rebuilt from the table), where they came
    from, and the files that could not be used."""

    records: list[dict[str, Any]]
    where: str
    paired: bool
    skipped: list[str] = field(default_factory=list)


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


def rankable_records(
    records: Sequence[dict[str, Any]], where: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of a results table that a leaderboard can rank, and one line for each left
    out (a NaN or null accuracy, a negative or missing n, a value outside its interval: a bad
    table must neither be ranked nor stop the page)."""
    kept, skipped = [], []
    for record in records:
        try:
            check_table_record(record, where)
        except BindsplitError as error:
            logger.warning("left out a row of %s: %s", where, error)
            skipped.append(str(error))
        else:
            kept.append(record)
    return kept, skipped


def _table_source(path: Path, name: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The rankable records of one table file (none, and why, when the file is unusable)."""
    try:
        return rankable_records(table_records(read_results_table(path)), name)
    except (BindsplitError, OSError, RecursionError) as error:
        logger.warning("left out %s: %s", path, error)
        return [], [f"{name}: {error}"]


def _from_folder(folder: Path) -> Source:
    skipped: list[str] = []
    records: list[dict[str, Any]] = []
    for path in sorted(folder.glob(RECORDS_GLOB)):
        try:
            records.extend(record.data for record in ResultsRecord.read(path))
        except (BindsplitError, OSError, RecursionError) as error:
            logger.warning("left out %s: %s", path, error)
            skipped.append(f"{path.relative_to(folder)}: {error}")
    if records:
        return Source(records, str(folder), paired=True, skipped=skipped)
    tables = sorted(folder.glob(TABLE_GLOB))
    if not tables:
        raise BindsplitFileNotFoundError(
            f"{folder} holds neither results records ({RECORDS_GLOB}) nor a results table "
            f"({TABLE_GLOB})"
        )
    rows = []
    for path in tables:
        found, left_out = _table_source(path, str(path.relative_to(folder)))
        rows.extend(found)
        skipped.extend(left_out)
    return Source(rows, str(folder), paired=False, skipped=skipped)


def load_source(source: str | os.PathLike[str]) -> Source:
    """Results from a results table (``.parquet``), a results dataset folder or a Hub dataset id
    (module docstring)."""
    path = Path(source)
    if path.is_file():
        records, skipped = rankable_records(table_records(read_results_table(path)), str(path))
        return Source(records, str(path), paired=False, skipped=skipped)
    if path.is_dir():
        return _from_folder(path)
    text = str(source)
    if not is_hub_id(text) or text.endswith(".parquet"):
        raise BindsplitFileNotFoundError(
            f"results source {text!r} is neither a file, a folder nor a Hub dataset id (ORG/NAME)"
        )
    from huggingface_hub import snapshot_download

    folder = snapshot_download(text, repo_type="dataset", allow_patterns=[RECORDS_GLOB, TABLE_GLOB])
    found = _from_folder(Path(folder))
    return Source(found.records, text, found.paired, found.skipped)


def benchmarks(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The benchmarks of the records, in order of first appearance."""
    return list(dict.fromkeys(str(record["dataset"]["benchmark"]) for record in records))


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


@dataclass(frozen=True)
class Board:
    """One benchmark's leaderboard as the Space shows it.

    ``rows[config]``: ``compare``'s rows of that configuration (rank, model, accuracy %, 95% CI,
    n, move from ``full``) as text cells; ``kinds``: each model's binding kind; ``models``: the
    models in ``full`` order; ``records``: the ranked records (for the figure); ``note``: how
    moves were tested, or why there is no board.
    """

    benchmark: str
    metric: str
    rows: dict[str, list[dict[str, str]]]
    records: list[Mapping[str, Any]]
    note: str
    kinds: dict[str, str] = field(default_factory=dict)

    def headers(self) -> list[str]:
        """The column names of :meth:`wide`."""
        return ["model", "binding kind", *self.rows]

    def wide(self) -> list[list[str]]:
        """One row per model: model, its binding kind, then per configuration its accuracy with
        interval, rank and move (the Space's table, :meth:`headers`)."""
        models = list(dict.fromkeys(row["model"] for rows in self.rows.values() for row in rows))
        cells = {(row["model"], config): row for config, rows in self.rows.items() for row in rows}
        table = []
        for model in models:
            line = [model, self.kinds.get(model, DEFAULT_BINDING_KIND)]
            for config in self.rows:
                row = cells.get((model, config))
                line.append(
                    "-"
                    if row is None
                    else f"#{row['rank']} {row['accuracy']} {row['ci']} {row['move']}".rstrip()
                )
            table.append(line)
        return table


def board(
    records: Sequence[Mapping[str, Any]],
    benchmark: str,
    metric: str = "i2t",
    *,
    reference: str | None = None,
    family: Sequence[str] | None = None,
    configs: Sequence[str] = BOARD_CONFIGS,
    confidence: float = DEFAULT_CONFIDENCE,
    kind: str | None = None,
) -> Board:
    """The leaderboard of ``benchmark`` on ``configs`` for the records of that ``reference``
    corpus, those model ``family`` s and that binding ``kind`` (None: all), ranked as
    ``compare`` ranks them."""
    if metric not in METRICS:
        raise SchemaError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    chosen = [
        record
        for record in records
        if record["dataset"]["benchmark"] == benchmark
        and (reference is None or (reference_name(record) or "unknown") == reference)
        and (family is None or model_family(str(record["model"]["id"])) in family)
        and (kind is None or binding_kind(record) == kind)
    ]
    if not chosen:
        return Board(benchmark, metric, {}, [], "no results match the filters")
    try:
        group_by_benchmark(chosen)
    except SchemaError as error:
        return Board(benchmark, metric, {}, [], str(error))
    shown = [
        config
        for config in configs
        if any(metric_key(config, metric) in record["metrics"] for record in chosen)
    ]
    if not shown:
        return Board(benchmark, metric, {}, chosen, f"no result reports {metric} here")
    changes = rank_changes(chosen, metric, shown, confidence=confidence)
    markers = {change.model: change.markers for change in changes}
    kinds = dict(zip(unique_labels(chosen), map(binding_kind, chosen), strict=True))
    rows = {
        config: [
            {
                "rank": str(row.rank),
                "model": row.model,
                "accuracy": percent(row.accuracy),
                "ci": f"[{percent(row.ci[0])}, {percent(row.ci[1])}]" if row.ci else "-",
                "n": f"{row.n:,}" if row.n is not None else "-",
                "move": markers.get(row.model, {}).get(config, ""),
            }
            for row in leaderboard(chosen, config, metric)
        ]
        for config in shown
    }
    paired = all("samples" in record for record in chosen)
    level = f"{100 * confidence:g}%"
    note = (
        f"rank moves vs {REFERENCE_CONFIG}: ↑/↓ where the difference is real, = where it is "
        "within noise (real: "
        + (
            f"the {METHOD_PAIRED} test over the shared samples separates the models at {level})"
            if paired
            else "non-overlapping 95% intervals; the table has no per-sample outcomes)"
        )
    )
    return Board(benchmark, metric, rows, chosen, note, kinds)
