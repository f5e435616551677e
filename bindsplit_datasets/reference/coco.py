"""The default reference corpus: COCO train2017 captions, downloaded once and checked on use.

:func:`coco2017_captions` downloads the official annotation archive into the cache, keeps only
the train2017 caption file and records its SHA-256 beside it (``captions_train2017.json.sha256``);
every later use checks the file against that record, so a damaged or edited cache is named
instead of silently indexed. :func:`coco2017_corpus` is the corpus with its identity, and
:func:`cached_index_path` where a built index of it is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

from ..atomic import atomic_file, write_text
from ..downloads import IO_CHUNK, default_cache_dir, download, file_digest, url_file_name
from ..errors import ChecksumError, SchemaError
from ..parsing import NORMALISATION, PARSER_VERSION
from .corpora import CocoCaptions

__all__ = [
    "COCO2017_ANNOTATIONS_URL",
    "COCO2017_CAPTIONS_MEMBER",
    "cached_index_path",
    "coco2017_captions",
    "coco2017_corpus",
]

#: The official COCO 2017 annotation archive; the default reference is its train2017 captions.
COCO2017_ANNOTATIONS_URL = "http://images.cocodataset.org/annotations/annotations_trainval2017.zip"
#: The archive member holding the train2017 captions.
COCO2017_CAPTIONS_MEMBER = "annotations/captions_train2017.json"


def _checked(json_path: Path, sha_path: Path) -> str:
    """The recorded SHA-256 of the cached caption file, after checking the file against it."""
    recorded = sha_path.read_text(encoding="ascii").strip()
    actual = file_digest(json_path)
    if actual != recorded:
        raise ChecksumError(
            f"the cached COCO caption file {json_path} has SHA-256 {actual}, not the {recorded} "
            f"recorded in {sha_path.name} when it was downloaded (damaged or edited); delete "
            f"{json_path} to download it afresh"
        )
    return recorded


def coco2017_captions(folder: Path, *, progress: bool = True) -> tuple[Path, str]:
    """The cached train2017 caption file in ``folder`` and its SHA-256, downloading the archive
    when the file is not cached. A cached file is checked against its recorded SHA-256
    (:class:`~bindsplit_datasets.errors.ChecksumError` on a mismatch)."""
    json_path = folder / Path(COCO2017_CAPTIONS_MEMBER).name
    sha_path = json_path.with_name(json_path.name + ".sha256")
    if json_path.is_file() and sha_path.is_file():
        return json_path, _checked(json_path, sha_path)
    archive = folder / url_file_name(COCO2017_ANNOTATIONS_URL, "annotations_trainval2017.zip")
    download(COCO2017_ANNOTATIONS_URL, archive, progress=progress)
    try:
        with atomic_file(json_path) as tmp:
            with zipfile.ZipFile(archive) as zipped, zipped.open(COCO2017_CAPTIONS_MEMBER) as src:
                with open(tmp, "wb") as out:
                    shutil.copyfileobj(src, out, IO_CHUNK)
            sha256 = file_digest(tmp)
    except (zipfile.BadZipFile, KeyError) as error:
        archive.unlink(missing_ok=True)
        raise SchemaError(
            f"{archive} is not the COCO annotation archive ({error}); it was deleted, call "
            f"again to download {COCO2017_ANNOTATIONS_URL} afresh"
        ) from None
    write_text(sha_path, sha256 + "\n")
    archive.unlink()  # only the caption file is needed; the archive holds 240 MB of other data
    return json_path, sha256


def coco2017_corpus(
    cache_dir: str | os.PathLike[str] | None = None, *, progress: bool = True
) -> CocoCaptions:
    """The COCO train2017 captions as a corpus named ``coco2017`` (downloaded when needed)."""
    folder = Path(cache_dir or default_cache_dir()) / "coco2017"
    json_path, sha256 = coco2017_captions(folder, progress=progress)
    identity = {
        "kind": "coco",
        "name": "coco2017",
        "url": COCO2017_ANNOTATIONS_URL,
        "member": COCO2017_CAPTIONS_MEMBER,
        "file": json_path.name,
        "sha256": sha256,
    }
    return CocoCaptions(json_path, identity=identity)


def cached_index_path(corpus: CocoCaptions, format_tag: str) -> Path:
    """Where the index of the cached ``corpus`` is kept: beside the caption file, under a key of
    the corpus identity, index format, parser version and normalisation."""
    payload: dict[str, Any] = {
        "format": format_tag,
        "corpus": corpus.identity,
        "parser_version": PARSER_VERSION,
        "normalisation": NORMALISATION,
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    key = hashlib.sha256(canonical.encode("ascii")).hexdigest()[:16]
    return corpus.path.parent / f"index-{key}.parquet"
