"""Telegraphic text: noun phrases without an article or a verb (region descriptions, alt text).

Web-scale caption corpora (Visual Genome regions, LAION and CC12M alt text) write "yawning
statue", "brown knob", "man wearing white shoe": no article opens the noun phrase and often no
verb follows it. The tagger, trained on full sentences, then reads the first or last word of a
phrase differently ("yawning/VBG statue", "khaki/NNS hose/VBP", "around/RB table") and the rules
that look for an article before a modifier find none. Each function below mends one such slip of
a whole phrase, in place, firing the named rules of :data:`.ruleset.RULES` it holds; the slips of
single words are in :mod:`.telegraphic_words`, article-less subjects and their verbs in
:mod:`.telegraphic_subjects`. Importing this module places every pass of both in
:data:`.corrections.PASSES` (:func:`.corrections.add_pass`): the word-level ones that merge or
drop part of a word first, the phrase-final head before the clothing colours ("in yellow top"),
the rest last. Word tables: ``data/words/*.txt``.
"""

from __future__ import annotations

from itertools import compress, islice

from . import lexicon as lx
from . import tagger
from . import telegraphic_subjects as ts
from . import telegraphic_words as tw
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, NOUN, OTHER, PART, PREP, VERB, WEAK
from .memo import Memo
from .normalise import singularise
from .passes import trigger, words
from .units import Units

__all__ = [
    "infinitive_slips",
    "object_gerunds",
    "phrase_initial_participles",
    "prepositions_read_as_particles",
    "telegraphic_heads",
]

#: Prepositions after which a present participle modifies the noun after it ("around sparkling
#: table").
_PARTICIPLE_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "participle")
#: Prepositions the tagger may read as adverbs or particles ("around/RB", "down/RP").
_PARTICLE_PREPOSITIONS: frozenset[str] = lx.PREPOSITIONS | wl.words("prepositions", "particle")
#: Auxiliaries of the perfect: a participle after them is a verb unless the lexicon lists it.
_PERFECT_AUXILIARIES: frozenset[str] = wl.words("verbs", "perfect")
#: Endings of past tenses and participles ("painted", "broken", "built", "brought").
_PAST_ENDINGS: tuple[str, ...] = wl.endings("endings", "past")
#: Position words that are the head noun after an attribute ("leather back", "wooden top").
_POSITION_HEADS: frozenset[str] = wl.words("nouns", "position-head")


def _verbal(units: Units, i: int) -> bool:
    """Whether unit ``i`` is a main verb or a participle used as one (not a copula: "is
    plowing piles")."""
    if not 0 <= i < units.n or units.kind[i] == COPULA:
        return False
    return units.kind[i] in (GERUND, VERB) or units.is_verb(i)


def _modifiers_then_noun(units: Units, i: int) -> bool:
    """Whether modifiers (or none) and then a noun follow unit ``i``."""
    k = units.following(i)
    while k < units.n and (
        units.kind[k] in (ATTR, WEAK, PART) or (units.kind[k] == CONJ and units.key[k] != ",")
    ):
        k = units.following(k)
    return (
        k < units.n
        and units.kind[k] == NOUN
        and units.key[k] not in lx.NON_ATTRIBUTES
        and units.key[k] not in lx.ADVERB_NOUNS
    )


def _participle_after_article(units: Units, i: int) -> bool:
    """Whether the tagger reads the word at ``i`` as a participle when an article stands before
    it ("a sitting/VBG child"; "a landing/NN airplane" is a compound): a word in -ing that can
    be a noun is read as it would be with the article the phrase lacks ("a" before a singular
    noun, "the" before a plural)."""
    words = " ".join(units.text[i : i + 3]).split()
    noun = units.key_at(units.following(i))
    article = "a" if noun and singularise(noun.split()[-1]) == noun.split()[-1] else "the"
    return tagger.get_tagger().tag([article, *words])[1] == "VBG"


