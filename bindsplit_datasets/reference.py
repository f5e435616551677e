"""The reference index (docs/protocol.md, section 2): how often each binding occurs in a caption
corpus.

A :class:`ReferenceIndex` stands for "what the model has seen". It counts every normalised
(attribute, object) binding of a caption corpus (COCO train2017 by default, or any corpus the user
names: a Hugging Face dataset column, a COCO-format caption JSON, a text file with one caption per
line), and calls a binding *seen* when its count reaches ``min_count``.

Every index carries a :attr:`~ReferenceIndex.fingerprint` recording the corpus identity (file
hashes, or dataset id + resolved revision), the parser version and normalisation options,
``min_count`` and the caption counts, plus a short ``digest`` of all of these, so a split built
against it can say exactly what "seen" meant.

Building streams the corpus once: captions are checked (``None``, non-string and empty ones are
skipped and counted, or rejected with ``strict=True``), digested, and sent in chunks to
``num_proc`` worker processes that parse and count them and send back only the counts. Memory is
therefore bounded by the distinct bindings and the caption digests, not by the corpus.

Leakage guard: the index also keeps a 64-bit digest of every normalised caption (lower case,
whitespace collapsed, trailing periods stripped; see :func:`normalise_caption`) as a sorted,
unique ``numpy.uint64`` array (8 bytes a caption: under 5 MB for COCO train2017), so a build can
check whether a benchmark's own captions occur verbatim in the reference
(:meth:`~ReferenceIndex.caption_overlap`).

File format (:meth:`~ReferenceIndex.save` / :meth:`~ReferenceIndex.load`): one Parquet file with
the columns ``attribute`` (string), ``object`` (string), ``count`` (int64), one row per distinct
binding, sorted by attribute then object. Its key-value metadata holds ``bindsplit.format``
(``bindsplit-reference/1``), ``bindsplit.fingerprint`` (the fingerprint as JSON) and
``bindsplit.caption_digests`` (the caption digests as raw little-endian uint64 bytes), so an index
is a single self-describing file.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import json
import logging
import os
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from .atomic import atomic_file, write_text
from .bindings import (
    NORMALISATION,
    PARSER_VERSION,
    Binding,
    map_caption_chunks,
    parse_bindings,
)
from .errors import BindsplitError, SchemaError

__all__ = [
    "COCO2017_ANNOTATIONS_URL",
    "COCO2017_CAPTIONS_MEMBER",
    "FORMAT",
    "EmptyCorpusError",
    "ParserMismatchError",
    "ReferenceIndex",
    "caption_digest",
    "default_cache_dir",
    "normalise_caption",
    "resolve_reference",
]

logger = logging.getLogger(__name__)

#: Format tag written into every saved index (file metadata and fingerprint).
FORMAT = "bindsplit-reference/1"
#: The official COCO 2017 annotation archive; the default reference is its train2017 captions.
COCO2017_ANNOTATIONS_URL = "http://images.cocodataset.org/annotations/annotations_trainval2017.zip"
#: The archive member holding the train2017 captions.
COCO2017_CAPTIONS_MEMBER = "annotations/captions_train2017.json"

_META_FORMAT = b"bindsplit.format"
_META_FINGERPRINT = b"bindsplit.fingerprint"
_META_DIGESTS = b"bindsplit.caption_digests"
_COLUMNS = ("attribute", "object", "count")
# captions per task sent to a worker: big enough to amortise the messages, small enough to
# balance the workers at the end and to update the progress bar often
_PARSE_CHUNKSIZE = 256
_IO_CHUNK = 1 << 20
# the digest array lives in the Parquet footer; lift pyarrow's default 100 MB guard for big corpora
_THRIFT_LIMIT = 2**31 - 1


class EmptyCorpusError(BindsplitError, ValueError):
    """A corpus without a single usable caption."""


class ParserMismatchError(BindsplitError):
    """A saved index was built by another parser version or normalisation than the running one."""


def default_cache_dir() -> Path:
    """Folder for downloads and built indexes: ``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``."""
    env = os.environ.get("BINDSPLIT_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "bindsplit"


def normalise_caption(text: str) -> str:
    """The caption form compared by the leakage guard.

    >>> normalise_caption("  A red  Apple.\\n")
    'a red apple'
    """
    return " ".join(text.lower().split()).rstrip(" .")


def caption_digest(text: str) -> int:
    """64-bit digest (BLAKE2b) of :func:`normalise_caption` of ``text``, as an unsigned int."""
    digest = hashlib.blake2b(normalise_caption(text).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _json_digest(payload: Mapping[str, Any], length: int = 16) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()[:length]


def _file_sha256(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_IO_CHUNK):
            sha.update(chunk)
    return sha.hexdigest()


def _replace_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Run ``write(tmp)`` on a temporary sibling of ``path`` and rename it into place."""
    with atomic_file(path) as tmp:
        write(tmp)


