"""Downloads into BindSplit's cache: cached, resumable, retried and checksum-verified.

Every file BindSplit fetches by URL (the COCO annotation archive, a COCO caption file named by
URL, the SugarCrepe repository files, the COCO val2017 image archive) goes through
:func:`download`. A file already at the destination is the cached copy and is used as it is (which
is also where a user puts a file downloaded by hand). Otherwise the bytes go to ``.NAME.part``
beside the destination, which is renamed into place only when complete and, when a checksum is
given, only when it matches:

* every request has a connect and a read timeout (:data:`TIMEOUT`), so a stalled server fails
  instead of hanging;
* a failed attempt (no connection, a timeout, a server error, a response cut short) is retried
  up to :data:`RETRIES` times, waiting :data:`BACKOFF` seconds, then twice as long each time;
* a retry, or the next run after an interruption, resumes the ``.part`` file with an HTTP
  ``Range`` request (a server that ignores it sends the whole file, which then replaces the part);
* one process downloads a given file at a time (a lock file beside it).

HTTP(S) goes through ``requests``; ``file://`` and ``ftp://`` URLs through ``fsspec`` (no
resume). The cache folder is ``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``
(:func:`default_cache_dir`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
import urllib.parse
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import BindsplitError, ChecksumError
from .progress import progress as progress_bar

__all__ = [
    "BACKOFF",
    "IO_CHUNK",
    "RETRIES",
    "TIMEOUT",
    "default_cache_dir",
    "download",
    "file_digest",
    "files_digest",
    "is_url",
    "url_file_name",
]

logger = logging.getLogger(__name__)

#: Bytes read at a time from a file or a response.
IO_CHUNK = 1 << 20
#: Bytes read at a time from a network response: what a connection cut short loses at most
#: before the next attempt resumes.
NET_CHUNK = 1 << 16
#: Seconds to wait for a connection, and for each piece of a response.
TIMEOUT: tuple[float, float] = (10.0, 60.0)
#: Attempts after the first one.
RETRIES = 5
#: Seconds before the first retry; doubled before each next one.
BACKOFF = 2.0
#: URL schemes :func:`download` fetches (others, such as ``s3://``, are fsspec file systems).
_DOWNLOAD_SCHEMES = frozenset({"http", "https", "ftp", "file"})
#: HTTP statuses worth another attempt (the server's trouble, not the request's).
_RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


class _Retry(Exception):
    """An attempt that failed in a way another attempt may not (network, server, cut short)."""


def default_cache_dir() -> Path:
    """Folder for downloads and built indexes: ``$BINDSPLIT_CACHE`` or ``~/.cache/bindsplit``."""
    env = os.environ.get("BINDSPLIT_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "bindsplit"


def file_digest(path: str | os.PathLike[str], algorithm: str = "sha256") -> str:
    """Hex digest (``hashlib`` ``algorithm``) of a file's bytes, read in 1 MiB pieces: the one
    way BindSplit hashes a file (downloads, caches, corpora, sources, models)."""
    return files_digest([path], algorithm)


def files_digest(paths: Iterable[str | os.PathLike[str]], algorithm: str = "sha256") -> str:
    """Hex digest (``hashlib`` ``algorithm``) of the bytes of ``paths`` one after the other, in
    the given order (the identity of a set of local files, such as a benchmark's sources)."""
    from .input_files import check_input_file

    digest = hashlib.new(algorithm, usedforsecurity=False)
    for path in paths:
        with open(check_input_file(path), "rb") as handle:
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
    url: str,
    dest: str | os.PathLike[str],
    *,
    md5: str | None = None,
    progress: bool = True,
    retries: int = RETRIES,
    backoff: float = BACKOFF,
    timeout: tuple[float, float] = TIMEOUT,
) -> Path:
    """``dest``, downloading ``url`` to it first unless a file is already there (the cache).

    The download resumes a ``.part`` file left by an earlier attempt, is retried ``retries``
    times with exponential ``backoff`` (seconds), and is renamed to ``dest`` only when complete
    and, if ``md5`` is given, only when its MD5 matches; a cached file is checked against ``md5``
    too (module docstring).

    Raises:
        ChecksumError: the download or the cached file does not have ``md5`` (a failed download
            leaves nothing behind; a cached file is kept, and the message says to delete it).
        BindsplitError: the download failed after every attempt; the message names the URL and
            where to put the file by hand.
    """
    from filelock import FileLock

    dest = Path(dest)
    if dest.is_file():
        return _checked_cache(dest, url, md5)
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.parent / f".{dest.name}.part"
    lock = dest.parent / f".{dest.name}.lock"
    try:
        with FileLock(str(lock)):
            if dest.is_file():  # another process finished it meanwhile
                return _checked_cache(dest, url, md5)
            logger.info("downloading %s to %s", url, dest)
            _fetch_with_retries(url, part, dest, progress, retries, backoff, timeout)
            if md5 is not None and (found := file_digest(part, "md5")) != md5:
                part.unlink()
                raise ChecksumError(
                    f"{url} downloaded with MD5 {found}, expected {md5}: the download is corrupt "
                    "or the file changed; run the command again, or download it yourself and "
                    f"check it before placing it at {dest}"
                )
            os.replace(part, dest)
    finally:
        if not part.exists():  # nothing to resume: the lock file goes too
            lock.unlink(missing_ok=True)
    return dest


