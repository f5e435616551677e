"""The parser's word lists: the attribute lexicon, the closed word classes, the noun tables and
the relation words, read from ``data/words/``.

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
reads the word tables every reader shares: the closed word classes (words that are never
attributes, copulas, intensifiers, prepositions, verbs the tagger mistakes for plural nouns,
...), the noun tables (:data:`COMPOUND_NOUNS`: multi-word objects whose first word would otherwise
read as an attribute; :data:`INVARIANT_NOUNS`: nouns singularisation leaves alone, ...) and the
words of the relation reader (prepositions that state a relation, partitive and position nouns,
pronouns, ...). Every table is a data file, ``data/words/<table>.txt`` named by word class, each
entry with its uses (read by :mod:`.wordlists`); changing one changes parses and
``PARSER_VERSION`` with it (:mod:`.version` hashes every file of the parser).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import wordlists as wl

__all__ = [
    "ADJECTIVE_PARTICIPLES",
    "ADJECTIVE_SUFFIXES",
    "ADVERB_NOUNS",
    "AFTER_VERB_PREPOSITIONS",
    "AGES",
    "ANIMATE_NOUNS",
    "ANAPHORIC_PRONOUNS",
    "ANIMATE_PRONOUNS",
    "ATTRIBUTE_CATEGORIES",
    "ATTRIBUTES",
    "AUXILIARIES",
    "BASIC_COLOURS",
    "BEFORE_NOUN_PREPOSITIONS",
    "BLOCKING_PREPOSITIONS",
    "BODY_PART_NOUNS",
    "COLOURS",
    "COLOUR_MANNER_PARTICIPLES",
    "COLOUR_NOUNS",
    "COLOUR_PARTICIPLES",
    "COLOUR_SHADES",
    "COMPLEMENT_ADJECTIVES",
    "COMPOUND_NOUNS",
    "COMPOUND_PARTICIPLES",
    "CONTAINER_NOUNS",
    "CONTAINMENT_PREPOSITIONS",
    "COPULAS",
    "DEGREE",
    "EVENT_PARTICIPLES",
    "FORMS",
    "GAME_NOUNS",
    "GAME_VERBS",
    "GROUP_NOUNS",
    "INANIMATE_PRONOUNS",
    "INDEFINITE_PRONOUNS",
    "ING_NOUNS",
    "INTENSIFIERS",
    "INVARIANT_NOUNS",
    "LIGHT_VERBS",
    "LINKING_VERBS",
    "LOCATIVE_PARTICIPLES",
    "LOCATIVE_PREPOSITIONS",
    "MATERIALS",
    "NEVER_NOUNS",
    "NON_ATTRIBUTES",
    "NON_DESCRIPTIVE",
    "NOUN_MODIFIERS",
    "OBJECT_GERUNDS",
    "ORIGINS",
    "PARTICLES",
    "PARTITIVE_NOUNS",
    "PATTERNS",
    "PERCEPTION_VERBS",
    "POSTURE_VERBS",
    "PHRASAL_PREPOSITIONS",
    "PICTURE_NOUNS",
    "PLURAL_US_NOUNS",
    "POSITION_NOUNS",
    "PREPOSITIONS",
    "PLURAL_PRONOUNS",
    "PRONOUNS",
    "RECIPROCAL_PRONOUNS",
    "REFLEXIVE_PRONOUNS",
    "PRO_NOUNS",
    "QUALITIES",
    "QUANTIFIERS",
    "RELATION_ADJECTIVES",
    "RELATION_PREPOSITIONS",
    "SCENE_NOUNS",
    "SHAPES",
    "SIZES",
    "SPATIAL",
    "STATES",
    "SUBJECT_PRONOUNS",
    "SUFFIX_EXCEPTIONS",
    "TEXTURES",
    "TIME_NOUNS",
    "VERBS_3SG",
    "category_of",
    "lexical_form",
]

# --- colours ---------------------------------------------------------------------------------

#: Colour words that combine with a shade ("light brown", "bright red").
BASIC_COLOURS: frozenset[str] = wl.words("colours", "basic")

#: Shade words that form a multi-word colour with a basic colour ("dark blue").
COLOUR_SHADES: frozenset[str] = wl.words("colours", "shade")

_OTHER_COLOURS: frozenset[str] = wl.words("colours", "other")

#: Colour words besides the basic ones that take a shade ("dark teal", "pale turquoise").
_SHADED_COLOURS: frozenset[str] = wl.words("colours", "shaded")

#: Colours that also name everyday things ("an orange", "a rainbow", "gold"): a colour word the
#: tagger calls a noun is read as a colour where only an attribute fits ("a brown/NN and a white
#: horse"), unless it is one of these.
COLOUR_NOUNS: frozenset[str] = wl.words("colours", "noun")

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
ADJECTIVE_SUFFIXES: tuple[str, ...] = wl.endings("endings", "adjective-tag")

#: Every attribute of the lexicon (single- and multi-word, lower case, words separated by spaces).
ATTRIBUTES: frozenset[str] = frozenset().union(*ATTRIBUTE_CATEGORIES.values())

# --- words that are never attributes ---------------------------------------------------------

#: Numbers, quantifiers, order words and other determiner-like adjectives.
QUANTIFIERS: frozenset[str] = wl.words("determiners", "quantifier")

#: Quantifiers the tagger sometimes calls nouns ("a lone/NN woman", "a solo/NN zebra") that never
#: are nouns in a caption: read as determiners whatever their tag.
NEVER_NOUNS: frozenset[str] = wl.words("determiners", "never-noun")

#: Position and direction words: relations, not attributes of the object.
SPATIAL: frozenset[str] = wl.words("adjectives", "spatial")

#: Adjectives that state no visual property ("able to", "due to", "sure").
NON_DESCRIPTIVE: frozenset[str] = wl.words("adjectives", "non-descriptive")

#: Words that never yield an attribute even when the tagger calls them adjectives.
NON_ATTRIBUTES: frozenset[str] = QUANTIFIERS | SPATIAL | NON_DESCRIPTIVE

# --- grammar words the rules look for --------------------------------------------------------

#: Verbs that link a subject to a predicative adjective ("the sky is blue", "the food looks good").
COPULAS: frozenset[str] = wl.words("verbs", "copula")

#: Verbs that link a subject to an adjective right after them like a copula, but only there
#: ("a chair sits empty", "cars sit parked", "a dog looking happy"); elsewhere they are verbs.
LINKING_VERBS: frozenset[str] = wl.words("verbs", "linking")

#: Adjectives that with a participle after them say how it is done ("low flying", "high rising").
DEGREE: frozenset[str] = wl.words("adjectives", "degree")

#: Present participles that usually take an object ("holding umbrella"): at the start of a phrase
#: they are verbs, not modifiers of the noun after them.
OBJECT_GERUNDS: frozenset[str] = wl.words("verbs", "object-gerund")

#: Words that stand for a noun mentioned before ("a gray one", "the white ones").
PRO_NOUNS: frozenset[str] = wl.words("pronouns", "pro-noun")

#: Degree adverbs skipped between a determiner and an attribute ("a very large dog").
INTENSIFIERS: frozenset[str] = wl.words("adverbs", "intensifier")

#: Participles that form one attribute with the noun or adjective before them, kept whole as
#: written ("snow covered slope", "tree lined street", "cream colored couch", "nice looking
#: cake", "long haired dog", "heart shaped cookie"). An adverb before them is dropped ("brightly
#: colored" -> colored); alone they are attributes too ("different colored" -> colored). Other
#: participles after a noun are verbs ("a dog named Rex", "a man dressed in black").
COMPOUND_PARTICIPLES: frozenset[str] = wl.words("participles", "compound")

#: Participles made from a noun ("long haired", "two toned", "odd shaped") or of manner ("nice
#: looking"), which form one attribute with any adjective before them, outside a coordination.
ADJECTIVE_PARTICIPLES: frozenset[str] = wl.words("participles", "adjective")

#: Participles that form one attribute with a colour or pattern before them ("blue lit bridge",
#: "red striped shirt", "floral printed sheets"); after other adjectives they are attributes of
#: their own ("a small tiled bathroom" -> small, tiled).
COLOUR_MANNER_PARTICIPLES: frozenset[str] = wl.words("participles", "colour-manner")

#: Participles after a copula that report an event rather than a state ("a cake is shown", "a
#: picture is taken"): no predicate binds.
EVENT_PARTICIPLES: frozenset[str] = wl.words("participles", "event")

#: Participles after which a colour is the colour of the noun before them ("a wall painted blue",
#: "the door is painted red").
COLOUR_PARTICIPLES: frozenset[str] = wl.words("participles", "colour")

#: Prepositions the tagger sometimes calls nouns ("a table beside/NN a sink").
PREPOSITIONS: frozenset[str] = wl.words("prepositions", "always")

#: Prepositions that attach a phrase to the noun before it; a predicate after the phrase describes
#: that noun ("the dog on the bed is white" -> dog).
LOCATIVE_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "locative")

# --- verbs and adverbs the tagger mistakes for nouns ---------------------------------------

#: Third-person verbs the tagger often calls plural nouns after a subject ("a woman sits/NNS on",
#: "a hydrant sprays/NNS water"). Only words whose plural-noun reading is rare in captions.
VERBS_3SG: frozenset[str] = wl.words("verbs", "third-person")

#: Adverbs the tagger calls nouns after a noun ("a man downhill/NN skiing", "hay ground
#: indoors/NNS"): never part of the object.
ADVERB_NOUNS: frozenset[str] = wl.words("adverbs", "read-as-noun")

# --- nouns -----------------------------------------------------------------------------------

#: Multi-word objects kept whole, written in the singular, whose first word would otherwise be read
#: as an attribute (an adjective, a gerund or a lexicon word). Noun + noun compounds ("fire
#: hydrant", "tennis racket") need no entry: a run of nouns is always one object.
COMPOUND_NOUNS: frozenset[str] = wl.words("nouns", "compound")

#: Nouns singularisation leaves as they are: singular words ending in "s" and pluralia tantum.
#: ("glasses" is not here on purpose: tag-free normalisation cannot tell eyewear from drinking
#: glasses, so both become "glass", which keeps "wine glasses" == "wine glass".)
INVARIANT_NOUNS: frozenset[str] = wl.words("nouns", "invariant")

#: Plural nouns ending in "us" (every other word ending in "us" is singular: bus, cactus, ...).
PLURAL_US_NOUNS: frozenset[str] = wl.words("nouns", "plural-us")

#: Nouns that can be adjectives but before a noun name its kind, not a property ("a video game",
#: "a vegetable dish", "a chocolate cake"): a compound, even where the tagger says adjective.
NOUN_MODIFIERS: frozenset[str] = wl.words("nouns", "modifier")

#: Nouns with an adjective ending ("table", "bed", "library").
SUFFIX_EXCEPTIONS: frozenset[str] = wl.words("nouns", "adjective-ending")

#: Nouns in -ing, which are no verb's participle after another noun ("a stone building", "a
#: wedding ring", "a tile flooring").
ING_NOUNS: frozenset[str] = wl.words("nouns", "ing")

#: "N1 of N2" words whose N2 is what a predicate describes ("a bowl of soup is hot" -> soup).
GROUP_NOUNS: frozenset[str] = wl.words("nouns", "group")

# --- the words of relations (SPEC section 1b) ------------------------------------------------

#: Nouns of people and animals: a participle after them relates them.
ANIMATE_NOUNS: frozenset[str] = wl.words("nouns", "animate")
#: Games and sports: a preposition phrase after one relates the verb it is the object of.
GAME_NOUNS: frozenset[str] = wl.words("nouns", "game")
#: Adjectives with a complement clause ("ready to", "about to"): the infinitive after them is an
#: intention, which states nothing.
COMPLEMENT_ADJECTIVES: frozenset[str] = wl.words("adjectives", "complement")
#: Adjectives that with the preposition after them state a relation ("full of").
RELATION_ADJECTIVES: frozenset[str] = wl.words("adjectives", "relation")
#: Lemmas of verbs whose object can be a game ("play").
GAME_VERBS: frozenset[str] = wl.words("verbs", "game")
#: Parts of a body: a with-phrase naming one after a thing relates the clause's person or animal.
BODY_PART_NOUNS: frozenset[str] = wl.words("nouns", "body-part")
#: Container nouns: before "of" the noun after it is the argument ("a bowl of soup" -> soup).
CONTAINER_NOUNS: frozenset[str] = wl.words("nouns", "container")
#: Partitive, quantity and picture nouns: before "of" the noun after it is the argument.
PARTITIVE_NOUNS: frozenset[str] = wl.words("nouns", "partitive")
#: Picture nouns (frames): before "of" the noun after it is the argument.
PICTURE_NOUNS: frozenset[str] = wl.words("nouns", "picture")
#: Position nouns: "PREP the NOUN of" is a multi-word preposition; alone an ordinary object.
POSITION_NOUNS: frozenset[str] = wl.words("nouns", "position")
#: Scene frames: no argument ("in the background"); a with-phrase placed in one states nothing.
SCENE_NOUNS: frozenset[str] = wl.words("nouns", "scene")
#: Nouns of time: no argument ("in the daytime").
TIME_NOUNS: frozenset[str] = wl.words("nouns", "time")
#: Single prepositions that state a relation ("on", "under", "with").
RELATION_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "relation")
#: Multi-word prepositions as tuples of words, longest first ("to the left of", "next to").
PHRASAL_PREPOSITIONS: tuple[tuple[str, ...], ...] = tuple(
    sorted(
        (tuple(p.split()) for p in wl.words("prepositions", "phrasal")),
        key=lambda w: (-len(w), w),
    )
)
#: Prepositions that state no relation ("of", "for", "without").
BLOCKING_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "blocking")
#: Adverbs that are prepositions before a noun phrase ("bench nearby tree"), once a rule says so.
BEFORE_NOUN_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "before-noun")
#: Prepositions of containment and support: a conjunct after their object is mostly a thing of
#: its own ("a car in a garage and a bicycle").
CONTAINMENT_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "containment")
#: Prepositions that state a relation only right after a verb ("wait for", "run after").
AFTER_VERB_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "after-verb")
#: Pronouns: no argument.
PRONOUNS: frozenset[str] = wl.words("pronouns", "pronoun")
#: Words that, standing alone, pick one of the things the caption began with ("one", "another").
ANAPHORIC_PRONOUNS: frozenset[str] = wl.words("pronouns", "anaphoric")
#: Personal subject pronouns that stand for the caption's first subject.
SUBJECT_PRONOUNS: frozenset[str] = wl.words("pronouns", "subject")
#: Reciprocal pronouns: as an object they stand for the relation's subject.
RECIPROCAL_PRONOUNS: frozenset[str] = wl.words("pronouns", "reciprocal")
#: Reflexive pronouns: as an object they stand for the relation's subject.
REFLEXIVE_PRONOUNS: frozenset[str] = wl.words("pronouns", "reflexive")
#: Object pronouns that stand for things, people or animals mentioned before them ("them").
PLURAL_PRONOUNS: frozenset[str] = wl.words("pronouns", "plural")
#: Object pronouns that stand for a thing mentioned before them ("it").
INANIMATE_PRONOUNS: frozenset[str] = wl.words("pronouns", "inanimate")
#: Object pronouns that stand for a person or an animal mentioned before them.
ANIMATE_PRONOUNS: frozenset[str] = wl.words("pronouns", "animate")
#: Indefinite pronouns kept as written as arguments ("someone", "something").
INDEFINITE_PRONOUNS: frozenset[str] = wl.words("pronouns", "indefinite")
#: Auxiliaries and copulas, dropped from a relation.
AUXILIARIES: frozenset[str] = wl.words("verbs", "auxiliary")
#: Lemmas of verbs that state no relation on their own ("get", "seem").
LIGHT_VERBS: frozenset[str] = wl.words("verbs", "light")
#: Participles after which "by" names a place, not the agent ("parked by the road").
LOCATIVE_PARTICIPLES: frozenset[str] = wl.words("participles", "locative")
#: Particles of phrasal verbs ("blow out", "show off").
PARTICLES: frozenset[str] = wl.words("adverbs", "particle")
#: Verbs of perception and causation (all forms, lemmas among them) that take a small clause
#: ("watching a man play tennis").
PERCEPTION_VERBS: frozenset[str] = wl.words("verbs", "perception")
#: Lemmas of verbs of posture, which things take too ("a monitor sitting on a table").
POSTURE_VERBS: frozenset[str] = wl.words("verbs", "posture")


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