def _is_url(spec: str) -> bool:
    return urllib.parse.urlparse(spec).scheme in {"http", "https", "file", "ftp"}


def _download(url: str, dest: Path, *, progress: bool = True) -> None:
    """Download ``url`` to ``dest`` (written to a temporary sibling, renamed when complete)."""
    logger.info("downloading %s to %s", url, dest)

    def write(tmp: Path) -> None:
        with urllib.request.urlopen(url) as response, open(tmp, "wb") as out:  # noqa: S310
            total = response.headers.get("Content-Length")
            with tqdm(
                total=int(total) if total else None,
                unit="B",
                unit_scale=True,
                desc=f"downloading {Path(urllib.parse.urlparse(url).path).name}",
                disable=not progress,
            ) as bar:
                while chunk := response.read(_IO_CHUNK):
                    out.write(chunk)
                    bar.update(len(chunk))

    try:
        _replace_atomically(dest, write)
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        raise BindsplitError(
            f"could not download {url} ({error}); check the network connection, or download it "
            f"yourself and place it at {dest}"
        ) from None


class _CaptionStream:
    """Validates a raw caption iterable on the fly.

    Yields the usable captions; counts the skipped ones (``None``, non-strings, empty or blank
    strings) or, in strict mode, raises on the first; collects each usable caption's digest and a
    running hash of the usable captions (the corpus identity when the caller gives none).
    """

    def __init__(self, items: Iterable[Any], *, source: str, strict: bool) -> None:
        self._items = items
        self.source = source
        self.strict = strict
        self.consumed = 0
        self.n_captions = 0
        self.n_skipped = 0
        self.digests = array("Q")
        self.sha256 = hashlib.sha256()

    def _problem(self, item: Any) -> str | None:
        if item is None:
            return "None"
        if not isinstance(item, str):
            return f"not a string ({type(item).__name__})"
        if not item.strip():
            return "empty"
        return None

    def __iter__(self) -> Iterator[str]:
        for position, item in enumerate(self._items):
            self.consumed += 1
            problem = self._problem(item)
            if problem is not None:
                if self.strict:
                    raise ValueError(
                        f"{self.source}: caption #{position} is {problem}; fix the corpus or "
                        "build without strict=True to skip (and count) such captions"
                    )
                self.n_skipped += 1
                continue
            self.n_captions += 1
            encoded = item.encode("utf-8")
            self.sha256.update(len(encoded).to_bytes(8, "little"))
            self.sha256.update(encoded)
            self.digests.append(caption_digest(item))
            yield item


def _count_chunk(texts: list[str]) -> Counter[tuple[str, str]]:
    """Bindings of a chunk of captions, counted where they are parsed (a worker process); each
    distinct caption is parsed once and counted as often as it occurs."""
    counts: Counter[tuple[str, str]] = Counter()
    for text, times in Counter(texts).items():
        for b in parse_bindings(text):
            counts[(b.attribute, b.object)] += times
    return counts


