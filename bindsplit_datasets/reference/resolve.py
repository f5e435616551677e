"""From a reference specification (what users type after ``--reference`` or as ``SOURCE``) to a
corpus or a saved index, and on to a :class:`~bindsplit_datasets.reference.index.ReferenceIndex`.

Specifications, tried in this order:

- ``coco2017``: the default reference (COCO train2017 captions, downloaded once);
- a saved index: a ``.parquet`` file written by ``ReferenceIndex.save``;
- Parquet shards: a local folder, a glob (``shards/*.parquet``), any other ``.parquet`` file, or
  an fsspec URL (``hf://datasets/org/name/data/*.parquet``, ``s3://bucket/captions/``), read for
  their ``caption`` column unless another is named;
- a COCO-format caption JSON (``.json``, a path or an http(s) URL);
- a text file with one caption per line (``.txt``);
- a Hugging Face Hub dataset id (``org/name``), streamed, its ``train`` split's caption column.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from ..downloads import is_url
from ..errors import BindsplitFileNotFoundError, BindsplitValueError
from ..names import is_hub_id
from .corpora import CocoCaptions, Corpus, HubDataset, ParquetShards, TextFile
from .engines import check_engine, check_num_proc
from .index import ReferenceIndex, _check_min_count
from .index_file import is_index_file, is_readable_parquet

__all__ = [
    "ACCEPTED_FORMS",
    "DEFAULT_CAPTION_COLUMN",
    "NAMED_REFERENCES",
    "open_reference",
    "resolve_reference",
]

#: The caption column read from Parquet shards and Hub datasets unless another is named.
DEFAULT_CAPTION_COLUMN = "caption"
#: Named references: name -> the constructor that builds (or loads the cached) index.
NAMED_REFERENCES: dict[str, Callable[..., ReferenceIndex]] = {
    "coco2017": ReferenceIndex.coco2017,
}
#: Every accepted form, for messages.
ACCEPTED_FORMS = (
    f"a named reference ({', '.join(map(repr, NAMED_REFERENCES))}), a saved index (.parquet), "
    "Parquet caption shards (a folder, a glob or an fsspec URL such as hf://datasets/... or "
    "s3://..., with --caption-column naming the caption column), a COCO-format caption file "
    "(.json), a text file with one caption per line (.txt), or a Hugging Face dataset id "
    "(org/name)"
)
_GLOB = re.compile(r"[*?\[]")


def _no_column(kind: str, caption_column: str | None) -> None:
    if caption_column is not None:
        raise BindsplitValueError(
            f"a caption column applies to Parquet shards and Hub datasets only, not to {kind}; "
            "leave --caption-column out"
        )


def open_reference(
    spec: str | os.PathLike[str],
    *,
    caption_column: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Corpus | Path:
    """The corpus ``spec`` names, or the path of the saved index it names (named references
    are built by :func:`resolve_reference`).

    Raises ``FileNotFoundError`` for a missing file or folder and ``ValueError`` for a
    specification of no accepted form (the message lists them).
    """
    text = os.fspath(spec)
    column = caption_column or DEFAULT_CAPTION_COLUMN
    suffix = Path(text.split("?", 1)[0]).suffix.lower()
    if "://" in text and not is_url(text):  # fsspec file systems: hf://, s3://, gs://, memory://
        return ParquetShards(text, column)
    if is_url(text):
        if suffix != ".json":
            raise BindsplitValueError(
                f"unknown reference URL {text!r}: an http(s), ftp or file URL names a COCO "
                f"caption file (.json); pass {ACCEPTED_FORMS}"
            )
        _no_column("a COCO caption file", caption_column)
        return CocoCaptions(text, cache_dir=cache_dir)
    path = Path(text).expanduser()
    if path.is_dir() or _GLOB.search(text):
        return ParquetShards(path, column)
    if suffix == ".parquet":
        if not path.is_file():
            raise BindsplitFileNotFoundError(
                f"reference file {path} not found; pass {ACCEPTED_FORMS}"
            )
        if is_index_file(path):
            _no_column("a saved index", caption_column)
            return path
        is_readable_parquet(path)
        return ParquetShards(path, column)
    if suffix in (".json", ".txt"):
        if not path.is_file():
            raise BindsplitFileNotFoundError(
                f"reference file {path} not found; pass {ACCEPTED_FORMS}"
            )
        if suffix == ".json":
            _no_column("a COCO caption file", caption_column)
            return CocoCaptions(path)
        _no_column("a text file", caption_column)
        return TextFile(path)
    if is_hub_id(text) and not path.exists():
        return HubDataset(text, column)
    raise BindsplitValueError(f"unknown reference {text!r}; pass {ACCEPTED_FORMS}")


def resolve_reference(
    spec: str | os.PathLike[str] | ReferenceIndex,
    *,
    min_count: int = 1,
    cache_dir: str | os.PathLike[str] | None = None,
    caption_column: str | None = None,
    engine: str = "local",
    num_proc: int | None = None,
    ray_address: str | None = None,
    progress: bool = True,
    work_dir: str | os.PathLike[str] | None = None,
    resume: bool = False,
) -> ReferenceIndex:
    """Turn a reference specification (module docstring) into an index with ``min_count``.

    A corpus is indexed with ``engine`` (``local`` or ``ray``) and ``num_proc`` workers;
    ``coco2017`` is built once and then loaded from the cache. ``min_count`` always applies,
    also to a saved index or an index passed in. ``work_dir`` and ``resume`` are
    :meth:`ReferenceIndex.from_corpus`'s (they apply to a corpus that is counted).
    """
    _check_min_count(min_count)
    check_num_proc(num_proc)
    check_engine(engine, ray_address)
    if isinstance(spec, ReferenceIndex):
        return spec.with_min_count(min_count)
    if not isinstance(spec, (str, os.PathLike)):
        raise TypeError(
            f"cannot use {type(spec).__name__} as a reference; pass a ReferenceIndex or "
            f"{ACCEPTED_FORMS}"
        )
    name = os.fspath(spec)
    if name in NAMED_REFERENCES:
        _no_column(name, caption_column)
        index = NAMED_REFERENCES[name](
            cache_dir=cache_dir,
            engine=engine,
            num_proc=num_proc,
            progress=progress,
            ray_address=ray_address,
        )
        return index.with_min_count(min_count)
    source = open_reference(spec, caption_column=caption_column, cache_dir=cache_dir)
    if isinstance(source, Path):
        return ReferenceIndex.load(source).with_min_count(min_count)
    return ReferenceIndex.from_corpus(
        source,
        min_count=min_count,
        engine=engine,
        num_proc=num_proc,
        progress=progress,
        ray_address=ray_address,
        work_dir=work_dir,
        resume=resume,
    )
