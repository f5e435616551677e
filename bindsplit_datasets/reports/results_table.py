"""The results table: results records as one flat Parquet table that ``datasets`` loads.

One row per (model, model revision, benchmark, configuration, metric), with the accuracy as a
fraction (``value``), its interval (``ci_low``, ``ci_high``; null without one), the
configuration's sample count ``n``, the build (``build_fingerprint``), the corpus the split is
relative to (``reference``: the reference corpus's name, e.g. ``coco2017``) and what scored the
samples (``scored_by``: ``encoder``, a pair scorer, imported scores). ``binding_kind`` says what
the build labels by (``attribute``, ``relation`` or ``both``; a record or table written before
builds had a kind reads as ``attribute``). An empty configuration has no accuracy and no row. The
gaps are rows too: configuration ``gap_seen_unseen`` (seen minus unseen) and ``gap_seen_partial``
(seen minus partial), ``value`` the difference with its interval, ``n`` the smaller of the two
configurations' counts. A record of a build with hard positives adds the rows of metric
``i2t_original`` (I2T with the hard positives left out) and ``i2t_drop`` (it minus ``i2t``)
beside ``i2t``'s, gaps included; a half-truth build's records the rows of its own metrics
(``acc_ht``, ``delta``, ``ref_acc``: ``metric_halftruth``), each with its own interval method.

Every row says how its numbers were made, so that it can be reproduced from itself:
``interval_method`` (an accuracy's: ``wilson``, ``clopper-pearson``, ``bootstrap-percentile``; a
gap's: ``newcombe`` or ``bootstrap-percentile``; a drop's: the record's
``drop_interval_method``), ``confidence``, ``n_bootstrap``, ``seed``,
``bindsplit_version``, ``git_commit`` and ``platform`` (null where an older record does not say),
and ``small_n``: the value rests on fewer than 30 samples or is degenerate (0/n, n/n; for a gap,
on either side), so its interval, valid as it is, deserves a flag.
``bindsplit export results-table`` writes it, ``bindsplit push-results`` keeps it up to date in a
results dataset (``data/results.parquet``), and the leaderboard Space reads it.

>>> import pyarrow as pa
>>> record = {
...     "format": "bindsplit-results/1",
...     "model": {"id": "org/clip", "revision": "abc", "scored_by": "encoder"},
...     "dataset": {"benchmark": "aro_vga", "fingerprint": "f1",
...                 "reference": {"corpus": {"kind": "coco", "name": "coco2017"}}},
...     "metrics": {"full/n": 4, "full/i2t": 0.75, "full/i2t_ci": [0.5, 1.0], "seen/n": 0,
...                 "interval_method": "wilson", "confidence": 0.95},
... }
>>> [row["configuration"] + "/" + row["metric"] for row in table_rows([record])]
['full/i2t']
>>> row = table_rows([record])[0]
>>> row["value"], row["ci_low"], row["n"], row["reference"], row["scored_by"], row["small_n"]
(0.75, 0.5, 4, 'coco2017', 'encoder', True)
>>> row["binding_kind"]
'attribute'
>>> sorted(table_records(results_table([record]))[0]["metrics"])  # no row, no seen/n
['confidence', 'full/i2t', 'full/i2t_ci', 'full/n', 'interval_method']
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..atomic import OutputKind, atomic_file, check_output
from ..errors import BindsplitValueError, SchemaError
from ..metric_halftruth import HALFTRUTH_METRICS
from ..names import CONFIGURATIONS, DEFAULT_BINDING_KIND, RESULTS_FORMAT, RESULTS_TABLE_FORMAT
from .intervals import (
    GAP_NAMES,
    gap_count,
    interval_method,
    interval_method_key,
    interval_settings,
    is_small,
    provenance,
)
from .results import (
    GAPS,
    REPORTED_METRICS,
    binding_kind,
    count_key,
    interval_key,
    metric_key,
    record_configs,
    scored_by,
)

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "COLUMNS",
    "GAP_ROWS",
    "KEY_COLUMNS",
    "check_table_output",
    "merge_tables",
    "read_results_table",
    "reference_name",
    "results_table",
    "table_bytes",
    "table_records",
    "table_rows",
    "write_results_table",
]

#: The columns of the results table, in order.
COLUMNS: tuple[str, ...] = (
    "model",
    "model_revision",
    "benchmark",
    "binding_kind",
    "configuration",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "n",
    "build_fingerprint",
    "reference",
    "scored_by",
    "interval_method",
    "confidence",
    "n_bootstrap",
    "seed",
    "bindsplit_version",
    "git_commit",
    "platform",
    "small_n",
)
#: The columns a table written before they existed lacks: read as nulls.
_ADDED_COLUMNS: tuple[str, ...] = COLUMNS[COLUMNS.index("interval_method") :]
#: The ``configuration`` of a gap's rows, by the gap's key prefix in a record.
GAP_ROWS: dict[str, str] = GAP_NAMES
_GAP_OF_ROW = {row: gap for gap, row in GAP_ROWS.items()}
#: The columns that identify the record a row comes from (one record per model revision and
#: build, as in the results dataset).
KEY_COLUMNS: tuple[str, ...] = ("model", "model_revision", "benchmark", "build_fingerprint")
#: The columns that identify a row.
ROW_KEY: tuple[str, ...] = (*KEY_COLUMNS, "configuration", "metric")
#: The Parquet key-value metadata entry holding the format tag.
_FORMAT_KEY = b"bindsplit.format"


def _schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema(
        [
            pa.field("model", pa.string(), nullable=False),
            pa.field("model_revision", pa.string()),
            pa.field("benchmark", pa.string(), nullable=False),
            pa.field("binding_kind", pa.string(), nullable=False),
            pa.field("configuration", pa.string(), nullable=False),
            pa.field("metric", pa.string(), nullable=False),
            pa.field("value", pa.float64(), nullable=False),
            pa.field("ci_low", pa.float64()),
            pa.field("ci_high", pa.float64()),
            pa.field("n", pa.int64(), nullable=False),
            pa.field("build_fingerprint", pa.string()),
            pa.field("reference", pa.string()),
            pa.field("scored_by", pa.string(), nullable=False),
            pa.field("interval_method", pa.string()),
            pa.field("confidence", pa.float64()),
            pa.field("n_bootstrap", pa.int64()),
            pa.field("seed", pa.int64()),
            pa.field("bindsplit_version", pa.string()),
            pa.field("git_commit", pa.string()),
            pa.field("platform", pa.string()),
            pa.field("small_n", pa.bool_()),
        ],
        metadata={_FORMAT_KEY: RESULTS_TABLE_FORMAT.encode("ascii")},
    )


def reference_name(record: Mapping[str, Any]) -> str | None:
    """The name of the corpus a record's split is relative to: the reference fingerprint's
    corpus ``name`` (``coco2017``), else its Hub ``id``, its ``file`` or its ``kind``; None when
    the record names no reference."""
    reference = record["dataset"].get("reference")
    corpus = reference.get("corpus") if isinstance(reference, Mapping) else None
    if not isinstance(corpus, Mapping):
        return None
    for field in ("name", "id", "file", "kind"):
        if corpus.get(field):
            return str(corpus[field])
    return None


#: Every metric a row may hold, in row order: the metric's, then a half-truth build's own.
_ROW_METRICS: tuple[str, ...] = (*REPORTED_METRICS, *HALFTRUTH_METRICS)


def _order(row: Mapping[str, Any]) -> tuple[Any, ...]:
    configs = [*CONFIGURATIONS, *GAP_ROWS.values()]
    config = row["configuration"]
    return (
        row["benchmark"],
        row["model"],
        row["model_revision"] or "",
        row["build_fingerprint"] or "",
        configs.index(config) if config in configs else len(configs),
        config,
        _ROW_METRICS.index(row["metric"]),
    )


def _row(metrics: Mapping[str, Any], config: str, metric: str, n: int) -> dict[str, Any] | None:
    """The row of ``{config}/{metric}`` (a configuration or a gap), or None where absent."""
    value = metrics.get(metric_key(config, metric))
    if value is None:
        return None
    interval = metrics.get(interval_key(config, metric))
    return {
        "configuration": GAP_ROWS.get(config, config),
        "metric": metric,
        "value": float(value),
        "ci_low": None if interval is None else float(interval[0]),
        "ci_high": None if interval is None else float(interval[1]),
        "n": n,
        "interval_method": interval_method(metrics, config, metric),
        "small_n": is_small(metrics, config, metric),
    }


def table_rows(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The table's rows of validated records, ordered by benchmark, model, revision, build,
    configuration (the gaps last) and metric."""
    rows = []
    for record in records:
        metrics = record["metrics"]
        settings = interval_settings(metrics)
        identity = {
            "model": str(record["model"]["id"]),
            "model_revision": record["model"].get("revision"),
            "benchmark": str(record["dataset"]["benchmark"]),
            "binding_kind": binding_kind(record),
            "build_fingerprint": record["dataset"].get("fingerprint"),
            "reference": reference_name(record),
            "scored_by": scored_by(record),
            "confidence": settings["confidence"],
            "n_bootstrap": settings["n_bootstrap"],
            "seed": settings["seed"],
            **provenance(record),
        }
        found = []
        for config in record_configs(metrics):
            n = int(metrics[count_key(config)])
            found += [_row(metrics, config, metric, n) for metric in _ROW_METRICS]
        for gap in GAPS:
            gap_n = gap_count(metrics, gap)
            if gap_n is None:
                continue
            found += [_row(metrics, gap, metric, gap_n) for metric in _ROW_METRICS]
        rows += [{**identity, **row} for row in found if row is not None]
    rows.sort(key=_order)
    return [{column: row[column] for column in COLUMNS} for row in rows]