def _chunked(items: Iterable[str], size: int) -> Iterator[list[str]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def _count_bindings(
    stream: _CaptionStream, *, total: int | None, num_proc: int | None, progress: bool
) -> dict[Binding, int]:
    """Parse and count the stream's captions with ``num_proc`` processes (``None``: every CPU).

    Workers count the bindings of each chunk themselves and send back only the chunk's counts,
    so the main process does little more than add them up, and nothing but a few chunks of
    captions is ever held in flight.
    """
    counts: Counter[tuple[str, str]] = Counter()
    with tqdm(total=total, unit=" captions", desc="indexing bindings", disable=not progress) as bar:
        done = 0
        chunks = _chunked(stream, _PARSE_CHUNKSIZE)
        for partial in map_caption_chunks(_count_chunk, chunks, num_proc=num_proc):
            counts.update(partial)
            bar.update(stream.consumed - done)
            done = stream.consumed
        bar.update(stream.consumed - done)
    return {Binding(attribute, obj): n for (attribute, obj), n in counts.items()}


def _check_num_proc(num_proc: int | None) -> None:
    if num_proc is not None and (
        isinstance(num_proc, bool) or not isinstance(num_proc, int) or num_proc < 1
    ):
        raise ValueError(f"num_proc must be an integer >= 1 or None (every CPU), got {num_proc!r}")


def _check_min_count(min_count: int) -> int:
    if isinstance(min_count, bool) or not isinstance(min_count, int) or min_count < 1:
        raise ValueError(f"min_count must be an integer >= 1, got {min_count!r}")
    return min_count


class ReferenceIndex:
    """Counts of the normalised bindings of a caption corpus, with ``seen := count >= min_count``.

    Build one with a ``from_*`` constructor or :meth:`coco2017`; persist it with :meth:`save`
    and :meth:`load`. An index is immutable; :meth:`with_min_count` returns a re-thresholded copy
    that shares the counts.
    """

    def __init__(
        self,
        counts: Mapping[Binding, int],
        *,
        caption_digests: np.ndarray,
        min_count: int,
        n_captions: int,
        n_skipped: int,
        corpus: Mapping[str, Any],
        parser_version: str = PARSER_VERSION,
        normalisation: Mapping[str, Any] | None = None,
    ) -> None:
        self._counts: dict[Binding, int] = dict(counts)
        self._digests = caption_digests
        self.min_count = _check_min_count(min_count)
        self.n_captions = int(n_captions)
        self.n_skipped = int(n_skipped)
        core = {
            "format": FORMAT,
            "corpus": dict(corpus),
            "parser_version": parser_version,
            "normalisation": dict(NORMALISATION if normalisation is None else normalisation),
            "min_count": self.min_count,
            "n_captions": self.n_captions,
            "n_skipped": self.n_skipped,
        }
        try:
            core = json.loads(json.dumps(core))
        except (TypeError, ValueError) as error:
            raise ValueError(f"the corpus description must be JSON-serialisable: {error}") from None
        self.fingerprint: dict[str, Any] = {**core, "digest": _json_digest(core)}

    # ------------------------------------------------------------------ queries
    def count(self, binding: Binding) -> int:
        """How many captions of the corpus state ``binding`` (0 if none)."""
        return self._counts.get(binding, 0)

    def seen(self, binding: Binding) -> bool:
        """Whether ``binding`` occurs in at least ``min_count`` captions."""
        return self._counts.get(binding, 0) >= self.min_count

    def __len__(self) -> int:
        """Number of distinct bindings in the corpus."""
        return len(self._counts)

    def __contains__(self, binding: object) -> bool:
        """Whether ``binding`` occurs in the corpus at all (``count >= 1``, below min_count too)."""
        return binding in self._counts

    def items(self) -> Iterator[tuple[Binding, int]]:
        """Every (binding, count) pair, in no particular order."""
        return iter(self._counts.items())

    def most_common(self, n: int | None = None) -> list[tuple[Binding, int]]:
        """The ``n`` most frequent bindings (all if ``None``); ties broken by binding order."""
        key = lambda item: (-item[1], item[0])  # noqa: E731
        if n is None:
            return sorted(self._counts.items(), key=key)
        return heapq.nsmallest(n, self._counts.items(), key=key)

    @property
    def n_caption_digests(self) -> int:
        """Number of distinct normalised captions in the corpus."""
        return int(self._digests.size)

    def contains_caption(self, text: str) -> bool:
        """Whether ``text`` (normalised) is one of the corpus captions."""
        return self.caption_overlap([text]) == 1

    def caption_overlap(self, texts: Iterable[str]) -> int:
        """How many of ``texts`` occur (normalised) among the corpus captions.

        Each text is counted, duplicates included; non-strings are ignored.
        """
        query = np.fromiter(
            (caption_digest(t) for t in texts if isinstance(t, str)), dtype=np.uint64
        )
        if query.size == 0 or self._digests.size == 0:
            return 0
        positions = np.searchsorted(self._digests, query)
        positions[positions == self._digests.size] = 0
        return int(np.count_nonzero(self._digests[positions] == query))

    def with_min_count(self, min_count: int) -> ReferenceIndex:
        """The same counts with another ``seen`` threshold (and the matching fingerprint)."""
        if min_count == self.min_count:
            return self
        clone = object.__new__(ReferenceIndex)
        clone.__dict__.update(self.__dict__)
        clone.min_count = _check_min_count(min_count)
        core = {k: v for k, v in self.fingerprint.items() if k != "digest"}
        core["min_count"] = clone.min_count
        clone.fingerprint = {**core, "digest": _json_digest(core)}
        return clone

    def __repr__(self) -> str:
        return (
            f"ReferenceIndex({len(self)} bindings from {self.n_captions} captions, "
            f"min_count={self.min_count}, digest={self.fingerprint['digest']})"
        )

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_captions(
        cls,
        captions: Iterable[Any],
        *,
        min_count: int = 1,
        corpus: Mapping[str, Any] | None = None,
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
        total: int | None = None,
    ) -> ReferenceIndex:
        """Index any iterable of captions (streamed: it is read once, never held).

        ``corpus`` describes where the captions come from, for the fingerprint; by default it is
        ``{"kind": "captions", "sha256": ...}``, a hash of the usable captions in order.
        ``None``, non-string and empty captions are skipped and counted in :attr:`n_skipped`, or
        raise ``ValueError`` with ``strict=True``. An empty corpus raises
        :class:`EmptyCorpusError`.
        """
        _check_min_count(min_count)
        _check_num_proc(num_proc)
        if isinstance(captions, (str, bytes)):
            raise TypeError("from_captions expects an iterable of captions, not a single string")
        source = str((corpus or {}).get("file") or (corpus or {}).get("id") or "captions")
        if total is None and hasattr(captions, "__len__"):
            total = len(captions)  # type: ignore[arg-type]
        stream = _CaptionStream(captions, source=source, strict=strict)
        counts = _count_bindings(stream, total=total, num_proc=num_proc, progress=progress)
        if stream.n_captions == 0:
            raise EmptyCorpusError(
                f"{source}: the corpus has no usable captions ({stream.n_skipped} skipped as "
                "None, non-string or empty); point the reference at a non-empty caption corpus"
            )
        digests = np.unique(np.frombuffer(stream.digests, dtype=np.uint64))
        identity = dict(corpus) if corpus is not None else {"kind": "captions"}
        if corpus is None:
            identity["sha256"] = stream.sha256.hexdigest()
        logger.info(
            "indexed %d captions (%d skipped): %d distinct bindings",
            stream.n_captions,
            stream.n_skipped,
            len(counts),
        )
        return cls(
            counts,
            caption_digests=digests,
            min_count=min_count,
            n_captions=stream.n_captions,
            n_skipped=stream.n_skipped,
            corpus=identity,
        )

    @classmethod
    def from_text_file(
        cls,
        path: str | os.PathLike[str],
        *,
        min_count: int = 1,
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
    ) -> ReferenceIndex:
        """Index a UTF-8 text file with one caption per line (blank lines are skipped captions)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"caption file {path} not found")
        sha = hashlib.sha256()
        n_lines, last = 0, b"\n"
        with open(path, "rb") as handle:
            while chunk := handle.read(_IO_CHUNK):
                sha.update(chunk)
                n_lines += chunk.count(b"\n")
                last = chunk[-1:]
        n_lines += last != b"\n"  # a last line without a newline
        corpus = {"kind": "text", "file": path.name, "sha256": sha.hexdigest()}

        def lines() -> Iterator[str]:
            try:
                with open(path, encoding="utf-8", newline=None) as handle:
                    for line in handle:
                        yield line.rstrip("\n")
            except UnicodeDecodeError as error:
                raise SchemaError(
                    f"{path} is not UTF-8 text ({error}); save the captions as UTF-8, one per line"
                ) from None

        return cls.from_captions(
            lines(),
            corpus=corpus,
            total=n_lines,
            min_count=min_count,
            num_proc=num_proc,
            strict=strict,
            progress=progress,
        )

    @classmethod
    def from_coco(
        cls,
        path_or_url: str | os.PathLike[str],
        *,
        min_count: int = 1,
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        corpus: Mapping[str, Any] | None = None,
    ) -> ReferenceIndex:
        """Index the captions of an official COCO caption file (``annotations[*].caption``).

        A URL is downloaded once into ``cache_dir/downloads``. A file that is not JSON, or has no
        ``annotations`` list, raises :class:`~bindsplit_datasets.errors.SchemaError`; an
        annotation without a ``caption`` counts as a skipped caption.
        """
        spec = os.fspath(path_or_url)
        identity: dict[str, Any] = {"kind": "coco"}
        if _is_url(spec):
            name = Path(urllib.parse.urlparse(spec).path).name or "captions.json"
            url_key = hashlib.sha256(spec.encode("utf-8")).hexdigest()[:12]
            path = Path(cache_dir or default_cache_dir()) / "downloads" / f"{url_key}-{name}"
            if not path.is_file():
                _download(spec, path, progress=progress)
            identity["url"] = spec
        else:
            path = Path(spec)
            if not path.is_file():
                raise FileNotFoundError(f"COCO caption file {path} not found")
        identity.update(file=path.name, sha256=_file_sha256(path))
        captions = _read_coco_captions(path)
        return cls.from_captions(
            captions,
            corpus=corpus or identity,
            min_count=min_count,
            num_proc=num_proc,
            strict=strict,
            progress=progress,
        )

    @classmethod
    def from_hf_dataset(
        cls,
        dataset_id: str,
        column: str = "caption",
        *,
        split: str = "train",
        config: str | None = None,
        revision: str | None = None,
        min_count: int = 1,
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
    ) -> ReferenceIndex:
        """Index one column of a Hugging Face dataset, streamed (nothing is downloaded in full).

        ``dataset_id`` is a Hub id (its revision is resolved to a commit sha and pinned) or a
        local dataset folder (identified by a hash of its files). Rows are read with
        ``datasets.load_dataset(..., streaming=True)``.
        """
        import datasets

        local = Path(dataset_id).is_dir()
        resolved = (
            _local_revision(Path(dataset_id)) if local else _hub_revision(dataset_id, revision)
        )
        dataset = datasets.load_dataset(
            dataset_id,
            config,
            split=split,
            revision=None if local else resolved,
            streaming=True,
        )
        features = getattr(dataset, "features", None)
        if features is not None and column not in features:
            raise SchemaError(
                f"dataset {dataset_id!r} (split {split!r}) has no column {column!r}; "
                f"its columns are: {', '.join(features)}"
            )
        total = None
        splits = getattr(dataset.info, "splits", None) or {}
        if split in splits and splits[split].num_examples:
            total = splits[split].num_examples
        corpus = {
            "kind": "hf_dataset",
            "id": dataset_id if not local else Path(dataset_id).name,
            "config": config,
            "split": split,
            "column": column,
            "revision": resolved,
        }
        return cls.from_captions(
            _column_values(dataset, column, dataset_id),
            corpus=corpus,
            total=total,
            min_count=min_count,
            num_proc=num_proc,
            strict=strict,
            progress=progress,
        )

    @classmethod
    def coco2017(
        cls,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        min_count: int = 1,
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
    ) -> ReferenceIndex:
        """The default reference: COCO train2017 captions (about 592,000).

        The official annotation archive is downloaded once into ``cache_dir/coco2017`` (only the
        train2017 caption file is kept), and the built index is cached beside it under a key of
        the corpus identity, parser version and normalisation, so later calls load it instantly.
        """
        folder = Path(cache_dir or default_cache_dir()) / "coco2017"
        json_path, sha256 = _coco2017_captions(folder, progress=progress)
        corpus = {
            "kind": "coco",
            "name": "coco2017",
            "url": COCO2017_ANNOTATIONS_URL,
            "member": COCO2017_CAPTIONS_MEMBER,
            "file": json_path.name,
            "sha256": sha256,
        }
        key = _json_digest(
            {
                "format": FORMAT,
                "corpus": corpus,
                "parser_version": PARSER_VERSION,
                "normalisation": NORMALISATION,
            }
        )
        index_path = folder / f"index-{key}.parquet"
        if index_path.is_file():
            try:
                return cls.load(index_path).with_min_count(min_count)
            except (SchemaError, ParserMismatchError) as error:
                logger.warning("cached index %s unusable (%s); rebuilding it", index_path, error)
        index = cls.from_coco(
            json_path, corpus=corpus, num_proc=num_proc, strict=strict, progress=progress
        )
        index.save(index_path)
        return index.with_min_count(min_count)

    # ------------------------------------------------------------ persistence
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the index to a Parquet file (temporary sibling, renamed when complete)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = Path(path)
        ordered = sorted(self._counts.items())
        table = pa.table(
            {
                "attribute": pa.array([b.attribute for b, _ in ordered], type=pa.string()),
                "object": pa.array([b.object for b, _ in ordered], type=pa.string()),
                "count": pa.array([c for _, c in ordered], type=pa.int64()),
            }
        )
        metadata = {
            _META_FORMAT: FORMAT.encode("ascii"),
            _META_FINGERPRINT: json.dumps(self.fingerprint, sort_keys=True).encode("utf-8"),
            _META_DIGESTS: self._digests.astype("<u8").tobytes(),
        }

        def write(tmp: Path) -> None:
            # store_schema=False: the metadata is stored once, not again inside the Arrow schema
            with pq.ParquetWriter(tmp, table.schema, store_schema=False) as writer:
                writer.write_table(table)
                writer.add_key_value_metadata(metadata)

        _replace_atomically(path, write)
        return path

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, allow_parser_mismatch: bool = False
    ) -> ReferenceIndex:
        """Read an index written by :meth:`save`.

        Raises ``FileNotFoundError`` for a missing file, :class:`SchemaError` for a file that is
        not Parquet, is corrupt or is not a BindSplit index, and :class:`ParserMismatchError` for
        an index built by another parser version or normalisation (unless
        ``allow_parser_mismatch=True``, which loads it with a warning).
        """
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"reference index {path} not found")
        try:
            parquet = pq.ParquetFile(
                path,
                thrift_string_size_limit=_THRIFT_LIMIT,
                thrift_container_size_limit=_THRIFT_LIMIT,
            )
            metadata = parquet.metadata.metadata or {}
        except (pa.ArrowException, OSError) as error:
            raise SchemaError(
                f"{path} is not a readable Parquet file ({error}); rebuild the index"
            ) from None
        if metadata.get(_META_FORMAT) != FORMAT.encode("ascii"):
            found = metadata.get(_META_FORMAT, b"").decode("utf-8", "replace")
            raise SchemaError(
                f"{path} is not a BindSplit reference index (metadata {_META_FORMAT.decode()!r} "
                f"is {found!r}, expected {FORMAT!r}); build one with ReferenceIndex.save() or "
                "`bindsplit reference`"
            )
        fingerprint = _read_fingerprint(path, metadata)
        digests = _read_digests(path, metadata)
        _check_parser(path, fingerprint, allow_parser_mismatch)
        try:
            table = parquet.read()
        except (pa.ArrowException, OSError) as error:
            raise SchemaError(f"{path} is corrupt ({error}); rebuild the index") from None
        counts = _read_counts(path, table)
        index = cls(
            counts,
            caption_digests=digests,
            min_count=fingerprint["min_count"],
            n_captions=fingerprint["n_captions"],
            n_skipped=fingerprint["n_skipped"],
            corpus=fingerprint["corpus"],
            parser_version=fingerprint["parser_version"],
            normalisation=fingerprint["normalisation"],
        )
        if index.fingerprint != fingerprint:
            raise SchemaError(
                f"{path}: stored fingerprint does not match its contents (digest "
                f"{fingerprint.get('digest')!r} vs {index.fingerprint['digest']!r}); the file was "
                "altered, rebuild the index"
            )
        return index


# --------------------------------------------------------------------- helpers: reading
def _read_fingerprint(path: Path, metadata: Mapping[bytes, bytes]) -> dict[str, Any]:
    try:
        fingerprint = json.loads(metadata[_META_FINGERPRINT])
        required = {
            "format",
            "corpus",
            "parser_version",
            "normalisation",
            "min_count",
            "n_captions",
            "n_skipped",
            "digest",
        }
        missing = required - set(fingerprint)
    except (KeyError, ValueError, TypeError) as error:
        raise SchemaError(
            f"{path}: unreadable fingerprint metadata ({error}); rebuild the index"
        ) from None
    if missing:
        raise SchemaError(f"{path}: fingerprint lacks {sorted(missing)}; rebuild the index")
    return fingerprint


def _read_digests(path: Path, metadata: Mapping[bytes, bytes]) -> np.ndarray:
    raw = metadata.get(_META_DIGESTS)
    if raw is None or len(raw) % 8:
        raise SchemaError(f"{path}: caption digests missing or truncated; rebuild the index")
    digests = np.frombuffer(raw, dtype="<u8").astype(np.uint64)
    if digests.size > 1 and not bool(np.all(digests[1:] > digests[:-1])):
        raise SchemaError(f"{path}: caption digests are not sorted and unique; rebuild the index")
    return digests


def _check_parser(path: Path, fingerprint: Mapping[str, Any], allow: bool) -> None:
    current = json.loads(json.dumps(NORMALISATION))
    differences = []
    if fingerprint["parser_version"] != PARSER_VERSION:
        differences.append(
            f"parser version {fingerprint['parser_version']!r} (running {PARSER_VERSION!r})"
        )
    if fingerprint["normalisation"] != current:
        differences.append(f"normalisation {fingerprint['normalisation']} (running {current})")
    if not differences:
        return
    message = f"{path} was built with " + " and ".join(differences)
    if allow:
        logger.warning("%s; loading it anyway (allow_parser_mismatch=True)", message)
        return
    raise ParserMismatchError(
        f"{message}; its counts may not match what the running parser extracts. Rebuild the "
        "index from its corpus, or pass allow_parser_mismatch=True to use it anyway"
    )


def _read_counts(path: Path, table: Any) -> dict[Binding, int]:
    import pyarrow as pa

    expected = {"attribute": pa.string(), "object": pa.string(), "count": pa.int64()}
    actual = {field.name: field.type for field in table.schema}
    if actual != expected:
        raise SchemaError(
            f"{path}: columns {actual} differ from the reference-index columns {expected}; "
            "rebuild the index"
        )
    if any(table.column(name).null_count for name in _COLUMNS):
        raise SchemaError(f"{path}: the index has missing values; rebuild the index")
    attributes, objects, counts = (table.column(name).to_pylist() for name in _COLUMNS)
    result = {Binding(a, o): c for a, o, c in zip(attributes, objects, counts, strict=True)}
    if len(result) != len(counts) or (counts and min(counts) < 1):
        raise SchemaError(f"{path}: duplicate bindings or non-positive counts; rebuild the index")
    return result


def _read_coco_captions(path: Path) -> list[Any]:
    """The ``caption`` of every annotation of a COCO caption file (``None`` where missing)."""
    try:
        with open(path, "rb") as handle:
            data = json.load(handle)
    except (UnicodeDecodeError, ValueError) as error:
        raise SchemaError(
            f"{path} is not valid JSON ({error}); expected a COCO caption file"
        ) from None
    annotations = data.get("annotations") if isinstance(data, dict) else None
    if not isinstance(annotations, list):
        found = ", ".join(map(repr, data)) if isinstance(data, dict) else type(data).__name__
        raise SchemaError(
            f"{path} has no 'annotations' list (found: {found or 'nothing'}); expected the "
            "official COCO caption format: {'images': [...], 'annotations': "
            "[{'image_id': ..., 'id': ..., 'caption': ...}, ...]}"
        )
    return [a.get("caption") if isinstance(a, dict) else None for a in annotations]


def _column_values(dataset: Any, column: str, dataset_id: str) -> Iterator[Any]:
    for row in dataset:
        if column not in row:
            raise SchemaError(
                f"dataset {dataset_id!r} has no column {column!r}; "
                f"its columns are: {', '.join(row)}"
            )
        yield row[column]


def _local_revision(folder: Path) -> str:
    """A content hash of a local dataset folder's files (hidden files and folders ignored)."""
    sha = hashlib.sha256()
    files = sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    )
    for file in files:
        sha.update(file.relative_to(folder).as_posix().encode("utf-8") + b"\0")
        sha.update(_file_sha256(file).encode("ascii"))
    return f"sha256:{sha.hexdigest()}"


