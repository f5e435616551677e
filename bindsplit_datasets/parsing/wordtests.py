"""Tests of a word alone (its form, its word classes, the word tables), by the name a unit
pattern of the rule table gives them (``"test": "participle-form"``, :mod:`.patterns`), and for
the rules in code."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from . import lexicon as lx
from . import wordclasses as wc

__all__ = ["WORD_TESTS", "is_adjective", "participle_form"]


@lru_cache(maxsize=1 << 16)
def is_adjective(word: str) -> bool:
    """Whether a word the tagger calls an adjective is one: a lexicon word, a hyphenated
    compound ("snow covered", "park like"), a word the word-class table knows as an adjective or,
    for a word it does not know, one with a typical adjective ending."""
    if word in lx.ATTRIBUTES or " " in word:
        return True
    if word in lx.SUFFIX_EXCEPTIONS or word in lx.NOUN_MODIFIERS:
        return False  # "table", "flatbed", "building"; "video game", "vegetable dish"
    known = wc.classes(word)
    if known:
        return bool(known & wc.ADJECTIVE)  # "abstract", "standard"; not "kitchen", "ski"
    return (  # unknown: by its ending
        len(word) > 4 and word.endswith(lx.ADJECTIVE_SUFFIXES) and word not in lx.SUFFIX_EXCEPTIONS
    )


def participle_form(word: str) -> bool:
    """Whether a word has the form of a participle ("squinting", "leashed"), not of a noun that
    looks like one ("bed", "building")."""
    return (
        len(word) > 3
        and word.endswith(("ing", "ed", "en"))
        and word not in lx.SUFFIX_EXCEPTIONS
        and word not in lx.ING_NOUNS
    )


#: Each named test of a word (its key: lower case, hyphens read as spaces).
WORD_TESTS: dict[str, Callable[[str], bool]] = {
    "adjective": is_adjective,
    "participle-form": participle_form,
}
