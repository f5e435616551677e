"""The closed word classes of the binding parser: words that are never attributes, and the
grammar words the rules and the tagger corrections look for.

Words that are never attributes (:data:`NON_ATTRIBUTES`: quantities, numbers, order and position
words, adjectives that state no visual property) yield no binding even where the tagger calls them
adjectives. The grammar words are the copulas and linking verbs of predicates, the degree adverbs
skipped before an attribute, negations, the participles that join the word before them into one
attribute (or report an event), prepositions, and the third-person verbs and adverbs the tagger
mistakes for nouns. The tables are data files (``data/words/<table>.txt``, read by
:mod:`.wordlists`); the parser reads them through :mod:`.lexicon`.
"""

from __future__ import annotations

from . import wordlists as wl

__all__ = [
    "ADJECTIVE_PARTICIPLES",
    "ADVERB_NOUNS",
    "COLOUR_MANNER_PARTICIPLES",
    "COLOUR_PARTICIPLES",
    "COMPOUND_PARTICIPLES",
    "COPULAS",
    "EVENT_PARTICIPLES",
    "DEGREE",
    "INTENSIFIERS",
    "LINKING_VERBS",
    "LOCATIVE_PREPOSITIONS",
    "NEGATIONS",
    "NEVER_NOUNS",
    "OBJECT_GERUNDS",
    "NON_ATTRIBUTES",
    "NON_DESCRIPTIVE",
    "PREPOSITIONS",
    "PRO_NOUNS",
    "QUANTIFIERS",
    "SPATIAL",
    "VERBS_3SG",
]

# --- words that are never attributes ---------------------------------------------------------

#: Numbers, quantifiers, order words and other determiner-like adjectives.
QUANTIFIERS: frozenset[str] = wl.words("quantifiers")

#: Quantifiers the tagger sometimes calls nouns ("a lone/NN woman", "a solo/NN zebra") that never
#: are nouns in a caption: read as determiners whatever their tag.
NEVER_NOUNS: frozenset[str] = wl.words("never_nouns")

#: Position and direction words: relations, not attributes of the object.
SPATIAL: frozenset[str] = wl.words("spatial")

#: Adjectives that state no visual property ("able to", "due to", "sure").
NON_DESCRIPTIVE: frozenset[str] = wl.words("non_descriptive")

#: Words that never yield an attribute even when the tagger calls them adjectives.
NON_ATTRIBUTES: frozenset[str] = QUANTIFIERS | SPATIAL | NON_DESCRIPTIVE

# --- grammar words the rules look for --------------------------------------------------------

#: Verbs that link a subject to a predicative adjective ("the sky is blue", "the food looks good").
COPULAS: frozenset[str] = wl.words("copulas")

#: Verbs that link a subject to an adjective right after them like a copula, but only there
#: ("a chair sits empty", "cars sit parked", "a dog looking happy"); elsewhere they are verbs.
LINKING_VERBS: frozenset[str] = wl.words("linking_verbs")

#: Adjectives that with a participle after them say how it is done ("low flying", "high rising").
DEGREE: frozenset[str] = wl.words("degree")

#: Present participles that usually take an object ("holding umbrella"): at the start of a phrase
#: they are verbs, not modifiers of the noun after them.
OBJECT_GERUNDS: frozenset[str] = wl.words("telegraphic_object_gerunds")

#: Words that stand for a noun mentioned before ("a gray one", "the white ones").
PRO_NOUNS: frozenset[str] = wl.words("pro_nouns")

#: Degree adverbs skipped between a determiner and an attribute ("a very large dog").
INTENSIFIERS: frozenset[str] = wl.words("intensifiers")

#: Words that negate a following predicative adjective ("the plate is not empty").
NEGATIONS: frozenset[str] = wl.words("negations")

#: Participles that form one attribute with the noun or adjective before them, kept whole as
#: written ("snow covered slope", "tree lined street", "cream colored couch", "nice looking
#: cake", "long haired dog", "heart shaped cookie"). An adverb before them is dropped ("brightly
#: colored" -> colored); alone they are attributes too ("different colored" -> colored). Other
#: participles after a noun are verbs ("a dog named Rex", "a man dressed in black").
COMPOUND_PARTICIPLES: frozenset[str] = wl.words("compound_participles")

#: Participles made from a noun ("long haired", "two toned", "odd shaped") or of manner ("nice
#: looking"), which form one attribute with any adjective before them, outside a coordination.
ADJECTIVE_PARTICIPLES: frozenset[str] = wl.words("adjective_participles")

#: Participles that form one attribute with a colour or pattern before them ("blue lit bridge",
#: "red striped shirt", "floral printed sheets"); after other adjectives they are attributes of
#: their own ("a small tiled bathroom" -> small, tiled).
COLOUR_MANNER_PARTICIPLES: frozenset[str] = wl.words("colour_manner_participles")

#: Participles after a copula that report an event rather than a state ("a cake is shown", "a
#: picture is taken"): no predicate binds.
EVENT_PARTICIPLES: frozenset[str] = wl.words("event_participles")

#: Participles after which a colour is the colour of the noun before them ("a wall painted blue",
#: "the door is painted red").
COLOUR_PARTICIPLES: frozenset[str] = wl.words("colour_participles")

#: Prepositions the tagger sometimes calls nouns ("a table beside/NN a sink").
PREPOSITIONS: frozenset[str] = wl.words("prepositions")

#: Prepositions that attach a phrase to the noun before it; a predicate after the phrase describes
#: that noun ("the dog on the bed is white" -> dog).
LOCATIVE_PREPOSITIONS: frozenset[str] = wl.words("locative_prepositions")

# --- verbs and adverbs the tagger mistakes for nouns ---------------------------------------

#: Third-person verbs the tagger often calls plural nouns after a subject ("a woman sits/NNS on",
#: "a hydrant sprays/NNS water"). Only words whose plural-noun reading is rare in captions.
VERBS_3SG: frozenset[str] = wl.words("verbs_3sg")

#: Adverbs the tagger calls nouns after a noun ("a man downhill/NN skiing", "hay ground
#: indoors/NNS"): never part of the object.
ADVERB_NOUNS: frozenset[str] = wl.words("adverb_nouns")
