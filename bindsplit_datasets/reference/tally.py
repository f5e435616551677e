"""The driver's side of a build: unit results added up shard by shard, on disk, checkpointed.

A :class:`Tally` lives in a work folder. Its memory is the distinct bindings (of the corpus, and
of each shard in progress), never the captions or their digests:

- each unit's caption digests are appended to ``partial/SHARD.u64`` as the unit comes back;
- when a shard's last unit is in, the shard is *committed*: its digests move into the hash-prefix
  partitions (:class:`~bindsplit_datasets.reference.digests.DigestPartitions`, ``digests/``), its
  binding counts are written to ``counts/SHARD.parquet`` (its relation-triple counts, when the
  build counts them, to ``counts/SHARD.relations.parquet``), and one line is appended to
  ``journal.jsonl`` with the shard's caption counts and the partitions' lengths;
- :meth:`Tally.finish` merges the partitions into one sorted digest set.

Counts travel as Arrow tables (one row per distinct binding of a unit) and are added up with
Arrow's group-by, never binding by binding in Python: the driver's share of the work stays a small
fraction of one worker's, so it does not cap how many workers a build can use.

Resuming (:class:`Tally` with ``resume=True``) reads the journal: committed shards are added back
from their count files and skipped, the partitions are cut back to the last commit, and
uncommitted partial files are dropped. Units come back in any order and results are sums, so a
resumed build equals an uninterrupted one. The journal's first line records what is being built
(corpus identity, parser, options); a resume of anything else is refused.

A work folder belongs to one run at a time: :class:`Tally` holds an exclusive ``flock`` on its
``lock`` file until :meth:`Tally.close` (or the process ends), and a second run into the same
folder is refused at once (:class:`~bindsplit_datasets.errors.WorkFolderBusyError`), so two
builds never add their counts or digests into one folder.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import OutputExistsError, ResumeMismatchError, WorkFolderBusyError
from ..parsing import Binding, Relation
from .counting import (
    COUNT_COLUMNS,
    RELATION_COUNT_COLUMNS,
    BlockCount,
    add_counts,
    counts_table,
    relation_counts_table,
)
from .digests import DigestPartitions, SortedDigests
from .units import Unit

__all__ = ["JOURNAL", "TALLY_FORMAT", "Tally", "TallyResult"]

logger = logging.getLogger(__name__)

#: Format tag of a work folder's journal (its first line's ``format``).
TALLY_FORMAT = "bindsplit-reference-build/1"
#: The journal's file name in the work folder.
JOURNAL = "journal.jsonl"
#: The lock file that makes a work folder one run's own.
LOCK = "lock"
#: Rows of count tables a shard in progress holds before they are added up.
_COMPACT_ROWS = 1 << 20
_OWN_ENTRIES = frozenset({JOURNAL, LOCK, "counts", "digests", "partial"})


@dataclass
class _Shard:
    """A shard in progress: its units' count tables so far and which of its units are in."""

    tables: list[Any] = field(default_factory=list)
    relation_tables: list[Any] = field(default_factory=list)
    n_rows: int = 0
    n_captions: int = 0
    n_skipped: int = 0
    parts: set[int] = field(default_factory=set)
    n_parts: int | None = None


@dataclass
class TallyResult:
    """What a finished build counted."""

    counts: dict[Binding, int]
    digests: SortedDigests
    n_captions: int
    n_skipped: int
    #: Triple counts (SPEC section 1b); ``None`` when the build left triples out.
    relations: dict[Relation, int] | None = None
    #: Seconds by stage: workers' ``read``, ``parse``, ``count``; the driver's ``combine``
    #: (adding results up, committing shards) and ``merge`` (the digests, at the end).
    seconds: dict[str, float] = field(default_factory=dict)


def _lock_folder(folder: Path) -> int:
    """Hold an exclusive lock on ``folder/lock`` (created with the folder); the open descriptor.

    Refused at once when another run holds it. The lock is taken again when the file was
    replaced while this run waited for it (a finishing run removes its folder)."""
    import fcntl

    while True:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise
            raise WorkFolderBusyError(
                f"another reference build is running in {folder} (the same --out); wait for "
                "it to finish, or write to another --out"
            ) from None
        try:
            same = os.stat(folder / LOCK).st_ino == os.fstat(descriptor).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return descriptor
        os.close(descriptor)


