"""Downloads into BindSplit's cache: cached, atomic and checksum-verified.

Every file BindSplit fetches by URL (the COCO annotation archive, a COCO caption file named by
URL, the SugarCrepe repository files, the COCO val2017 image archive) goes through
:func:`download`. A file already at the destination is the cached copy and is used as it is (which
is also where a user puts a file downloaded by hand); anything else is written to a temporary
sibling and renamed into place only when complete and, when a checksum is given, only when it
matches. The cache folder is ``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``
(:func:`default_cache_dir`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tqdm.auto import tqdm

from .atomic import atomic_file
from .errors import BindsplitError

__all__ = [
    "IO_CHUNK",
    "ChecksumError",
    "default_cache_dir",
    "download",
    "file_digest",
    "is_url",
    "url_file_name",
]

logger = logging.getLogger(__name__)

#: Bytes read at a time from a file or a response.
IO_CHUNK = 1 << 20
#: URL schemes :func:`download` fetches (others, such as ``s3://``, are fsspec file systems).
_DOWNLOAD_SCHEMES = frozenset({"http", "https", "ftp", "file"})


class ChecksumError(BindsplitError):
    """A downloaded or cached file does not have its expected checksum."""


def default_cache_dir() -> Path:
    """Folder for downloads and built indexes: ``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``."""
    env = os.environ.get("BINDSPLIT_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "bindsplit"


def file_digest(path: str | os.PathLike[str], algorithm: str = "sha256") -> str:
    """Hex digest (``hashlib`` ``algorithm``) of a file's bytes, read in 1 MiB pieces."""
    digest = hashlib.new(algorithm, usedforsecurity=False)
    with open(path, "rb") as handle:
        while chunk := handle.read(IO_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def is_url(spec: str) -> bool:
    """Whether ``spec`` is a URL :func:`download` fetches (http, https, ftp or file).

    >>> is_url("http://images.cocodataset.org/zips/val2017.zip"), is_url("s3://bucket/shards")
    (True, False)
    """
    return urllib.parse.urlparse(spec).scheme in _DOWNLOAD_SCHEMES


def url_file_name(url: str, default: str) -> str:
    """The last path component of ``url`` (``default`` when it has none).

    >>> url_file_name("http://images.cocodataset.org/zips/val2017.zip?x=1", "images.zip")
    'val2017.zip'
    """
    return Path(urllib.parse.urlparse(url).path).name or default


def download(
    url: str, dest: str | os.PathLike[str], *, md5: str | None = None, progress: bool = True
) -> Path:
    """``dest``, downloading ``url`` to it first unless a file is already there (the cache).

    A download is written to a temporary sibling and renamed into place only when complete and,
    if ``md5`` is given, only when its MD5 matches; a cached file is checked against ``md5`` too.

    Raises:
        ChecksumError: the download or the cached file does not have ``md5`` (a failed download
            leaves nothing behind; a cached file is kept, and the message says to delete it).
        BindsplitError: the download failed; the message names the URL and where to put the file
            by hand.
    """
    dest = Path(dest)
    if dest.is_file():
        if md5 is not None and (cached := file_digest(dest, "md5")) != md5:
            raise ChecksumError(
                f"{dest} has MD5 {cached}, expected {md5}: it is not an intact copy of {url}; "
                "delete it to download it afresh"
            )
        return dest
    logger.info("downloading %s to %s", url, dest)
    digest = hashlib.md5(usedforsecurity=False)
    try:
        with atomic_file(dest) as tmp:
            with urllib.request.urlopen(url) as response, open(tmp, "wb") as out:  # noqa: S310
                total = response.headers.get("Content-Length")
                with tqdm(
                    total=int(total) if total else None,
                    unit="B",
                    unit_scale=True,
                    desc=f"downloading {url_file_name(url, dest.name)}",
                    disable=not progress,
                ) as bar:
                    while chunk := response.read(IO_CHUNK):
                        digest.update(chunk)
                        out.write(chunk)
                        bar.update(len(chunk))
            if md5 is not None and digest.hexdigest() != md5:
                raise ChecksumError(
                    f"{url} downloaded with MD5 {digest.hexdigest()}, expected {md5}: the download "
                    "is corrupt or the file changed; run the command again, or download it "
                    f"yourself and check it before placing it at {dest}"
                )
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        raise BindsplitError(
            f"could not download {url} ({error}); check the network connection, or download it "
            f"yourself and place it at {dest}"
        ) from None
    return dest