def _subject_of_verb(units: Units, i: int) -> bool:
    """Whether the modifiers from unit ``i`` and their noun are followed by a verb (the noun
    phrase is a clause's subject: "as glowing ball approaches/NNS")."""
    k = units.following(i)
    while k < units.n and units.kind[k] in (ATTR, WEAK, PART, NOUN):
        k = units.following(k)
    return k < units.n and units.kind[k] in (VERB, COPULA, OTHER) and units.key[k][0].isalpha()


#: The kinds :func:`phrase_initial_participles` reads: participles, lexicon words read as verbs.
_PARTICIPLE_KINDS = frozenset((PART, WEAK, GERUND))


@trigger(unit=lambda unit: unit.kind in _PARTICIPLE_KINDS)
def phrase_initial_participles(units: Units) -> None:
    """A present participle that opens a phrase without an article modifies the noun after it:
    at the start of the caption, after a preposition, or after a verb ("yawning statue" ->
    (yawning, statue); "people sit around sparkling table" -> (sparkling, table); "wave carrying
    kneeling surfer" -> (kneeling, surfer)), after "and" that joins it to a noun ("children
    and sitting adult" -> (sitting, adult)), after a participle that takes an object ("is
    carrying kneeling surfer"), or after a word opening a clause when a verb follows the noun
    ("as glowing ball approaches" -> (glowing, ball)). Participles that usually take an object
    stay verbs ("holding umbrella"); one that can be a noun is read as the tagger reads it after
    an article ("sitting child" -> (sitting, child); "landing airplane": a compound). A past
    participle after a finite verb modifies the noun after it too ("bathroom has broken wall" ->
    (broken, wall))."""
    key, kind, fire = units.key, units.kind, units.trace.fire
    for i in compress(range(units.n), map(_PARTICIPLE_KINDS.__contains__, kind)):
        if kind[i] in (PART, WEAK) and _modifiers_then_noun(units, i):
            j = units.previous(i)
            if (
                (
                    (_verbal(units, j) and units.tag[j] in ("VBZ", "VBP", "VBD", "VB"))
                    or (kind[j] == OTHER and key[j] in lx.VERBS_3SG)  # "contains/NNS"
                    or key[j] in lx.OBJECT_GERUNDS  # "man holding sliced apple"
                )
                # not the perfect "has jumped ramp", "to have won race"
                and (key[j] not in _PERFECT_AUXILIARIES or key[i] in lx.ATTRIBUTES)
                and fire("participle-after-finite-verb", i)
            ):
                kind[i] = ATTR  # "bathroom has broken wall", "girls wash rusted motorcycle"
            continue
        if kind[i] != GERUND or key[i] in lx.OBJECT_GERUNDS or not _modifiers_then_noun(units, i):
            continue
        j = units.previous(i)
        if key[i] in lx.ING_NOUNS:
            continue
        subject = units.previous(j)
        if (
            (
                j < 0
                or (kind[j] == PREP and key[j] in _PARTICIPLE_PREPOSITIONS)
                or (key[j] in ts.CLAUSE_OPENERS and _subject_of_verb(units, i))  # "as glowing
                # ball approaches"; not "while enjoying pumpkin pie at"
                or (_verbal(units, j) and (units.kind_at(subject) == NOUN or key[subject] == "to"))
                or (kind[j] == OTHER and key[j] in lx.VERBS_3SG)  # "performs/NNS skating trick"
                or key[j]
                in lx.OBJECT_GERUNDS  # "is carrying kneeling surfer"; not "miming punching"
                or (key[j] in ("and", ",") and units.kind_at(subject) == NOUN)
            )
            # last, as it tags a window again (rare there): "sitting child", not "landing airplane"
            and (not wc.classes(key[i]) & wc.NOUN or _participle_after_article(units, i))
            and fire("phrase-initial-participle", i)
        ):
            kind[i] = ATTR