def _check_foreign(folder: Path) -> None:
    """Refuse a folder holding anything a build did not write (before writing into it)."""
    if folder.is_dir():
        entries = {entry.name for entry in folder.iterdir()}
        if not entries <= _OWN_ENTRIES:
            raise OutputExistsError(
                f"{folder} holds files that are not a reference build's work folder; "
                "choose another work folder or move them away"
            )


def _is_tally_folder(folder: Path) -> bool:
    try:
        with open(folder / JOURNAL, encoding="utf-8") as handle:
            header = json.loads(handle.readline())
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("format") == TALLY_FORMAT


class Tally:
    """Adds up a build's unit results in the work folder ``folder``.

    ``header`` describes the build (JSON-serialisable); with ``resume``, a journal of the same
    header in ``folder`` is continued, one of another header refused
    (:class:`~bindsplit_datasets.errors.ResumeMismatchError`). Without it, a previous work folder
    of a build is cleared; a folder holding anything else is refused. ``relations``: the units
    carry relation-triple counts, added up beside the binding counts.
    """

    def __init__(
        self,
        folder: Path,
        header: Mapping[str, Any],
        *,
        resume: bool = False,
        relations: bool = False,
    ) -> None:
        self.folder = Path(folder)
        self.header = {"format": TALLY_FORMAT, **json.loads(json.dumps(dict(header)))}
        self.relations = relations
        self._counts = counts_table({})  # every committed shard's counts, added up
        self._relations = relation_counts_table({})  # the same for relation triples
        self.n_captions = self.n_skipped = 0
        #: Shards committed (by this run or, resumed, an earlier one).
        self.done: set[int] = set()
        #: Driver seconds spent adding results up and committing shards.
        self.seconds = 0.0
        self._shards: dict[int, _Shard] = {}
        _check_foreign(self.folder)
        self._lock: int | None = _lock_folder(self.folder)
        try:
            if resume and _is_tally_folder(self.folder):
                self._resume()
            else:
                self._start()
        except BaseException:
            self.close()
            raise

    # ---------------------------------------------------------------------------- set-up
    def _start(self) -> None:
        for entry in self.folder.iterdir():
            if entry.name != LOCK:
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        (self.folder / "counts").mkdir()
        (self.folder / "partial").mkdir()
        self.partitions = DigestPartitions(self.folder / "digests")
        with open(self.folder / JOURNAL, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(self.header, sort_keys=True) + "\n")

    def _resume(self) -> None:
        lines = (self.folder / JOURNAL).read_text(encoding="utf-8").split("\n")
        stored = json.loads(lines[0])
        if stored != self.header:
            keys = {*stored, *self.header}
            differs = sorted(k for k in keys if stored.get(k) != self.header.get(k))
            raise ResumeMismatchError(
                f"{self.folder} holds an interrupted build of something else (it differs in "
                f"{', '.join(differs)}); rerun without --resume to start over"
            )
        records = []
        for line in lines[1:]:
            try:
                records.append(json.loads(line))
            except ValueError:  # the line a kill cut short (always the last one)
                break
        self.partitions = DigestPartitions(self.folder / "digests")
        if records:
            self.partitions.truncate(records[-1]["lengths"])
        else:
            self.partitions.truncate([0] * len(self.partitions.lengths()))
        import pyarrow.parquet as pq

        for record in records:
            shard = pq.read_table(self._counts_file(record["shard"]))
            self._counts = add_counts([self._counts, shard])
            if self.relations:
                triples = pq.read_table(self._relations_file(record["shard"]))
                self._relations = add_counts([self._relations, triples])
            self.n_captions += record["n_captions"]
            self.n_skipped += record["n_skipped"]
            self.done.add(record["shard"])
        shutil.rmtree(self.folder / "partial", ignore_errors=True)
        (self.folder / "partial").mkdir()
        with open(self.folder / JOURNAL, "w", encoding="utf-8") as handle:  # drop a cut line
            handle.write("\n".join(json.dumps(r, sort_keys=True) for r in [stored, *records]))
            handle.write("\n")
        logger.info("resuming: %d shard(s) already counted in %s", len(self.done), self.folder)

    # ---------------------------------------------------------------------------- adding up
    def _counts_file(self, shard: int) -> Path:
        return self.folder / "counts" / f"{shard:06d}.parquet"

    def _relations_file(self, shard: int) -> Path:
        return self.folder / "counts" / f"{shard:06d}.relations.parquet"

    def _partial_file(self, shard: int) -> Path:
        return self.folder / "partial" / f"{shard:06d}.u64"

    @property
    def n_values_done(self) -> int:
        """Raw values counted so far (committed and in progress)."""
        in_progress = sum(s.n_captions + s.n_skipped for s in self._shards.values())
        return self.n_captions + self.n_skipped + in_progress

    def add(self, unit: Unit, block: BlockCount) -> None:
        """Add one unit's result (units of a shard may come in any order)."""
        clock = time.perf_counter()
        shard = self._shards.setdefault(unit.shard, _Shard())
        shard.tables.append(block.counts)
        shard.n_rows += block.counts.num_rows
        if self.relations:
            shard.relation_tables.append(block.relations)
            shard.n_rows += block.relations.num_rows
        if shard.n_rows > _COMPACT_ROWS:  # a long shard in progress: add its tables up so far
            shard.tables = [add_counts(shard.tables)]
            shard.n_rows = shard.tables[0].num_rows
            if self.relations:
                shard.relation_tables = [add_counts(shard.relation_tables)]
                shard.n_rows += shard.relation_tables[0].num_rows
        shard.n_captions += block.n_captions
        shard.n_skipped += block.n_skipped
        shard.parts.add(unit.part)
        if unit.last:
            shard.n_parts = unit.part + 1
        if block.digests.size:
            with open(self._partial_file(unit.shard), "ab") as handle:
                handle.write(block.digests.astype("<u8", copy=False).tobytes())
        if shard.n_parts is not None and len(shard.parts) == shard.n_parts:
            self._commit(unit.shard, self._shards.pop(unit.shard))
        self.seconds += time.perf_counter() - clock

    def _commit(self, number: int, shard: _Shard) -> None:
        import pyarrow.parquet as pq

        partial = self._partial_file(number)
        if partial.exists():
            self.partitions.append_file(partial)
        table = add_counts(shard.tables)
        target = self._counts_file(number)
        pq.write_table(table, target.with_suffix(".tmp"))
        os.replace(target.with_suffix(".tmp"), target)
        if self.relations:
            triples = add_counts([relation_counts_table({}), *shard.relation_tables])
            target = self._relations_file(number)
            pq.write_table(triples, target.with_suffix(".tmp"))
            os.replace(target.with_suffix(".tmp"), target)
            self._relations = add_counts([self._relations, triples])
        record = {
            "shard": number,
            "n_captions": shard.n_captions,
            "n_skipped": shard.n_skipped,
            "lengths": self.partitions.lengths(),
        }
        with open(self.folder / JOURNAL, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        partial.unlink(missing_ok=True)
        self._counts = add_counts([self._counts, table])
        self.n_captions += shard.n_captions
        self.n_skipped += shard.n_skipped
        self.done.add(number)

    def finish(self, spill_dir: Path) -> TallyResult:
        """The build's result, once every shard is committed: the counts and the merged digests
        (in memory, or in a temporary file in ``spill_dir``)."""
        if self._shards:
            raise RuntimeError(f"shards {sorted(self._shards)} were not complete")
        digests = self.partitions.merge(spill_dir)
        attributes, objects, numbers = (
            self._counts.column(name).to_pylist() for name in COUNT_COLUMNS
        )
        counts = {Binding(a, o): n for a, o, n in zip(attributes, objects, numbers, strict=True)}
        relations = None
        if self.relations:
            columns = (self._relations.column(name).to_pylist() for name in RELATION_COUNT_COLUMNS)
            relations = {Relation(s, r, o): n for s, r, o, n in zip(*columns, strict=True)}
        return TallyResult(counts, digests, self.n_captions, self.n_skipped, relations)

    def remove(self) -> None:
        """Remove the work folder (the build is finished, or cannot be resumed) and release it."""
        shutil.rmtree(self.folder, ignore_errors=True)
        self.close()

    def close(self) -> None:
        """Release the work folder's lock (the folder is kept for a resume)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
