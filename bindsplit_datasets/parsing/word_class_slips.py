"""The tags the word-class table rules out, corrected (the first pass of :mod:`.corrections`).

The table (:mod:`.wordclasses`) tells what parts of speech a word form *can* have; a tag it rules
out is mended where the word's form agrees: "a mossy/NN brick wall" (an adjective), "a tattooed/NN
woman" (a participle), "a cup/JJ full of coffee" (a noun), "a stove top oven/VBN" (a noun).
"""

from __future__ import annotations

from itertools import compress

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .memo import Memo
from .passes import trigger
from .units import (
    _MODIFIED,
    _NOUN_PHRASE_DETERMINERS,
    _OPEN_CLASS,
    ADV,
    ATTR,
    CONJ,
    COPULA,
    DET,
    GERUND,
    NOUN,
    OTHER,
    PART,
    PREP,
    VERB,
    WEAK,
    Units,
    is_adjective,
)

__all__ = ["ing_nouns_read_as_gerunds", "word_classes"]

#: Kinds that open a verb's object right after it ("building sandcastle", "building a fort").
_OBJECT_OPENERS = frozenset((DET, ATTR, WEAK, PART, GERUND, NOUN))
#: Endings that confirm the word-class table's "adjective, not a noun" ("mossy", "wooden").
_ADJECTIVE_ENDINGS: tuple[str, ...] = wl.endings("adjective_endings")
#: The endings that make a word the word-class table lacks an adjective ("shirtless"); short
#: noun-like endings ("y", "al", "ic") are left out.
_UNKNOWN_ADJECTIVE_ENDINGS: tuple[str, ...] = wl.endings("unknown_adjective_endings")


def _open_to_correction(unit: tuple[str, str]) -> bool:
    """Whether the word-class table may correct a unit (its key and kind): an open-class reading
    of one word that is no non-attribute, and neither a noun that can be one nor a word of the
    lexicon read as anything but a noun."""
    word, kind = unit
    if kind not in _OPEN_CLASS or " " in word or word in lx.NON_ATTRIBUTES:
        return False
    if kind == NOUN:
        return not wc.classes(word) & wc.NOUN
    return word not in lx.ATTRIBUTES


#: :func:`_open_to_correction` of every (key, kind) seen.
_OPEN_TO_CORRECTION: Memo[tuple[str, str], bool] = Memo(_open_to_correction)


