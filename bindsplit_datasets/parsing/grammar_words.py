"""The closed word classes of the binding parser: words that are never attributes, and the
grammar words the rules and the tagger corrections look for.

Words that are never attributes (:data:`NON_ATTRIBUTES`: quantities, numbers, order and position
words, adjectives that state no visual property) yield no binding even where the tagger calls them
adjectives. The grammar words are the copulas and linking verbs of predicates, the degree adverbs
skipped before an attribute, negations, the participles that join the word before them into one
attribute (or report an event), prepositions, and the third-person verbs and adverbs the tagger
mistakes for nouns. The parser reads these tables through :mod:`.lexicon`, whose namespace the
``PARSER_VERSION`` guard hashes.
"""

from __future__ import annotations

__all__ = [
    "ADJECTIVE_PARTICIPLES",
    "ADVERB_NOUNS",
    "COLOUR_MANNER_PARTICIPLES",
    "COLOUR_PARTICIPLES",
    "COMPOUND_PARTICIPLES",
    "COPULAS",
    "EVENT_PARTICIPLES",
    "INTENSIFIERS",
    "LINKING_VERBS",
    "LOCATIVE_PREPOSITIONS",
    "NEGATIONS",
    "NEVER_NOUNS",
    "NON_ATTRIBUTES",
    "NON_DESCRIPTIVE",
    "PREPOSITIONS",
    "QUANTIFIERS",
    "SPATIAL",
    "VERBS_3SG",
]

# --- words that are never attributes ---------------------------------------------------------

#: Numbers, quantifiers, order words and other determiner-like adjectives.
QUANTIFIERS: frozenset[str] = frozenset(
    {
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "twenty", "hundred", "thousand", "dozen", "zero", "single",
        "double", "triple", "twin", "some", "any", "many", "much", "more", "most", "few",
        "fewer", "less", "least", "several", "multiple", "numerous", "various", "assorted",
        "different", "other", "another", "each", "every", "all", "both", "either", "neither",
        "no", "enough", "plenty", "lots", "half", "whole", "entire", "only", "same", "such",
        "certain", "own", "extra", "additional", "first", "second", "third", "fourth", "fifth",
        "last", "final", "next", "previous", "else", "particular", "lone", "solo", "solitary",
        "singular", "differing",
    }
)  # fmt: skip

#: Quantifiers the tagger sometimes calls nouns ("a lone/NN woman", "a solo/NN zebra") that never
#: are nouns in a caption: read as determiners whatever their tag.
NEVER_NOUNS: frozenset[str] = frozenset(
    {"lone", "solo", "solitary", "several", "various", "assorted", "multiple", "numerous"}
)

#: Position and direction words: relations, not attributes of the object.
SPATIAL: frozenset[str] = frozenset(
    {
        "left", "right", "top", "bottom", "front", "back", "middle", "center", "centre", "mid",
        "central", "side", "upper", "lower", "inner", "outer", "rear", "near", "far", "close",
        "nearby", "distant", "adjacent", "opposite", "overhead", "outside", "inside", "above",
        "below", "underneath", "background", "foreground", "alone", "together", "apart",
    }
)  # fmt: skip

#: Adjectives that state no visual property ("able to", "due to", "sure").
NON_DESCRIPTIVE: frozenset[str] = frozenset(
    {
        "able",
        "unable",
        "about",
        "due",
        "sure",
        "likely",
        "possible",
        "unknown",
        "available",
        "unavailable",
    }
)

#: Words that never yield an attribute even when the tagger calls them adjectives.
NON_ATTRIBUTES: frozenset[str] = QUANTIFIERS | SPATIAL | NON_DESCRIPTIVE

# --- grammar words the rules look for --------------------------------------------------------

#: Verbs that link a subject to a predicative adjective ("the sky is blue", "the food looks good").
COPULAS: frozenset[str] = frozenset(
    {
        "is", "are", "was", "were", "be", "been", "being", "am", "'s", "'re", "look", "looks",
        "looked", "seem", "seems", "seemed", "appear", "appears", "appeared", "become",
        "becomes", "became", "remain", "remains", "remained", "stay", "stays", "turn", "turns",
        "turned", "get", "gets", "got",
    }
)  # fmt: skip

