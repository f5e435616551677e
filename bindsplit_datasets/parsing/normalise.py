"""What the parser gives and how its words are normalised: the (attribute, object) binding
(protocol section 1), the (subject, relation, object) triple (SPEC section 1b) and the record of
the normalisation every fingerprint keeps (:data:`NORMALISATION`).

Structured sources (ARO's ``attributes``/``obj1_name``, the synthetic world) go through the same
normalisation as what the parser reads in captions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from . import lexicon as lx
from . import wordclasses as wc
from .singulars import asks_inflect, inflect_singular
from .tagger_weights import SOURCE_RESOURCE
from .text import tokenise

__all__ = [
    "NORMALISATION",
    "Binding",
    "Relation",
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


@dataclass(frozen=True, order=True)
class Relation:
    """A (subject, relation, object) triple stated by a caption, each part normalised (SPEC §1b)."""

    subject: str
    relation: str
    object: str

    def __str__(self) -> str:
        return f"{self.subject} {self.relation} {self.object}"


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
    if not asks_inflect(word):
        return word
    singular = inflect_singular(word)
    if singular == word:
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


#: How bindings are normalised; recorded in every reference-index fingerprint.
NORMALISATION: dict[str, object] = {
    "case": "lower",
    "text": "NFKC; control characters, symbols and emoji read as spaces",
    "tokeniser": "regex; hyphenated words kept whole (hyphenated attribute coordinations split); "
    "possessive 's split off",
    "tagger": f"NLTK's averaged perceptron ({SOURCE_RESOURCE}), weights shipped; "
    "article-less noun phrases tagged with their article restored",
    "word_classes": "lemminflect 0.2.3's lookup tables (SPECIALIST Lexicon), table shipped",
    "object": "head noun with its compound, as written; last word singularised with inflect",
    "invariant_nouns": "singular words ending in s and pluralia tantum kept; glasses -> glass",
    "compounds": "kept (noun runs and the lexicon's compound list)",
    "attribute": "as written, lower case, hyphens kept; multi-word lexicon phrases and "
    "noun/adjective + participle kept whole ('snow covered', 'cream colored'); adverbs dropped",
    "lexicon_size": len(lx.ATTRIBUTES),
}
