"""The noun tables of the binding parser: objects kept whole, nouns normalisation leaves alone,
and nouns that look like adjectives or participles.

:data:`COMPOUND_NOUNS` are multi-word objects whose first word would otherwise read as an
attribute; :data:`INVARIANT_NOUNS` and :data:`PLURAL_US_NOUNS` guide singularisation; the other
tables keep a noun from being read as an attribute or a verb for its form ("a video game",
"table", "building") and name the "N1 of N2" words whose N2 a predicate describes. The tables are
data files (``data/words/<table>.txt``, read by :mod:`.wordlists`); the parser reads them through
:mod:`.lexicon`.
"""

from __future__ import annotations

from . import wordlists as wl

__all__ = [
    "COMPOUND_NOUNS",
    "GROUP_NOUNS",
    "ING_NOUNS",
    "INVARIANT_NOUNS",
    "NOUN_MODIFIERS",
    "PLURAL_US_NOUNS",
    "SUFFIX_EXCEPTIONS",
]

# --- objects ---------------------------------------------------------------------------------

#: Multi-word objects kept whole, written in the singular, whose first word would otherwise be read
#: as an attribute (an adjective, a gerund or a lexicon word). Noun + noun compounds ("fire
#: hydrant", "tennis racket") need no entry: a run of nouns is always one object.
COMPOUND_NOUNS: frozenset[str] = wl.words("compound_nouns")

#: Nouns singularisation leaves as they are: singular words ending in "s" and pluralia tantum.
#: ("glasses" is not here on purpose: tag-free normalisation cannot tell eyewear from drinking
#: glasses, so both become "glass", which keeps "wine glasses" == "wine glass".)
INVARIANT_NOUNS: frozenset[str] = wl.words("invariant_nouns")

#: Plural nouns ending in "us" (every other word ending in "us" is singular: bus, cactus, ...).
PLURAL_US_NOUNS: frozenset[str] = wl.words("plural_us_nouns")

# --- nouns that look like attributes or verbs -------------------------------------------------

#: Nouns that can be adjectives but before a noun name its kind, not a property ("a video game",
#: "a vegetable dish", "a chocolate cake"): a compound, even where the tagger says adjective.
NOUN_MODIFIERS: frozenset[str] = wl.words("noun_modifiers")

#: Nouns with an adjective ending ("table", "bed", "library").
SUFFIX_EXCEPTIONS: frozenset[str] = wl.words("suffix_exceptions")

#: Nouns in -ing, which are no verb's participle after another noun ("a stone building", "a
#: wedding ring", "a tile flooring").
ING_NOUNS: frozenset[str] = wl.words("ing_nouns")

#: "N1 of N2" words whose N2 is what a predicate describes ("a bowl of soup is hot" -> soup).
GROUP_NOUNS: frozenset[str] = wl.words("group_nouns")
