"""Telegraphic text, word by word: words the tagger misreads for their form, and words that keep
or lose part of their text (protocol section 1).

Region descriptions and alt text ("blue hat on red dog", "well-lit room", "maple color vanity")
bring out slips of single words that full sentences hide: a noun read as a determiner or a
preposition for its ending ("hat/WP", "pillow/IN"), a participle read as a number ("colored/CD"),
"light" read as a noun before its head. The protocol's conventions for words that keep or lose
part of their text are here too: a hyphenated adverb + participle drops the adverb ("well-lit" ->
lit), a colour with "color" keeps it ("maple color vanity"), a hyphenated lexicalised compound is
that compound ("flat-screen tv"), an adjective with a complement clause binds nothing ("ready to
catch the ball"). Each function is a correction pass of :data:`.corrections.PASSES` (placed by
:mod:`.telegraphic`) and fires the named rules of :data:`.ruleset.RULES` it holds; the rules of
whole phrases without an article or a verb are in :mod:`.telegraphic`. Word tables:
``data/words/*.txt``.
"""

from __future__ import annotations

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, NOUN, OTHER, PART, PREP, REL, VERB, WEAK
from .normalise import singularise
from .passes import tags, trigger, words
from .units import Units

__all__ = [
    "CLOSED_DETERMINERS",
    "PHRASE_BOUNDARY",
    "article_less_garment_top",
    "adjectives_after_articles",
    "colour_word_compounds",
    "complement_clauses",
    "gerund_compound_heads",
    "hyphenated_adverbs",
    "hyphenated_compounds",
    "lexicon_noun",
    "light_shades",
    "noun_participle_compounds",
    "nouns_read_as_determiners",
    "nouns_read_as_prepositions",
    "participles_read_as_numbers",
]

#: Nouns that form a compound with "light" before them ("light pole", "light beam").
_LIGHT_COMPOUND_HEADS: frozenset[str] = wl.words("nouns", "light-compound")
#: Endings that make a word both noun and adjective an adjective before a noun ("homeless").
_ADJECTIVE_ENDINGS: tuple[str, ...] = wl.endings("endings", "noun-adjective")
#: Determiners and pronouns the tagger tags DT/WP/WDT/PDT that are no nouns.
CLOSED_DETERMINERS: frozenset[str] = wl.words("determiners", "closed")
#: Prepositions and subordinating conjunctions (tagged IN) that are never head nouns.
_CLOSED_PREPOSITIONS: frozenset[str] = (
    lx.PREPOSITIONS | lx.LOCATIVE_PREPOSITIONS | wl.words("prepositions", "closed")
)
#: Adverbs (besides -ly adverbs) that a hyphen joins to a participle ("well-lit").
_HYPHEN_ADVERBS: frozenset[str] = wl.words("adverbs", "hyphen")
#: "color", "colour".
_COLOUR_NOUN_WORDS: frozenset[str] = wl.words("nouns", "colour-word")
#: Adjectives that take a complement clause and then state no property ("ready to eat").
_COMPLEMENT_ADJECTIVES: frozenset[str] = wl.words("adjectives", "complement")
#: Lexicon categories whose words, tagged as nouns before a head, still describe it.
_THING_FREE_CATEGORIES = (
    lx.COLOURS, lx.MATERIALS, lx.PATTERNS, lx.SHAPES, lx.TEXTURES, lx.SIZES, lx.STATES
)  # fmt: skip
#: Kinds that end a noun phrase of telegraphic text.
PHRASE_BOUNDARY = frozenset({PREP, CONJ, REL, COPULA, OTHER, VERB, DET})


def lexicon_noun(units: Units, i: int) -> bool:
    """A colour, material, pattern, shape, texture, size or state word that the tagger calls a noun
    ("khaki/NNS", "leather/NN"), and that names no thing itself (not "cream", "adult")."""
    key = units.key_at(i)
    return (
        units.kind_at(i) == NOUN
        and key not in lx.COLOUR_NOUNS
        and any(key in words for words in _THING_FREE_CATEGORIES)
    )


