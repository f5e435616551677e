"""The correction rules that are no windows: the code a rule of ``data/rules.json`` names.

Most tag corrections are patterns over a window of units, applied by :mod:`.patterns`. A rule
whose condition reaches over a stretch of units of any length (a run of nouns back to its
determiner, the prepositional phrases back to a subject, a list of colours) names here the
*rest* of its condition, ``test(units, i) -> bool`` at the unit its window anchors; a rule that
does more than set kinds (merging units, dropping part of a word, marking a stretch) names its
``effect(units, i)``. The window in the table says where the code runs, so the code does not check
it again. Each function says which rule it serves.
"""

from __future__ import annotations

from . import lexicon as lx
from . import tagger
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import (
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
    REL,
    VERB,
    WEAK,
)
from .normalise import singularise
from .relation_words import verb_lemma
from .units import Units
from .wordtests import is_base_verb

__all__ = [
    "attribute_heading_noun_phrase",
    "quote_closed",
    "quoted_text_dropped",
    "base_verb_after_plural_subject",
    "colour_in_clothes",
    "colour_list_before_noun",
    "colour_naming_clothes",
    "colours_before_a_garment",
    "head_noun_of_phrase",
    "hyphenated_adverb",
    "lexicalised_compound_of_hyphenated_word",
    "list_of_colours",
    "merge",
    "merge_with_next",
    "merge_with_next_as_attribute",
    "noun_tagged_as_verb_after_singular_noun",
    "participle_after_finite_verb",
    "phrase_final_head_noun",
    "phrase_initial_participle",
    "plural_noun_after_singular_determiner",
    "subject_before_preposition",
    "unhyphenated_participle",
]

_ARTICLES: frozenset[str] = wl.words("determiners", "article")
_SINGULAR_DETERMINERS: frozenset[str] = wl.words("determiners", "singular")
_VERB_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
_CLOTHING_CONTEXT: frozenset[str] = wl.words("clothing_context")
_HYPHEN_ADVERBS: frozenset[str] = wl.words("adverbs", "hyphen")
_CLAUSE_OPENERS: frozenset[str] = wl.words("conjunctions", "clause-opener")
_PARTICIPLE_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "participle")
_PERFECT_AUXILIARIES: frozenset[str] = wl.words("verbs", "perfect")
_SAYING_VERBS: frozenset[str] = wl.words("verbs", "saying")
#: Quotation marks as the tokeniser gives them.
_QUOTES = frozenset({'"', "“", "”", "``", "''"})
#: Kinds that end a noun phrase of telegraphic text.
_PHRASE_BOUNDARY = frozenset({PREP, CONJ, REL, COPULA, OTHER, VERB, DET})
#: Lexicon categories whose words, tagged as nouns before a head, still describe it.
_THING_FREE_CATEGORIES = (
    lx.COLOURS, lx.MATERIALS, lx.PATTERNS, lx.SHAPES, lx.TEXTURES, lx.SIZES, lx.STATES
)  # fmt: skip


# --- units merged, words shortened ----------------------------------------------------------


def merge(units: Units, start: int, end: int, kind: str) -> None:
    """Units ``[start, end)`` as one unit of ``kind``; rule firings already recorded after them
    move with their units (so that an explanation names the right unit)."""
    fired = units.trace.fired
    if fired:
        fired[:] = [
            (name, i if i < end else i - (end - start - 1)) if i >= start else (name, i)
            for name, i in fired
        ]
    units.text[start:end] = [" ".join(units.text[start:end])]
    units.key[start:end] = [" ".join(units.key[start:end])]
    units.tag[start:end] = [units.tag[start]]
    units.kind[start:end] = [kind]
    units.n = len(units.kind)


def merge_with_next(units: Units, i: int) -> None:
    """Effect: unit ``i`` and the one after it are one noun (hyphenated-lexicalised-compound:
    "a flat-screen tv" is the compound "flat screen tv")."""
    merge(units, i, i + 2, NOUN)


def merge_with_next_as_attribute(units: Units, i: int) -> None:
    """Effect: unit ``i`` and the one after it are one attribute (colour-word-compound: "maple
    color vanity" -> (maple color, vanity))."""
    merge(units, i, i + 2, ATTR)


def lexicalised_compound_of_hyphenated_word(units: Units, i: int) -> bool:
    """Test of hyphenated-lexicalised-compound: the hyphenated word and the noun after it make a
    lexicalised compound ("flat-screen tv")."""
    return f"{units.key[i]} {singularise(units.key[i + 1])}" in lx.COMPOUND_NOUNS


