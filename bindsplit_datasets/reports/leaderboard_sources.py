"""Where the leaderboard Space's results come from, read so that nothing bad stops it.

:func:`load_source` reads a results table (a local ``.parquet`` file), a folder or a Hub dataset
id (downloaded, then read as a folder). A folder is any of:

- a results dataset as ``bindsplit push-results`` lays it out (``records/**/*.json`` and
  ``data/results.parquet``);
- the flat folder ``bindsplit eval --out-dir`` writes (``<benchmark>__<model>.json``), or a
  folder holding collections of records (``results.json``);
- a folder of results tables (``*.parquet``).

Complete records are preferred (with their per-sample outcomes, rank moves are tested as
``compare`` tests them, and every number is re-derived from them); tables are read only where a
folder holds no record. Two different records of the same model, revision and build (or two
table rows of one such record that disagree) are never deduplicated: which one is genuine cannot
be told, so both are left out, with a line saying so (a copy of one record, in a collection and
in its own file, is read once). A file that
cannot be read (not JSON, nested too deeply, a record that fails validation) and a table row
that is not a result (a null or non-finite value, a negative ``n``, a string where a number
belongs) is left out with a line in :attr:`Source.skipped` that the Space shows; nothing of it
stops the Space.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BindsplitError, BindsplitFileNotFoundError
from ..metric_core import GAP_NAMES
from ..names import is_hub_id
from .results import REPORTED_METRICS, ResultsRecord
from .results_table import COLUMNS, KEY_COLUMNS, table_records

__all__ = ["RECORDS_GLOBS", "TABLE_GLOBS", "Source", "load_source", "source_label", "without_path"]

logger = logging.getLogger(__name__)

#: Where a folder keeps records: a results dataset's ``records/``, the flat ``--out-dir`` files
#: and collections beside them.
RECORDS_GLOBS: tuple[str, ...] = ("records/**/*.json", "*.json")
#: Where a folder keeps results tables: a results dataset's ``data/``, or beside the records.
TABLE_GLOBS: tuple[str, ...] = ("data/*.parquet", "*.parquet")
#: The results table's rows that are differences, not accuracies (their values may be < 0).
_GAP_ROWS = frozenset(GAP_NAMES.values())
#: Skipped rows named per table before the rest are counted.
_NAMED_ROWS = 3
#: Columns a row needs to be read at all (old tables lack the newer ones).
_ROW_COLUMNS = tuple(
    column
    for column in COLUMNS
    if column in ("model", "benchmark", "configuration", "metric", "value", "n", "scored_by")
)


@dataclass(frozen=True)
class Source:
    """Results as read: the records (complete ones, or rebuilt from a table), where they came
    from, whether they carry per-sample outcomes, and what was left out (one line each)."""

    records: list[dict[str, Any]]
    where: str
    paired: bool
    skipped: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """Where the results come from as a page may say it (:func:`source_label`)."""
        return source_label(self.where)


def source_label(where: str | os.PathLike[str]) -> str:
    """Where results come from, in words a page may show: the Hub dataset id, else what kind of
    local source it is, never the server's path.

    >>> source_label("bindsplit/bindsplit-results"), source_label("/no/such/results.parquet")
    ('the Hub dataset bindsplit/bindsplit-results', 'the configured results path')
    """
    path = Path(where)
    if path.is_dir():
        return "a local results folder"
    if path.is_file():
        return "a local records file" if path.suffix.lower() == ".json" else "a local results table"
    return f"the Hub dataset {where}" if is_hub_id(str(where)) else "the configured results path"


def without_path(text: str, where: str | os.PathLike[str]) -> str:
    """``text`` (an error message about the source ``where``) with the source's path written
    as :func:`source_label` writes it.

    >>> without_path("results source '/srv/r' is neither a file, a folder", "/srv/r/")
    "results source 'the configured results path' is neither a file, a folder"
    """
    label = source_label(where)
    for path in sorted({str(where), str(Path(where)), str(Path(where).resolve())}, key=len)[::-1]:
        text = text.replace(path, label)
    return text


#: How far a value may stray outside its interval by rounding (a percentile interval holds its
#: estimate up to float error).
_SLACK = 1e-9


def _finite(value: Any, low: float, high: float) -> bool:
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
        and low <= value <= high
    )


def row_problem(row: Mapping[str, Any]) -> str | None:
    """Why a results-table row cannot be shown, or None: a missing or non-text name, a value
    that is null, not a number, not finite or out of range, an interval that is not two such
    numbers or does not hold the value, a count that is not a non-negative integer."""
    for column in _ROW_COLUMNS:
        if row.get(column) is None:
            return f"no {column}"
    for column in ("model", "benchmark", "configuration", "metric", "scored_by"):
        if not isinstance(row[column], str):
            return f"{column} {row[column]!r} is not text"
    if row["metric"] not in REPORTED_METRICS:
        return f"unknown metric {row['metric']!r}"
    low = -1.0 if row["configuration"] in _GAP_ROWS else 0.0
    if not _finite(row["value"], low, 1.0):
        return f"value {row['value']!r} is not a fraction"
    ci_low: Any = row.get("ci_low")
    ci_high: Any = row.get("ci_high")
    if (ci_low, ci_high) != (None, None) and not (
        _finite(ci_low, low, 1.0) and _finite(ci_high, low, 1.0) and ci_low <= ci_high
    ):
        return f"interval {[ci_low, ci_high]!r} is not [low, high]"
    if ci_low is not None and not ci_low - _SLACK <= row["value"] <= ci_high + _SLACK:
        return f"value {row['value']!r} lies outside its interval {[ci_low, ci_high]!r}"
    n = row["n"]
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        return f"n {n!r} is not a sample count"
    return None


def _table(path: Path, folder: Path | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of one results table, its unusable rows left out (and said)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = str(path.relative_to(folder)) if folder else path.name
    try:
        rows = pq.read_table(path).to_pylist()
    except (OSError, pa.ArrowException, ValueError) as error:
        return [], [f"{name}: not a readable Parquet file ({error})"]
    if rows and (missing := [c for c in _ROW_COLUMNS if c not in rows[0]]):
        return [], [f"{name}: not a results table (no {', '.join(missing)})"]
    good, bad = [], []
    for index, row in enumerate(rows):
        problem = row_problem(row)
        if problem is None:
            good.append({column: row.get(column) for column in COLUMNS} | row)
        else:
            bad.append(f"row {index}: {problem}")
    good, conflicts = _agreeing_rows(good)
    notes = [f"{name}: {conflict}" for conflict in conflicts]
    if bad:
        more = len(bad) - _NAMED_ROWS
        named = "; ".join(bad[:_NAMED_ROWS]) + (f"; {more} more" if more > 0 else "")
        notes.append(f"{name}: left out {len(bad)} row{'s' * (len(bad) != 1)} ({named})")
    if not good:
        return [], notes
    try:
        return table_records(pa.Table.from_pylist(good)), notes
    except (BindsplitError, KeyError, TypeError, ValueError, pa.ArrowException) as error:
        return [], [*notes, f"{name}: not a results table ({error})"]


def _describe(key: tuple[Any, ...]) -> str:
    model, revision, benchmark, fingerprint = key[:4]
    at = f"@{revision}" if revision else ""
    return f"{model}{at} on the {benchmark} build {str(fingerprint)[:12]}"


def _agreeing_rows(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """``rows`` without the records (:data:`KEY_COLUMNS`) of which two rows of one configuration
    and metric disagree, and a line for each record left out."""
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    clashing: dict[tuple[Any, ...], None] = {}
    for row in rows:
        key = tuple(row[column] for column in KEY_COLUMNS)
        cell = (*key, row["configuration"], row["metric"])
        if cell in seen and seen[cell] != row:
            clashing[key] = None
        seen.setdefault(cell, row)
    kept = [row for row in rows if tuple(row[c] for c in KEY_COLUMNS) not in clashing]
    return kept, [
        f"two different results for {_describe(key)}; both left out (which is genuine cannot "
        "be told)"
        for key in clashing
    ]


def _records(path: Path, folder: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of one JSON file, or why it was left out."""
    try:
        return [record.data for record in ResultsRecord.read(path)], []
    except (BindsplitError, OSError, ValueError, RecursionError, TypeError, KeyError) as error:
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        logger.warning("left out %s: %s", path, reason)
        return [], [f"{path.relative_to(folder)}: {reason}"]


