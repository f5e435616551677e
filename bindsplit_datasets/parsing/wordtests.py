"""Tests of a word alone (its form, its word classes, the word tables), by the name a unit
pattern of the rule table gives them (``"test": "participle-form"``, :mod:`.patterns`), and for
the rules in code."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .normalise import singularise
from .relation_words import verb_lemma

__all__ = [
    "WORD_TESTS",
    "animate",
    "irregular_participle",
    "is_adjective",
    "is_base_verb",
    "light_compound_head",
    "noun_like",
    "participle_form",
    "past_participle",
    "plural",
    "plural_noun",
    "plural_verb_form",
    "present_participle",
]


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


@lru_cache(maxsize=1 << 16)
def is_base_verb(word: str) -> bool:
    """Whether a word is the base form of a verb of :data:`lexicon.VERBS_3SG` ("hang" <-
    "hangs", "watch" <- "watches", "fly" <- "flies")."""
    forms = {word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    return not forms.isdisjoint(lx.VERBS_3SG)


def present_participle(word: str) -> bool:
    """Whether a word in -ing is a verb's participle ("spanning", "grazing"), not a noun in -ing
    ("building", "frosting", "evening")."""
    return len(word) > 5 and word.endswith("ing") and word not in lx.ING_NOUNS


def past_participle(word: str) -> bool:
    """Whether a word in -ed is the past form of a verb the word-class table knows ("parked" <-
    "park", "squared" <- "square", "stopped" <- "stop", "dried" <- "dry"), not a base form in
    -ed ("feed", "shed")."""
    if not word.endswith("ed") or len(word) < 5:
        return False
    stems = {word[:-2], word[:-1], word[:-3] if word[-3] == word[-4] else "", word[:-3] + "y"}
    return any(stem and wc.classes(stem) & wc.VERB for stem in stems)


def irregular_participle(word: str) -> bool:
    """Whether a word is only a verb form other than its base ("torn", "spun", "hung"): a
    participle before a noun, never the first noun of a compound."""
    return wc.classes(word) == wc.VERB and verb_lemma(word) != word


def noun_like(word: str) -> bool:
    """Whether a word can be a noun: the word-class table says so, or it is a hyphenated word
    (keyed with a space) the table lacks whose last part is only a noun ("t-shirt")."""
    if wc.classes(word) & wc.NOUN:
        return True
    return " " in word and not wc.classes(word) and wc.classes(word.rsplit(" ", 1)[1]) == wc.NOUN


def plural(word: str) -> bool:
    """Whether a word is not its own singular ("dogs", "men")."""
    return singularise(word) != word


def plural_noun(word: str) -> bool:
    """Whether a word is the plural of a noun ("zebras")."""
    singular = singularise(word)
    return word != singular and bool(wc.classes(singular) & wc.NOUN)


def plural_verb_form(word: str) -> bool:
    """Whether a word looks plural and its singular can be a verb ("stops", "houses"): a
    third-person verb the tagger may read as a plural noun."""
    singular = singularise(word)
    return word != singular and bool(wc.classes(singular) & wc.VERB)


def light_compound_head(word: str) -> bool:
    """Whether the first word of ``word``, singular, makes a compound with "light" before it
    ("light pole", "light beams")."""
    return singularise(word.split()[0]) in _LIGHT_COMPOUND_HEADS


_LIGHT_COMPOUND_HEADS: frozenset[str] = wl.words("nouns", "light-compound")


def animate(word: str) -> bool:
    """Whether a word, singular, names a person or an animal (``nouns``, use ``animate``:
    "men", "dog"), of a compound its last word ("police officer")."""
    return singularise(word.rpartition(" ")[2]) in lx.ANIMATE_NOUNS


#: Each named test of a word (its key: lower case, hyphens read as spaces).
WORD_TESTS: dict[str, Callable[[str], bool]] = {
    "adjective": is_adjective,
    "animate": animate,
    "base-verb": is_base_verb,
    "irregular-participle": irregular_participle,
    "letter-first": lambda word: word[0].isalpha(),
    "light-compound-head": light_compound_head,
    "noun-like": noun_like,
    "participle-form": participle_form,
    "past-participle": past_participle,
    "plural": plural,
    "plural-noun": plural_noun,
    "plural-verb-form": plural_verb_form,
    "present-participle": present_participle,
}
