"""The tagger's usual slips, corrected: :func:`read_units`, the units of a tagged caption.

:func:`.units.classify_units` gives every unit the kind its tag says. The tagger (NLTK's, trained
on newswire) is right most of the time on captions, and wrong in a few systematic ways that
:func:`correct` mends in place, running the passes of :data:`PASSES` in order (each correction a
named rule of :data:`.ruleset.RULES`, fired through ``units.trace``):

- nouns tagged as adjectives before another noun ("kitchen/JJ scene", "ski/JJ slope"), or as
  prepositions after one ("a large stuffed bear/IN");
- tags the word-class table rules out, in :mod:`.word_class_slips` ("a mossy/NN brick wall");
- participles and adjectives it does not know before a noun ("a squinting/NN tennis player",
  "the shirtless/NN men"), and attribute words it calls nouns ("a round/NN pink flat shoe",
  "a blank/NN red sign", "a crimson/NN, teal and mauve rug");
- colour words that name clothes, not a property ("a woman in black sits", "wearing red");
- the slips around verbs, in :mod:`.verb_slips` ("a bird lands/NNS on", "a bridge
  spanning/NN over", "the lights glow green").
"""

from __future__ import annotations

from . import lexicon as lx
from . import relation_words as rw
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import ADV, ATTR, CONJ, DET, GERUND, NOUN, OTHER, PART, PREP, WEAK
from .passes import trigger, words
from .units import (
    _AFTER_ADJECTIVE,
    _ARTICLES,
    _CLOTHING_CONTEXT,
    _COMPOUND_HEADS,
    Units,
)
from .verb_slips import (
    is_base_verb,
)
from .wordtests import is_adjective

__all__: list[str] = []


#: The compound heads and their plurals ("tank tops"), so that no other word is singularised.
_COMPOUND_HEAD_FORMS = _COMPOUND_HEADS | frozenset(f"{head}s" for head in _COMPOUND_HEADS)


@trigger(unit=words(_COMPOUND_HEAD_FORMS, ("top",)))
def _compound_heads(units: Units) -> None:
    """The words "top" and "side" right after a noun are the head of a compound ("lap top", "tank
    top", "stove top", "road side"), not position words, unless "of" follows ("the bus side of");
    "top" after an article and an attribute is the garment ("a white top")."""
    key, kind, fire = units.key, units.kind, units.trace.fire
    for i in range(1, units.n):
        if (
            key[i] == "top"
            and kind[i - 1] == ATTR
            and units.kind_at(i - 2) == DET
            and fire("garment-top", i)
        ):
            kind[i] = NOUN  # the garment: "a white top"
        elif (
            key[i] in _COMPOUND_HEAD_FORMS
            and kind[i - 1] == NOUN
            and kind[i] != NOUN
            and (i + 1 == units.n or key[i + 1] != "of")
            and fire("compound-head-position-word", i)
        ):
            kind[i] = NOUN


#: Words tagged as prepositions or conjunctions that the word-class table also knows as nouns
#: or verbs, and that are these words in a caption.
_TRUE_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "not-noun")


@trigger(kinds=ATTR + PREP)
def _nouns_tagged_as_prepositions(units: Units) -> None:
    """A "preposition" right after an attribute that can be a noun and neither an adjective
    nor an adverb is the noun the attribute describes: "a large stuffed bear/IN sitting"."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        word = key[i]
        if kind[i] != PREP or kind[i - 1] != ATTR or word in _TRUE_PREPOSITIONS:
            continue
        known = wc.classes(word)
        if known & wc.NOUN and not known & (wc.ADJECTIVE | wc.ADVERB):
            if units.trace.fire("noun-tagged-as-preposition", i):
                kind[i] = NOUN


@trigger(kinds=f"{NOUN}{NOUN}[{ATTR}{WEAK}{PART}]{NOUN}")  # two nouns or more, a modifier, a noun
def _attribute_runs(units: Units) -> None:
    """Attribute words the tagger calls nouns, one after another before more modifiers, are all
    attributes: "a round/NN pink/NN flat shoe" (not a round "pink")."""
    key, kind, n = units.key, units.kind, units.n
    i = 0
    while i < n:
        if kind[i] != NOUN or key[i] not in lx.ATTRIBUTES:
            i += 1
            continue
        j = i
        while j < n and kind[j] == NOUN and key[j] in lx.ATTRIBUTES:
            j += 1
        if (
            j - i > 1
            and j < n
            and kind[j] in (ATTR, WEAK, PART)
            and units.kind_at(j + 1) == NOUN
            and units.trace.fire("attribute-run-tagged-as-nouns", i)
        ):
            for k in range(i, j):
                kind[k] = ATTR
        i = j


@trigger(kinds=CONJ)  # a list
def _colour_lists(units: Units) -> None:
    """Colour words the tagger calls nouns in a list before a noun are attributes of it: "a
    crimson/NN, teal/NN and mauve/NN rug", as "a red, white and blue flag" (a list of colours
    names no thing; the noun after its last colour does)."""
    key, kind, n = units.key, units.kind, units.n
    i = 0
    while i < n:
        if key[i] not in lx.COLOURS or kind[i] not in (NOUN, ATTR):
            i += 1
            continue
        members, j = [i], i + 1
        while True:  # separated by one or two conjunction units: ",", "and", ", and"
            k = j
            while k < n and k - j < 2 and kind[k] == CONJ:
                k += 1
            if k == j or k >= n or key[k] not in lx.COLOURS:
                break
            members.append(k)
            j = k + 1
        if (
            len(members) > 1
            and j < n
            and kind[j] == NOUN
            and key[j] not in lx.COLOURS
            and units.trace.fire("colour-list-before-noun", i)
        ):
            for k in members:
                kind[k] = ATTR
        i = j


@trigger(kinds=DET + NOUN + ATTR + NOUN)
def _adjectives_before_attributes(units: Units) -> None:
    """A "noun" between an article and an attribute of a noun is an adjective when it can be
    one: "a blank/NN red sign", "a makeshift/NN wooden shelter". English puts noun modifiers
    next to the head noun, after the adjectives, so this slot holds an adjective (quantity
    nouns such as "dozen" or "couple" are no adjectives and keep their reading)."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(1, n - 2):
        if (
            kind[i] == NOUN
            and " " not in key[i]
            and kind[i - 1] == DET
            and key[i - 1] in _ARTICLES
            and kind[i + 1] == ATTR
            and units.kind_at(i + 2) == NOUN
            and key[i] not in lx.NON_ATTRIBUTES
            and is_adjective(key[i])
            and units.trace.fire("adjective-before-attributes", i)
        ):
            kind[i] = ATTR