def _record_key(record: Mapping[str, Any]) -> tuple[Any, ...]:
    return (
        record["model"]["id"],
        record["model"].get("revision"),
        record["dataset"]["benchmark"],
        record["dataset"].get("fingerprint"),
    )


def _distinct(found: list[tuple[dict[str, Any], str]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of ``found`` (record, the file it is in), each once (the same record in a
    collection and in its own file), without the records of which two different ones share a
    model, revision and build: which is genuine cannot be told, so both are left out, with a
    line saying so."""
    records: dict[tuple[Any, ...], tuple[dict[str, Any], str]] = {}
    clashing: dict[tuple[Any, ...], list[str]] = {}
    for record, name in found:
        key = _record_key(record)
        if key in clashing:
            clashing[key].append(name)
        elif key not in records:
            records[key] = (record, name)
        elif records[key][0].get("digest") != record.get("digest"):
            clashing[key] = [records.pop(key)[1], name]
    notes = []
    for key, names in clashing.items():
        logger.warning("two different results for %s: %s", _describe(key), ", ".join(names))
        notes.append(
            f"{' and '.join(dict.fromkeys(names))}: two different results for {_describe(key)}; "
            "both left out (which is genuine cannot be told)"
        )
    return [record for record, _ in records.values()], notes


def _from_folder(folder: Path) -> Source:
    skipped: list[str] = []
    found: list[tuple[dict[str, Any], str]] = []
    paths = dict.fromkeys(
        path for pattern in RECORDS_GLOBS for path in sorted(folder.glob(pattern))
    )
    for path in paths:
        records, notes = _records(path, folder)
        skipped += notes
        found += [(record, str(path.relative_to(folder))) for record in records]
    if found:
        records, notes = _distinct(found)
        return Source(records, str(folder), paired=True, skipped=skipped + notes)
    tables = dict.fromkeys(path for pattern in TABLE_GLOBS for path in sorted(folder.glob(pattern)))
    if not tables:
        raise BindsplitFileNotFoundError(
            f"{folder} holds neither results records ({', '.join(RECORDS_GLOBS)}) nor a results "
            f"table ({', '.join(TABLE_GLOBS)})"
            + (f"; left out: {'; '.join(skipped)}" if skipped else "")
        )
    rows: list[dict[str, Any]] = []
    for path in tables:
        table_rows, notes = _table(path, folder)
        rows += table_rows
        skipped += notes
    return Source(rows, str(folder), paired=False, skipped=skipped)


def load_source(source: str | os.PathLike[str]) -> Source:
    """Results from a results table (``.parquet``), a folder (module docstring) or a Hub dataset
    id; unusable files and rows are left out and listed in :attr:`Source.skipped`."""
    path = Path(source)
    if path.is_file():
        if path.suffix.lower() == ".json":
            records, skipped = _records(path, path.parent)
            records, notes = _distinct([(record, path.name) for record in records])
            return Source(records, str(path), paired=True, skipped=skipped + notes)
        records, skipped = _table(path, None)
        return Source(records, str(path), paired=False, skipped=skipped)
    if path.is_dir():
        return _from_folder(path)
    text = str(source)
    if not is_hub_id(text) or text.endswith((".parquet", ".json")):
        raise BindsplitFileNotFoundError(
            f"results source {text!r} is neither a file, a folder nor a Hub dataset id (ORG/NAME)"
        )
    from huggingface_hub import snapshot_download

    patterns = [RECORDS_GLOBS[0], TABLE_GLOBS[0]]
    folder = snapshot_download(text, repo_type="dataset", allow_patterns=patterns)
    found = _from_folder(Path(folder))
    return Source(found.records, text, found.paired, found.skipped)