def _merge(units: Units, start: int, end: int, kind: str) -> None:
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


@trigger(unit=lambda unit: "-" in unit.text)
def hyphenated_adverbs(units: Units) -> None:
    """A hyphenated adverb + participle is the participle: the adverb is dropped as it is when
    written apart ("well-lit room" -> (lit, room), "brightly-colored kite" -> (colored, kite))."""
    for i in range(units.n):
        text = units.text[i]
        if "-" not in text or units.kind[i] not in (ATTR, WEAK, PART, GERUND, NOUN):
            continue
        adverb, _, participle = text.partition("-")
        if "-" in participle or not participle.endswith(("ed", "en", "lit", "made", "wn", "ing")):
            continue
        if (
            adverb in _HYPHEN_ADVERBS or (adverb.endswith("ly") and wc.classes(adverb) & wc.ADVERB)
        ) and units.trace.fire("hyphenated-adverb-dropped", i):
            units.text[i] = units.key[i] = participle
            if units.kind[i] == NOUN:
                units.kind[i] = ATTR


@trigger(unit=lambda unit: "-" in unit.text)
def hyphenated_compounds(units: Units) -> None:
    """A hyphenated word and the noun after it that together make a lexicalised compound are
    that compound, as when written apart: "a flat-screen tv" -> nothing, as "a flat screen tv"
    (protocol section 1)."""
    i = 0
    while i < units.n - 1:
        key = units.key
        if (
            "-" in units.text[i]
            and units.kind[i + 1] == NOUN
            and f"{key[i]} {singularise(key[i + 1])}" in lx.COMPOUND_NOUNS
            and units.trace.fire("hyphenated-lexicalised-compound", i)
        ):
            _merge(units, i, i + 2, NOUN)
        i += 1


@trigger(unit=tags("CD"))
def participles_read_as_numbers(units: Units) -> None:
    """A participle in -ed the tagger calls a number ("colored/CD") is a participle: "a white
    colored wall" -> (white colored, wall)."""
    for i in range(units.n):
        if (
            units.kind[i] == DET
            and units.tag[i] == "CD"
            and units.key[i].endswith("ed")
            and units.key[i].isalpha()
            and units.key[i] not in lx.QUANTIFIERS
            and units.trace.fire("participle-tagged-as-number", i)
        ):
            units.kind[i] = PART


def _noun_read_as_determiner(key: str, tag: str) -> bool:
    """Whether a word the tagger calls a determiner or a wh-pronoun can be a noun and is no
    determiner or quantifier."""
    return (
        tag in ("DT", "WP", "WDT", "PDT")
        and key.isalpha()
        and key not in CLOSED_DETERMINERS
        and key not in lx.QUANTIFIERS
        and bool(wc.classes(key) & wc.NOUN)
    )