@trigger(kinds=ATTR)
def _nouns_tagged_as_adjectives(units: Units) -> None:
    """A word the tagger calls an adjective that is neither in the lexicon nor has an adjective
    ending is a noun before another noun ("kitchen/JJ scene"), before a participle ("a lamp/JJ
    shining") and at the end of a noun phrase ("a couch/JJ behind"). Right
    to left, so that "wii/JJ game/JJ controller" becomes one compound. "pretty" before an
    attribute is a degree adverb."""
    key, kind, n, fire = units.key, units.kind, units.n, units.trace.fire
    for i in range(n - 1, -1, -1):
        if kind[i] != ATTR:
            continue
        if (
            key[i] in lx.INTENSIFIERS
            and i + 1 < n
            and kind[i + 1] in (ATTR, WEAK)
            and fire("degree-adverb-before-attribute", i)
        ):
            kind[i] = ADV  # "a pretty large dog"
            continue
        after = units.kind_at(i + 1)
        before = units.kind_at(i - 1)
        if is_adjective(key[i]):
            if _compound_head(units, i, after, before) and fire("adjective-compound-head", i):
                kind[i] = NOUN  # "a green street light/JJ shining"
            continue
        if (
            after in (NOUN, GERUND, PART)
            and key[i + 1] not in lx.COMPOUND_PARTICIPLES
            and not _irregular_participle(key[i])
            and fire("false-adjective-before-noun", i)
        ) or (
            after not in _AFTER_ADJECTIVE
            and before in (DET, ATTR, WEAK, NOUN, PART, GERUND)
            and fire("false-adjective-ending-noun-phrase", i)
        ):
            kind[i] = NOUN


def _compound_head(units: Units, i: int, after: str, before: str) -> bool:
    """Whether the adjective at ``i`` is rather the head noun of a compound: it can be a noun
    and is no colour, it follows the noun of a noun phrase and a participle follows it ("a
    street light/JJ shining"), so it modifies nothing."""
    word = units.key[i]
    return (
        before == NOUN
        and (i < 2 or units.kind[i - 2] in (DET, ATTR, PREP))  # with its article or without
        and after in (GERUND, PART)
        and units.key[i + 1] not in lx.ADJECTIVE_PARTICIPLES  # "commercial looking": one attribute
        and word not in lx.COLOURS
        and bool(wc.classes(word) & wc.NOUN)
    )


@trigger(unit=words(("wide",)))
def _degree_words(units: Units) -> None:
    """The word "wide" before "open"/"awake" says how much, not what: "a wide open view" -> open."""
    key, kind = units.key, units.kind
    for i in range(units.n - 1):
        if (
            key[i] == "wide"
            and key[i + 1] in ("open", "awake")
            and units.trace.fire("wide-open", i)
        ):
            kind[i] = ADV


@trigger(unit=words(("other", "another")))
def _pronoun_phrases(units: Units) -> None:
    """The phrases "each other" and "one another" are pronouns: nothing after them is a modifier
    ("kids facing one another playing games")."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        if (
            key[i] in ("other", "another")
            and key[i - 1] in ("each", "one")
            and units.trace.fire("reciprocal-pronoun", i - 1)
        ):
            kind[i - 1] = kind[i] = OTHER


@trigger(unit=words(_CLOTHING_CONTEXT))
def _clothing_colours(units: Units) -> None:
    """A colour right after "wearing"/"in"/"dressed in" with no noun after it names clothes, not
    a property of anything: "a woman in black sits", "a lady wearing red playing tennis"."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(1, n):
        if key[i] not in lx.COLOURS or key[i - 1] not in _CLOTHING_CONTEXT:
            continue
        j = i + 1
        while j < n and (key[j] in lx.COLOURS or kind[j] == CONJ) and key[j] != ",":
            j += 1
        if (
            j < n
            and kind[j] in (NOUN, ATTR, WEAK)
            and key[j] not in lx.VERBS_3SG
            and not is_base_verb(key[j])
        ):
            continue  # "in black shirts"; not "wearing white rides/NNS", "in gray stand/NN"
        if (
            units.kind_at(j) == PART
            and units.kind_at(j + 1) == NOUN
            and units.trace.fire("colour-before-participle-and-garment", i)
        ):
            continue  # a participle then the garment: "in red checked shirt"
        if not units.trace.fire("colour-naming-clothes", i):
            continue
        for k in range(i, j):
            if kind[k] != CONJ:
                kind[k] = OTHER


def _irregular_participle(word: str) -> bool:
    """Whether a word is only a verb form other than its base ("torn", "spun", "hung"): a
    participle before a noun, never the first noun of a compound."""
    return wc.classes(word) == wc.VERB and rw.verb_lemma(word) != word