def results_table(records: Iterable[Mapping[str, Any]]) -> pa.Table:
    """The results table of validated records (:data:`COLUMNS`); one row per (model, revision,
    benchmark, configuration, metric) and build. Raises :class:`SchemaError` when two records
    give the same row (the same model and revision evaluated twice on one build)."""
    import pyarrow as pa

    rows = table_rows(records)
    keys = [tuple(row[column] for column in ROW_KEY) for row in rows]
    if len(set(keys)) != len(keys):
        twice = next(key for key in keys if keys.count(key) > 1)
        raise SchemaError(
            f"model {twice[0]!r} (revision {twice[1]!r}) has several results on the same "
            f"{twice[2]} build; pass one results record per model, revision and build"
        )
    return pa.Table.from_pylist(rows, schema=_schema())


def table_bytes(table: pa.Table) -> bytes:
    """The table as Parquet file content."""
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def _is_results_table(path: Path) -> bool:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_schema(path).metadata or {}
    except (OSError, pa.ArrowException):
        return False
    return metadata.get(_FORMAT_KEY) == RESULTS_TABLE_FORMAT.encode("ascii")


def check_table_output(out: str | os.PathLike[str]) -> Path:
    """Raise unless a results table may be written to ``out``: a ``.parquet`` name, and the one
    output check (:func:`~bindsplit_datasets.atomic.check_output`: writable, nothing there but a
    previous results table, which is replaced). Called before any work."""
    out = Path(out)
    if out.suffix.lower() != ".parquet":
        raise BindsplitValueError(f"cannot write the results table to {out}: use a .parquet name")
    kind = OutputKind("BindSplit results table", RESULTS_TABLE_FORMAT, recognise=_is_results_table)
    return check_output(out, kind, overwrite=True)