@trigger(unit=lambda unit: _noun_read_as_determiner(unit.key, unit.tag))
def nouns_read_as_determiners(units: Units) -> None:
    """A noun the tagger calls a determiner or a wh-pronoun for its ending ("hat/WP", "hat/DT",
    like "that", "what") is a noun after a modifier or an article: "blue hat on red dog" ->
    (blue, hat), (red, dog); "a short sliced hat." -> (short, hat), (sliced, hat)."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        if (
            _noun_read_as_determiner(key[i], units.tag[i])
            and (
                kind[i - 1] in (ATTR, WEAK, PART, GERUND, NOUN) or key[i - 1] in ("a", "an", "the")
            )
            and units.trace.fire("noun-tagged-as-determiner", i)
        ):
            kind[i] = NOUN


@trigger(unit=lambda unit: unit.kind == PREP and unit.key not in _CLOSED_PREPOSITIONS)
def nouns_read_as_prepositions(units: Units) -> None:
    """A noun the tagger calls a preposition for its ending ("pillow/IN", like "below") after a
    modifier (or a colour or material word it calls a noun), ending the phrase, is the head
    noun: "wooden pink pillow" after "next to" -> (wooden, pillow), (pink, pillow); "a blue
    parked pillow" -> (blue, pillow), (parked, pillow)."""
    key, kind = units.key, units.kind
    for i in range(1, units.n):
        if (
            kind[i] == PREP
            and key[i] not in _CLOSED_PREPOSITIONS
            and (lexicon_noun(units, i - 1) or kind[i - 1] in (ATTR, WEAK, PART, GERUND))
            and (i + 1 == units.n or kind[i + 1] in PHRASE_BOUNDARY or not key[i + 1][0].isalnum())
        ):
            known = wc.classes(key[i])
            if (
                known & wc.NOUN
                and not known & (wc.ADJECTIVE | wc.ADVERB)
                and units.trace.fire("noun-tagged-as-preposition-ending-phrase", i)
            ):
                kind[i] = NOUN
                if kind[i - 1] == NOUN:
                    kind[i - 1] = ATTR


@trigger(unit=words(_COLOUR_NOUN_WORDS))
def colour_word_compounds(units: Units) -> None:
    """A colour or a noun with "color"/"colour" after it is one attribute, as "X colored" is:
    "maple color vanity" -> (maple color, vanity), "red color car" -> (red color, car), "the car
    is red color" -> (red color, car)."""
    i = 1
    while i < units.n:
        key, kind = units.key, units.kind
        if (
            key[i] in _COLOUR_NOUN_WORDS
            and kind[i] == NOUN
            and (key[i - 1] in lx.COLOURS or kind[i - 1] in (NOUN, ATTR))
            and key[i - 1] not in lx.NON_ATTRIBUTES
            and units.kind_at(i - 2) != NOUN
            and (units.kind_at(i + 1) == NOUN or units.ends_phrase(i))
            and units.trace.fire("colour-word-compound", i - 1)
        ):
            _merge(units, i - 1, i + 1, ATTR)
        else:
            i += 1


@trigger(unit=words(("light",)))
def light_shades(units: Units) -> None:
    """The word "light" before a noun, outside a compound, is the shade or weight of the thing:
    "light scarf" -> (light, scarf), "light jacket" -> (light, jacket); not "light pole" or
    "street light" (see ``data/words/nouns.txt``, use ``light-compound``)."""
    key, kind = units.key, units.kind
    for i in range(units.n - 1):
        if (
            key[i] == "light"
            and kind[i] == NOUN
            and kind[i + 1] == NOUN
            and units.kind_at(i - 1) != NOUN
            and singularise(key[i + 1].split()[0]) not in _LIGHT_COMPOUND_HEADS
            and units.trace.fire("light-as-shade", i)
        ):
            kind[i] = ATTR


@trigger(unit=words(lx.COMPOUND_PARTICIPLES))
def noun_participle_compounds(units: Units) -> None:
    """A noun the tagger reads as an adverb before a participle that joins a noun to it is that
    noun: "down snow/RB covered hill" -> (snow covered, hill)."""
    key, kind = units.key, units.kind
    for i in range(units.n - 2):
        if (
            kind[i] == ADV
            and units.tag[i] == "RB"
            and key[i + 1] in lx.COMPOUND_PARTICIPLES
            and kind[i + 2] == NOUN
            and wc.classes(key[i]) & wc.NOUN
            and not wc.classes(key[i]) & wc.ADVERB
            and units.trace.fire("noun-tagged-as-adverb-before-participle", i)
        ):
            kind[i] = NOUN
            kind[i + 1] = PART


