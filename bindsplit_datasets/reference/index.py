"""The reference index (docs/protocol.md, section 2): how often each binding occurs in a caption
corpus.

A :class:`ReferenceIndex` stands for "what the model has seen". It counts every normalised
(attribute, object) binding of a caption corpus (:mod:`~bindsplit_datasets.reference.corpora`:
COCO train2017 by default, a COCO-format caption JSON, a text file, a Hugging Face dataset column,
Parquet shards) and calls a binding *seen* when its count reaches ``min_count``.

It also counts every (subject, relation, object) triple (SPEC section 1b), in the same pass
and the same file (:meth:`~ReferenceIndex.relation_count`, :meth:`~ReferenceIndex.seen_relation`);
an index without triples (the older file format, or built with ``relations=False``) serves
attribute builds only (:meth:`~ReferenceIndex.require_relations`).

Every index carries a :attr:`~ReferenceIndex.fingerprint` recording the corpus identity (file
names with content hashes, or dataset id + resolved revision), the parser version and
normalisation options, ``min_count`` and the caption counts, plus a short ``digest`` of all of
these, so a split built against it can say exactly what "seen" meant. Which engine built the
index, and with how many workers, is recorded apart (:attr:`~ReferenceIndex.build`): both engines
give the same counts, so the same corpus has one fingerprint.

Leakage guard: the index also keeps a 64-bit digest of every distinct normalised caption
(:func:`~bindsplit_datasets.reference.counting.normalise_caption`), sorted
(:mod:`~bindsplit_datasets.reference.digests`): in memory for small corpora, on disk otherwise, so
a build can check whether a benchmark's own captions occur verbatim in the reference
(:meth:`~ReferenceIndex.caption_overlap`) without holding billions of digests.

File format: :mod:`~bindsplit_datasets.reference.index_file` (``bindsplit-reference/3``: one
Parquet file, bindings, triples and digests in row groups, no size ceiling).
"""

from __future__ import annotations

