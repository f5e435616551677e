"""Data files shipped inside the package (tagger weights, word-class, verb lemma and singular
tables), read with the one error a user can act on: a missing or altered file names itself and
says to reinstall; and the one format of the word tables (``key<TAB>value`` lines, gzip without
a time stamp, so that an export gives the same bytes, and so the same SHA-256, on every
machine)."""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..atomic import atomic_file
from ..errors import PackageDataError

__all__ = ["read_shipped", "read_table", "write_table"]


def read_shipped(path: Any, what: str, sha256: str | None = None) -> bytes:
    """The bytes of the shipped file at ``path`` (a path or an importlib resource), ``what``
    naming it in errors ("the tagger weights tagger.npz"); with ``sha256``, checked against it.
    Raises :class:`~bindsplit_datasets.errors.PackageDataError` when the file is missing or
    its digest differs."""
    try:
        data: bytes = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise PackageDataError(
            f"{what} is missing from the installed package (looked at {path}); reinstall "
            "bindsplit-datasets"
        ) from None
    if sha256 is not None:
        digest = hashlib.sha256(data).hexdigest()
        if digest != sha256:
            raise PackageDataError(
                f"{what} at {path} has SHA-256 {digest}, not {sha256}: the file was changed or "
                "damaged; reinstall bindsplit-datasets"
            )
    return data


def read_table(data: bytes) -> dict[str, str]:
    """The ``key -> value`` pairs of a shipped word table's bytes."""
    table = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        key, _, value = line.partition("\t")
        table[key] = value
    return table


def write_table(pairs: Iterable[tuple[str, object]], out: str | Path) -> str:
    """Write ``pairs`` as a shipped word table at ``out`` (atomically) and return its SHA-256."""
    text = "".join(f"{key}\t{value}\n" for key, value in pairs)
    data = gzip.compress(text.encode("utf-8"), mtime=0)
    with atomic_file(out) as temporary:
        temporary.write_bytes(data)
    return hashlib.sha256(data).hexdigest()
