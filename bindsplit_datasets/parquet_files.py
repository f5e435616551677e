"""Reading local Parquet files with one clear error for a file that is not what it should be.

Benchmark sources and built folders are Parquet files; a user can hand over a PNG, a text file, an
empty file or a truncated download instead. ``datasets`` reports those as a multi-page
``DatasetGenerationError`` traceback, or as ``Instruction "test" corresponds to no data!`` for a
file without rows. Here each becomes a :class:`~bindsplit_datasets.errors.SchemaError` (or the
subclass the caller names) that says which file is wrong and what to do.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import datasets
import pyarrow as pa
import pyarrow.parquet as pq

from .datasets_compat import DatasetGenerationError, InMemoryTable, progress_bars_off
from .errors import SchemaError
from .input_files import check_input_file

__all__ = ["empty_dataset", "load_parquet_files", "parquet_row_count"]


def _reason(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def parquet_row_count(path: str | Path, *, fix: str, error: type[SchemaError] = SchemaError) -> int:
    """The number of rows of the Parquet file ``path``, read from its footer.

    Raises:
        SchemaError: (or ``error``) ``path`` is not a Parquet file, or is empty or truncated; the
            message names the file and ends with ``fix``.
    """
    try:
        return pq.read_metadata(check_input_file(path, "Parquet file")).num_rows
    except (pa.ArrowException, OSError) as problem:
        raise error(f"{path} is not a readable Parquet file ({_reason(problem)}); {fix}") from None


def empty_dataset(path: str | Path) -> datasets.Dataset:
    """A 0-row dataset with the schema (and ``datasets`` features) of the Parquet file ``path``."""
    schema = pq.read_schema(path)
    features = datasets.Features.from_arrow_schema(schema)
    table = InMemoryTable(schema.empty_table())
    return datasets.Dataset(table, info=datasets.DatasetInfo(features=features))


def _first_unreadable(files: Sequence[Path]) -> tuple[Path, BaseException] | None:
    """The first of ``files`` whose data cannot be read in full, with the problem."""
    for path in files:
        try:
            for _ in pq.ParquetFile(path).iter_batches():
                pass
        except (pa.ArrowException, OSError) as problem:
            return path, problem
    return None


def load_parquet_files(
    files: Sequence[str | Path],
    split: str,
    *,
    where: str,
    fix: str,
    error: type[SchemaError] = SchemaError,
    cache_dir: str | Path | None = None,
    allow_empty: bool = False,
) -> datasets.Dataset:
    """``datasets.load_dataset("parquet", data_files={split: files}, split=split)``, with every
    problem of the files as one ``error`` (default :class:`SchemaError`) whose message names the
    file and ends with ``fix``.

    ``datasets`` notices changed files by their modification time, so a rewritten file is read
    again rather than served from its cache. That cache (the files' Arrow copy) is ``cache_dir``,
    by default ``datasets/`` in BindSplit's cache (``$BINDSPLIT_CACHE``, else
    ``~/.cache/bindsplit``): never ``datasets``' own cache in the user's home, where every build
    and source read would otherwise be copied. ``where`` names the whole (a folder) in the message
    for files without any row. With ``allow_empty``, files without any row (a configuration
    without samples) give a 0-row dataset with their schema, which ``datasets.load_dataset``
    cannot give (it refuses an empty split).
    """
    paths = [Path(f) for f in files]
    if sum(parquet_row_count(p, fix=fix, error=error) for p in paths) == 0:
        if allow_empty and paths:
            return empty_dataset(paths[0])
        raise error(f"{where} holds no rows; {fix}")
    if cache_dir is None:
        from .downloads import default_cache_dir

        cache_dir = default_cache_dir() / "datasets"
    try:
        with progress_bars_off():  # a local read: "Generating test split" says nothing useful
            return datasets.load_dataset(
                "parquet",
                data_files={split: [str(p) for p in paths]},
                split=split,
                cache_dir=str(cache_dir),
            )
    except DatasetGenerationError as problem:
        found = _first_unreadable(paths)
        if found is not None:
            path, cause = found
            raise error(f"{path} is corrupt ({_reason(cause)}); {fix}") from None
        cause = problem.__cause__ or problem
        raise error(f"cannot read the Parquet files of {where} ({_reason(cause)}); {fix}") from None
