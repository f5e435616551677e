"""The reference-index file format (``bindsplit-reference/3``): one Parquet file, no size ceiling.

Columns ``attribute`` (string), ``object`` (string), ``count`` (int64), ``digest`` (uint64),
``subject`` (string) and ``relation`` (string). The first row group holds the bindings, one row
per distinct binding sorted by attribute then object (``attribute``, ``object``, ``count``; the
rest null); the next one the relation triples (SPEC section 1b), one row per distinct triple
sorted by subject, relation, object (``subject``, ``relation``, ``object``, ``count``; the rest
null); the row groups after them hold the leakage guard's caption digests, sorted and unique, at
most 4 Mi a group (the other columns null). The footer holds only what does not grow with the
corpus beyond a few bytes per row group: the key-value metadata ``bindsplit.format`` (the tag),
``bindsplit.fingerprint`` (JSON), ``bindsplit.build`` (engine and workers, JSON),
``bindsplit.layout`` (JSON: ``binding_row_groups``, ``n_bindings``, ``bindings_sha256``,
``relations`` (whether the build counted triples), ``relation_row_groups``, ``n_relations``,
``relations_sha256``, ``n_digests``) and the digest column's min/max statistics, which lookups
use to read only the row groups a digest can be in (:class:`~.digests.ParquetDigests`).

Version 2 (no ``subject``/``relation`` columns) is still read as an index of bindings only:
relation builds refuse it (:class:`~bindsplit_datasets.errors.RelationsMissingError`). Version 1
kept the digests in the footer (at most 2 GiB: about 268 million captions); such a file is
refused with a one-line message to rebuild it. Data pages carry CRC checksums, verified
on read, and the bindings a SHA-256 in the layout, so a damaged or edited file is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from ..errors import BindsplitFileNotFoundError, SchemaError
from ..names import REFERENCE_FORMAT, REFERENCE_FORMAT_V2
from ..parsing import Binding, Relation
from .digests import DIGEST_COLUMN, ParquetDigests, SortedDigests, write_digest_groups

__all__ = [
    "BUILD_COMMAND",
    "FINGERPRINT_KEYS",
    "IndexContents",
    "bindings_sha256",
    "is_index_file",
    "is_index_metadata",
    "is_readable_parquet",
    "read_index",
    "relations_sha256",
    "write_index",
]

#: The command that builds an index file, for error messages.
BUILD_COMMAND = "bindsplit reference build SOURCE --out INDEX.parquet"

_META_FORMAT = b"bindsplit.format"
_META_FINGERPRINT = b"bindsplit.fingerprint"
_META_BUILD = b"bindsplit.build"
_META_LAYOUT = b"bindsplit.layout"
_FORMAT_FAMILY = REFERENCE_FORMAT.rsplit("/", 1)[0] + "/"
_BINDING_COLUMNS = ("attribute", "object", "count")
_RELATION_COLUMNS = ("subject", "relation", "object", "count")
#: Tags this version reads.
_READABLE = (REFERENCE_FORMAT, REFERENCE_FORMAT_V2)
#: The keys of every index's fingerprint (``ReferenceIndex.fingerprint``; an index with triples
#: adds ``relations``): a file whose fingerprint lacks one is refused.
FINGERPRINT_KEYS = frozenset(
    {
        "format",
        "corpus",
        "parser_version",
        "normalisation",
        "min_count",
        "n_captions",
        "n_skipped",
        "digest",
    }
)


def _schema(tag: str = REFERENCE_FORMAT) -> Any:
    import pyarrow as pa

    fields = [
        pa.field("attribute", pa.string()),
        pa.field("object", pa.string()),
        pa.field("count", pa.int64()),
        pa.field(DIGEST_COLUMN, pa.uint64()),
    ]
    if tag != REFERENCE_FORMAT_V2:
        fields += [pa.field("subject", pa.string()), pa.field("relation", pa.string())]
    return pa.schema(fields)


def bindings_sha256(counts: Mapping[Binding, int]) -> str:
    """SHA-256 of the bindings and their counts, sorted (a content key of the counts)."""
    sha = hashlib.sha256()
    for binding, count in sorted(counts.items()):
        sha.update(f"{binding.attribute}\0{binding.object}\0{count}\n".encode())
    return sha.hexdigest()


def relations_sha256(counts: Mapping[Relation, int]) -> str:
    """SHA-256 of the relation triples and their counts, sorted (a content key of the counts)."""
    sha = hashlib.sha256()
    for triple, count in sorted(counts.items()):
        sha.update(f"{triple.subject}\0{triple.relation}\0{triple.object}\0{count}\n".encode())
    return sha.hexdigest()


@dataclass
class IndexContents:
    """What an index file holds (``relations``: ``None`` when it has no triples)."""

    counts: dict[Binding, int]
    digests: SortedDigests
    fingerprint: dict[str, Any]
    build: dict[str, Any]
    relations: dict[Relation, int] | None = None


def write_index(
    path: str | os.PathLike[str],
    counts: Mapping[Binding, int],
    digests: SortedDigests,
    fingerprint: Mapping[str, Any],
    build: Mapping[str, Any],
    relations: Mapping[Relation, int] | None = None,
) -> Path:
    """Write an index file (temporary sibling, renamed when complete); ``relations``: the
    triple counts, ``None`` for an index built without them."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    schema = _schema()
    ordered = sorted(counts.items())
    n = len(ordered)
    bindings = pa.table(
        {
            "attribute": pa.array([b.attribute for b, _ in ordered], pa.string()),
            "object": pa.array([b.object for b, _ in ordered], pa.string()),
            "count": pa.array([c for _, c in ordered], pa.int64()),
            DIGEST_COLUMN: pa.nulls(n, pa.uint64()),
            "subject": pa.nulls(n, pa.string()),
            "relation": pa.nulls(n, pa.string()),
        },
        schema=schema,
    )
    triples = sorted((relations or {}).items())
    m = len(triples)
    relation_rows = pa.table(
        {
            "attribute": pa.nulls(m, pa.string()),
            "object": pa.array([t.object for t, _ in triples], pa.string()),
            "count": pa.array([c for _, c in triples], pa.int64()),
            DIGEST_COLUMN: pa.nulls(m, pa.uint64()),
            "subject": pa.array([t.subject for t, _ in triples], pa.string()),
            "relation": pa.array([t.relation for t, _ in triples], pa.string()),
        },
        schema=schema,
    )
    with atomic_file(path) as tmp:
        # store_schema=False: the metadata is stored once, not again inside the Arrow schema
        with pq.ParquetWriter(
            tmp,
            schema,
            store_schema=False,
            compression={
                "attribute": "snappy",
                "object": "snappy",
                "count": "snappy",
                DIGEST_COLUMN: "none",
                "subject": "snappy",
                "relation": "snappy",
            },
            use_dictionary=["attribute", "object", "subject", "relation"],
            write_statistics=[DIGEST_COLUMN],
            write_page_checksum=True,
        ) as writer:
            if ordered:
                writer.write_table(bindings, row_group_size=max(n, 1))
            if triples:
                writer.write_table(relation_rows, row_group_size=max(m, 1))
            n_digests = write_digest_groups(writer, digests.chunks(), schema)
            layout = {
                "binding_row_groups": 1 if ordered else 0,
                "n_bindings": n,
                "n_digests": n_digests,
                "bindings_sha256": bindings_sha256(counts),
                "relations": relations is not None,
                "relation_row_groups": 1 if triples else 0,
                "n_relations": m,
                "relations_sha256": None if relations is None else relations_sha256(relations),
            }
            writer.add_key_value_metadata(
                {
                    _META_FORMAT: REFERENCE_FORMAT.encode("ascii"),
                    _META_FINGERPRINT: json.dumps(dict(fingerprint), sort_keys=True).encode(),
                    _META_BUILD: json.dumps(dict(build), sort_keys=True).encode(),
                    _META_LAYOUT: json.dumps(layout, sort_keys=True).encode(),
                }
            )
    return path


