"""The counting code both engines run: one block of raw caption values in, its counts out.

:func:`count_block` is what a worker does with a block of captions, whichever engine sent it
(a local process or a Ray task): check every value, digest the usable captions for the leakage
guard, and count their bindings, parsing each distinct caption once. :class:`Tally` is what the
driver does with the results: add the counts and merge the digests. Neither depends on the order
of the blocks, so an engine may combine them as they arrive.

Memory: a block's result holds its distinct bindings and its captions' 8-byte digests, never its
captions; a :class:`Tally` holds the distinct bindings of the whole corpus and one sorted array
of distinct caption digests (see :class:`DigestSet`).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..parsing import Binding, parse_bindings

__all__ = [
    "BlockCount",
    "DigestSet",
    "Tally",
    "bad_caption_error",
    "caption_digest",
    "caption_problem",
    "count_block",
    "normalise_caption",
]

_EMPTY_DIGESTS = np.empty(0, dtype=np.uint64)


def normalise_caption(text: str) -> str:
    """The caption form compared by the leakage guard.

    >>> normalise_caption("  A red  Apple.\\n")
    'a red apple'
    """
    return " ".join(text.lower().split()).rstrip(" .")


def caption_digest(text: str) -> int:
    """64-bit digest (BLAKE2b) of :func:`normalise_caption` of ``text``, as an unsigned int."""
    digest = hashlib.blake2b(normalise_caption(text).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def caption_problem(value: Any) -> str | None:
    """Why ``value`` is not a usable caption (``None``, not a string, blank), or ``None``.

    >>> [caption_problem(value) for value in ("a red apple", None, 3, " ")]
    [None, 'None', 'not a string (int)', 'empty']
    """
    if value is None:
        return "None"
    if not isinstance(value, str):
        return f"not a string ({type(value).__name__})"
    if not value.strip():
        return "empty"
    return None


def bad_caption_error(source: str, problem: str, position: int | None) -> ValueError:
    """The error of a strict build that met an unusable caption (``position``: its row in the
    corpus where the engine knows it)."""
    where = f"caption #{position}" if position is not None else "a caption"
    return ValueError(
        f"{source}: {where} is {problem}; fix the corpus or build without strict=True to skip "
        "(and count) such captions"
    )


@dataclass
class BlockCount:
    """What a worker sends back for one block of raw caption values.

    ``problem`` is set only by a strict count: (position in the block, what is wrong) of the
    first unusable value, and the block is then not counted.
    """

    counts: dict[tuple[str, str], int]
    digests: np.ndarray
    n_captions: int
    n_skipped: int
    problem: tuple[int, str] | None = None

    @property
    def n_values(self) -> int:
        """Values of the block looked at (usable and skipped)."""
        return self.n_captions + self.n_skipped


def count_block(values: Sequence[Any], strict: bool = False) -> BlockCount:
    """Check, digest and count one block of raw caption values.

    Unusable values (:func:`caption_problem`) are skipped and counted, or, with ``strict``, the
    first one is reported in :attr:`BlockCount.problem` and nothing is counted. Each distinct
    caption is parsed once and its bindings counted as often as it occurs. Bindings are plain
    ``(attribute, object)`` tuples: they cross process boundaries several times cheaper than
    :class:`~bindsplit_datasets.parsing.Binding` instances.
    """
    texts: list[str] = []
    skipped = 0
    for position, value in enumerate(values):
        problem = caption_problem(value)
        if problem is None:
            texts.append(value)
            continue
        if strict:
            return BlockCount({}, _EMPTY_DIGESTS, 0, 0, problem=(position, problem))
        skipped += 1
    counts: Counter[tuple[str, str]] = Counter()
    for text, times in Counter(texts).items():
        for binding in parse_bindings(text):
            counts[(binding.attribute, binding.object)] += times
    digests = np.unique(np.fromiter(map(caption_digest, texts), dtype=np.uint64, count=len(texts)))
    return BlockCount(dict(counts), digests, len(texts), skipped)


class DigestSet:
    """A growing set of caption digests kept as sorted unique ``uint64`` arrays.

    New arrays wait in a list and are merged into the main array once they hold as many digests
    as it does (at least ``min_merge``), so merging costs O(n log n) overall and memory stays
    within about twice the distinct digests.
    """

    def __init__(self, min_merge: int = 1 << 20) -> None:
        self._merged = _EMPTY_DIGESTS
        self._pending: list[np.ndarray] = []
        self._n_pending = 0
        self._min_merge = min_merge

    def add(self, digests: np.ndarray) -> None:
        """Add an array of digests (any order, duplicates allowed)."""
        if digests.size == 0:
            return
        self._pending.append(np.asarray(digests, dtype=np.uint64))
        self._n_pending += digests.size
        if self._n_pending >= max(self._merged.size, self._min_merge):
            self._merge()

    def _merge(self) -> None:
        if self._pending:
            self._merged = np.unique(np.concatenate([self._merged, *self._pending]))
            self._pending, self._n_pending = [], 0

    def array(self) -> np.ndarray:
        """Every digest added, sorted and unique."""
        self._merge()
        return self._merged


@dataclass
class Tally:
    """The running total of a build: binding counts, caption digests, caption counts."""

    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    digests: DigestSet = field(default_factory=DigestSet)
    n_captions: int = 0
    n_skipped: int = 0

    def add(self, block: BlockCount) -> None:
        """Add one block's result (blocks may come in any order)."""
        self.counts.update(block.counts)
        self.digests.add(block.digests)
        self.n_captions += block.n_captions
        self.n_skipped += block.n_skipped

    def bindings(self) -> dict[Binding, int]:
        """The counts keyed by :class:`~bindsplit_datasets.parsing.Binding`."""
        return {Binding(attribute, obj): n for (attribute, obj), n in self.counts.items()}
