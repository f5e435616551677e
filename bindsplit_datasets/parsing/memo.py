"""A pure function's values, remembered in a dictionary: per-unit tests at C speed.

The parser asks the same questions of the same few thousand words in every caption ("can this
word read as this kind be corrected?"). Asked through a Python function, each question costs a
call; asked as ``memo[key]`` of a :class:`Memo`, it costs a dictionary look-up, and
``map(memo.__getitem__, zip(keys, kinds))`` asks it of every unit of a caption without a line of
Python per unit.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(dict[K, V]):
    """``function(key)`` for every key looked up, computed on the first look-up and remembered;
    after ``limit`` distinct keys all are forgotten at once (a bound on memory in a long run,
    as the parser's other caches have)."""

    def __init__(self, function: Callable[[K], V], limit: int = 1 << 16) -> None:
        super().__init__()
        self._function = function
        self._limit = limit

    def __missing__(self, key: K) -> V:
        value = self._function(key)
        if len(self) >= self._limit:
            self.clear()
        self[key] = value
        return value
