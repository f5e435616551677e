"""Any table of image / caption rows as a benchmark source: Parquet, CSV, JSON lines or a Hub id.

:func:`read_table_source` is what a spec benchmark without code of its own reads (the generic
:class:`~bindsplit_datasets.benchmarks.table.TableAdapter`, and ``bindsplit build custom``):

* a Parquet file or a folder of Parquet files, or a Hub dataset id
  (:func:`~bindsplit_datasets.benchmarks.base.read_dataset_source`);
* a CSV file (``.csv``, a header line, types inferred by pyarrow);
* a JSON lines file (``.jsonl``, ``.ndjson``; ``.json``: JSON lines, or one list of objects).

An image cell may hold the image's bytes, a ``datasets.Image`` struct (``{"bytes", "path"}``), or
a file path. A local table's paths are read relative to the table: a file's folder, or the folder
given as the source; absolute paths are kept. Whether each image exists and decodes is checked
later, row by row (:func:`~bindsplit_datasets.benchmarks.base.check_images`: an unreadable image
is counted and its row dropped, ``--strict`` fails).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa

from ..downloads import files_digest
from ..errors import SchemaError
from ..input_files import check_input_file
from .base import read_dataset_source

__all__ = ["TEXT_TABLE_SUFFIXES", "read_table_source", "resolve_image_paths", "table_columns"]

#: Local table files read here rather than as Parquet, by suffix.
TEXT_TABLE_SUFFIXES: tuple[str, ...] = (".csv", ".jsonl", ".ndjson", ".json")
_FIX = (
    "pass a Parquet file or folder, a CSV file with a header line, a JSON lines file or a Hub "
    "dataset id"
)


def read_table_source(
    source: str | Path,
    *,
    split: str,
    revision: str | None = None,
    image_columns: Sequence[str] = (),
) -> tuple[datasets.Dataset, dict[str, Any]]:
    """The rows of ``source`` and its identity (module docstring); for a local table, the path
    cells of ``image_columns`` (those it has) resolved against the table's folder.

    Raises:
        BindsplitFileNotFoundError: neither an existing path nor a Hub id.
        SchemaError: a file that is not a table of its kind, or without rows.
    """
    path = Path(source).expanduser()
    if path.is_file() and path.suffix.lower() in TEXT_TABLE_SUFFIXES:
        table = _read_text_table(check_input_file(path, "source table"))
        if table.num_rows == 0:
            raise SchemaError(f"{path} holds no rows; {_FIX}")
        dataset = datasets.Dataset(pa.Table.from_batches(table.to_batches(), table.schema))
        identity: dict[str, Any] = {
            "path": path.resolve().name,
            "files": [path.name],
            "sha256": files_digest([path]),
        }
    else:
        dataset, identity = read_dataset_source(source, hub_revision=revision, split=split)
    if path.exists():
        folder = path if path.is_dir() else path.parent
        present = [c for c in image_columns if c in dataset.column_names]
        dataset = resolve_image_paths(dataset, present, folder)
    return dataset, identity


def table_columns(source: str | Path) -> list[str] | None:
    """The column names of a local table, read from its header or schema alone (no rows), so
    that wrong column names are reported before any work; ``None`` for a Hub id, a folder
    without Parquet files or a file that is not a table (reading it reports that)."""
    path = Path(source).expanduser()
    try:
        if path.is_dir():
            files = sorted(path.rglob("*.parquet"))
            path = files[0] if files else path
        if not path.is_file():
            return None
        suffix = path.suffix.lower()
        if suffix == ".csv":
            import csv

            with open(path, newline="", encoding="utf-8") as handle:
                return next(csv.reader(handle), None)
        if suffix in TEXT_TABLE_SUFFIXES:
            return None  # JSON: the keys of every record count, read with the rows
        import pyarrow.parquet as pq

        return list(pq.read_schema(path).names)
    except (OSError, UnicodeDecodeError, pa.ArrowException, ValueError):
        return None


def _read_text_table(path: Path) -> pa.Table:
    """A CSV or JSON (lines) file as an Arrow table, or one :class:`SchemaError` naming it."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".csv":
            import pyarrow.csv as pa_csv

            return pa_csv.read_csv(path)
        import pyarrow.json as pa_json

        try:
            return pa_json.read_json(path)
        except pa.ArrowInvalid:
            if suffix != ".json":
                raise
            records = json.loads(path.read_text(encoding="utf-8"))  # one list of objects
            if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
                raise ValueError("expected JSON lines or one list of objects") from None
            return pa.Table.from_pylist(records)
    except (pa.ArrowException, ValueError, OSError) as error:
        reason = " ".join(str(error).split()) or type(error).__name__
        kind = "CSV" if suffix == ".csv" else "JSON lines"
        raise SchemaError(f"{path} is not a readable {kind} table ({reason}); {_FIX}") from None


def resolve_image_paths(
    dataset: datasets.Dataset, columns: Sequence[str], folder: Path
) -> datasets.Dataset:
    """``dataset`` with every path-only cell of ``columns`` (a path string, or an image struct
    without bytes) made absolute against ``folder``; columns of ``datasets.Image`` type with
    bytes, and absolute paths, are kept as they are."""
    order = list(dataset.column_names)
    for column in columns:
        feature = dataset.features[column]
        if isinstance(feature, datasets.Image):
            raw = dataset.cast_column(column, datasets.Image(decode=False))
            values = raw[column]
        else:
            values = dataset[column]
        if not any(_relative_path(value) for value in values):
            continue
        cells = [_resolved_cell(value, folder) for value in values]
        dataset = dataset.remove_columns(column).add_column(column, cells, feature=datasets.Image())
    return dataset.select_columns(order)


def _path_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and not value.get("bytes") and isinstance(value.get("path"), str):
        return str(value["path"])
    return None


def _relative_path(value: Any) -> bool:
    path = _path_of(value)
    return bool(path) and not Path(str(path)).is_absolute()


def _resolved_cell(value: Any, folder: Path) -> Any:
    path = _path_of(value)
    if not path:
        if isinstance(value, bytes):
            return {"bytes": value, "path": None}
        return value
    resolved = Path(path).expanduser()
    if not resolved.is_absolute():
        resolved = (folder / resolved).absolute()
    return {"bytes": None, "path": str(resolved)}
