"""The tagger's slips around verbs, corrected (called by :mod:`.corrections`, in its order).

Captions are mostly noun phrases, so the tagger reads a verb where a noun stands and a noun where
a verb stands:

- verbs tagged as nouns after their subject ("a bird lands/NNS on", "flags hang/NN from", "red
  buses line/NN the street", "men in blue shirts push/NN carts");
- present participles glued to the noun before them ("a bridge spanning/NN over");
- linking verbs before an adjective ("a chair sits empty", "the kids are looking happy", "the
  lights glow green"), read as copulas;
- main verbs after a relative clause, and "can" read as a noun before a verb.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, islice

from . import lexicon as lx
from . import wordclasses as wc
from .kinds import (
    ADV,
    ATTR,
    CONJ,
    COPULA,
    DET,
    GERUND,
    NEG,
    NOUN,
    OTHER,
    PART,
    PREP,
    REL,
    VERB,
    WEAK,
)
from .normalise import singularise
from .passes import trigger, words
from .units import _ARTICLES, _PLURAL_COPULAS, _SINGULAR_DETERMINERS, _VERB_TAGS, Units

__all__ = [
    "is_base_verb",
    "linking_verbs",
    "modal_nouns",
    "relative_main_verbs",
    "verbs_in_noun_runs",
]


@lru_cache(maxsize=1 << 16)
def _is_present_participle(word: str) -> bool:
    """Whether a word in -ing is a verb's participle ("spanning", "grazing"), not a noun in -ing
    ("building", "frosting", "evening")."""
    return len(word) > 5 and word.endswith("ing") and word not in lx.ING_NOUNS


@lru_cache(maxsize=1 << 12)
@lru_cache(maxsize=1 << 16)
def is_base_verb(word: str) -> bool:
    """Whether a word is the base form of a verb of :data:`lexicon.VERBS_3SG` ("hang" <-
    "hangs", "watch" <- "watches", "fly" <- "flies")."""
    forms = {word + "s", word + "es"}
    if word.endswith("y"):
        forms.add(word[:-1] + "ies")
    return not forms.isdisjoint(lx.VERBS_3SG)


@trigger(unit=words(lx.LINKING_VERBS))
def linking_verbs(units: Units) -> None:
    """The verbs "sit", "stand", "lie" and "looking" between a noun (or a noun and a copula) and
    an adjective (or a participle) that no noun follows link them like a copula: "a chair sits
    empty", "cars sit parked", "a dog looking happy", "the kids are looking happy"."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(1, n - 1):
        if key[i] not in lx.LINKING_VERBS or kind[i] == COPULA:
            continue
        j = units.following(i)
        before = units.previous(i)
        auxiliary = before if units.kind_at(before) == COPULA else -1
        if auxiliary >= 0:  # "the kids are looking happy": "are looking" links as one verb
            before = units.previous(auxiliary)
        colour = j < n and kind[j] == NOUN and key[j] in lx.COLOURS  # "glow green/NN"
        if (
            units.kind_at(before) == NOUN
            and j < n
            and (kind[j] in (ATTR, WEAK, PART) or colour)
            and units.kind_at(j + 1) != NOUN
            and units.trace.fire("linking-verb", i)
        ):
            kind[i] = COPULA
            if colour:
                kind[j] = ATTR
            if auxiliary >= 0:
                kind[auxiliary] = ADV


def _noun_like(word: str) -> bool:
    """Whether a word can be a noun: the word-class table says so, or it is a hyphenated word
    (keyed with a space) the table lacks whose last part is only a noun ("t-shirt")."""
    if wc.classes(word) & wc.NOUN:
        return True
    return " " in word and not wc.classes(word) and wc.classes(word.rsplit(" ", 1)[1]) == wc.NOUN


def _attributes_start(units: Units, i: int) -> int:
    """The first of the attributes that run back from unit ``i`` ("white t-shirt")."""
    while i > 0 and units.kind[i - 1] == ATTR:
        i -= 1
    return i


#: The kinds :func:`verbs_in_noun_runs` reads.
_NOUN_OR_VERB = frozenset((NOUN, VERB))