def _hyphenated_parts(units: Units, i: int) -> tuple[str, str]:
    adverb, _, participle = units.text[i].partition("-")
    return adverb, participle


def hyphenated_adverb(units: Units, i: int) -> bool:
    """Test of hyphenated-adverb-dropped: the word is an adverb + a participle ("well-lit",
    "brightly-colored")."""
    adverb, participle = _hyphenated_parts(units, i)
    if "-" in participle or not participle.endswith(("ed", "en", "lit", "made", "wn", "ing")):
        return False
    return adverb in _HYPHEN_ADVERBS or bool(
        adverb.endswith("ly") and wc.classes(adverb) & wc.ADVERB
    )


def unhyphenated_participle(units: Units, i: int) -> None:
    """Effect of hyphenated-adverb-dropped: the unit is its participle alone (an attribute where
    the tagger read a noun)."""
    participle = _hyphenated_parts(units, i)[1]
    units.text[i] = units.key[i] = participle
    if units.kind[i] == NOUN:
        units.kind[i] = ATTR


# --- lists and stretches ----------------------------------------------------------------------


def _colour_list(units: Units, i: int) -> tuple[list[int], int]:
    """The colours of a list that starts at unit ``i`` (separated by one or two conjunction
    units: ",", "and", ", and") and the index right after the last of them."""
    key, kind, n = units.key, units.kind, units.n
    members, j = [i], i + 1
    while True:
        k = j
        while k < n and k - j < 2 and kind[k] == CONJ:
            k += 1
        if k == j or k >= n or key[k] not in lx.COLOURS:
            break
        members.append(k)
        j = k + 1
    return members, j


def colour_list_before_noun(units: Units, i: int) -> bool:
    """Test of colour-list-before-noun: a list of two colours or more from unit ``i`` stands
    right before a noun that is no colour ("a crimson/NN, teal/NN and mauve/NN rug")."""
    members, j = _colour_list(units, i)
    return (
        len(members) > 1
        and j < units.n
        and units.kind[j] == NOUN
        and units.key[j] not in lx.COLOURS
    )


def list_of_colours(units: Units, i: int) -> int:
    """Effect of colour-list-before-noun: every colour of the list is an attribute; the next unit
    to look at is the noun."""
    members, j = _colour_list(units, i)
    for k in members:
        units.kind[k] = ATTR
    return j


def _clothing_end(units: Units, i: int) -> int:
    """The index right after the colours (and conjunctions) from unit ``i``."""
    key, kind, n = units.key, units.kind, units.n
    j = i + 1
    while j < n and (key[j] in lx.COLOURS or kind[j] == CONJ) and key[j] != ",":
        j += 1
    return j


def _garment_named(units: Units, j: int) -> bool:
    """Whether a noun or attribute at ``j`` (after clothing colours) names the garment ("in black
    shirts"), not a verb the tagger read as one ("wearing white rides/NNS", "in gray stand/NN")."""
    return (
        j < units.n
        and units.kind[j] in (NOUN, ATTR, WEAK)
        and units.key[j] not in lx.VERBS_3SG
        and not is_base_verb(units.key[j])
    )


def colours_before_a_garment(units: Units, i: int) -> bool:
    """Test of colour-before-participle-and-garment: the colours after "wearing"/"in" are
    followed by a participle and the garment ("in red checked shirt"), so they describe it."""
    j = _clothing_end(units, i)
    return (
        not _garment_named(units, j) and units.kind_at(j) == PART and units.kind_at(j + 1) == NOUN
    )


def colour_naming_clothes(units: Units, i: int) -> bool:
    """Test of colour-naming-clothes: no garment follows the colours after "wearing"/"in"/
    "dressed in" ("a woman in black sits", "a lady wearing red playing tennis")."""
    return not _garment_named(units, _clothing_end(units, i))


def colour_in_clothes(units: Units, i: int) -> None:
    """Effect of colour-naming-clothes: the colours name clothes, no property (other)."""
    for k in range(i, _clothing_end(units, i)):
        if units.kind[k] != CONJ:
            units.kind[k] = OTHER


# --- verbs in noun runs -------------------------------------------------------------------------


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


def plural_noun_after_singular_determiner(units: Units, i: int) -> bool:
    """Test of plural-noun-after-singular-determiner: the run the plural noun ends holds a noun
    that is no attribute word and a singular determiner opens it ("a bird lands/NNS on")."""
    return any(
        units.key[k] not in lx.ATTRIBUTES for k in _run_before(units, i)
    ) and _after_singular_determiner(units, i)


