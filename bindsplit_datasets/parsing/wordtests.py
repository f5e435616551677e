"""Tests of a word alone (its form, its word classes, the word tables), by the name a unit
pattern of the rule table gives them (``"test": "participle-form"``, :mod:`.patterns`)."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["WORD_TESTS"]

#: Each named test of a word (its key: lower case, hyphens read as spaces).
WORD_TESTS: dict[str, Callable[[str], bool]] = {}
