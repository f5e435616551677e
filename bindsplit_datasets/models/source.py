"""What identifies a model string's weights *without loading them*: a results record carries it
(``model.source``), so a later run can tell whether a record on disk still describes the model.
Each model family of the registry (:mod:`.loaders`) says what identifies its weights, with the
helpers here:

- a local folder (Hugging Face, ``itm:`` or ``open_clip:local-dir:``): the SHA-256 of every
  weight file in it, by name; replacing ``model.safetensors`` changes it;
- a Hub id: the commit its revision resolves to (asked of the Hub, or read from the local cache
  when offline);
- ``open_clip:ARCH/FILE``: the open_clip string and the checkpoint file's SHA-256; a pretrained
  tag names fixed weights, so the string alone identifies it.

:func:`source_changes` compares two such descriptions and says, in words, what differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .identity import json_digest

__all__ = ["WEIGHT_PATTERNS", "source_changes", "source_weights", "weight_files_digest"]

#: Files holding weights, in any of the formats the loaders read.
WEIGHT_PATTERNS = ("*.safetensors", "*.bin", "*.pth", "*.pt")


def weight_files_digest(folder: Path) -> str:
    """A digest of every weight file of ``folder`` (names and SHA-256 of their bytes): what
    identifies a local folder's weights, in its record and in the scorer's cache key."""
    from ..downloads import file_digest

    files = sorted({path for pattern in WEIGHT_PATTERNS for path in folder.glob(pattern)})
    return json_digest({path.name: file_digest(path) for path in files})


def source_weights(source: Mapping[str, Any] | None) -> str | None:
    """The digest of the weight files a source description holds (a local folder's files, an
    open_clip checkpoint file), which then identifies the loaded weights too; ``None`` where
    the source names them otherwise (a Hub commit, an open_clip pretrained tag).

    >>> source_weights({"files": "ab12"}), source_weights({"hub": "o/n", "commit": "c0"})
    ('ab12', None)
    """
    if not source:
        return None
    value = source.get("files") or source.get("checkpoint")
    return None if value is None else str(value)


_WHAT = {
    "files": "the weight files",
    "commit": "the Hub commit",
    "checkpoint": "the checkpoint file",
    "open_clip": "the open_clip string",
    "hub": "the Hub id",
}


def source_changes(recorded: Mapping[str, Any] | None, current: Mapping[str, Any]) -> list[str]:
    """What differs between the source a record was made from and the model's source now, in
    words; empty when they agree.

    >>> source_changes({"files": "ab12"}, {"files": "cd34"})
    ['the weight files changed (ab12 -> cd34)']
    >>> source_changes(None, {"files": "cd34"})
    ['the record does not say which weights it was made from']
    """
    if recorded is None:
        return ["the record does not say which weights it was made from"]
    changes = []
    for key in dict.fromkeys([*recorded, *current]):
        before, after = recorded.get(key), current.get(key)
        if before != after:
            what = _WHAT.get(key, key)
            changes.append(f"{what} changed ({str(before)[:12]} -> {str(after)[:12]})")
    return changes
