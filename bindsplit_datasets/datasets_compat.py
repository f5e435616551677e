"""The internals of ``datasets`` that BindSplit builds and reads Parquet with, in one place
(:mod:`.builds` and :mod:`.parquet_files` import them from here).

``datasets`` documents ``load_dataset``, ``Dataset``, ``Features`` and ``DatasetInfo``; the names
below live in modules it does not promise to keep (``datasets.table``, ``datasets.features
.features``, ``datasets.utils``, ``datasets.info``). Importing them only from here means a release
that moves one breaks this module's import, named, instead of a build half-way; setup.cfg bounds
``datasets`` from above (``<6``) to the major versions these imports were checked against
(4.x and 5.x).

* :class:`InMemoryTable`: wraps an Arrow table as a ``Dataset``'s data (annotation columns, an
  empty configuration read from its schema).
* :func:`embed_table_storage`, :func:`require_storage_embed`: put image files' bytes into the rows
  before writing Parquet, as ``push_to_hub`` does.
* :func:`convert_file_size_to_int`: ``"500MB"`` -> bytes, the shard size as ``datasets`` reads it.
* :class:`DatasetInfosDict`: writes each configuration's features and split sizes into the
  dataset card's ``dataset_info``, as ``datasets`` itself does.
* :class:`DatasetGenerationError`: what ``load_dataset`` raises for an unreadable Parquet file.

:func:`progress_bars_off` uses the switch ``datasets`` documents for its own progress bars.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from datasets.exceptions import DatasetGenerationError
from datasets.features.features import require_storage_embed
from datasets.info import DatasetInfosDict
from datasets.table import InMemoryTable, embed_table_storage
from datasets.utils import (
    are_progress_bars_disabled,
    disable_progress_bars,
    enable_progress_bars,
)
from datasets.utils.py_utils import convert_file_size_to_int

__all__ = [
    "DatasetGenerationError",
    "DatasetInfosDict",
    "InMemoryTable",
    "convert_file_size_to_int",
    "embed_table_storage",
    "progress_bars_off",
    "require_storage_embed",
]


@contextmanager
def progress_bars_off() -> Iterator[None]:
    """``datasets``' own progress bars off within the block (its Arrow steps: "Creating parquet
    from Arrow format", "Generating test split", "Map"), where BindSplit shows the progress of
    the step they belong to itself; their previous state comes back after."""
    if are_progress_bars_disabled():
        yield
        return
    disable_progress_bars()
    try:
        yield
    finally:
        enable_progress_bars()