@trigger(unit=lambda unit: unit.kind == GERUND and unit.key in lx.OBJECT_GERUNDS)
def object_gerunds(units: Units) -> None:
    """A participle that usually takes an object, after its subject and before its object, is
    the verb of the phrase, not a modifier of the object: "baby holding cupcake" -> nothing (not
    (baby, cupcake), (holding, cupcake)), "one holding cake", "man in uniform riding horse" ->
    nothing (not (uniform, horse))."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        if (
            kind[i] != GERUND
            or key[i] not in lx.OBJECT_GERUNDS
            or not _modifiers_then_noun(units, i)
        ):
            continue
        j = units.previous(i)
        if (
            (kind[j] == NOUN and key[j] in lx.ATTRIBUTES)  # "baby", "female": not "man"
            or (  # "female/JJ holding", "holds baby/IN eating": not "a low flying"
                kind[j] == ATTR
                and wc.classes(key[j]) & wc.NOUN
                and key[j] not in lx.DEGREE  # "low flying airplane"
                and key[i] not in lx.LINKING_VERBS  # "modern looking clock"
                and units.kind_at(units.previous(j)) not in (DET, ATTR, ADV, WEAK, PART)
            )
            or (kind[j] == DET and key[j] not in tw.CLOSED_DETERMINERS)  # "hat/DT holding"
            or key[j] == "one"
            or (
                kind[j] == ATTR
                and units.kind_at(j - 1) == PREP
                and key[i] not in lx.ADJECTIVE_PARTICIPLES  # "in odd looking boat"
            )
        ) and units.trace.fire("object-gerund-as-verb", i):
            kind[i] = OTHER
            if kind[j] == ATTR:
                kind[j] = NOUN  # "in uniform/JJ riding": the noun of the phrase


@trigger(unit=lambda unit: unit.tag in ("RB", "RP") and unit.key in _PARTICLE_PREPOSITIONS)
def prepositions_read_as_particles(units: Units) -> None:
    """A preposition the tagger reads as an adverb or a particle ("around/RB", "down/RP") is a
    preposition when modifiers and a noun follow it with no article: "children are around
    beveled table" -> (beveled, table), "skiing down snow covered hill" -> (snow covered,
    hill)."""
    key, kind = units.key, units.kind
    for i in range(units.n - 1):
        if (
            kind[i] in (ADV, OTHER)
            and units.tag[i] in ("RB", "RP")
            and key[i] in _PARTICLE_PREPOSITIONS
            and kind[i + 1] in (ATTR, WEAK, PART, GERUND, NOUN, ADV)
            and _modifiers_then_noun(units, i)
            and units.trace.fire("preposition-tagged-as-particle", i)
        ):
            kind[i] = PREP


@trigger(unit=words(("to",)))
def infinitive_slips(units: Units) -> None:
    """After "to", the tagger reads the next word as an infinitive ("to reluctant/VB toddler",
    "next to parked/VB bike"); before a noun, with no article, an adjective or a past participle
    is a modifier of it: "man feeding pizza to reluctant toddler" -> (reluctant, toddler),
    "kitten walking next to parked bike" -> (parked, bike)."""
    key, kind, fire = units.key, units.kind, units.trace.fire
    for i in range(1, units.n - 1):
        if kind[i] != VERB or key[i - 1] != "to" or not _modifiers_then_noun(units, i):
            continue
        known = wc.classes(key[i])
        if known & wc.ADJECTIVE and not known & wc.VERB:
            if fire("adjective-tagged-as-infinitive", i):
                kind[i] = ATTR  # "to reluctant/VB toddler", "in to dusky/VB purple sky"
        elif (_past_participle(key[i]) or (not known and key[i].endswith("ed"))) and fire(
            "participle-tagged-as-infinitive", i
        ):
            kind[i] = PART  # "next to parked/VB bike", "next to graffitied/VB wall"


def _past_participle(word: str) -> bool:
    """Whether a word in -ed is the past form of a verb the word-class table knows ("parked" <-
    "park", "squared" <- "square", "stopped" <- "stop", "dried" <- "dry"), not a base form in
    -ed ("feed", "shed")."""
    if not word.endswith("ed") or len(word) < 5:
        return False
    stems = {word[:-2], word[:-1], word[:-3] if word[-3] == word[-4] else "", word[:-3] + "y"}
    return any(stem and wc.classes(stem) & wc.VERB for stem in stems)


@trigger(unit=lambda unit: _HEAD_WORDS[unit.key, unit.kind, unit.tag])
def telegraphic_heads(units: Units) -> None:
    """The last word of a phrase of attributes is its head noun when it can be a noun, whatever
    the tagger read there: "round belly" (belly/RB) -> (round, belly), "leather back" ->
    (leather, back), "khaki hose" (hose/VBP) -> (khaki, hose), "brass fitting" -> (brass,
    fitting), "blue lettering" -> (blue, lettering), "round kite/VBD next to red dog" ->
    (round, kite), (red, dog)."""
    key, kind, n, tag = units.key, units.kind, units.n, units.tag
    heads = map(_HEAD_WORDS.__getitem__, islice(zip(key, kind, tag, strict=True), 1, None))
    for i in compress(range(1, n), heads):
        verb_after = i + 1 < n and kind[i + 1] == NOUN and key[i + 1] in lx.VERBS_3SG
        if (
            i + 1 < n
            and kind[i + 1] not in tw.PHRASE_BOUNDARY
            and key[i + 1][0].isalnum()
            and not verb_after
        ):
            continue  # the phrase goes on
        p = i - 1
        if not (kind[p] in (ATTR, WEAK) or tw.lexicon_noun(units, p)):
            continue
        j = p
        while j >= 0 and (kind[j] in (ATTR, WEAK, CONJ, ADV) or tw.lexicon_noun(units, j)):
            if kind[j] == CONJ and not (
                j > 0 and (kind[j - 1] in (ATTR, WEAK) or tw.lexicon_noun(units, j - 1))
            ):
                break  # "red dog and sliced pink kite/VB": the conjunction opens the phrase
            j -= 1
        if (
            j >= 0
            and (kind[j] in (COPULA, NOUN) or key[j] in lx.NON_ATTRIBUTES)
            and kind[j] != CONJ
        ):
            continue  # "the sofa is leather back", "a man dark"; "left side"
        if not units.trace.fire("phrase-final-head-noun", i):
            continue
        kind[i] = NOUN
        if verb_after:
            kind[i + 1] = OTHER  # "girl in yellow top poses/NNS with racket"
        for k in range(j + 1, i):
            if tw.lexicon_noun(units, k):
                kind[k] = ATTR


def _head_word(unit: tuple[str, str, str]) -> bool:
    """Whether a unit (key, kind, tag) read as an adverb, verb, gerund or participle can be the
    head noun of a phrase; a participle with a past ending is one indeed ("wooden painted"; not
    "round kite/VBD")."""
    word, kind, tag = unit
    if kind not in (ADV, VERB, GERUND, OTHER, PART) or not word[0].isalpha():
        return False
    if kind == PART and word.endswith(_PAST_ENDINGS):
        return False
    known = wc.classes(word)
    if word in _POSITION_HEADS:
        return True
    if kind == ADV:
        return bool(known & wc.NOUN) and not known & wc.ADVERB and word not in lx.ADVERB_NOUNS
    if kind == GERUND:
        return word in lx.ING_NOUNS or bool(known & wc.NOUN and tag == "NN")
    return bool(known & wc.NOUN) and not (kind == OTHER and not tag.startswith("VB"))


#: :func:`_head_word` of every (key, kind, tag) seen.
_HEAD_WORDS: Memo[tuple[str, str, str], bool] = Memo(_head_word)