def write_results_table(records: Iterable[Mapping[str, Any]], out: str | os.PathLike[str]) -> Path:
    """Write the results table of ``records`` to ``out`` (a ``.parquet`` file, checked by
    :func:`check_table_output`), atomically; ``load_dataset("parquet", data_files=out)`` loads
    it."""
    out = check_table_output(out)
    content = table_bytes(results_table(records))
    with atomic_file(out) as temporary:
        temporary.write_bytes(content)
    return out


def read_results_table(source: str | os.PathLike[str] | bytes) -> pa.Table:
    """A results table from a Parquet file (or its content), checked to have :data:`COLUMNS`
    (a table written before the reproducibility columns existed reads them as nulls)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    where = "the results table" if isinstance(source, bytes) else str(source)
    if not isinstance(source, bytes):
        from ..input_files import check_input_file

        check_input_file(source, "results table")
    try:
        table = pq.read_table(pa.BufferReader(source) if isinstance(source, bytes) else source)
    except (OSError, pa.ArrowException) as error:
        raise SchemaError(f"{where} is not a readable Parquet file ({error})") from None
    if "binding_kind" not in table.column_names:  # a table written before builds had a kind
        kinds = pa.array([DEFAULT_BINDING_KIND] * table.num_rows, pa.string())
        table = table.append_column("binding_kind", kinds)
    for column in _ADDED_COLUMNS:
        if column not in table.column_names:
            table = table.append_column(column, pa.nulls(len(table), _schema().field(column).type))
    missing = [column for column in COLUMNS if column not in table.column_names]
    if missing:
        raise SchemaError(
            f"{where} is not a BindSplit results table: it lacks {', '.join(missing)}; make one "
            "with `bindsplit export results-table`"
        )
    try:
        return table.select(list(COLUMNS)).cast(_schema())
    except (pa.ArrowException, ValueError) as error:  # a string where a number goes
        raise SchemaError(
            f"{where} is not a BindSplit results table: a column has the wrong type ({error}); "
            "make one with `bindsplit export results-table`"
        ) from None


def merge_tables(existing: pa.Table | None, new: pa.Table) -> pa.Table:
    """``existing`` with the rows of ``new`` whose record (:data:`KEY_COLUMNS`) it does not hold
    yet: a record already in the table is kept as it is, as the results dataset keeps the
    records already published."""
    import pyarrow as pa

    if existing is None:
        return new
    held = {tuple(row[c] for c in KEY_COLUMNS) for row in existing.select(KEY_COLUMNS).to_pylist()}
    added = [row for row in new.to_pylist() if tuple(row[c] for c in KEY_COLUMNS) not in held]
    rows = sorted(existing.to_pylist() + added, key=_order)
    return pa.Table.from_pylist(rows, schema=_schema())


def table_records(table: pa.Table) -> list[dict[str, Any]]:
    """The results table back as results records (one per model, revision, benchmark and build,
    without per-sample outcomes), in the table's order: what the leaderboards rank. Gap rows
    become the gap keys, and the rows' settings the metrics' settings keys. Not complete
    records (no samples): for ranking, not for validation."""
    records: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in table.to_pylist():
        key = tuple(row[column] for column in KEY_COLUMNS)
        record = records.get(key)
        if record is None:
            dataset: dict[str, Any] = {
                "benchmark": row["benchmark"],
                "binding_kind": row["binding_kind"],
                "fingerprint": row["build_fingerprint"],
            }
            if row["reference"] is not None:
                dataset["reference"] = {"corpus": {"name": row["reference"]}}
            record = records[key] = {
                "format": RESULTS_FORMAT,
                "model": {
                    "id": row["model"],
                    "revision": row["model_revision"],
                    "scored_by": row["scored_by"],
                },
                "dataset": dataset,
                "metrics": {},
            }
        metrics = record["metrics"]
        config, metric = row["configuration"], row["metric"]
        gap = _GAP_OF_ROW.get(config)
        if gap is None:
            metrics[count_key(config)] = row["n"]
        config = gap or config
        metrics[metric_key(config, metric)] = row["value"]
        if row["ci_low"] is not None and row["ci_high"] is not None:
            metrics[interval_key(config, metric)] = [row["ci_low"], row["ci_high"]]
        method_key = interval_method_key(metric, gap=gap is not None)
        # a small sample's row may name the fallback (Wilson) of bootstrapped intervals: the
        # record's method is that of its other rows, where it has any
        if row.get("interval_method") is not None and not (
            row["small_n"] and method_key in metrics
        ):
            metrics[method_key] = row["interval_method"]
        for setting in ("confidence", "n_bootstrap", "seed"):
            if row.get(setting) is not None:
                metrics[setting] = row[setting]
    return list(records.values())