@trigger(
    unit=lambda unit: unit.kind == NOUN and unit.key in lx.VERBS_3SG,
    kinds=f"{NOUN}[{NOUN}{VERB}]",  # a noun or a verb after a noun
)
def verbs_in_noun_runs(units: Units) -> None:
    """Verbs, participles and adverbs the tagger glued to the noun before them, and base-form
    verbs it read where a noun stands."""
    key, kind, n, fire = units.key, units.kind, units.n, units.trace.fire
    for i in compress(range(1, n), map(_NOUN_OR_VERB.__contains__, islice(kind, 1, None))):
        if (
            kind[i] == NOUN
            and key[i] in lx.VERBS_3SG
            and kind[i - 1] == ATTR
            and _noun_like(key[i - 1])
            and units.kind_at(_attributes_start(units, i - 1) - 1) == PREP
            and fire("verb-after-bare-noun-of-preposition", i)
        ):  # "a man in uniform/JJ rides/NNS a horse", "boy in white t-shirt/JJ performs trick"
            kind[i - 1], kind[i] = NOUN, OTHER
            continue
        if kind[i] == NOUN and kind[i - 1] == NOUN:
            word = key[i]
            ends_run = i + 1 == n or kind[i + 1] != NOUN
            if word in lx.ADVERB_NOUNS and fire("adverb-tagged-as-noun", i):
                kind[i] = ADV  # "a man downhill/NN skiing"
            elif (word in lx.VERBS_3SG and fire("third-person-verb-tagged-as-noun", i)) or (
                ends_run
                and word != singularise(word)
                and any(key[k] not in lx.ATTRIBUTES for k in _run_before(units, i))
                and _after_singular_determiner(units, i)
                and fire("plural-noun-after-singular-determiner", i)
            ):
                kind[i] = COPULA if word in lx.COPULAS else OTHER  # "a bird lands/NNS on"
            elif (
                i + 1 < n
                and ((ends_run and is_base_verb(word)) or _verb_before_object(units, i))
                and _plural_subject(units, i - 1)
                and fire("base-verb-after-plural-subject", i)
            ):
                kind[i] = COPULA if word in lx.COPULAS else OTHER  # "flags hang/NN from"
            elif ends_run and _is_present_participle(word) and fire("gerund-tagged-as-noun", i):
                kind[i] = GERUND  # "a bridge spanning/NN over"
        elif (
            kind[i] == VERB
            and kind[i - 1] == NOUN
            and wc.classes(key[i]) & wc.NOUN
            and (
                _after_singular_determiner(units, i - 1)
                or (units.tag[i] == "VB" and _object_without_article(units, i - 1))
            )
            and not _plural_subject(units, i - 1)
            and not (units.tag[i] == "VBP" and _plural_subject_before_preposition(units, i - 1))
            and fire("noun-tagged-as-verb-after-singular-noun", i)
        ):
            kind[i] = NOUN  # a base form cannot follow "a <noun>": "a red water bottle/VB up"


def _verb_before_object(units: Units, i: int) -> bool:
    """Whether the word at ``i``, after a plural noun, is a base-form verb with its object:
    it can be a verb, is no plural, and an article or a plural noun follows ("red buses line/NN
    the street", "men in blue shirts push/NN carts")."""
    word = units.key[i]
    if word != singularise(word) or not wc.classes(word) & wc.VERB:
        return False
    if units.kind_at(i + 1) == DET:
        return units.key[i + 1] in _ARTICLES
    following = units.key[i + 1] if i + 1 < units.n else ""
    return (  # a plural object: "men in blue shirts push/NN carts"
        units.kind_at(i + 1) == NOUN
        and singularise(following) != following
        and units.kind_at(i + 2) != NOUN
    )


def _run_before(units: Units, i: int) -> range:
    """The nouns of the run that unit ``i`` ends, before it."""
    start = i
    while start > 0 and units.kind[start - 1] == NOUN:
        start -= 1
    return range(start, i)