@trigger(unit=lambda unit: _OPEN_TO_CORRECTION[unit.key, unit.kind])
def word_classes(units: Units) -> None:
    """Tags the word-class table rules out. The table tells what a word *can* be; it misses some
    readings of regular words ("pan" as a noun), so a reading is only taken away where the form
    itself agrees:

    - a "noun" that can be an adjective and not a noun, with an adjective ending, is an
      adjective before a noun ("a mossy/NN brick wall"); one that can only be a verb, in -ing or
      -ed, is a participle before a noun ("a squinting/NN tennis player", "a leashed/NN dog");
    - an "adjective" that is none (see :func:`is_adjective`) but can be a noun is a noun ("a
      cup/JJ full of coffee");
    - a "verb" inside a noun phrase, right after an article or an attribute, that can be a noun
      is one ("a stainless steel stove/VBD top", "a blue and silver train/VBP", "a grey
      building/VBG"); participles and gerunds keep their reading ("a parked car", "a sleeping
      cat") unless they are nouns in -ing ("building").
    """
    key, kind, n, fire = units.key, units.kind, units.n, units.trace.fire
    table = wc.table()
    for i in compress(range(n), map(_OPEN_TO_CORRECTION.__getitem__, zip(key, kind, strict=True))):
        word = key[i]
        known = table.get(word, 0)
        if word in lx.ATTRIBUTES:  # read as a noun that it cannot be
            if fire("lexicon-word-no-noun", i):
                kind[i] = ATTR  # "a rocker wooden/NN bench", "a plate empty/NN of food"
            continue
        if (
            kind[i] == NOUN
            and known & wc.VERB
            and not word.endswith("s")
            and (units.kind_at(i - 1) == NOUN or word.endswith("ing"))
            and units.kind_at(i + 1) != NOUN
            and word not in lx.ING_NOUNS
            and fire("verb-tagged-as-noun-after-noun", i)
        ):  # "a couple hung/NN in front", "dressed in uniform preparing/NN for the day"
            kind[i] = GERUND if word.endswith("ing") else OTHER
        elif kind[i] == NOUN and (
            units.kind_at(i + 1) in _MODIFIED or units.kind_at(i - 1) == COPULA
        ):  # a modifier slot
            if (
                known & wc.ADJECTIVE
                and word.endswith(_ADJECTIVE_ENDINGS)
                and fire("adjective-tagged-as-noun", i)
            ):
                kind[i] = ATTR  # "a mossy/NN brick wall", "thorny/NN green bushes"
            elif (
                not known
                and word.endswith(_UNKNOWN_ADJECTIVE_ENDINGS)
                and fire("unknown-adjective-tagged-as-noun", i)
            ):
                kind[i] = ATTR  # a word the table lacks: "the shirtless/NN men"
            elif (
                (known & wc.VERB or not known)
                and _participle_form(word)
                and fire("participle-tagged-as-noun", i)
            ):
                kind[i] = GERUND if word.endswith("ing") else PART  # "a tattooed/NN woman"
        elif (
            kind[i] == ATTR
            and known & wc.VERB
            and word.endswith("ed")
            and _participle_form(word)
            and word not in lx.ATTRIBUTES
            and units.kind_at(i - 1) == NOUN
            and units.kind_at(i + 1) in (PREP, OTHER)
            and fire("reduced-relative-participle", i)
        ):  # a reduced relative: "people scattered/JJ outside of a building", "tags attached/JJ"
            kind[i] = PART
        elif kind[i] == ATTR and known and not is_adjective(word):
            if known & wc.NOUN and fire("noun-tagged-as-adjective", i):
                kind[i] = NOUN
            elif (
                known & wc.VERB
                and _participle_form(word)
                and fire("participle-tagged-as-adjective", i)
            ):
                kind[i] = GERUND if word.endswith("ing") else PART
        elif (
            kind[i] in (VERB, PART)
            and known & wc.NOUN
            and not known & wc.VERB
            and fire("noun-tagged-as-verb", i)
        ):
            kind[i] = NOUN  # no verb at all: "a fed ex/VBD truck", "a stove top oven/VBN"
        elif kind[i] == ADV and known == wc.NOUN and fire("noun-tagged-as-adverb", i):
            kind[i] = NOUN  # only a noun: "a blue padded hallway/RB"
        elif (
            kind[i] in (VERB, PART, GERUND, OTHER)
            and (known & wc.NOUN or word in lx.ING_NOUNS)
            and _opens_noun_phrase(units, i)
            and (kind[i] != GERUND or word in lx.ING_NOUNS)
            and (kind[i] != PART or not known & wc.VERB or not _participle_form(word))
            and fire("verb-form-opening-noun-phrase", i)
        ):
            kind[i] = NOUN  # "a stainless steel stove/VBD top", "a transparent snow/VBZ board"


@trigger(unit=lambda unit: unit.kind == GERUND and unit.key in lx.ING_NOUNS)
def ing_nouns_read_as_gerunds(units: Units) -> None:
    """A noun in -ing (``data/words/ing_nouns.txt``) the tagger reads as a gerund is the noun
    where no object follows it or where a preposition, an article or a modifier stands before
    it: "building is tall", "dork with earring stands", "gold lettering on door"; not "man
    building sandcastle", "children building a fort"."""
    key, kind = units.key, units.kind
    for i in range(units.n):
        if kind[i] != GERUND or key[i] not in lx.ING_NOUNS:
            continue
        j = units.previous(i)
        before = units.kind_at(j)
        if (
            units.kind_at(units.following(i)) not in _OBJECT_OPENERS
            or before in (PREP, DET, ATTR, WEAK)
            or (before == NOUN and units.key[j] in lx.MATERIALS)  # "gold/NN lettering/VBG"
        ) and units.trace.fire("noun-in-ing-tagged-as-gerund", i):
            kind[i] = NOUN


def _participle_form(word: str) -> bool:
    """Whether a word has the form of a participle ("squinting", "leashed"), not of a noun that
    looks like one ("bed", "building")."""
    return (
        len(word) > 3
        and word.endswith(("ing", "ed", "en"))
        and word not in lx.SUFFIX_EXCEPTIONS
        and word not in lx.ING_NOUNS
    )


def _opens_noun_phrase(units: Units, i: int) -> bool:
    """Whether an article, a possessive or an attribute stands right before unit ``i``."""
    j = units.previous(i)
    if j < 0:
        return False
    if units.kind[j] in (ATTR, WEAK):
        return True
    if units.kind[j] == NOUN:  # "a grey/NN building/VBG", "a street light/VBD turned off"
        if units.key[j] in lx.ATTRIBUTES and units.kind_at(j - 1) in (DET, ATTR, CONJ):
            return True
        return units.kind_at(units.following(i)) in (COPULA, PART, VERB, GERUND)
    return units.kind[j] == DET and units.key[j] in _NOUN_PHRASE_DETERMINERS
