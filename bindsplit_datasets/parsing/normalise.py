"""The (attribute, object) binding and how its two words are normalised (protocol section 1).

Structured sources (ARO's ``attributes``/``obj1_name``, the synthetic world) go through the same
normalisation as what the parser reads in captions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .text import tokenise

__all__ = [
    "PLURALS_WITHOUT_S",
    "Binding",
    "normalise_attribute",
    "normalise_binding",
    "normalise_object",
    "object_of",
    "singularise",
]


@dataclass(frozen=True, order=True)
class Binding:
    """An (attribute, object) pair stated by a caption, both normalised (docs/protocol.md, section
    1)."""

    attribute: str
    object: str

    def __str__(self) -> str:
        return f"{self.attribute} {self.object}"


@lru_cache(maxsize=1)
def _inflect_engine() -> Any:
    import inflect

    return inflect.engine()


#: Plural nouns without a final s ("men", "feet", "criteria"): other words without one are singular.
PLURALS_WITHOUT_S: frozenset[str] = wl.words("nouns", "plural-without-s")


@lru_cache(maxsize=1 << 16)
def singularise(word: str) -> str:
    """The singular of a lower-case noun; words that are not plural come back unchanged.

    >>> [singularise(w) for w in ("bananas", "bus", "buses", "people", "scissors", "cactus")]
    ['banana', 'bus', 'bus', 'person', 'scissors', 'cactus']
    >>> singularise("t-shirts")
    't-shirt'
    >>> singularise("atlas")
    'atlas'
    """
    if "-" in word:  # a hyphenated noun: its last part is the one in the plural
        head, _, last = word.rpartition("-")
        return f"{head}-{singularise(last)}" if last else word
    if (
        len(word) < 3
        or (word[-1] != "s" and word not in PLURALS_WITHOUT_S)  # singular: inflect not asked
        or word in lx.INVARIANT_NOUNS
        or word.endswith("ss")
        or (word.endswith("us") and word not in lx.PLURAL_US_NOUNS)
    ):
        return word
    singular = _inflect_engine().singular_noun(word)
    if not isinstance(singular, str) or not singular:
        return word
    if not wc.classes(singular) and wc.classes(word):
        return word  # a known word whose "singular" is no word: "atlas", "rhinoceros", "ferris"
    return singular


def _words(text: str) -> list[str]:
    return " ".join(tokenise(text)).replace(" '", "'").split()


def normalise_object(noun_phrase: str) -> str:
    """The object form of a noun phrase: lower case, words as written (compounds kept, hyphens
    kept, nothing joined), the last word singular.

    >>> normalise_object("Teddy Bears"), normalise_object("fire-hydrants"), normalise_object("bus")
    ('teddy bear', 'fire-hydrant', 'bus')
    >>> normalise_object("lap tops"), normalise_object("T-Shirts")
    ('lap top', 't-shirt')
    """
    return object_of(_words(noun_phrase))


def object_of(units: Sequence[str]) -> str:
    """Words (or multi-word units) of a noun phrase as written -> its object form: the words
    joined by single spaces, the last one singular."""
    words = " ".join(units).split()
    if not words:
        return ""
    return " ".join([*words[:-1], singularise(words[-1])])


def normalise_attribute(attribute: str) -> str:
    """The attribute form of a modifier: lower case, as written (hyphens kept), spaces collapsed.

    >>> normalise_attribute(" Light-Brown "), normalise_attribute("dark  blue")
    ('light-brown', 'dark blue')
    """
    return " ".join(_words(attribute))


def normalise_binding(attribute: str, object: str) -> Binding:
    """A :class:`Binding` from structured fields (e.g. ARO's ``attributes`` / ``obj1_name``),
    normalised exactly as the parser normalises what it reads in captions."""
    return Binding(normalise_attribute(attribute), normalise_object(object))
