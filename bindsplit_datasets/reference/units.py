"""Units of work of a build: what one worker counts at a time, and which shard it belongs to.

A corpus is cut into :class:`Unit`\\ s (:meth:`~bindsplit_datasets.reference.corpora.Corpus.units`).
A unit of Parquet shards is a :class:`ParquetSlice`, a few row groups of one file that the worker
reads itself, so the driver sends a file name and row-group numbers, never captions, and reading
runs in parallel like parsing. A unit of any other corpus carries its caption values, read by the
driver (a COCO JSON, a text file, a Hub stream cannot be split without reading it).

A *shard* is what a resumed build skips once it is finished: a Parquet file, or the whole corpus
for the others. Units come in shard order and the last unit of each shard says so
(:attr:`Unit.last`), so the driver knows when a shard is complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import SchemaError

__all__ = ["ParquetSlice", "Unit", "parquet_units", "stream_units"]


@dataclass(frozen=True)
class ParquetSlice:
    """Row groups ``row_groups`` of the caption ``column`` of one Parquet ``file``.

    ``filesystem`` is the fsspec file system of a remote file (``None``: a local path).
    """

    file: str
    row_groups: tuple[int, ...]
    column: str
    filesystem: Any = None

    def read(self) -> list[Any]:
        """The raw caption values of the slice, in order."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        groups = list(self.row_groups)
        try:
            if self.filesystem is None:
                table = pq.ParquetFile(self.file).read_row_groups(groups, columns=[self.column])
            else:
                with self.filesystem.open(self.file, "rb") as handle:
                    parquet = pq.ParquetFile(handle)
                    table = parquet.read_row_groups(groups, columns=[self.column])
        except (pa.ArrowException, OSError) as error:
            raise SchemaError(
                f"caption shard {self.file} is unreadable ({error}); replace the damaged file"
            ) from None
        return table.column(0).to_pylist()


@dataclass(frozen=True)
class Unit:
    """One piece of work: ``rows`` raw values starting at row ``start`` of the corpus, unit
    ``part`` of shard ``shard``; ``last`` marks the shard's last unit. The values are ``values``
    or, for Parquet shards, ``source`` (read by the worker)."""

    shard: int
    part: int
    start: int
    rows: int
    last: bool
    values: list[Any] | None = None
    source: ParquetSlice | None = None

    def read(self) -> list[Any]:
        """The unit's raw caption values."""
        if self.values is not None:
            return self.values
        assert self.source is not None
        return self.source.read()


def stream_units(chunks: Iterable[list[Any]]) -> Iterator[Unit]:
    """Units of a corpus read by the driver: each chunk a unit, the whole corpus shard 0."""
    iterator = iter(chunks)
    start = part = 0
    current = next(iterator, None)
    while current is not None:
        following = next(iterator, None)
        yield Unit(0, part, start, len(current), following is None, values=current)
        start += len(current)
        part += 1
        current = following


def parquet_units(
    files: Iterable[tuple[str, list[int]]], column: str, filesystem: Any, rows_per_unit: int
) -> Iterator[Unit]:
    """Units of Parquet shards: each ``(file, row counts of its row groups)`` a shard, cut into
    runs of consecutive row groups of about ``rows_per_unit`` rows (a bigger group is a unit of
    its own). A file without rows is a shard of one empty unit."""
    start = 0
    for shard, (file, group_rows) in enumerate(files):
        runs: list[tuple[list[int], int]] = []
        for group, rows in enumerate(group_rows):
            if runs and runs[-1][1] + rows <= rows_per_unit:
                runs[-1][0].append(group)
                runs[-1] = (runs[-1][0], runs[-1][1] + rows)
            else:
                runs.append(([group], rows))
        if not runs:
            runs = [([], 0)]
        for position, (groups, rows) in enumerate(runs):
            source = ParquetSlice(file, tuple(groups), column, filesystem)
            yield Unit(shard, position, start, rows, position == len(runs) - 1, source=source)
            start += rows
