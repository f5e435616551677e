"""Caption corpora a reference index is counted from, read as streams of raw caption values.

A :class:`Corpus` gives an engine two things: its raw caption values in order, in chunks
(:meth:`Corpus.chunks`, read once, never held whole), and its :attr:`Corpus.identity`, the
``corpus`` entry of the index fingerprint. An identity names the corpus by file names, dataset
ids or URLs plus content hashes or pinned revisions, never by a local absolute path, so two
machines that index the same files record the same fingerprint.

Readers: :class:`Captions` (any iterable), :class:`TextFile` (one caption per line),
:class:`CocoCaptions` (an official COCO caption JSON, local or by URL), :class:`HubDataset` (a
Hugging Face dataset column, streamed) and :class:`ParquetShards` (a caption column of Parquet
files: a folder, a glob, or an fsspec URL such as ``hf://datasets/...`` or ``s3://...``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
import os
import urllib.parse
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from ..downloads import IO_CHUNK, default_cache_dir, download, file_digest, is_url, url_file_name
from ..errors import BindsplitFileNotFoundError, SchemaError
from ..input_files import check_input_file
from .counting import caption_problem
from .units import Unit, parquet_units, stream_units

__all__ = [
    "Captions",
    "CocoCaptions",
    "Corpus",
    "HubDataset",
    "ParquetShards",
    "TextFile",
]

logger = logging.getLogger(__name__)

_GLOB_CHARS = frozenset("*?[")


def _slices(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


class Corpus(ABC):
    """A caption corpus: its raw caption values in order, and its identity for the fingerprint.

    Values may be anything; the engines skip (and count) those that are not usable captions.
    """

    #: How messages name the corpus (a file name, a dataset id, a URL).
    name: str = "captions"
    #: Number of raw values, where it is known without reading the corpus (progress bars).
    total: int | None = None
    #: Whether the corpus has several shards that a resumed build can skip once finished.
    resumable: bool = False
    #: Whether :attr:`identity` (the content's digest) is known before the corpus is read, so
    #: that a resumed build can check the corpus is the one it began counting.
    identity_up_front: bool = True

    @abstractmethod
    def chunks(self, size: int) -> Iterator[list[Any]]:
        """The raw caption values, in order, in lists of at most ``size`` (read once)."""

    def units(self, size: int) -> Iterator[Unit]:
        """The corpus as units of work of about ``size`` values (see
        :mod:`~bindsplit_datasets.reference.units`); by default the chunks, read here, as one
        shard."""
        return stream_units(self.chunks(size))

    @property
    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """The fingerprint's ``corpus`` entry (JSON-serialisable, no local absolute path)."""


class Captions(Corpus):
    """Any iterable of captions (streamed: read once, never held).

    Its identity is ``identity`` when given; else ``{"kind": "captions", "sha256": ...}``, a
    hash of the usable captions in order, known once :meth:`chunks` has been read to the end.
    """

    def __init__(
        self,
        captions: Iterable[Any],
        *,
        identity: Mapping[str, Any] | None = None,
        total: int | None = None,
    ) -> None:
        if isinstance(captions, (str, bytes)):
            raise TypeError("expected an iterable of captions, not a single string")
        self._captions = captions
        self._identity = dict(identity) if identity is not None else None
        self.identity_up_front = identity is not None
        self._sha256 = hashlib.sha256()
        self.name = str((identity or {}).get("file") or (identity or {}).get("id") or "captions")
        if total is None and hasattr(captions, "__len__"):
            total = len(captions)  # type: ignore[arg-type]
        self.total = total

    def _hashed(self) -> Iterator[Any]:
        for value in self._captions:
            if caption_problem(value) is None:
                encoded = value.encode("utf-8")
                self._sha256.update(len(encoded).to_bytes(8, "little"))
                self._sha256.update(encoded)
            yield value

    def chunks(self, size: int) -> Iterator[list[Any]]:
        values = self._captions if self._identity is not None else self._hashed()
        return _batched(values, size)

    @property
    def identity(self) -> dict[str, Any]:
        if self._identity is not None:
            return dict(self._identity)
        return {"kind": "captions", "sha256": self._sha256.hexdigest()}