def _hub_revision(dataset_id: str, revision: str | None) -> str | None:
    """The commit sha a Hub revision (branch, tag or ``None`` = main) points at, when reachable."""
    from huggingface_hub import HfApi

    try:
        return HfApi().dataset_info(dataset_id, revision=revision).sha
    except Exception as error:  # offline, private, unknown: the load itself will say which
        logger.warning(
            "could not resolve the revision of %s (%s); the fingerprint records %r",
            dataset_id,
            error,
            revision,
        )
        return revision


# --------------------------------------------------------------------- helpers: coco2017
def _coco2017_captions(folder: Path, *, progress: bool) -> tuple[Path, str]:
    """The cached train2017 caption file and its sha256, downloading the archive if needed."""
    json_path = folder / Path(COCO2017_CAPTIONS_MEMBER).name
    sha_path = json_path.with_name(json_path.name + ".sha256")
    if json_path.is_file() and sha_path.is_file():
        return json_path, sha_path.read_text(encoding="ascii").strip()
    archive = folder / Path(urllib.parse.urlparse(COCO2017_ANNOTATIONS_URL).path).name
    if not archive.is_file():
        _download(COCO2017_ANNOTATIONS_URL, archive, progress=progress)
    sha = hashlib.sha256()

    def extract(tmp: Path) -> None:
        try:
            with zipfile.ZipFile(archive) as zipped, zipped.open(COCO2017_CAPTIONS_MEMBER) as src:
                with open(tmp, "wb") as out:
                    while chunk := src.read(_IO_CHUNK):
                        sha.update(chunk)
                        out.write(chunk)
        except (zipfile.BadZipFile, KeyError) as error:
            archive.unlink(missing_ok=True)
            raise SchemaError(
                f"{archive} is not the COCO annotation archive ({error}); it was deleted, call "
                f"again to download {COCO2017_ANNOTATIONS_URL} afresh"
            ) from None

    _replace_atomically(json_path, extract)
    write_text(sha_path, sha.hexdigest() + "\n")
    archive.unlink()  # only the caption file is needed; the archive holds 240 MB of other data
    return json_path, sha.hexdigest()


