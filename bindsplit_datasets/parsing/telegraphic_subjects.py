"""Telegraphic text: article-less subjects and their verbs.

Without articles the tagger glues a subject's verb to it as the last noun of a compound ("female
skier stops/NNS", "horse and spotted dog stand/NN", "red barn houses/NNS some cows"); the
corrections of :mod:`.verb_slips` that split them look for the article that opens the subject.
Each function here reads such a subject as after an article and fires the named rule of
:data:`.ruleset.RULES` it holds; :mod:`.telegraphic` places them in
:data:`.corrections.PASSES`. Word tables: ``data/words/*.txt``.
"""

from __future__ import annotations

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import ADV, ATTR, COPULA, DET, GERUND, NOUN, OTHER, PART, PREP, WEAK
from .normalise import singularise
from .passes import Unit, trigger
from .units import Units
from .verb_slips import is_base_verb

__all__ = [
    "CLAUSE_OPENERS",
    "article_less_coordinated_subjects",
    "article_less_subjects",
    "article_less_verbs",
]

#: Words that open a clause: a noun phrase right after them is its subject ("as dog runs by").
CLAUSE_OPENERS: frozenset[str] = wl.words("conjunctions", "clause-opener")
#: Determiners that open a verb's object ("brushes their teeth", "sports several signs").
_OBJECT_DETERMINERS: frozenset[str] = wl.words("determiners", "object")
#: What follows a verb and no noun: a preposition, an object's determiner or modifier, an adverb.
_AFTER_VERB: frozenset[str] = frozenset((PREP, DET, ATTR, WEAK, PART, ADV))


def _plural_verb_form(word: str) -> bool:
    """Whether a word looks plural and its singular can be a verb ("stops", "houses"): a
    third-person verb the tagger may read as a plural noun."""
    singular = singularise(word)
    return word != singular and bool(wc.classes(singular) & wc.VERB)


def _plural_verb_noun(unit: Unit) -> bool:
    """The unit test of a "noun" that may be a third-person verb (see :mod:`.passes`)."""
    return unit.kind == NOUN and _plural_verb_form(unit.key)


@trigger(unit=_plural_verb_noun)
def article_less_subjects(units: Units) -> None:
    """A plural-looking noun that ends a run after a person or an animal opening the caption or a
    clause without an article, with more after it, is the subject's verb, as after an article
    ("a female skier stops" is read so already): "female skier stops and poses" -> (female,
    skier), not (female, skier stop). Only after a person or an animal: "bus stops line road",
    "traffic lights on pole" stay compounds."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(1, n - 1):
        word = key[i]
        if (
            kind[i] != NOUN
            or kind[i - 1] != NOUN
            or kind[i + 1] == NOUN
            or not _plural_verb_form(word)
        ):
            continue
        j = i - 1
        while j >= 0 and kind[j] == NOUN:
            j -= 1
        if key[i - 1] in lx.ANIMATE_NOUNS:
            while j >= 0 and kind[j] in (ATTR, WEAK, PART, GERUND, ADV):
                j -= 1
            if (j < 0 or key[j] in CLAUSE_OPENERS) and units.trace.fire(
                "verb-after-article-less-subject", i
            ):
                kind[i] = COPULA if word in lx.COPULAS else OTHER
        elif (
            kind[i + 1] in _AFTER_VERB
            and singularise(key[i - 1]) == key[i - 1]
            and _subject_before_preposition(units, j)
            and units.trace.fire("verb-after-article-less-subject-and-preposition", i)
        ):
            kind[i] = COPULA if word in lx.COPULAS else OTHER


def _subject_before_preposition(units: Units, j: int) -> bool:
    """Whether the noun phrase ending at unit ``j`` (its modifiers and the words before them) is
    the object of prepositions that follow a person or an animal opening the caption or a clause
    without an article and with no verb yet: "person in residential area", "boy in white
    t-shirt", "dork with earring"."""
    key, kind = units.key, units.kind
    while True:
        while j >= 0 and kind[j] in (ATTR, WEAK, ADV):
            j -= 1
        if j < 0 or kind[j] != PREP or key[j] == "of":
            return False  # not "couple of white bathroom sinks sitting"
        j -= 1  # the noun the prepositional phrase follows
        if j < 0 or kind[j] != NOUN:
            return False
        head = j
        while j >= 0 and kind[j] == NOUN:
            j -= 1
        if key[head] in lx.ANIMATE_NOUNS:
            k = j
            while k >= 0 and kind[k] in (ATTR, WEAK, ADV):
                k -= 1
            if k < 0 or key[k] in CLAUSE_OPENERS:
                return True


@trigger(unit=lambda unit: unit.kind == NOUN and is_base_verb(unit.key))
def article_less_coordinated_subjects(units: Units) -> None:
    """A base-form verb the tagger glued to the last of nouns joined by "and" without articles is
    their verb, as after articles ("a horse and a spotted dog stand" is read so already): "horse
    and spotted dog stand in meadow" -> (spotted, dog), not (spotted, dog stand)."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(2, n - 1):
        if (
            kind[i] != NOUN
            or kind[i - 1] != NOUN
            or (  # "child watch train"; not a run of nouns, nor "wicker clean cats"
                kind[i + 1] == NOUN and (units.kind_at(i + 2) == NOUN or key[i] in lx.ATTRIBUTES)
            )
            or key[i - 1] in lx.ATTRIBUTES
            or key[i - 1] != singularise(key[i - 1])
            or not is_base_verb(key[i])
        ):
            continue
        j = i - 1
        while j >= 0 and kind[j] == NOUN:
            j -= 1
        while j >= 0 and kind[j] in (ATTR, WEAK, PART, ADV):
            j -= 1
        if (
            j > 0
            and key[j] == "and"
            and kind[j - 1] == NOUN
            and units.trace.fire("verb-after-article-less-coordinated-subjects", i)
        ):
            kind[i] = COPULA if key[i] in lx.COPULAS else OTHER


@trigger(unit=_plural_verb_noun)
def article_less_verbs(units: Units) -> None:
    """A plural-looking noun ending a run of nouns, after a singular one and before a
    determiner, is the verb of a caption without articles: "red barn houses some cows" -> (red,
    barn), not (red, barn house)."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(1, n - 1):
        word = key[i]
        if (
            kind[i] == NOUN
            and kind[i - 1] == NOUN
            and kind[i + 1] == DET
            and key[i + 1] in _OBJECT_DETERMINERS
            and key[i - 1] not in lx.ATTRIBUTES
            and _plural_verb_form(word)
            and singularise(key[i - 1]) == key[i - 1]
            and units.trace.fire("verb-tagged-as-plural-noun-before-object", i)
        ):
            kind[i] = OTHER