@trigger(unit=lambda unit: unit.kind == GERUND and unit.tag == "NN")
def gerund_compound_heads(units: Units) -> None:
    """A word in -ing the tagger calls a noun between two nouns is part of the compound: "a stone
    pizza cooking tray" -> (stone, pizza cooking tray), not a verb with "tray" as its object."""
    kind = units.kind
    for i in range(1, units.n - 1):
        if (
            kind[i] == GERUND
            and units.tag[i] == "NN"
            and kind[i - 1] == NOUN
            and kind[i + 1] == NOUN
            and units.kind_at(i + 2) != NOUN
            and units.kind_at(i - 2) in (NOUN, DET, ATTR)
            and units.trace.fire("gerund-inside-compound", i)
        ):
            kind[i] = NOUN


def _adjective_read_otherwise(key: str, tag: str) -> bool:
    """Whether a word the tagger calls a noun or an adverb is an adjective by the word-class
    table: it can be one and has an adjective ending, or it is an "adverb" that can be no noun
    (not "a desktop/NN computer"); no word of the lexicon's non-attributes, noun modifiers or
    intensifiers."""
    if tag not in ("NN", "RB") or key in lx.NON_ATTRIBUTES or key in lx.NOUN_MODIFIERS:
        return False
    known = wc.classes(key)
    return (
        key not in lx.INTENSIFIERS
        and bool(known & wc.ADJECTIVE)
        and (key.endswith(_ADJECTIVE_ENDINGS) or (tag == "RB" and not known & wc.NOUN))
    )


@trigger(
    unit=lambda unit: unit.kind in (NOUN, ADV) and _adjective_read_otherwise(unit.key, unit.tag)
)
def adjectives_after_articles(units: Units) -> None:
    """A word the tagger calls a noun or an adverb between an article (or a preposition, for
    text without articles: "past homeless man") and a noun is an adjective when the word-class
    table knows it as one, with an adjective ending or, for an "adverb", as no noun (not "a
    desktop/NN computer"): "man with a sly/RB look" -> (sly, look), "a homeless/NN man" ->
    (homeless, man)."""
    key, kind = units.key, units.kind
    for i in range(1, units.n - 1):
        if (
            kind[i] in (NOUN, ADV)
            and (key[i - 1] in ("a", "an", "the") or kind[i - 1] == PREP)
            and kind[i + 1] == NOUN
            and _adjective_read_otherwise(key[i], units.tag[i])
            and units.trace.fire("adjective-tagged-as-noun-after-article", i)
        ):
            kind[i] = ATTR


@trigger(unit=words(_COMPLEMENT_ADJECTIVES))
def complement_clauses(units: Units) -> None:
    """An adjective with a complement clause states no binding: "the dog is ready to catch the
    ball" -> nothing, "the kitchen is dirty and ready for us to see" -> (dirty, kitchen) only
    ("ready for the pitch" keeps its binding)."""
    key, kind, n = units.key, units.kind, units.n
    for i in range(n - 2):
        if kind[i] not in (ATTR, WEAK) or key[i] not in _COMPLEMENT_ADJECTIVES:
            continue
        j = i + 1
        if key[j] == "for":  # "ready for us to see": the clause's subject first
            j += 1
            while j < n and j < i + 5 and key[j] != "to" and kind[j] in (DET, NOUN, OTHER):
                j += 1
        clause = j + 1 < n and (kind[j + 1] in (VERB, COPULA) or units.tag[j + 1] == "VB")
        if clause and key[j] == "to" and units.trace.fire("adjective-with-complement-clause", i):
            kind[i] = OTHER


@trigger(unit=words(("top",)))
def article_less_garment_top(units: Units) -> None:
    """The word "top" after an attribute that a preposition opens, before a noun, is the
    garment (or the head of its compound), as after an article ("with a black top hat" is read
    so already): "man with black top hat" -> (black, top hat), not (black, hat)."""
    key, kind = units.key, units.kind
    for i in range(2, units.n - 1):
        if (
            key[i] == "top"
            and kind[i] != NOUN
            and kind[i - 1] == ATTR
            and kind[i - 2] == PREP
            and kind[i + 1] == NOUN
            and units.trace.fire("garment-top-after-preposition", i)
        ):
            kind[i] = NOUN
