"""The tags the word-class table rules out, corrected (the first pass of :mod:`.corrections`).

The table (:mod:`.wordclasses`) tells what parts of speech a word form *can* have; a tag it rules
out is mended where the word's form agrees: "a mossy/NN brick wall" (an adjective), "a tattooed/NN
woman" (a participle), "a cup/JJ full of coffee" (a noun), "a stove top oven/VBN" (a noun).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, NOUN, OTHER, PART, PREP, VERB, WEAK
from .memo import Memo
from .passes import trigger
from .ruleset import rule_name
from .units import _MODIFIED, _NOUN_PHRASE_DETERMINERS, _OPEN_CLASS, Units, is_adjective

__all__ = ["ing_nouns_read_as_gerunds", "word_classes"]

#: Kinds that open a verb's object right after it ("building sandcastle", "building a fort").
_OBJECT_OPENERS = frozenset((DET, ATTR, WEAK, PART, GERUND, NOUN))
#: Endings that confirm the word-class table's "adjective, not a noun" ("mossy", "wooden").
_ADJECTIVE_ENDINGS: tuple[str, ...] = wl.endings("endings", "adjective")
#: The endings that make a word the word-class table lacks an adjective ("shirtless"); short
#: noun-like endings ("y", "al", "ic") are left out.
_UNKNOWN_ADJECTIVE_ENDINGS: tuple[str, ...] = wl.endings("endings", "unknown-adjective")


@dataclass(frozen=True)
class _Slip:
    """One reading the word-class table rules out: for a unit of one of ``kinds`` whose word and
    classes pass ``word``, and whose neighbours pass ``context``, rule ``rule`` gives the unit
    the kind ``becomes`` returns for its word."""

    rule: str
    kinds: frozenset[str]
    word: Callable[[str, int], bool]
    becomes: Callable[[str], str]
    context: Callable[[Units, int], bool] = lambda units, i: True

    def __post_init__(self) -> None:
        rule_name(self.rule)  # a rule of the table, or a clear error at import


def _modifier_slot(units: Units, i: int) -> bool:
    """Whether unit ``i`` stands where a modifier stands: before what a modifier modifies, or
    right after a copula."""
    return units.kind_at(i + 1) in _MODIFIED or units.kind_at(i - 1) == COPULA


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


def _gerund_or(kind: str) -> Callable[[str], str]:
    """A word in -ing becomes a gerund, any other word ``kind``."""
    return lambda word: GERUND if word.endswith("ing") else kind


#: The one slip tried on a word of the lexicon read as a noun it cannot be: an attribute ("a
#: rocker wooden/NN bench", "a plate empty/NN of food"); read as anything else it is left alone.
_LEXICON_WORD = _Slip(
    "lexicon-word-no-noun", frozenset((NOUN,)), lambda word, known: True, lambda word: ATTR
)

#: The slips tried on any other word, in order; the first that fires corrects it.
_SLIPS: tuple[_Slip, ...] = (
    _Slip(  # "a couple hung/NN in front", "dressed in uniform preparing/NN for the day"
        "verb-tagged-as-noun-after-noun",
        frozenset((NOUN,)),
        lambda word, known: (
            bool(known & wc.VERB) and not word.endswith("s") and word not in lx.ING_NOUNS
        ),
        _gerund_or(OTHER),
        lambda units, i: (
            (units.kind_at(i - 1) == NOUN or units.key[i].endswith("ing"))
            and units.kind_at(i + 1) != NOUN
        ),
    ),
    _Slip(  # "a mossy/NN brick wall", "thorny/NN green bushes"
        "adjective-tagged-as-noun",
        frozenset((NOUN,)),
        lambda word, known: bool(known & wc.ADJECTIVE) and word.endswith(_ADJECTIVE_ENDINGS),
        lambda word: ATTR,
        _modifier_slot,
    ),
    _Slip(  # a word the table lacks: "the shirtless/NN men"
        "unknown-adjective-tagged-as-noun",
        frozenset((NOUN,)),
        lambda word, known: not known and word.endswith(_UNKNOWN_ADJECTIVE_ENDINGS),
        lambda word: ATTR,
        _modifier_slot,
    ),
    _Slip(  # "a tattooed/NN woman"
        "participle-tagged-as-noun",
        frozenset((NOUN,)),
        lambda word, known: (bool(known & wc.VERB) or not known) and _participle_form(word),
        _gerund_or(PART),
        _modifier_slot,
    ),
    _Slip(  # a reduced relative: "people scattered/JJ outside of a building", "tags attached/JJ"
        "reduced-relative-participle",
        frozenset((ATTR,)),
        lambda word, known: (
            bool(known & wc.VERB) and word.endswith("ed") and _participle_form(word)
        ),
        lambda word: PART,
        lambda units, i: units.kind_at(i - 1) == NOUN and units.kind_at(i + 1) in (PREP, OTHER),
    ),
    _Slip(  # "a cup/JJ full of coffee"
        "noun-tagged-as-adjective",
        frozenset((ATTR,)),
        lambda word, known: bool(known & wc.NOUN) and not is_adjective(word),
        lambda word: NOUN,
    ),
    _Slip(
        "participle-tagged-as-adjective",
        frozenset((ATTR,)),
        lambda word, known: (
            bool(known & wc.VERB) and not is_adjective(word) and _participle_form(word)
        ),
        _gerund_or(PART),
    ),
    _Slip(  # no verb at all: "a fed ex/VBD truck", "a stove top oven/VBN"
        "noun-tagged-as-verb",
        frozenset((VERB, PART)),
        lambda word, known: bool(known & wc.NOUN) and not known & wc.VERB,
        lambda word: NOUN,
    ),
    _Slip(  # only a noun: "a blue padded hallway/RB"
        "noun-tagged-as-adverb",
        frozenset((ADV,)),
        lambda word, known: known == wc.NOUN,
        lambda word: NOUN,
    ),
    _Slip(  # "a stainless steel stove/VBD top", "a transparent snow/VBZ board"
        "verb-form-opening-noun-phrase",
        frozenset((VERB, OTHER)),
        lambda word, known: bool(known & wc.NOUN) or word in lx.ING_NOUNS,
        lambda word: NOUN,
        _opens_noun_phrase,
    ),
    _Slip(  # a noun in -ing: "a grey building/VBG"; not "a sleeping cat"
        "verb-form-opening-noun-phrase",
        frozenset((GERUND,)),
        lambda word, known: word in lx.ING_NOUNS,
        lambda word: NOUN,
        _opens_noun_phrase,
    ),
    _Slip(  # not where the form is a participle's: "a parked car"
        "verb-form-opening-noun-phrase",
        frozenset((PART,)),
        lambda word, known: (
            (bool(known & wc.NOUN) or word in lx.ING_NOUNS)
            and (not known & wc.VERB or not _participle_form(word))
        ),
        lambda word: NOUN,
        _opens_noun_phrase,
    ),
)


def _slips_of(unit: tuple[str, str]) -> tuple[_Slip, ...]:
    """The slips a unit (its key and kind) may be, by its word alone: none for a closed-class
    reading, a phrase, a non-attribute, a noun that can be one, or a word of the lexicon read as
    anything but a noun."""
    word, kind = unit
    if kind not in _OPEN_CLASS or " " in word or word in lx.NON_ATTRIBUTES:
        return ()
    known = wc.classes(word)
    if kind == NOUN and known & wc.NOUN:
        return ()
    if word in lx.ATTRIBUTES:
        return (_LEXICON_WORD,) if kind == NOUN else ()
    return tuple(slip for slip in _SLIPS if kind in slip.kinds and slip.word(word, known))


#: :func:`_slips_of` of every (key, kind) seen.
_SLIPS_OF: Memo[tuple[str, str], tuple[_Slip, ...]] = Memo(_slips_of)


@trigger(unit=lambda unit: bool(_SLIPS_OF[unit.key, unit.kind]))
def word_classes(units: Units) -> None:
    """Tags the word-class table rules out. The table tells what a word *can* be; it misses some
    readings of regular words ("pan" as a noun), so a reading is only taken away where the form
    itself agrees (the slips of :data:`_SLIPS`, tried in order on each unit; a word of the
    lexicon only on :data:`_LEXICON_WORD`):

    - a word of the lexicon read as a noun it cannot be is an attribute ("a rocker wooden/NN
      bench");
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
    key, kind, fire = units.key, units.kind, units.trace.fire
    for i, slips in enumerate(map(_SLIPS_OF.__getitem__, zip(key, kind, strict=True))):
        for slip in slips:
            if slip.context(units, i) and fire(slip.rule, i):
                kind[i] = slip.becomes(key[i])
                break


@trigger(unit=lambda unit: unit.kind == GERUND and unit.key in lx.ING_NOUNS)
def ing_nouns_read_as_gerunds(units: Units) -> None:
    """A noun in -ing (``data/words/nouns.txt``, use ``ing``) the tagger reads as a gerund is the
    noun where no object follows it or where a preposition, an article or a modifier stands before
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