#: Verbs that link a subject to an adjective right after them like a copula, but only there
#: ("a chair sits empty", "cars sit parked", "a dog looking happy"); elsewhere they are verbs.
LINKING_VERBS: frozenset[str] = frozenset(
    {
        "sit", "sits", "sat", "sitting", "stand", "stands", "stood", "standing", "lie", "lies",
        "lay", "lays", "lying", "laying", "rest", "rests", "resting", "looking", "remaining",
        "glow", "glows", "glowed", "glowing", "shine", "shines", "shone", "shining",
    }
)  # fmt: skip

#: Degree adverbs skipped between a determiner and an attribute ("a very large dog").
INTENSIFIERS: frozenset[str] = frozenset(
    {
        "very", "really", "extremely", "fairly", "rather", "quite", "pretty", "so", "too",
        "super", "incredibly", "slightly", "somewhat", "mostly", "mainly", "partly",
        "partially", "completely", "totally", "fully", "entirely", "all", "almost", "nearly",
        "also", "still", "freshly", "newly", "brightly", "dimly", "well", "nicely", "otherwise",
        "beautifully", "brilliantly", "highly", "relatively", "unusually", "especially",
        "particularly",
    }
)  # fmt: skip

#: Words that negate a following predicative adjective ("the plate is not empty").
NEGATIONS: frozenset[str] = frozenset({"not", "n't", "never", "no", "hardly", "barely"})

#: Participles that form one attribute with the noun or adjective before them, kept whole as
#: written ("snow covered slope", "tree lined street", "cream colored couch", "nice looking
#: cake", "long haired dog", "heart shaped cookie"). An adverb before them is dropped ("brightly
#: colored" -> colored); alone they are attributes too ("different colored" -> colored). Other
#: participles after a noun are verbs ("a dog named Rex", "a man dressed in black").
COMPOUND_PARTICIPLES: frozenset[str] = frozenset(
    {
        "covered", "topped", "filled", "lined", "shaped", "colored", "coloured", "operated",
        "paneled", "panelled", "powered", "themed", "sized", "styled", "laden", "crusted",
        "encrusted", "infested", "tinted", "capped", "trimmed", "frosted", "dusted", "soaked",
        "stained", "lit", "glazed", "dipped", "rimmed", "framed", "tiled", "paved", "looking",
        "toned", "haired", "eyed", "legged", "sleeved", "faced", "headed", "tailed", "necked",
        "striped", "patterned", "printed", "painted", "dyed", "roofed", "walled", "sided",
        "handled", "skinned", "made", "flavored", "flavoured", "scented", "wrapped", "coated",
        "stuffed", "studded", "dotted", "sprinkled", "splattered", "bearing", "growing",
    }
)  # fmt: skip

#: Participles made from a noun ("long haired", "two toned", "odd shaped") or of manner ("nice
#: looking"), which form one attribute with any adjective before them, outside a coordination.
ADJECTIVE_PARTICIPLES: frozenset[str] = frozenset(
    {
        "looking", "shaped", "sized", "haired", "eyed", "legged", "sleeved", "faced", "headed",
        "tailed", "necked", "skinned", "toned", "styled", "themed", "colored", "coloured",
        "flavored", "flavoured", "scented", "hued", "tipped", "handled", "wheeled", "winged",
        "billed",
        "beaked", "horned", "footed", "handed", "hearted", "minded", "bodied",
    }
)  # fmt: skip

#: Participles that form one attribute with a colour or pattern before them ("blue lit bridge",
#: "red striped shirt", "floral printed sheets"); after other adjectives they are attributes of
#: their own ("a small tiled bathroom" -> small, tiled).
COLOUR_MANNER_PARTICIPLES: frozenset[str] = frozenset(
    {
        "lit", "painted", "striped", "dyed", "tinted", "printed", "patterned", "trimmed",
        "rimmed", "framed", "topped", "spotted", "glazed", "tiled", "paneled", "panelled",
        "roofed", "walled", "stained", "speckled", "dotted", "streaked", "lined",
    }
)  # fmt: skip