# --------------------------------------------------------------------- resolve_reference
#: Named references: name -> builder given the cache folder.
NAMED_REFERENCES: dict[str, Callable[[Path | None], ReferenceIndex]] = {
    "coco2017": lambda cache_dir: ReferenceIndex.coco2017(cache_dir=cache_dir),
}
#: File suffix -> how a reference file becomes an index.
REFERENCE_FILES: dict[str, Callable[[Path], ReferenceIndex]] = {
    ".parquet": ReferenceIndex.load,
    ".json": ReferenceIndex.from_coco,
    ".txt": ReferenceIndex.from_text_file,
}


def _accepted_forms() -> str:
    names = ", ".join(repr(name) for name in NAMED_REFERENCES)
    return (
        f"a named reference ({names}), a saved index (.parquet), a COCO-format caption file "
        "(.json), a text file with one caption per line (.txt), or a ReferenceIndex"
    )


def resolve_reference(
    spec: str | os.PathLike[str] | ReferenceIndex,
    *,
    min_count: int = 1,
    cache_dir: str | os.PathLike[str] | None = None,
) -> ReferenceIndex:
    """Turn a reference specification into an index with the given ``min_count``.

    ``spec`` is ``"coco2017"``, a saved ``.parquet`` index, a COCO-format ``.json`` caption file,
    a ``.txt`` file with one caption per line, or a :class:`ReferenceIndex`. ``min_count`` always
    applies, also to a saved index or an index passed in.
    """
    _check_min_count(min_count)
    cache = Path(cache_dir) if cache_dir is not None else None
    if isinstance(spec, ReferenceIndex):
        return spec.with_min_count(min_count)
    if isinstance(spec, str) and spec in NAMED_REFERENCES:
        return NAMED_REFERENCES[spec](cache).with_min_count(min_count)
    if not isinstance(spec, (str, os.PathLike)):
        raise TypeError(
            f"cannot use {type(spec).__name__} as a reference; pass {_accepted_forms()}"
        )
    path = Path(spec)
    reader = REFERENCE_FILES.get(path.suffix.lower())
    if reader is None:
        raise ValueError(f"unknown reference {os.fspath(spec)!r}; pass {_accepted_forms()}")
    if not path.is_file():
        raise FileNotFoundError(f"reference file {path} not found; pass {_accepted_forms()}")
    return reader(path).with_min_count(min_count)
