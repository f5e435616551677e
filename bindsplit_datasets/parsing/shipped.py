"""Data files shipped inside the package (tagger weights, word-class table, verb lemmas), read
with the one error a user can act on: a missing or altered file names itself and says to
reinstall."""

from __future__ import annotations

import hashlib
from typing import Any

from ..errors import PackageDataError

__all__ = ["read_shipped"]


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