#: Participles after a copula that report an event rather than a state ("a cake is shown", "a
#: picture is taken"): no predicate binds.
EVENT_PARTICIPLES: frozenset[str] = frozenset(
    {
        "shown", "seen", "pictured", "displayed", "depicted", "photographed", "taken",
        "captured", "viewed", "featured", "presented", "made", "done", "used", "held", "given",
        "found", "served", "prepared", "blown", "thrown", "carried", "pulled", "pushed",
        "driven", "ridden", "flown", "eaten", "played", "watched", "filmed", "shot",
    }
)  # fmt: skip

#: Participles after which a colour is the colour of the noun before them ("a wall painted blue",
#: "the door is painted red").
COLOUR_PARTICIPLES: frozenset[str] = frozenset({"painted", "dyed", "colored", "coloured", "tinted"})

#: Prepositions the tagger sometimes calls nouns ("a table beside/NN a sink").
PREPOSITIONS: frozenset[str] = frozenset(
    {
        "beside", "besides", "behind", "near", "across", "along", "atop", "beneath", "between",
        "among", "amongst", "toward", "towards", "onto", "into", "upon", "underneath", "past",
        "against", "through", "throughout", "via", "alongside", "amid", "amidst", "within",
        "without",
        "around", "under", "above", "below",
    }
)  # fmt: skip

#: Prepositions that attach a phrase to the noun before it; a predicate after the phrase describes
#: that noun ("the dog on the bed is white" -> dog).
LOCATIVE_PREPOSITIONS: frozenset[str] = frozenset(
    {
        "on", "in", "at", "with", "near", "by", "from", "under", "behind", "beside", "inside",
        "over", "above", "below", "along", "across", "against", "atop", "around", "of",
        "underneath", "beneath", "outside", "without",
    }
)  # fmt: skip

# --- verbs and adverbs the tagger mistakes for nouns ---------------------------------------

#: Third-person verbs the tagger often calls plural nouns after a subject ("a woman sits/NNS on",
#: "a hydrant sprays/NNS water"). Only words whose plural-noun reading is rare in captions.
VERBS_3SG: frozenset[str] = frozenset(
    {
        "sits", "lays", "lies", "holds", "eats", "grazes", "drives", "poses", "smiles", "leans",
        "swims", "throws", "catches", "prepares", "sleeps", "waits", "watches", "carries",
        "pulls", "pushes", "talks", "reads", "wears", "uses", "takes", "makes", "gets", "goes",
        "comes", "sees", "climbs", "crosses", "perches", "hangs", "travels", "approaches",
        "chases", "licks", "reaches", "sprays", "rubs", "passes", "contains", "includes",
        "features", "depicts", "sells", "serves", "stares", "gazes", "tries", "cooks", "bakes",
        "sniffs", "bites", "chews", "peeks", "kneels", "squats", "crouches", "bends", "dives",
        "floats", "follows", "pets", "cuddles", "lounges", "relaxes", "grins", "laughs",
        "yawns", "barks", "roars", "glides", "soars", "flips", "spins", "balances", "grabs",
        "lifts", "tosses", "gives", "offers", "shares", "opens", "closes", "fills", "pours",
        "stirs", "slices", "chops", "mixes", "washes", "cleans", "fixes", "builds", "writes",
        "stands", "walks", "rides", "runs", "plays", "flies", "looks", "jumps", "swings", "cuts",
        "feeds", "rests", "snuggles", "nudges",
        "stretches", "wanders", "leaps", "hops", "dangles", "peers", "awaits", "sips",
    }
)  # fmt: skip

#: Adverbs the tagger calls nouns after a noun ("a man downhill/NN skiing", "hay ground
#: indoors/NNS"): never part of the object.
ADVERB_NOUNS: frozenset[str] = frozenset(
    {
        "downhill", "uphill", "indoors", "outdoors", "upstairs", "downstairs", "overhead",
        "nearby", "ahead", "aside", "away", "alone", "together", "apart", "abroad", "ashore",
        "aboard", "backwards", "backward", "sideways", "underwater", "today", "tonight",
        "outside", "inside", "downstream", "upstream", "everywhere", "somewhere", "elsewhere",
        "afloat", "upside", "offshore", "onshore", "downtown", "uptown", "midair", "mid air",
    }
)  # fmt: skip
