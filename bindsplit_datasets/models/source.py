"""What identifies a model string's weights *without loading them*: a results record carries it
(``model.source``), so a later run can tell whether a record on disk still describes the model.

- a local folder (Hugging Face, ``itm:`` or ``open_clip:local-dir:``): the SHA-256 of every
  weight file in it, by name; replacing ``model.safetensors`` changes it;
- a Hub id: the commit its revision resolves to (asked of the Hub, or read from the local cache
  when offline);
- ``open_clip:ARCH/FILE``: the open_clip string and the checkpoint file's SHA-256; a pretrained
  tag names fixed weights, so the string alone identifies it.

:func:`source_changes` compares two such descriptions and says, in words, what differs.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .identity import json_digest

__all__ = ["WEIGHT_PATTERNS", "model_source", "source_changes"]

logger = logging.getLogger(__name__)

#: Files holding weights, in any of the formats the loaders read.
WEIGHT_PATTERNS = ("*.safetensors", "*.bin", "*.pth", "*.pt")


def _weight_files(folder: Path) -> str:
    """A digest of every weight file of ``folder`` (names and SHA-256 of their bytes)."""
    from ..downloads import file_digest

    files = sorted({path for pattern in WEIGHT_PATTERNS for path in folder.glob(pattern)})
    return json_digest({path.name: file_digest(path) for path in files})


def _hub_commit(identifier: str, revision: str | None) -> str | None:
    """The commit ``revision`` of a Hub model resolves to: asked of the Hub, else the cache."""
    from huggingface_hub import HfApi, constants

    if not constants.HF_HUB_OFFLINE:
        try:
            return HfApi().model_info(identifier, revision=revision).sha
        except Exception as error:  # no network, private: fall back to the local cache
            logger.debug("cannot ask the Hub for %s (%s); using the local cache", identifier, error)
    from .hf import hub_commit

    return hub_commit(identifier, revision)


def model_source(spec: str | os.PathLike[str], revision: str | None = None) -> dict[str, Any]:
    """What identifies the weights of model string ``spec`` at ``revision`` (module docstring).

    >>> model_source("open_clip:ViT-B-32/openai")
    {'open_clip': 'ViT-B-32/openai'}
    """
    from .loaders import DEFAULT_PREFIX, split_spec

    prefix, rest = (
        (DEFAULT_PREFIX, os.fspath(spec)) if isinstance(spec, os.PathLike) else split_spec(spec)
    )
    if prefix == "open_clip":
        from .open_clip import parse_spec

        model_name, pretrained = parse_spec(rest)
        if model_name.startswith("local-dir:"):
            folder = Path(model_name.removeprefix("local-dir:")).expanduser()
            return {"open_clip": rest, "files": _weight_files(folder)}
        if pretrained is not None and Path(pretrained).expanduser().is_file():
            from ..downloads import file_digest

            return {"open_clip": rest, "checkpoint": file_digest(Path(pretrained).expanduser())}
        return {"open_clip": rest}
    path = Path(rest).expanduser()
    if path.is_dir():
        return {"files": _weight_files(path)}
    from .hf import check_source

    check_source(rest)  # a missing folder or a file: the loader's one-line error, not the Hub's
    return {"hub": rest, "commit": _hub_commit(rest, revision)}


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