def _after_singular_determiner(units: Units, last: int) -> bool:
    """Whether the noun run ending at ``last`` is opened by a singular determiner ("a", "one",
    "this"), modifiers between them allowed."""
    j = last
    while j >= 0 and units.kind[j] == NOUN:
        j -= 1
    while j >= 0 and units.kind[j] in (ATTR, WEAK, PART, GERUND, ADV, CONJ):
        j -= 1
    return j >= 0 and units.key[j] in _SINGULAR_DETERMINERS


def _object_without_article(units: Units, last: int) -> bool:
    """Whether the singular noun run ending at ``last`` has modifiers and a finite verb right
    before them, with no article: the verb's object, after which a base form is no verb ("man
    has red water bottle/VB up" reads as "has a red water bottle")."""
    if singularise(units.key[last]) != units.key[last]:
        return False
    j = last
    while j >= 0 and units.kind[j] == NOUN:
        j -= 1
    if j < 0 or units.kind[j] not in (ATTR, WEAK, PART):
        return False
    while j >= 0 and units.kind[j] in (ATTR, WEAK, PART, ADV):
        j -= 1
    return j >= 0 and units.tag[j] in _VERB_TAGS and units.kind[j] in (OTHER, VERB)


def _plural_subject(units: Units, last: int) -> bool:
    """Whether the noun run ending at ``last`` is plural, or the last of coordinated noun phrases
    ("a dog and a white cat", "a black and a white dog")."""
    if singularise(units.key[last]) != units.key[last]:
        return True
    j = last
    while j >= 0 and units.kind[j] == NOUN:
        j -= 1
    while j >= 0 and units.kind[j] in (ATTR, WEAK, ADV):
        j -= 1
    if j < 0 or units.kind[j] != DET:
        return False
    k = units.previous(j)
    return k >= 0 and units.key[k] == "and"


def _plural_subject_before_preposition(units: Units, last: int) -> bool:
    """Whether the noun run ending at ``last`` is the object of prepositions that follow a plural
    or coordinated subject: a present-tense verb after it agrees with that subject ("two giraffes
    inside a fenced area stand/VBP together")."""
    key, kind = units.key, units.kind
    j = last
    while True:
        while j >= 0 and kind[j] in (NOUN, ATTR, WEAK, PART, ADV, DET):
            j -= 1
        if j < 1 or kind[j] != PREP or key[j] == "of" or kind[j - 1] != NOUN:
            return False
        j -= 1
        if _plural_subject(units, j):
            return True


@trigger(kinds=REL + COPULA)
def relative_main_verbs(units: Units) -> None:
    """After "that/which/who" + copula + attributes, a lone noun that is a verb form (third person
    after "is", base form after "are") is the main verb of the sentence, not the noun the
    attributes modify: "a cat that is grey sleeps/NNS on the sofa"."""
    key, kind, n = units.key, units.kind, units.n
    for copula in range(1, n):
        if kind[copula] != COPULA or kind[copula - 1] != REL:
            continue
        j, attribute = copula + 1, False
        while j < n and kind[j] in (ATTR, WEAK, ADV, CONJ):
            attribute = attribute or kind[j] in (ATTR, WEAK)
            j += 1
        if not attribute or j >= n or kind[j] != NOUN or (j + 1 < n and kind[j + 1] == NOUN):
            continue
        word = key[j]
        if (
            word in lx.VERBS_3SG or (key[copula] in _PLURAL_COPULAS and is_base_verb(word))
        ) and units.trace.fire("main-verb-after-relative-clause", j):
            kind[j] = COPULA if word in lx.COPULAS else OTHER


@trigger(unit=words(("can",)))
def modal_nouns(units: Units) -> None:
    """The word "can" after an attribute or a noun is the noun with no verb after it ("a gray
    can", "a metallic trash can by the door") and the modal with one ("styles can be seen")."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        if key[i] == "can" and kind[i - 1] in (ATTR, WEAK, NOUN):
            if units.kind_at(i + 1) not in (VERB, ADV, NEG) and units.key_at(i + 1) != "be":
                if units.trace.fire("can-as-noun", i):
                    kind[i] = NOUN
            elif units.trace.fire("can-as-modal", i):
                kind[i] = OTHER  # the modal: "styles can/NN be seen"