class TextFile(Corpus):
    """A UTF-8 text file with one caption per line (blank lines are skipped captions)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = check_input_file(path, "caption file")
        if not self.path.is_file():
            raise BindsplitFileNotFoundError(f"caption file {self.path} not found")
        n_lines, last = 0, b"\n"
        with open(self.path, "rb") as handle:
            while chunk := handle.read(IO_CHUNK):
                n_lines += chunk.count(b"\n")
                last = chunk[-1:]
        self.total = n_lines + (last != b"\n")  # a last line without a newline
        self.name = self.path.name
        sha256 = file_digest(self.path)
        self._identity = {"kind": "text", "file": self.path.name, "sha256": sha256}

    def _lines(self) -> Iterator[str]:
        try:
            with open(self.path, encoding="utf-8", newline=None) as handle:
                for line in handle:
                    yield line.rstrip("\n")
        except UnicodeDecodeError as error:
            raise SchemaError(
                f"{self.path} is not UTF-8 text ({error}); save the captions as UTF-8, one per line"
            ) from None

    def chunks(self, size: int) -> Iterator[list[Any]]:
        return _batched(self._lines(), size)

    @property
    def identity(self) -> dict[str, Any]:
        return dict(self._identity)


class CocoCaptions(Corpus):
    """The ``caption`` of every annotation of an official COCO caption file (JSON).

    A URL is downloaded once into ``cache_dir/downloads``. The file is parsed whole when read
    (JSON cannot be streamed; COCO train2017's is 90 MB). A file that is not JSON or has no
    ``annotations`` list raises :class:`~bindsplit_datasets.errors.SchemaError`; an annotation
    without a ``caption`` is a skipped caption. ``identity`` replaces the default one
    (``{"kind": "coco", "file": ..., "sha256": ...}``, plus ``url`` for a remote file).
    """

    def __init__(
        self,
        path_or_url: str | os.PathLike[str],
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        identity: Mapping[str, Any] | None = None,
        progress: bool = True,
    ) -> None:
        spec = os.fspath(path_or_url)
        default: dict[str, Any] = {"kind": "coco"}
        if is_url(spec):
            name = url_file_name(spec, "captions.json")
            url_key = hashlib.sha256(spec.encode("utf-8")).hexdigest()[:12]
            folder = Path(cache_dir or default_cache_dir()) / "downloads"
            self.path = download(spec, folder / f"{url_key}-{name}", progress=progress)
            if urllib.parse.urlparse(spec).scheme != "file":  # a file URL is a local path
                default["url"] = spec
        else:
            self.path = check_input_file(spec, "COCO caption file")
            if not self.path.is_file():
                raise BindsplitFileNotFoundError(f"COCO caption file {self.path} not found")
        self.name = self.path.name
        if identity is None:
            default.update(file=self.path.name, sha256=file_digest(self.path))
        self._identity = dict(identity) if identity is not None else default

    def captions(self) -> list[Any]:
        """Every annotation's ``caption`` (``None`` where missing)."""
        try:
            with open(self.path, "rb") as handle:
                data = json.load(handle)
        except (UnicodeDecodeError, ValueError) as error:
            raise SchemaError(
                f"{self.path} is not valid JSON ({error}); expected a COCO caption file"
            ) from None
        annotations = data.get("annotations") if isinstance(data, dict) else None
        if not isinstance(annotations, list):
            found = ", ".join(map(repr, data)) if isinstance(data, dict) else type(data).__name__
            raise SchemaError(
                f"{self.path} has no 'annotations' list (found: {found or 'nothing'}); expected "
                "the official COCO caption format: {'images': [...], 'annotations': "
                "[{'image_id': ..., 'id': ..., 'caption': ...}, ...]}"
            )
        return [a.get("caption") if isinstance(a, dict) else None for a in annotations]

    def chunks(self, size: int) -> Iterator[list[Any]]:
        captions = self.captions()
        self.total = len(captions)
        return _slices(captions, size)

    @property
    def identity(self) -> dict[str, Any]:
        return dict(self._identity)


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
        sha.update(file_digest(file).encode("ascii"))
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


class HubDataset(Corpus):
    """One column of a Hugging Face dataset, streamed (nothing is downloaded in full).

    ``dataset_id`` is a Hub id (its revision is resolved to a commit sha and pinned) or a local
    dataset folder (identified by its name and a hash of its files). Rows are read with
    ``datasets.load_dataset(..., streaming=True)``.
    """

    def __init__(
        self,
        dataset_id: str,
        column: str = "caption",
        *,
        split: str = "train",
        config: str | None = None,
        revision: str | None = None,
    ) -> None:
        import datasets

        local = Path(dataset_id).is_dir()
        resolved = (
            _local_revision(Path(dataset_id)) if local else _hub_revision(dataset_id, revision)
        )
        self._dataset = datasets.load_dataset(
            dataset_id,
            config,
            split=split,
            revision=None if local else resolved,
            streaming=True,
        )
        self.column = column
        self.name = dataset_id if not local else Path(dataset_id).name
        features = getattr(self._dataset, "features", None)
        if features is not None and column not in features:
            raise SchemaError(
                f"dataset {dataset_id!r} (split {split!r}) has no column {column!r}; "
                f"its columns are: {', '.join(features)}"
            )
        splits = getattr(self._dataset.info, "splits", None) or {}
        if split in splits and splits[split].num_examples:
            self.total = splits[split].num_examples
        self._identity = {
            "kind": "hf_dataset",
            "id": self.name,
            "config": config,
            "split": split,
            "column": column,
            "revision": resolved,
        }

    def _values(self, size: int) -> Iterator[list[Any]]:
        for batch in self._dataset.iter(batch_size=size):
            if self.column not in batch:
                raise SchemaError(
                    f"dataset {self.name!r} has no column {self.column!r}; "
                    f"its columns are: {', '.join(batch)}"
                )
            yield list(batch[self.column])

    def chunks(self, size: int) -> Iterator[list[Any]]:
        return self._values(size)

    @property
    def identity(self) -> dict[str, Any]:
        return dict(self._identity)


def _strip_credentials(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit(parts._replace(netloc=host))


def _remote_file_key(filesystem: Any, path: str) -> str:
    """A content key of a remote file from its listing: the Hub's LFS SHA-256, an ETag or
    checksum where the file system gives one, else fsspec's ``ukey`` (size, modification)."""
    info = filesystem.info(path)
    lfs = info.get("lfs") or {}
    if isinstance(lfs, Mapping) and lfs.get("sha256"):
        return f"sha256:{lfs['sha256']}"
    for key in ("sha256", "ETag", "etag", "md5", "checksum", "blob_id"):
        if info.get(key):
            return f"{key.lower()}:{str(info[key]).strip(chr(34))}"
    return f"ukey:{filesystem.ukey(path)}"


class ParquetShards(Corpus):
    """A caption column of Parquet files: a folder (every ``*.parquet`` below it, hidden ones
    excepted), a glob (``shards/part-*.parquet``), a single file, or the same as an fsspec URL
    (``hf://datasets/org/name/data/*.parquet``, ``s3://bucket/captions/``).

    Files are read in sorted order, one record batch at a time. The identity names the corpus
    (the folder name or the glob below it, or the URL without credentials), the column, the
    number of files and one SHA-256 over every file's path below that folder and its content
    hash (local files) or the content key the file system lists (remote files).
    """

    resumable = True

    def __init__(
        self,
        spec: str | os.PathLike[str],
        column: str = "caption",
        *,
        storage_options: Mapping[str, Any] | None = None,
    ) -> None:
        import fsspec
        from fsspec.implementations.local import LocalFileSystem

        text = os.fspath(spec)
        self.url = "://" in text
        if not self.url:
            text = str(Path(text).expanduser().absolute())
        self.filesystem, path = fsspec.core.url_to_fs(text, **dict(storage_options or {}))
        self.local = isinstance(self.filesystem, LocalFileSystem)
        self.column = column
        self.files, self._base = self._discover(path)
        if not self.files:
            raise BindsplitFileNotFoundError(
                f"no Parquet files found at {text}; give a folder holding *.parquet files, a glob "
                "such as 'shards/*.parquet', or an fsspec URL of either"
            )
        if self.url:
            self.name = _strip_credentials(os.fspath(spec))
        else:
            pattern = path[len(self._base) :].strip("/")
            base_name = self._base.rstrip("/").rsplit("/", 1)[-1]
            globbed = any(char in _GLOB_CHARS for char in path)
            self.name = f"{base_name}/{pattern}" if globbed else Path(path).name
        self._check_column(self.files[0])
        if self.local:
            self.total = 0
            for file in self.files:
                with self.filesystem.open(file, "rb") as handle:
                    self.total += self._parquet(file, handle).metadata.num_rows
        self._identity: dict[str, Any] | None = None

    def _discover(self, path: str) -> tuple[list[str], str]:
        """(the Parquet files, sorted; the folder their relative names start from)."""
        fs = self.filesystem
        if any(char in _GLOB_CHARS for char in path):
            cut = min(path.find(char) for char in _GLOB_CHARS if char in path)
            base = path[:cut].rsplit("/", 1)[0]
            files = [p for p in fs.glob(path) if fs.isfile(p)]
        elif fs.isdir(path):
            base = path
            files = [p for p in fs.find(path) if p.endswith(".parquet")]
        elif fs.exists(path):
            base, files = path.rsplit("/", 1)[0], [path]
        else:
            raise BindsplitFileNotFoundError(f"reference corpus {path} not found")
        visible = [
            p
            for p in files
            if not any(part.startswith(".") for part in self._relative(p, base).split("/"))
        ]
        return sorted(visible), base

    @staticmethod
    def _relative(path: str, base: str) -> str:
        return path[len(base) :].lstrip("/") if path.startswith(base) else path

    def _columns(self, file: str, parquet: Any) -> None:
        names = parquet.schema_arrow.names
        if self.column not in names:
            raise SchemaError(
                f"{self.name}: {self._relative(file, self._base)} has no column {self.column!r}; "
                f"its columns are: {', '.join(names)}; name the caption column "
                "(--caption-column / caption_column=)"
            )

    def _parquet(self, file: str, handle: Any) -> Any:
        """``pq.ParquetFile`` of ``handle`` (the open ``file``); a file that is not Parquet, or
        is truncated, raises :class:`SchemaError` naming it."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            return pq.ParquetFile(handle)
        except (pa.ArrowException, OSError) as error:
            reason = " ".join(str(error).split()) or type(error).__name__
            raise SchemaError(
                f"{self.name}: {self._relative(file, self._base)} is not a readable Parquet file "
                f"({reason}); remove or replace it"
            ) from None

    def _check_column(self, file: str) -> None:
        with self.filesystem.open(file, "rb") as handle:
            self._columns(file, self._parquet(file, handle))

    @property
    def relative_files(self) -> list[str]:
        """The files' paths below the corpus folder (what the identity hashes)."""
        return [self._relative(file, self._base) for file in self.files]

    def chunks(self, size: int) -> Iterator[list[Any]]:
        for file in self.files:
            with self.filesystem.open(file, "rb") as handle:
                parquet = self._parquet(file, handle)
                self._columns(file, parquet)
                for batch in parquet.iter_batches(batch_size=size, columns=[self.column]):
                    yield batch.column(0).to_pylist()

    def units(self, size: int) -> Iterator[Unit]:
        """Each file a shard, cut into runs of row groups that the workers read themselves."""

        def files() -> Iterator[tuple[str, list[int]]]:
            for file in self.files:
                with self.filesystem.open(file, "rb") as handle:
                    parquet = self._parquet(file, handle)
                    self._columns(file, parquet)
                    metadata = parquet.metadata
                    rows = [metadata.row_group(g).num_rows for g in range(metadata.num_row_groups)]
                yield file, rows

        return parquet_units(files(), self.column, None if self.local else self.filesystem, size)

    @property
    def identity(self) -> dict[str, Any]:
        if self._identity is None:
            sha = hashlib.sha256()
            for file, relative in zip(self.files, self.relative_files, strict=True):
                key = (
                    f"sha256:{file_digest(file)}"
                    if self.local
                    else _remote_file_key(self.filesystem, file)
                )
                sha.update(relative.encode("utf-8") + b"\0" + key.encode("utf-8") + b"\n")
            self._identity = {
                "kind": "parquet",
                "name": self.name,
                "column": self.column,
                "n_files": len(self.files),
                "sha256": sha.hexdigest(),
            }
        return dict(self._identity)
