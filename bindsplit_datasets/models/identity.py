"""What a results record says about a model, and the digests that make it unambiguous.

A record names the model by its Hub id and commit, its open_clip spec, or (for a local folder or
a model built in Python) a display name plus a digest of its weights: never by a machine's
absolute path, so records from different machines compare.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import torch

__all__ = ["ModelIdentity", "digest", "folder_name", "json_digest", "weights_digest"]


@dataclass(frozen=True)
class ModelIdentity:
    """The identity of a scored model, as recorded in results and in the embedding-cache key.

    Attributes:
        id: display name: a Hub id, an open_clip spec, a folder's name or the name the user gave.
        revision: the Hub commit the weights came from (``None`` when unknown).
        weights: digest of every parameter and buffer, when no revision pins the weights.
        cls: the model's class name (``"class"`` in the record).
        library: ``"transformers"``, ``"open_clip"``, or what a custom encoder says.
    """

    id: str
    revision: str | None
    weights: str | None
    cls: str
    library: str

    def to_record(self) -> dict[str, Any]:
        """The ``model`` block of a results record."""
        return {
            "id": self.id,
            "revision": self.revision,
            "weights": self.weights,
            "class": self.cls,
            "library": self.library,
        }


def digest(data: bytes | str) -> str:
    """A short content hash (blake2b, 128 bits, hex)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def json_digest(value: Any) -> str:
    """:func:`digest` of a JSON-able value (keys sorted, so equal values hash alike)."""
    return digest(json.dumps(value, sort_keys=True, default=str))


def weights_digest(module: torch.nn.Module) -> str:
    """Content hash of every parameter and buffer, by name (identity of unpinned weights)."""
    import torch

    hasher = hashlib.blake2b(digest_size=16)
    for name, tensor in sorted(module.state_dict().items()):
        hasher.update(name.encode("utf-8"))
        hasher.update(str(tensor.dtype).encode("utf-8"))
        flat = tensor.detach().cpu().contiguous().reshape(-1)
        hasher.update(flat.view(torch.uint8).numpy().tobytes())
    return hasher.hexdigest()


def folder_name(path: str | Path) -> str:
    """The last component of a local path (``/home/me/runs/clip-ft/`` -> ``clip-ft``)."""
    return Path(path).expanduser().resolve().name
