"""The caption digests of the leakage guard: merged on disk during a build, stored sorted, looked
up by binary search.

A build never holds every digest in memory. The driver appends each finished shard's digests to
:class:`DigestPartitions`: one append-only file per value of the digest's top byte (256
partitions), so concatenating the partitions in order, each sorted and made unique on its own,
gives the whole set sorted: :meth:`DigestPartitions.merge` needs the memory of one partition
(``8 B x captions / 256``: 64 MiB at 2 billion captions), never of the whole set.

A merged set is a :class:`SortedDigests`: :class:`MemoryDigests` (a sorted ``uint64`` array, for
sets up to :data:`IN_MEMORY_DIGESTS`) or :class:`ParquetDigests` (row groups of a ``digest``
column in a Parquet file, at most :data:`ROW_GROUP_DIGESTS` each). A lookup
(:meth:`SortedDigests.overlap`) sorts the query digests, skips every row group whose min/max
statistics (kept in the file footer, 2 integers a row group) exclude them, reads the others one
at a time and binary-searches them: memory is one row group, and a single caption reads one row
group of at most 32 MiB.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import weakref
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SchemaError

__all__ = [
    "DIGEST_COLUMN",
    "IN_MEMORY_DIGESTS",
    "N_PARTITIONS",
    "ROW_GROUP_DIGESTS",
    "DigestPartitions",
    "MemoryDigests",
    "ParquetDigests",
    "SortedDigests",
    "digests_sha256",
]

#: Partitions of a build's digests, by the digest's top byte.
N_PARTITIONS = 256
_SHIFT = np.uint64(56)
#: Digests per row group of an index file (32 MiB): a lookup reads at most one such group.
ROW_GROUP_DIGESTS = 1 << 22
#: A merged set up to this size (32 MiB) stays in memory; a larger one is written to a file.
IN_MEMORY_DIGESTS = 1 << 22
#: Name of the digest column in index files and merged digest files.
DIGEST_COLUMN = "digest"
_EMPTY = np.empty(0, dtype=np.uint64)
#: Digests read from a file at a time when partitioning it.
_READ_DIGESTS = 1 << 22


class SortedDigests(ABC):
    """A sorted set of distinct 64-bit caption digests."""

    #: Number of distinct digests.
    size: int

    @abstractmethod
    def chunks(self) -> Iterator[np.ndarray]:
        """The digests as sorted arrays, in ascending order, the arrays disjoint."""

    @abstractmethod
    def overlap(self, query: np.ndarray) -> int:
        """How many entries of ``query`` (duplicates counted) are in the set."""


def _count_found(digests: np.ndarray, query: np.ndarray) -> int:
    """How many entries of ``query`` occur in the sorted array ``digests`` (binary search)."""
    if digests.size == 0 or query.size == 0:
        return 0
    positions = np.searchsorted(digests, query)
    positions[positions == digests.size] = 0
    return int(np.count_nonzero(digests[positions] == query))


def digests_sha256(digests: SortedDigests) -> str:
    """SHA-256 of the digests as little-endian ``uint64`` bytes, in order (a content key)."""
    sha = hashlib.sha256()
    for chunk in digests.chunks():
        sha.update(chunk.astype("<u8", copy=False).tobytes())
    return sha.hexdigest()


class MemoryDigests(SortedDigests):
    """Digests held as one sorted unique ``uint64`` array."""

    def __init__(self, array: np.ndarray) -> None:
        self.array = np.asarray(array, dtype=np.uint64)
        self.size = int(self.array.size)

    def chunks(self) -> Iterator[np.ndarray]:
        for start in range(0, self.size, ROW_GROUP_DIGESTS):
            yield self.array[start : start + ROW_GROUP_DIGESTS]

    def overlap(self, query: np.ndarray) -> int:
        return _count_found(self.array, query)


class ParquetDigests(SortedDigests):
    """Digests stored as row groups of the ``digest`` column of a Parquet file.

    ``row_groups`` are the row-group numbers holding digests, in order; their min/max statistics
    prune lookups. Each group read is checked (sorted, unique, within its statistics and above the
    previous group); ``rebuild`` makes the error for a file that fails a check.
    """

    def __init__(
        self,
        path: Path,
        row_groups: list[int],
        *,
        rebuild: Callable[[str], SchemaError],
        keep_alive: Any = None,
    ) -> None:
        import pyarrow.parquet as pq

        self.path = path
        self._rebuild = rebuild
        self._keep_alive = keep_alive  # a temporary folder that must outlive this object
        metadata = pq.read_metadata(path)
        column = metadata.schema.names.index(DIGEST_COLUMN)
        self._groups: list[tuple[int, int, int, int]] = []  # (row group, min, max, rows)
        previous = -1
        for group in row_groups:
            chunk = metadata.row_group(group).column(column)
            stats = chunk.statistics
            if stats is None or not stats.has_min_max:
                raise rebuild(f"digest row group {group} has no min/max statistics")
            low, high = int(stats.min), int(stats.max)
            if low <= previous or high < low:
                raise rebuild(f"digest row group {group} is out of order")
            self._groups.append((group, low, high, metadata.row_group(group).num_rows))
            previous = high
        self.size = sum(rows for *_, rows in self._groups)

    def _read(self, group: int, low: int, high: int, rows: int) -> np.ndarray:
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            parquet = pq.ParquetFile(self.path, page_checksum_verification=True)
            column = parquet.read_row_group(group, columns=[DIGEST_COLUMN]).column(0)
            array = column.to_numpy().astype(np.uint64, copy=False)
        except (pa.ArrowException, OSError) as error:
            raise self._rebuild(f"digest row group {group} is unreadable ({error})") from None
        ordered = array.size < 2 or bool(np.all(array[1:] > array[:-1]))
        if array.size != rows or not ordered or int(array[0]) != low or int(array[-1]) != high:
            raise self._rebuild(f"digest row group {group} does not match its statistics")
        return array

    def chunks(self) -> Iterator[np.ndarray]:
        for group in self._groups:
            yield self._read(*group)

    def overlap(self, query: np.ndarray) -> int:
        query = np.sort(np.asarray(query, dtype=np.uint64))
        found = 0
        for group in self._groups:
            _, low, high, _ = group
            start = int(np.searchsorted(query, np.uint64(low), side="left"))
            stop = int(np.searchsorted(query, np.uint64(high), side="right"))
            if stop > start:
                found += _count_found(self._read(*group), query[start:stop])
        return found


def write_digest_groups(writer: Any, chunks: Iterator[np.ndarray], schema: Any) -> int:
    """Write sorted ``chunks`` as row groups of at most :data:`ROW_GROUP_DIGESTS` digests
    (``schema``: the file's, every other column null); return the digests written."""
    import pyarrow as pa

    pending: list[np.ndarray] = []
    n_pending = written = 0

    def flush() -> None:
        nonlocal pending, n_pending, written
        if not n_pending:
            return
        array = np.concatenate(pending)
        columns = [
            pa.array(array, pa.uint64())
            if field.name == DIGEST_COLUMN
            else pa.nulls(array.size, field.type)
            for field in schema
        ]
        table = pa.Table.from_arrays(columns, schema=schema)
        writer.write_table(table, row_group_size=array.size)
        written += array.size
        pending, n_pending = [], 0

    for chunk in chunks:
        while chunk.size:
            take = chunk[: ROW_GROUP_DIGESTS - n_pending]
            chunk = chunk[take.size :]
            pending.append(take)
            n_pending += take.size
            if n_pending == ROW_GROUP_DIGESTS:
                flush()
    flush()
    return written


class DigestPartitions:
    """A build's digests on disk: append-only files ``NNN.u64`` in ``folder``, one for each
    value of the digest's top byte, holding raw little-endian ``uint64`` (duplicates allowed)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self._files = [os.path.join(folder, f"{p:03d}.u64") for p in range(N_PARTITIONS)]
        self._lengths = [
            os.path.getsize(file) if os.path.exists(file) else 0 for file in self._files
        ]

    def append(self, digests: np.ndarray) -> None:
        """Add ``digests`` (any order, duplicates allowed) to their partitions."""
        digests = np.sort(np.asarray(digests, dtype=np.uint64))
        tops = np.arange(N_PARTITIONS, dtype=np.uint64) << _SHIFT
        bounds = np.searchsorted(digests, tops).tolist() + [digests.size]
        for partition in range(N_PARTITIONS):
            start, stop = bounds[partition], bounds[partition + 1]
            if stop > start:
                with open(self._files[partition], "ab") as handle:
                    handle.write(digests[start:stop].astype("<u8", copy=False).tobytes())
                self._lengths[partition] += 8 * (stop - start)

    def append_file(self, path: Path) -> None:
        """Add the raw digests of file ``path``, read a few MiB at a time."""
        with open(path, "rb") as handle:
            while raw := handle.read(8 * _READ_DIGESTS):
                self.append(np.frombuffer(raw, dtype="<u8"))

    def lengths(self) -> list[int]:
        """Byte length of every partition file (0 where there is none)."""
        return list(self._lengths)

    def truncate(self, lengths: list[int]) -> None:
        """Cut every partition back to ``lengths`` (what a checkpoint recorded)."""
        for partition, length in enumerate(lengths):
            if os.path.exists(self._files[partition]):
                os.truncate(self._files[partition], length)
            self._lengths[partition] = length

    def _sorted(self) -> Iterator[np.ndarray]:
        for file, length in zip(self._files, self._lengths, strict=True):
            if length:
                yield np.unique(np.fromfile(file, dtype="<u8")).astype(np.uint64, copy=False)

    def merge(self, spill_dir: Path) -> SortedDigests:
        """The distinct digests, sorted: in memory when at most :data:`IN_MEMORY_DIGESTS` were
        appended, else in a Parquet file in a new temporary folder of ``spill_dir`` (removed
        when the returned object is)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if sum(self.lengths()) // 8 <= IN_MEMORY_DIGESTS:
            arrays = list(self._sorted())
            return MemoryDigests(np.concatenate(arrays) if arrays else _EMPTY)
        folder = Path(tempfile.mkdtemp(prefix=".bindsplit-digests-", dir=spill_dir))
        keeper = _Folder(folder)
        path = folder / "digests.parquet"
        schema = pa.schema([pa.field(DIGEST_COLUMN, pa.uint64())])
        with pq.ParquetWriter(
            path, schema, compression="none", use_dictionary=False, write_page_checksum=True
        ) as writer:
            write_digest_groups(writer, self._sorted(), schema)
        groups = list(range(pq.read_metadata(path).num_row_groups))
        return ParquetDigests(path, groups, rebuild=_internal_error, keep_alive=keeper)


class _Folder:
    """Owns a temporary folder: removed when this object is garbage-collected or at exit."""

    def __init__(self, path: Path) -> None:
        self.path = path
        weakref.finalize(self, shutil.rmtree, str(path), True)


def _internal_error(problem: str) -> SchemaError:
    return SchemaError(f"a build's merged caption digests are damaged: {problem}")