def base_verb_after_plural_subject(units: Units, i: int) -> bool:
    """Test of base-verb-after-plural-subject: a base-form verb (ending the run, or before its
    object) after a plural or coordinated subject ("flags hang/NN from", "red buses line/NN the
    street")."""
    ends_run = units.kind[i + 1] != NOUN
    return (
        (ends_run and is_base_verb(units.key[i])) or _verb_before_object(units, i)
    ) and _plural_subject(units, i - 1)


def noun_tagged_as_verb_after_singular_noun(units: Units, i: int) -> bool:
    """Test of noun-tagged-as-verb-after-singular-noun: a base form cannot follow "a <noun>" ("a
    red water bottle/VB up"), nor the object of a verb without its article, unless the subject
    is plural."""
    return (
        (
            _after_singular_determiner(units, i - 1)
            or (units.tag[i] == "VB" and _object_without_article(units, i - 1))
        )
        and not _plural_subject(units, i - 1)
        and not (units.tag[i] == "VBP" and _plural_subject_before_preposition(units, i - 1))
    )


def subject_before_preposition(units: Units, i: int) -> bool:
    """Test of verb-after-article-less-subject-and-preposition: the noun run before unit ``i``
    (with its modifiers) is the object of prepositions that follow a person or an animal
    opening the caption or a clause without an article and with no verb yet: "person in
    residential area", "boy in white t-shirt", "dork with earring"."""
    key, kind = units.key, units.kind
    j = i - 1
    while j >= 0 and kind[j] == NOUN:
        j -= 1
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
            if k < 0 or key[k] in _CLAUSE_OPENERS:
                return True


# --- telegraphic phrases ----------------------------------------------------------------------


def _lexicon_noun(units: Units, i: int) -> bool:
    """A colour, material, pattern, shape, texture, size or state word that the tagger calls a noun
    ("khaki/NNS", "leather/NN"), and that names no thing itself (not "cream", "adult")."""
    key = units.key_at(i)
    return (
        units.kind_at(i) == NOUN
        and key not in lx.COLOUR_NOUNS
        and any(key in words for words in _THING_FREE_CATEGORIES)
    )


def _phrase_start(units: Units, i: int) -> int:
    """The unit before the attributes (and conjoined attributes) that end at ``i - 1``."""
    kind = units.kind
    j = i - 1
    while j >= 0 and (kind[j] in (ATTR, WEAK, CONJ, ADV) or _lexicon_noun(units, j)):
        if kind[j] == CONJ and not (
            j > 0 and (kind[j - 1] in (ATTR, WEAK) or _lexicon_noun(units, j - 1))
        ):
            break  # "red dog and sliced pink kite/VB": the conjunction opens the phrase
        j -= 1
    return j


def phrase_final_head_noun(units: Units, i: int) -> bool:
    """Test of phrase-final-head-noun: the word ends a phrase (or a verb the tagger read as a
    noun follows it), and no copula, noun or non-attribute opens the attributes before it ("the
    sofa is leather back", "a man dark"; "left side")."""
    key, kind, n = units.key, units.kind, units.n
    verb_after = i + 1 < n and kind[i + 1] == NOUN and key[i + 1] in lx.VERBS_3SG
    if (
        i + 1 < n
        and kind[i + 1] not in _PHRASE_BOUNDARY
        and key[i + 1][0].isalnum()
        and not verb_after
    ):
        return False  # the phrase goes on
    j = _phrase_start(units, i)
    return not (
        j >= 0 and (kind[j] in (COPULA, NOUN) or key[j] in lx.NON_ATTRIBUTES) and kind[j] != CONJ
    )


def head_noun_of_phrase(units: Units, i: int) -> None:
    """Effect of phrase-final-head-noun: the word is the head noun, the colour and material
    nouns before it attributes, and a verb the tagger read as a noun after it a verb ("girl in
    yellow top poses/NNS with racket")."""
    key, kind, n = units.key, units.kind, units.n
    verb_after = i + 1 < n and kind[i + 1] == NOUN and key[i + 1] in lx.VERBS_3SG
    j = _phrase_start(units, i)
    kind[i] = NOUN
    if verb_after:
        kind[i + 1] = OTHER
    for k in range(j + 1, i):
        if _lexicon_noun(units, k):
            kind[k] = ATTR


def _verbal(units: Units, i: int) -> bool:
    """Whether unit ``i`` is a main verb or a participle used as one (not a copula: "is
    plowing piles")."""
    if not 0 <= i < units.n or units.kind[i] == COPULA:
        return False
    return units.kind[i] in (GERUND, VERB) or units.is_verb(i)


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


