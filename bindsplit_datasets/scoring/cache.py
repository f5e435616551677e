"""The embedding cache: embeddings (and pair scores) on disk, keyed by everything that changes them.

A second run of the same model over the same data skips the model entirely; a damaged entry is
discarded with a warning and recomputed, never used.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import atomic_file, write_text
from ..models.identity import json_digest

__all__ = ["CACHE_VERSION", "EmbeddingCache"]

logger = logging.getLogger(__name__)

#: Bumped whenever the meaning of a cached embedding changes.
CACHE_VERSION = 2

#: Largest deviation from unit norm of a valid cached (L2-normalised) embedding.
_NORM_TOLERANCE = 1e-3


class EmbeddingCache:
    """Embeddings on disk, one folder per *run key*, one ``.npz`` per kind (images, captions;
    ``pairs`` for a pair scorer's scores, stored as one-dimensional rows that are not normalised).

    The run key is a hash of everything that changes an embedding: model identity (Hub id and
    commit, or a digest of the weights), class, dtype, mixed precision and the preprocessing
    (image transform, tokenizer, padding, text length). Items are keyed by content hash, so the
    same image under another row or file name is a hit. Files are written to a temporary sibling
    and renamed into place, so an interrupted run never leaves a torn file; a file or an entry
    that is damaged anyway (unreadable, wrong width, not finite, not unit norm) is discarded with
    a warning, and its items are encoded again.
    """

    def __init__(self, root: str | Path, run_key: Mapping[str, Any]) -> None:
        self.run_key = dict(run_key)
        self.key = json_digest(self.run_key)
        self.directory = Path(root) / self.key
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str) -> Path:
        return self.directory / f"{kind}.npz"

    def has(self, kind: str) -> bool:
        """Whether embeddings of ``kind`` were stored."""
        return self._path(kind).is_file()

    def _read(self, path: Path) -> tuple[np.ndarray, np.ndarray]:
        with np.load(path, allow_pickle=False) as stored:
            keys, embeddings = stored["keys"], stored["embeddings"]
        if keys.ndim != 1 or embeddings.ndim != 2 or len(keys) != len(embeddings):
            raise ValueError(f"{len(keys)} keys for embeddings of shape {embeddings.shape}")
        if embeddings.dtype.kind != "f":
            raise ValueError(f"embeddings of type {embeddings.dtype}")
        return keys, embeddings

    def load(
        self, kind: str, width: int | None = None, *, unit_norm: bool = True
    ) -> dict[str, np.ndarray]:
        """Every valid stored embedding of ``kind`` (of ``width`` dimensions, when given), by
        item key. ``unit_norm``: entries must be L2-normalised (false for pair scores, which
        must only be finite)."""
        path = self._path(kind)
        if not path.is_file():
            return {}
        try:
            keys, embeddings = self._read(path)
        except Exception as error:  # any damage: the file is ours to rewrite
            logger.warning("discarding the unreadable embedding cache %s (%s)", path, error)
            return {}
        if width is not None and embeddings.shape[1] != width:
            logger.warning(
                "discarding the embedding cache %s: its embeddings have %d dimensions, the "
                "model's have %d",
                path,
                embeddings.shape[1],
                width,
            )
            return {}
        with np.errstate(invalid="ignore", over="ignore"):
            norms = np.linalg.norm(embeddings, axis=1)
        valid = np.isfinite(embeddings).all(axis=1)
        if unit_norm:
            valid &= np.abs(norms - 1) <= _NORM_TOLERANCE
        if not valid.all():
            logger.warning(
                "discarding %d damaged entries (not finite or not unit norm) of the embedding "
                "cache %s; they are encoded again",
                int((~valid).sum()),
                path,
            )
        return {str(k): e for k, e, ok in zip(keys.tolist(), embeddings, valid, strict=True) if ok}

    def store(
        self, kind: str, entries: Mapping[str, np.ndarray], *, unit_norm: bool = True
    ) -> None:
        """Add ``entries`` to the stored embeddings of ``kind`` (atomic rewrite of its file)."""
        if not entries:
            return
        width = len(next(iter(entries.values())))
        merged = {**self.load(kind, width, unit_norm=unit_norm), **entries}
        self.directory.mkdir(parents=True, exist_ok=True)
        write_text(self.directory / "run_key.json", json.dumps(self.run_key, indent=2, default=str))
        keys = np.array(list(merged), dtype=str)
        precision = np.float32 if unit_norm else np.float64  # pair scores: as precise as given
        embeddings = np.stack([np.asarray(v, dtype=precision) for v in merged.values()])
        with atomic_file(self._path(kind)) as temporary, open(temporary, "wb") as file:
            np.savez(file, keys=keys, embeddings=embeddings)