def _rebuild(path: Path, problem: str) -> SchemaError:
    return SchemaError(f"{path}: {problem}; rebuild the index with `{BUILD_COMMAND}`")


def _format_tag(metadata: Mapping[bytes, bytes]) -> str:
    return metadata.get(_META_FORMAT, b"").decode("utf-8", "replace")


def is_index_metadata(metadata: Mapping[bytes, bytes]) -> bool:
    """Whether Parquet key-value ``metadata`` is a reference index's, of any format version."""
    return _format_tag(metadata).startswith(_FORMAT_FAMILY)


def is_index_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a readable Parquet file written by ``ReferenceIndex.save`` (of any
    format version; a Parquet file that is not is, for example, a caption shard)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        metadata = pq.read_metadata(path).metadata
    except (pa.ArrowException, OSError):
        return False
    return is_index_metadata(metadata or {})


def is_readable_parquet(path: str | os.PathLike[str]) -> None:
    """Raise :class:`SchemaError` (one line) unless ``path``'s Parquet footer can be read."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        pq.read_metadata(path)
    except (pa.ArrowException, OSError) as error:
        raise SchemaError(
            f"{path} is not a readable Parquet file ({error}): a truncated or damaged index or "
            f"caption shard; rebuild the index with `{BUILD_COMMAND}`, or replace the shard"
        ) from None


def _json(path: Path, metadata: Mapping[bytes, bytes], key: bytes) -> dict[str, Any]:
    try:
        value = json.loads(metadata[key])
    except (KeyError, ValueError) as error:
        raise _rebuild(path, f"unreadable {key.decode()} metadata ({error})") from None
    if not isinstance(value, dict):
        raise _rebuild(path, f"{key.decode()} metadata is not an object")
    return value


def _read_counts(path: Path, parquet: Any, groups: int, layout: Mapping[str, Any]) -> dict:
    import pyarrow as pa

    try:
        table = parquet.read_row_groups(list(range(groups)), columns=list(_BINDING_COLUMNS))
    except (pa.ArrowException, OSError) as error:
        raise _rebuild(path, f"the bindings are unreadable ({error})") from None
    if any(table.column(name).null_count for name in _BINDING_COLUMNS):
        raise _rebuild(path, "the index has missing values")
    attributes, objects, counts = (table.column(name).to_pylist() for name in _BINDING_COLUMNS)
    result = {Binding(a, o): c for a, o, c in zip(attributes, objects, counts, strict=True)}
    if len(result) != len(counts) or (counts and min(counts) < 1):
        raise _rebuild(path, "duplicate bindings or non-positive counts")
    if len(result) != layout.get("n_bindings") or bindings_sha256(result) != layout.get(
        "bindings_sha256"
    ):
        raise _rebuild(path, "the bindings do not match their recorded SHA-256 (file altered)")
    return result


def _read_relations(path: Path, parquet: Any, groups: list[int], layout: Mapping[str, Any]) -> dict:
    import pyarrow as pa

    try:
        table = parquet.read_row_groups(groups, columns=list(_RELATION_COLUMNS))
    except (pa.ArrowException, OSError) as error:
        raise _rebuild(path, f"the relation triples are unreadable ({error})") from None
    if any(table.column(name).null_count for name in _RELATION_COLUMNS):
        raise _rebuild(path, "the index has missing values")
    columns = [table.column(name).to_pylist() for name in _RELATION_COLUMNS]
    result = {Relation(s, r, o): c for s, r, o, c in zip(*columns, strict=True)}
    counts = columns[-1]
    if len(result) != len(counts) or (counts and min(counts) < 1):
        raise _rebuild(path, "duplicate triples or non-positive counts")
    if len(result) != layout.get("n_relations") or relations_sha256(result) != layout.get(
        "relations_sha256"
    ):
        raise _rebuild(path, "the triples do not match their recorded SHA-256 (file altered)")
    return result


def read_index(path: str | os.PathLike[str]) -> IndexContents:
    """Read an index file: the counts in memory, the digests left on disk (read per lookup).

    Raises ``FileNotFoundError`` for a missing file and :class:`SchemaError` (one line) for a
    file that is not Parquet, is truncated, damaged or altered, is not a BindSplit index, or is
    an index of an older format than ``bindsplit-reference/2`` (read without triples).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..input_files import check_input_file

    path = check_input_file(path, "reference index")
    if not path.is_file():
        raise BindsplitFileNotFoundError(f"reference index {path} not found")
    try:
        parquet = pq.ParquetFile(path, page_checksum_verification=True)
        metadata = parquet.metadata.metadata or {}
    except (pa.ArrowException, OSError) as error:
        raise SchemaError(
            f"{path} is not a readable Parquet file ({error}); rebuild the index with "
            f"`{BUILD_COMMAND}`"
        ) from None
    found = _format_tag(metadata)
    if found not in _READABLE:
        if found.startswith(_FORMAT_FAMILY):
            raise SchemaError(
                f"{path} is a reference index of an older format ({found}; this version reads "
                f"{' and '.join(_READABLE)}); rebuild it from its corpus with `{BUILD_COMMAND}`"
            )
        raise SchemaError(
            f"{path} is not a BindSplit reference index (metadata {_META_FORMAT.decode()!r} "
            f"is {found!r}, expected {REFERENCE_FORMAT!r}); build one with `{BUILD_COMMAND}` or "
            "ReferenceIndex.save()"
        )
    if parquet.schema_arrow != _schema(found):
        raise _rebuild(path, f"columns {parquet.schema_arrow} differ from an index's")
    fingerprint = _json(path, metadata, _META_FINGERPRINT)
    missing = FINGERPRINT_KEYS - set(fingerprint)
    if missing:
        raise _rebuild(path, f"fingerprint lacks {sorted(missing)}")
    layout = _json(path, metadata, _META_LAYOUT)
    groups = layout.get("binding_row_groups")
    if not isinstance(groups, int) or not 0 <= groups <= parquet.num_row_groups:
        raise _rebuild(path, "the layout names row groups the file does not have")
    counts = _read_counts(path, parquet, groups, layout)
    relations = None
    if found == REFERENCE_FORMAT and layout.get("relations"):
        extra = layout.get("relation_row_groups")
        if not isinstance(extra, int) or not 0 <= groups + extra <= parquet.num_row_groups:
            raise _rebuild(path, "the layout names row groups the file does not have")
        relations = _read_relations(path, parquet, list(range(groups, groups + extra)), layout)
        groups += extra
    digests = ParquetDigests(
        path,
        list(range(groups, parquet.num_row_groups)),
        rebuild=lambda problem: _rebuild(path, problem),
    )
    if digests.size != layout.get("n_digests"):
        raise _rebuild(path, "the caption digests do not match their recorded number")
    try:
        build = json.loads(metadata.get(_META_BUILD, b"{}"))
    except ValueError:
        build = {}
    build = build if isinstance(build, dict) else {}
    return IndexContents(counts, digests, fingerprint, build, relations)