def participle_after_finite_verb(units: Units, i: int) -> bool:
    """Test of participle-after-finite-verb: a finite verb (or a participle that takes an
    object) stands before the participle, and no auxiliary of the perfect unless the lexicon lists
    the participle ("bathroom has broken wall", "girls wash rusted motorcycle"; not "has jumped
    ramp")."""
    key, kind = units.key, units.kind
    j = units.previous(i)
    return (
        (_verbal(units, j) and units.tag[j] in ("VBZ", "VBP", "VBD", "VB"))
        or (kind[j] == OTHER and key[j] in lx.VERBS_3SG)  # "contains/NNS"
        or key[j] in lx.OBJECT_GERUNDS  # "man holding sliced apple"
    ) and (key[j] not in _PERFECT_AUXILIARIES or key[i] in lx.ATTRIBUTES)


def phrase_initial_participle(units: Units, i: int) -> bool:
    """Test of phrase-initial-participle: the participle opens a phrase without an article (the
    caption's start, a preposition, a verb with its subject, a word opening a clause whose verb
    follows, "and" after a noun), and one that can be a noun is read as after an article
    ("sitting child"; "landing airplane" is a compound)."""
    key, kind = units.key, units.kind
    j = units.previous(i)
    subject = units.previous(j)
    return (
        j < 0
        or (kind[j] == PREP and key[j] in _PARTICIPLE_PREPOSITIONS)
        or (key[j] in _CLAUSE_OPENERS and _subject_of_verb(units, i))  # "as glowing
        # ball approaches"; not "while enjoying pumpkin pie at"
        or (_verbal(units, j) and (units.kind_at(subject) == NOUN or key[subject] == "to"))
        or (kind[j] == OTHER and key[j] in lx.VERBS_3SG)  # "performs/NNS skating trick"
        or key[j] in lx.OBJECT_GERUNDS  # "is carrying kneeling surfer"; not "miming punching"
        or (key[j] in ("and", ",") and units.kind_at(subject) == NOUN)
    ) and (  # last, as it tags a window again (rare there)
        not wc.classes(key[i]) & wc.NOUN or _participle_after_article(units, i)
    )


# --- slips only the relation reader sees --------------------------------------------------------


def attribute_heading_noun_phrase(units: Units, i: int) -> bool:
    """Test of attribute-heading-noun-phrase: the word opens no phrase of its own (an article,
    an attribute or a noun before it, or nothing) and a verb, a copula or a preposition other
    than "of" follows it, or an article stands before it at the caption's end ("a light hanging",
    "a traffic light next to"; not "a bowl full of fruit", "the room is dark")."""
    from .chunks import phrasal_length

    key, kind, n = units.key, units.kind, units.n
    if i > 0 and kind[i - 1] not in (DET, ATTR, NOUN):
        return False  # after a noun it heads a compound: "a traffic light/JJ next to a sign"
    if i + 1 == n:
        return i > 0 and key[i - 1] in ("a", "an")
    after = kind[i + 1]
    if (after == PREP and key[i + 1] != "of") or phrasal_length(units, i + 1):
        return True
    return after in (GERUND, COPULA) or (after == OTHER and units.tag[i + 1] in _VERB_TAGS)


# --- quoted text (relation-correction) -------------------------------------------------------


def _closing_quote(units: Units, i: int) -> int:
    return next((j for j in range(i + 1, units.n) if units.key[j] in _QUOTES), -1)


def quote_closed(units: Units, i: int) -> bool:
    """Test of quoted-text: a quotation mark after the one at ``i`` closes the quote."""
    return _closing_quote(units, i) > i


def quoted_text_dropped(units: Units, i: int) -> None:
    """Effect of quoted-text: the quote from ``i`` to its closing mark becomes one unit that
    states nothing (SPEC 1b: quoted text is no argument), and so does a verb of saying right
    before it with a relative word before that ('a sign (that) says "stop" on a pole': the place
    phrase relates the sign)."""
    merge(units, i, _closing_quote(units, i) + 1, OTHER)
    units.key[i], units.tag[i] = "", "''"
    verb = units.previous(i)
    if verb >= 0 and verb_lemma(units.key[verb]) in _SAYING_VERBS:
        units.kind[verb], units.tag[verb] = OTHER, "''"
        if units.kind_at(verb - 1) == REL:
            units.kind[verb - 1], units.tag[verb - 1] = OTHER, "''"