import hashlib
import heapq
import json
import logging
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import (
    BindsplitValueError,
    EmptyCorpusError,
    ParserMismatchError,
    RelationsMissingError,
    SchemaError,
)
from ..names import REFERENCE_FORMAT
from ..parsing import NORMALISATION, PARSER_VERSION, Binding, Relation
from .coco import cached_index_path, coco2017_corpus
from .corpora import Captions, CocoCaptions, Corpus, HubDataset, ParquetShards, TextFile
from .counting import caption_digest
from .digests import MemoryDigests, SortedDigests, digests_sha256
from .engines import CountOptions, count_corpus
from .index_file import (
    BUILD_COMMAND,
    bindings_sha256,
    read_index,
    relations_sha256,
    write_index,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ReferenceIndex"]

logger = logging.getLogger(__name__)


def _json_digest(payload: Mapping[str, Any], length: int = 16) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(canonical.encode("ascii")).hexdigest()[:length]


def _check_min_count(min_count: int) -> int:
    if isinstance(min_count, bool) or not isinstance(min_count, int) or min_count < 1:
        raise BindsplitValueError(f"min_count must be an integer >= 1, got {min_count!r}")
    return min_count


def _as_binding(binding: object) -> Binding:
    """A :class:`Binding`, or an ``(attribute, object)`` tuple of strings made one."""
    if isinstance(binding, Binding):
        return binding
    if (
        isinstance(binding, tuple)
        and len(binding) == 2
        and all(isinstance(part, str) for part in binding)
    ):
        return Binding(*binding)
    raise TypeError(
        f"expected a Binding or an (attribute, object) tuple of strings, got {binding!r}; "
        "normalise raw words with bindsplit_datasets.parsing.normalise_binding"
    )


def _as_relation(triple: object) -> Relation:
    """A :class:`Relation`, or a ``(subject, relation, object)`` tuple of strings made one."""
    if isinstance(triple, Relation):
        return triple
    if isinstance(triple, tuple) and len(triple) == 3 and all(isinstance(p, str) for p in triple):
        return Relation(*triple)
    raise TypeError(
        f"expected a Relation or a (subject, relation, object) tuple of strings, got {triple!r}"
    )


class ReferenceIndex:
    """Counts of the normalised bindings of a caption corpus, with ``seen := count >= min_count``.

    Build one with :meth:`from_corpus`, a ``from_*`` constructor or :meth:`coco2017`; persist it
    with :meth:`save` and :meth:`load`. An index is immutable; :meth:`with_min_count` returns a
    re-thresholded copy that shares the counts. Queries take a
    :class:`~bindsplit_datasets.parsing.Binding` or a plain ``(attribute, object)`` tuple of
    normalised words; relation queries a :class:`~bindsplit_datasets.parsing.Relation` or a
    ``(subject, relation, object)`` tuple. ``relation_counts`` is ``None`` for an index without
    triples (its fingerprint then has no ``relations`` entry); ``index_format`` is the file
    format the fingerprint records (an index loaded from an older file keeps its tag).
    """

    def __init__(
        self,
        counts: Mapping[Binding, int],
        *,
        caption_digests: np.ndarray | SortedDigests,
        min_count: int,
        n_captions: int,
        n_skipped: int,
        corpus: Mapping[str, Any],
        parser_version: str = PARSER_VERSION,
        normalisation: Mapping[str, Any] | None = None,
        build: Mapping[str, Any] | None = None,
        relation_counts: Mapping[Relation, int] | None = None,
        index_format: str = REFERENCE_FORMAT,
    ) -> None:
        self._counts: dict[Binding, int] = dict(counts)
        self._relations: dict[Relation, int] | None = (
            None if relation_counts is None else dict(relation_counts)
        )
        if not isinstance(caption_digests, SortedDigests):
            caption_digests = MemoryDigests(np.unique(np.asarray(caption_digests, np.uint64)))
        self._digests = caption_digests
        self.min_count = _check_min_count(min_count)
        self.n_captions = int(n_captions)
        self.n_skipped = int(n_skipped)
        #: How the index was built (engine, workers): not part of the fingerprint.
        self.build: dict[str, Any] = dict(build or {})
        core = {
            "format": index_format,
            "corpus": dict(corpus),
            "parser_version": parser_version,
            "normalisation": dict(NORMALISATION if normalisation is None else normalisation),
            "min_count": self.min_count,
            "n_captions": self.n_captions,
            "n_skipped": self.n_skipped,
        }
        if self._relations is not None:
            core["relations"] = True
        try:
            core = json.loads(json.dumps(core))
        except (TypeError, ValueError) as error:
            raise ValueError(f"the corpus description must be JSON-serialisable: {error}") from None
        self.fingerprint: dict[str, Any] = {**core, "digest": _json_digest(core)}

    # ------------------------------------------------------------------ queries
    def count(self, binding: Binding | tuple[str, str]) -> int:
        """How many captions of the corpus state ``binding`` (0 if none)."""
        return self._counts.get(_as_binding(binding), 0)

    def seen(self, binding: Binding | tuple[str, str]) -> bool:
        """Whether ``binding`` occurs in at least ``min_count`` captions."""
        return self._counts.get(_as_binding(binding), 0) >= self.min_count

    @property
    def has_relations(self) -> bool:
        """Whether the index counted relation triples (SPEC section 1b)."""
        return self._relations is not None

    def require_relations(self, purpose: str = "a relation build") -> None:
        """Raise :class:`~bindsplit_datasets.errors.RelationsMissingError` (one line saying how
        to rebuild) unless the index counted relation triples."""
        if self._relations is None:
            raise RelationsMissingError(
                f"{purpose} needs a reference index with relation triples, and this one "
                f"({self.fingerprint['format']}, digest {self.fingerprint['digest']}) has none; "
                f"rebuild it from its corpus with this version (`{BUILD_COMMAND}`) or build with "
                "--bindings attribute"
            )

    def _triples(self) -> dict[Relation, int]:
        self.require_relations("a relation lookup")
        assert self._relations is not None
        return self._relations

    def relation_count(self, triple: Relation | tuple[str, str, str]) -> int:
        """How many captions of the corpus state ``triple`` (0 if none)."""
        return self._triples().get(_as_relation(triple), 0)

    def seen_relation(self, triple: Relation | tuple[str, str, str]) -> bool:
        """Whether ``triple`` occurs in at least ``min_count`` captions."""
        return self.relation_count(triple) >= self.min_count

    @property
    def n_relations(self) -> int:
        """Number of distinct relation triples in the corpus (0 without triples)."""
        return len(self._relations or {})

    def relation_items(self) -> Iterator[tuple[Relation, int]]:
        """Every (triple, count) pair, in no particular order."""
        return iter(self._triples().items())

    def most_common_relations(self, n: int | None = None) -> list[tuple[Relation, int]]:
        """The ``n`` most frequent triples (all if ``None``); ties broken by triple order."""
        key = lambda item: (-item[1], item[0])  # noqa: E731
        items = self._triples().items()
        return sorted(items, key=key) if n is None else heapq.nsmallest(n, items, key=key)

    def __len__(self) -> int:
        """Number of distinct bindings in the corpus."""
        return len(self._counts)

    def __contains__(self, binding: object) -> bool:
        """Whether ``binding`` occurs in the corpus at all (``count >= 1``, below min_count too)."""
        return _as_binding(binding) in self._counts

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
        return self._digests.overlap(query)

    def content_sha256(self) -> str:
        """SHA-256 of what the index holds (bindings, counts, caption digests): equal for two
        indexes exactly when their contents are (reads every digest once)."""
        inner = f"{bindings_sha256(self._counts)}:{digests_sha256(self._digests)}"
        if self._relations is not None:
            inner += f":{relations_sha256(self._relations)}"
        return hashlib.sha256(inner.encode("ascii")).hexdigest()

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
    def from_corpus(
        cls,
        corpus: Corpus,
        *,
        min_count: int = 1,
        engine: str = "local",
        num_proc: int | None = None,
        strict: bool = False,
        progress: bool = True,
        ray_address: str | None = None,
        work_dir: str | os.PathLike[str] | None = None,
        resume: bool = False,
        relations: bool = True,
    ) -> ReferenceIndex:
        """Index a :class:`~bindsplit_datasets.reference.corpora.Corpus` (read once, streamed).

        ``engine`` is ``"local"`` (``num_proc`` processes; ``None``: every CPU) or ``"ray"``
        (Ray actors; ``ray_address`` joins a cluster, else a local Ray instance with
        ``num_proc`` CPUs runs the build); both give the same index. ``None``, non-string and
        empty captions are skipped and counted in :attr:`n_skipped`, or raise ``ValueError``
        with ``strict=True``. A corpus without a usable caption raises
        :class:`EmptyCorpusError`. ``work_dir`` keeps the build's digests and checkpoints
        (default: a temporary folder); a build that fails leaves it for ``resume=True``, which
        skips the Parquet shards it finished (see
        :func:`~bindsplit_datasets.reference.engines.count_corpus`). ``relations`` counts the
        relation triples in the same pass (``False``: an index for attribute builds only).
        """
        _check_min_count(min_count)
        tally = count_corpus(
            corpus,
            engine=engine,
            num_proc=num_proc,
            strict=strict,
            progress=progress,
            ray_address=ray_address,
            work_dir=work_dir,
            resume=resume,
            relations=relations,
        )
        if tally.n_captions == 0:
            raise EmptyCorpusError(
                f"{corpus.name}: the corpus has no usable captions ({tally.n_skipped} skipped as "
                "None, non-string or empty); point the reference at a non-empty caption corpus"
            )
        counts = tally.counts
        logger.info(
            "indexed %d captions (%d skipped) of %s: %d distinct bindings",
            tally.n_captions,
            tally.n_skipped,
            corpus.name,
            len(counts),
        )
        return cls(
            counts,
            caption_digests=tally.digests,
            min_count=min_count,
            n_captions=tally.n_captions,
            n_skipped=tally.n_skipped,
            corpus=corpus.identity,
            build={"engine": engine, "num_proc": num_proc, "seconds": tally.seconds},
            relation_counts=tally.relations,
        )

    @classmethod
    def from_captions(
        cls,
        captions: Iterable[Any],
        *,
        min_count: int = 1,
        corpus: Mapping[str, Any] | None = None,
        total: int | None = None,
        **options: Unpack[CountOptions],
    ) -> ReferenceIndex:
        """Index any iterable of captions (streamed: it is read once, never held).

        ``corpus`` describes where the captions come from, for the fingerprint; by default it is
        ``{"kind": "captions", "sha256": ...}``, a hash of the usable captions in order.
        ``total`` (the number of captions, where ``captions`` has no length) sizes the progress
        bar. The ``options`` (``engine``, ``num_proc``, ``strict``, ``progress``,
        ``ray_address``) are :meth:`from_corpus`'s, as for every constructor below.
        """
        source = Captions(captions, identity=corpus, total=total)
        return cls.from_corpus(source, min_count=min_count, **options)

    @classmethod
    def from_text_file(
        cls, path: str | os.PathLike[str], *, min_count: int = 1, **options: Unpack[CountOptions]
    ) -> ReferenceIndex:
        """Index a UTF-8 text file with one caption per line (blank lines are skipped captions)."""
        return cls.from_corpus(TextFile(path), min_count=min_count, **options)

    @classmethod
    def from_coco(
        cls,
        path_or_url: str | os.PathLike[str],
        *,
        min_count: int = 1,
        cache_dir: str | os.PathLike[str] | None = None,
        corpus: Mapping[str, Any] | None = None,
        **options: Unpack[CountOptions],
    ) -> ReferenceIndex:
        """Index the captions of an official COCO caption file (``annotations[*].caption``).

        A URL is downloaded once into ``cache_dir/downloads``. A file that is not JSON, or has no
        ``annotations`` list, raises :class:`~bindsplit_datasets.errors.SchemaError`; an
        annotation without a ``caption`` counts as a skipped caption.
        """
        source = CocoCaptions(
            path_or_url, cache_dir=cache_dir, identity=corpus, progress=_progress(options)
        )
        return cls.from_corpus(source, min_count=min_count, **options)

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
        **options: Unpack[CountOptions],
    ) -> ReferenceIndex:
        """Index one column of a Hugging Face dataset, streamed (nothing is downloaded in full).

        ``dataset_id`` is a Hub id (its revision is resolved to a commit sha and pinned) or a
        local dataset folder (identified by a hash of its files).
        """
        source = HubDataset(dataset_id, column, split=split, config=config, revision=revision)
        return cls.from_corpus(source, min_count=min_count, **options)

    @classmethod
    def from_parquet(
        cls,
        source: str | os.PathLike[str],
        column: str = "caption",
        *,
        min_count: int = 1,
        storage_options: Mapping[str, Any] | None = None,
        **options: Unpack[CountOptions],
    ) -> ReferenceIndex:
        """Index the caption ``column`` of Parquet shards: a folder, a glob or an fsspec URL
        (``hf://datasets/...``, ``s3://...``; ``storage_options`` go to its file system)."""
        shards = ParquetShards(source, column, storage_options=storage_options)
        return cls.from_corpus(shards, min_count=min_count, **options)

    @classmethod
    def coco2017(
        cls,
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        min_count: int = 1,
        **options: Unpack[CountOptions],
    ) -> ReferenceIndex:
        """The default reference: COCO train2017 captions (about 592,000).

        The official annotation archive is downloaded once into ``cache_dir/coco2017`` (only the
        train2017 caption file is kept, and checked against its recorded SHA-256 on every use),
        and the built index is cached beside it under a key of the corpus identity, parser
        version and normalisation, so later calls load it instantly.
        """
        corpus = coco2017_corpus(cache_dir, progress=_progress(options))
        index_path = cached_index_path(corpus, REFERENCE_FORMAT)
        if index_path.is_file():
            try:
                cached = cls.load(index_path)
                if cached.has_relations or not options.get("relations", True):
                    return cached.with_min_count(min_count)
                logger.info("cached index %s has no relation triples; rebuilding it", index_path)
            except (SchemaError, ParserMismatchError) as error:
                logger.warning("cached index %s unusable (%s); rebuilding it", index_path, error)
        index = cls.from_corpus(corpus, **options)
        index.save(index_path)
        return index.with_min_count(min_count)

    # ------------------------------------------------------------ persistence
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the index to a Parquet file (temporary sibling, renamed when complete)."""
        return write_index(
            path, self._counts, self._digests, self.fingerprint, self.build, self._relations
        )

    @classmethod
    def load(
        cls, path: str | os.PathLike[str], *, allow_parser_mismatch: bool = False
    ) -> ReferenceIndex:
        """Read an index written by :meth:`save` (the caption digests stay on disk).

        Raises ``FileNotFoundError`` for a missing file, :class:`SchemaError` for a file that is
        not Parquet, is truncated, damaged or altered, is not a BindSplit index or is one of an
        older format, and :class:`ParserMismatchError` for an index built by another parser
        version or normalisation (unless ``allow_parser_mismatch=True``, which loads it with a
        warning).
        """
        path = Path(path)
        contents = read_index(path)
        fingerprint = contents.fingerprint
        _check_parser(path, fingerprint, allow_parser_mismatch)
        index = cls(
            contents.counts,
            caption_digests=contents.digests,
            min_count=fingerprint["min_count"],
            n_captions=fingerprint["n_captions"],
            n_skipped=fingerprint["n_skipped"],
            corpus=fingerprint["corpus"],
            parser_version=fingerprint["parser_version"],
            normalisation=fingerprint["normalisation"],
            build=contents.build,
            relation_counts=contents.relations,
            index_format=fingerprint["format"],
        )
        if index.fingerprint != fingerprint:
            raise SchemaError(
                f"{path}: stored fingerprint does not match its contents (digest "
                f"{fingerprint.get('digest')!r} vs {index.fingerprint['digest']!r}); the file was "
                f"altered, rebuild the index with `{BUILD_COMMAND}`"
            )
        return index


# --------------------------------------------------------------------- helpers: reading
def _progress(options: CountOptions) -> bool:
    """Whether ``options`` show progress bars (the default), for what a constructor downloads."""
    return options.get("progress", True)


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
        f"index from its corpus (`{BUILD_COMMAND}`), or pass allow_parser_mismatch=True to use "
        "it anyway"
    )