def _fetch_with_retries(
    url: str,
    part: Path,
    dest: Path,
    progress: bool,
    retries: int,
    backoff: float,
    timeout: tuple[float, float],
) -> None:
    for attempt in range(retries + 1):
        try:
            _fetch(url, part, progress=progress, timeout=timeout)
            return
        except _Retry as problem:
            if attempt == retries:
                kept = part.stat().st_size if part.exists() else 0
                raise BindsplitError(
                    f"could not download {url} ({problem}, {retries + 1} attempts); check the "
                    f"network connection and run the command again ({kept:,} bytes received are "
                    f"kept and resumed), or download it yourself and place it at {dest}"
                ) from None
            wait = backoff * 2**attempt
            logger.warning(
                "%s: %s; attempt %d of %d in %.0f s", url, problem, attempt + 2, retries + 1, wait
            )
            time.sleep(wait)


def _checked_cache(dest: Path, url: str, md5: str | None) -> Path:
    if md5 is not None and (cached := file_digest(dest, "md5")) != md5:
        raise ChecksumError(
            f"{dest} has MD5 {cached}, expected {md5}: it is not an intact copy of {url}; "
            "delete it to download it afresh"
        )
    return dest


def _fetch(url: str, part: Path, *, progress: bool, timeout: tuple[float, float]) -> None:
    """Complete ``part`` from ``url`` (one attempt); raise :class:`_Retry` when another attempt
    may succeed, :class:`BindsplitError` when it cannot."""
    scheme = urllib.parse.urlparse(url).scheme
    if scheme in ("http", "https"):
        _fetch_http(url, part, progress=progress, timeout=timeout)
    else:
        _fetch_fsspec(url, part, progress=progress)


def _fetch_http(url: str, part: Path, *, progress: bool, timeout: tuple[float, float]) -> None:
    import requests

    have = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    try:
        with requests.get(url, headers=headers, stream=True, timeout=timeout) as response:
            if response.status_code == 416 and have:  # the part is already the whole file
                return
            if response.status_code in _RETRY_STATUSES:
                raise _Retry(f"HTTP {response.status_code}")
            if response.status_code >= 400:
                raise BindsplitError(
                    f"could not download {url} (HTTP {response.status_code} "
                    f"{response.reason}); check the URL, or download it yourself and place it "
                    f"at {part.parent / part.name.removeprefix('.').removesuffix('.part')}"
                )
            resumed = response.status_code == 206
            if not resumed:
                have = 0  # the server sent the whole file
            length = response.headers.get("Content-Length")
            expected = have + int(length) if length is not None else None
            with open(part, "ab" if resumed else "wb") as out:
                _copy(response.iter_content(NET_CHUNK), out, have, expected, url, progress)
            if expected is not None and part.stat().st_size < expected:
                raise _Retry(
                    f"the response ended after {part.stat().st_size:,} of {expected:,} bytes"
                )
    except (requests.ConnectionError, requests.Timeout) as error:
        raise _Retry(type(error).__name__) from None
    except requests.exceptions.ChunkedEncodingError:
        raise _Retry("the response was cut short") from None


def _fetch_fsspec(url: str, part: Path, *, progress: bool) -> None:
    import fsspec

    try:
        with fsspec.open(url, "rb") as source, open(part, "wb") as out:
            size = getattr(source, "size", None)
            _copy(iter(lambda: source.read(IO_CHUNK), b""), out, 0, size, url, progress)
    except FileNotFoundError:
        raise BindsplitError(
            f"could not download {url} (no such file); check the URL, or download it yourself "
            f"and place it at {part.parent / part.name.removeprefix('.').removesuffix('.part')}"
        ) from None
    except (ConnectionError, TimeoutError) as error:
        raise _Retry(str(error) or type(error).__name__) from None


def _copy(
    chunks: Iterator[bytes], out: BinaryIO, have: int, total: int | None, url: str, progress: bool
) -> None:
    with progress_bar(
        total=total,
        initial=have,
        unit="B",
        unit_scale=True,
        desc=f"downloading {url_file_name(url, 'file')}",
        disable=not progress,
    ) as bar:
        for chunk in chunks:
            out.write(chunk)
            bar.update(len(chunk))
