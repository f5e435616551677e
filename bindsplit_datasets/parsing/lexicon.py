"""The word lists of the binding parser: attribute lexicon, noun tables, grammar words.

Why a lexicon at all: a part-of-speech tagger trained on newswire calls many visual modifiers
nouns ("glass vase", "metal tray", "brown table", "stone bench") or verbs ("open laptop"), and
many nouns adjectives ("kitchen/JJ scene", "ski/JJ slope"). The parser treats every word listed
here as an attribute when it stands in an attribute slot (before the object or after a copula),
whatever the tagger says; and it believes the tagger's "adjective" before a noun only for a
lexicon word or a word with an adjective ending (:data:`ADJECTIVE_SUFFIXES`), reading any other
as the first noun of a compound. So the lexicon covers the visual vocabulary of captions and the
common descriptive adjectives without a telling ending, not every adjective of English.

Sources and choices. The entries were written for this project from the visual-attribute
vocabulary that image-caption corpora use: the categories follow the protocol (colours, materials,
patterns, sizes, textures, states) plus shapes, ages, other common qualities and origins, which
captions use just as often; the choice of words was checked against the most frequent Visual
Genome attributes and COCO captions (which is why e.g. "tan", "khaki", "wicker", "formica" and
"tabby" are here). Deliberately left out:

- food and flavour nouns ("chocolate cake", "cheese pizza"): they name the kind of object, so they
  stay in the compound object ("chocolate cake");
- colour names that are mostly objects (peach, plum, lime, olive, rose, salmon, coffee, wine):
  they appear only in multi-word colours ("lime green", "olive green");
- "light" on its own ("traffic light", "light pole"): it is a colour only in "light blue" etc.;
  the tagger still reports the adjective in "a light jacket";
- quantity, number, order and position words: never attributes (see :data:`NON_ATTRIBUTES`).

Besides the attribute categories, this module is the one namespace through which the parser
reads every other word list: the noun tables of :mod:`.noun_tables` (:data:`COMPOUND_NOUNS`:
multi-word objects whose first word would otherwise read as an attribute; :data:`INVARIANT_NOUNS`:
nouns singularisation leaves alone, ...) and the closed word classes of :mod:`.grammar_words`
(words that are never attributes, copulas, intensifiers, verbs the tagger mistakes for plural
nouns, ...), imported here. Every table is a data file, ``data/words/<table>.txt`` (read by
:mod:`.wordlists`); changing one changes parses and ``PARSER_VERSION`` with it (:mod:`.version`
hashes every file of the parser).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import wordlists as wl
from .grammar_words import (
    ADJECTIVE_PARTICIPLES,
    ADVERB_NOUNS,
    COLOUR_MANNER_PARTICIPLES,
    COLOUR_PARTICIPLES,
    COMPOUND_PARTICIPLES,
    COPULAS,
    DEGREE,
    EVENT_PARTICIPLES,
    INTENSIFIERS,
    LINKING_VERBS,
    LOCATIVE_PREPOSITIONS,
    NEGATIONS,
    NEVER_NOUNS,
    NON_ATTRIBUTES,
    NON_DESCRIPTIVE,
    OBJECT_GERUNDS,
    PREPOSITIONS,
    PRO_NOUNS,
    QUANTIFIERS,
    SPATIAL,
    VERBS_3SG,
)
from .noun_tables import (
    COMPOUND_NOUNS,
    GROUP_NOUNS,
    ING_NOUNS,
    INVARIANT_NOUNS,
    NOUN_MODIFIERS,
    PLURAL_US_NOUNS,
    SUFFIX_EXCEPTIONS,
)

__all__ = [
    "ADJECTIVE_PARTICIPLES",
    "ADJECTIVE_SUFFIXES",
    "AGES",
    "ATTRIBUTE_CATEGORIES",
    "ATTRIBUTES",
    "BASIC_COLOURS",
    "ADVERB_NOUNS",
    "COLOUR_MANNER_PARTICIPLES",
    "COLOUR_NOUNS",
    "COMPOUND_PARTICIPLES",
    "COLOUR_PARTICIPLES",
    "COLOUR_SHADES",
    "COLOURS",
    "COMPOUND_NOUNS",
    "COPULAS",
    "FORMS",
    "EVENT_PARTICIPLES",
    "GROUP_NOUNS",
    "ING_NOUNS",
    "INTENSIFIERS",
    "INVARIANT_NOUNS",
    "DEGREE",
    "LINKING_VERBS",
    "LOCATIVE_PREPOSITIONS",
    "MATERIALS",
    "NEGATIONS",
    "NEVER_NOUNS",
    "OBJECT_GERUNDS",
    "NON_ATTRIBUTES",
    "NOUN_MODIFIERS",
    "NON_DESCRIPTIVE",
    "ORIGINS",
    "PATTERNS",
    "PLURAL_US_NOUNS",
    "PREPOSITIONS",
    "PRO_NOUNS",
    "QUALITIES",
    "QUANTIFIERS",
    "SHAPES",
    "SIZES",
    "SPATIAL",
    "STATES",
    "SUFFIX_EXCEPTIONS",
    "TEXTURES",
    "VERBS_3SG",
    "category_of",
    "lexical_form",
]

# --- colours ---------------------------------------------------------------------------------

#: Colour words that combine with a shade ("light brown", "bright red").
BASIC_COLOURS: frozenset[str] = wl.words("basic_colours")

#: Shade words that form a multi-word colour with a basic colour ("dark blue").
COLOUR_SHADES: frozenset[str] = wl.words("colour_shades")

_OTHER_COLOURS: frozenset[str] = wl.words("other_colours")

#: Colour words besides the basic ones that take a shade ("dark teal", "pale turquoise").
_SHADED_COLOURS: frozenset[str] = wl.words("shaded_colours")

#: Colours that also name everyday things ("an orange", "a rainbow", "gold"): a colour word the
#: tagger calls a noun is read as a colour where only an attribute fits ("a brown/NN and a white
#: horse"), unless it is one of these.
COLOUR_NOUNS: frozenset[str] = wl.words("colour_nouns")

#: Every colour: basic colours, "shade colour" pairs and the other colour words.
COLOURS: frozenset[str] = (
    BASIC_COLOURS
    | _OTHER_COLOURS
    | frozenset(f"{shade} {colour}" for shade in COLOUR_SHADES for colour in BASIC_COLOURS)
    | frozenset(f"{shade} {colour}" for shade in COLOUR_SHADES for colour in _SHADED_COLOURS)
)

# --- other attribute categories --------------------------------------------------------------

#: What an object is made of ("glass vase", "wooden table").
MATERIALS: frozenset[str] = wl.words("materials")

#: Surface patterns and markings ("striped shirt", "tabby cat").
PATTERNS: frozenset[str] = wl.words("patterns")

#: Size and proportion ("large dog", "tall giraffe").
SIZES: frozenset[str] = wl.words("sizes")

#: Shapes and outlines ("round table", "heart shaped cookie").
SHAPES: frozenset[str] = wl.words("shapes")

#: Surface feel and look ("fluffy dog", "shiny car").
TEXTURES: frozenset[str] = wl.words("textures")

#: Conditions and states ("open laptop", "empty plate", "sliced apple").
STATES: frozenset[str] = wl.words("states")

#: Age and era ("young boy", "antique clock", "adult panda").
AGES: frozenset[str] = wl.words("ages")

#: Other common descriptive adjectives without a telling suffix ("cute", "outdoor", "electric"):
#: listed so that a tagger mistake ("outdoor/NN table") cannot hide them, and so that a word the
#: tagger calls an adjective before a noun is believed (see :data:`ADJECTIVE_SUFFIXES`).
QUALITIES: frozenset[str] = wl.words("qualities")

#: Phrasal [adjective noun] properties of the head noun, kept whole ("thick crust pizza" ->
#: (thick crust, pizza), "flat screen tv", "long sleeve shirt", "two story house").
FORMS: frozenset[str] = wl.words("forms")

#: Nationality and origin adjectives ("chinese food", "a german street sign").
ORIGINS: frozenset[str] = wl.words("origins")

#: Category name -> words; the union is :data:`ATTRIBUTES`.
ATTRIBUTE_CATEGORIES: Mapping[str, frozenset[str]] = {
    "colour": COLOURS,
    "material": MATERIALS,
    "pattern": PATTERNS,
    "size": SIZES,
    "shape": SHAPES,
    "texture": TEXTURES,
    "state": STATES,
    "age": AGES,
    "quality": QUALITIES,
    "origin": ORIGINS,
    "form": FORMS,
}

#: Endings that mark a word the tagger calls an adjective as a real one ("electrical", "rusted",
#: "wireless"); a word tagged adjective before a noun with none of these endings and not in the
#: lexicon is read as the first noun of a compound ("kitchen scene", "ski slope", "wii remote").
ADJECTIVE_SUFFIXES: tuple[str, ...] = wl.endings("adjective_suffixes")

#: Every attribute of the lexicon (single- and multi-word, lower case, words separated by spaces).
ATTRIBUTES: frozenset[str] = frozenset().union(*ATTRIBUTE_CATEGORIES.values())


def lexical_form(word: str) -> str:
    """How a word is looked up in these tables: hyphens read as spaces, so that a hyphenated word
    finds its multi-word entry ("snow-covered" -> "snow covered", "light-brown" -> "light
    brown"). Bindings keep the word as written.

    >>> lexical_form("snow-covered"), lexical_form("red")
    ('snow covered', 'red')
    """
    return word.replace("-", " ")


def category_of(attribute: str) -> str | None:
    """The lexicon category of ``attribute`` ("colour", "material", ...), or ``None``.

    >>> category_of("light brown"), category_of("wicker"), category_of("two")
    ('colour', 'material', None)
    """
    attribute = lexical_form(attribute)
    for name, words in ATTRIBUTE_CATEGORIES.items():
        if attribute in words:
            return name
    return None
