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
nouns, ...), imported here. Changing any table changes parses, so ``PARSER_VERSION`` in
:mod:`bindsplit_datasets.parsing` must be bumped with it (a test enforces this through a hash of
every table in this namespace, which is why the parser reads them all through it).
"""

from __future__ import annotations

from collections.abc import Mapping

from .grammar_words import (
    ADJECTIVE_PARTICIPLES,
    ADVERB_NOUNS,
    COLOUR_MANNER_PARTICIPLES,
    COLOUR_PARTICIPLES,
    COMPOUND_PARTICIPLES,
    COPULAS,
    EVENT_PARTICIPLES,
    INTENSIFIERS,
    LINKING_VERBS,
    LOCATIVE_PREPOSITIONS,
    NEGATIONS,
    NEVER_NOUNS,
    NON_ATTRIBUTES,
    NON_DESCRIPTIVE,
    PREPOSITIONS,
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
    "LINKING_VERBS",
    "LOCATIVE_PREPOSITIONS",
    "MATERIALS",
    "NEGATIONS",
    "NEVER_NOUNS",
    "NON_ATTRIBUTES",
    "NOUN_MODIFIERS",
    "NON_DESCRIPTIVE",
    "ORIGINS",
    "PATTERNS",
    "PLURAL_US_NOUNS",
    "PREPOSITIONS",
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
BASIC_COLOURS: frozenset[str] = frozenset(
    {
        "white", "black", "blue", "green", "red", "brown", "yellow", "orange", "pink", "purple",
        "gray", "grey", "silver", "gold", "tan", "beige",
    }
)  # fmt: skip

#: Shade words that form a multi-word colour with a basic colour ("dark blue").
COLOUR_SHADES: frozenset[str] = frozenset(
    {
        "light",
        "dark",
        "bright",
        "pale",
        "deep",
        "pastel",
        "neon",
        "dull",
        "vivid",
        "solid",
        "fluorescent",
        "florescent",  # a common misspelling of it
        "muted",
    }
)

_OTHER_COLOURS = frozenset(
    {
        # single words
        "golden", "maroon", "teal", "turquoise", "navy", "khaki", "ivory", "cream", "violet",
        "lavender", "magenta", "cyan", "indigo", "crimson", "scarlet", "burgundy", "charcoal",
        "blond", "blonde", "brunette", "auburn", "reddish", "brownish", "greenish", "bluish",
        "yellowish", "grayish", "greyish", "pinkish", "whitish", "orangish", "purplish",
        "colorful", "colourful", "multicolored", "multicoloured", "silvery", "rainbow",
        "monochrome", "bronze", "mauve", "lilac", "fuchsia", "aqua", "aquamarine", "coral",
        "amber", "emerald", "jade", "cobalt", "azure", "cerulean", "periwinkle", "chartreuse",
        "ochre", "sepia", "taupe", "mahogany", "chestnut", "tawny", "ecru", "vermilion",
        "cerise", "russet", "sienna", "umber", "platinum", "copper colored",
        # named multi-word colours
        "navy blue", "royal blue", "sky blue", "baby blue", "baby pink", "hot pink", "lime green",
        "forest green", "olive green", "mint green", "sea green", "off white", "golden brown",
        "reddish brown", "jet black", "pitch black", "snow white", "stark white", "pure white",
        "multi colored", "multi coloured", "burnt orange", "burnt sienna",
    }
)  # fmt: skip

#: Colours that also name everyday things ("an orange", "a rainbow", "gold"): a colour word the
#: tagger calls a noun is read as a colour where only an attribute fits ("a brown/NN and a white
#: horse"), unless it is one of these.
COLOUR_NOUNS: frozenset[str] = frozenset(
    {
        "orange",
        "rainbow",
        "cream",
        "gold",
        "silver",
        "bronze",
        "ivory",
        "charcoal",
        "navy",
        "coral",
        "jade",
        "emerald",
        "amber",
        "chestnut",
        "mahogany",
        "platinum",
    }
)

#: Every colour: basic colours, "shade colour" pairs and the other colour words.
COLOURS: frozenset[str] = (
    BASIC_COLOURS
    | _OTHER_COLOURS
    | frozenset(f"{shade} {colour}" for shade in COLOUR_SHADES for colour in BASIC_COLOURS)
)

# --- other attribute categories --------------------------------------------------------------

#: What an object is made of ("glass vase", "wooden table").
MATERIALS: frozenset[str] = frozenset(
    {
        "wood", "wooden", "metal", "metallic", "steel", "stainless steel", "stainless", "iron",
        "wrought iron", "cast iron", "aluminum", "aluminium", "tin", "copper", "brass", "chrome",
        "glass", "plastic", "paper", "cardboard", "stone", "brick", "concrete", "cement",
        "marble", "granite", "ceramic", "porcelain", "clay", "terracotta", "tile", "tiled",
        "leather", "suede", "wool", "woolen", "woollen", "cotton", "denim", "silk", "satin",
        "velvet", "lace", "linen", "canvas", "rubber", "foam", "wicker", "straw", "bamboo",
        "rattan", "wire", "mesh", "vinyl", "fabric", "cloth", "formica", "stucco", "gravel",
        "dirt", "crystal", "pewter", "plaster", "asphalt", "cobblestone", "rock", "lego", "jean",
        "hay", "carpeted",
        "paneled",
        "wood paneled", "wood panelled", "barbed wire", "chain link", "stained glass",
        "hardwood", "hard wood",
    }
)  # fmt: skip

#: Surface patterns and markings ("striped shirt", "tabby cat").
PATTERNS: frozenset[str] = frozenset(
    {
        "striped", "stripy", "plaid", "checkered", "chequered", "checkerboard", "polka dot",
        "polka dotted", "dotted", "spotted", "spotty", "floral", "flowered", "flowery",
        "paisley", "camouflage", "camo", "tie dye", "tie dyed", "patterned", "printed",
        "tartan", "gingham", "argyle", "houndstooth", "speckled", "dappled", "mottled",
        "tabby", "calico", "brindle", "marbled", "pinstriped", "two toned", "two tone", "zigzag",
        "leopard print", "animal print", "zebra print", "embroidered", "sequined",
    }
)  # fmt: skip

#: Size and proportion ("large dog", "tall giraffe").
SIZES: frozenset[str] = frozenset(
    {
        "large", "big", "small", "little", "tiny", "huge", "giant", "gigantic", "enormous",
        "massive", "tall", "short", "long", "wide", "narrow", "thick", "thin", "skinny", "fat",
        "chubby", "medium", "mini", "miniature", "oversized", "slim", "slender", "shallow",
        "deep", "high", "low", "compact", "larger", "smaller", "bigger", "taller", "shorter",
        "longer", "largest", "smallest", "biggest", "tallest", "medium sized", "full size",
        "life size", "king size", "queen size", "extra large",
    }
)  # fmt: skip

#: Shapes and outlines ("round table", "heart shaped cookie").
SHAPES: frozenset[str] = frozenset(
    {
        "round", "square", "rectangular", "oval", "circular", "triangular", "curved",
        "straight", "pointed", "pointy", "flat", "spherical", "cylindrical", "hexagonal",
        "octagonal", "curly", "wavy", "bent", "crooked", "arched", "rounded", "domed", "jagged",
        "twisted", "heart shaped", "star shaped",
    }
)  # fmt: skip

#: Surface feel and look ("fluffy dog", "shiny car").
TEXTURES: frozenset[str] = frozenset(
    {
        "soft", "smooth", "rough", "fluffy", "furry", "fuzzy", "hairy", "shaggy", "silky",
        "shiny", "glossy", "matte", "sticky", "bumpy", "grainy", "sandy", "rocky", "grassy",
        "muddy", "dusty", "rusty", "leafy", "snowy", "icy", "frosted", "crispy", "crunchy",
        "creamy", "crusty", "flaky", "feathered", "feathery", "scaly", "spiky", "prickly",
        "wrinkled", "wrinkly", "glazed", "polished", "textured", "transparent", "translucent",
        "clear", "opaque", "reflective", "sparkly", "glittery", "puffy", "plush", "padded",
        "quilted", "knitted", "knit", "crocheted", "woven", "braided", "frothy", "foamy", "bushy",
        "lush", "bald",
        "bearded", "hazy", "cloudy", "murky",
    }
)  # fmt: skip

#: Conditions and states ("open laptop", "empty plate", "sliced apple").
STATES: frozenset[str] = frozenset(
    {
        "open", "opened", "closed", "broken", "cracked", "damaged", "ripped", "empty", "full",
        "half empty", "half full", "wet", "dry", "dried", "damp", "clean", "dirty", "messy",
        "tidy", "neat", "cluttered", "unmade", "lit", "unlit", "lighted", "illuminated",
        "cooked", "uncooked", "raw", "fresh", "ripe", "unripe", "overripe", "rotten", "moldy",
        "stale", "sliced", "chopped", "diced", "peeled", "shredded", "grated", "mashed", "fried",
        "deep fried", "grilled", "roasted", "toasted", "baked", "boiled", "hard boiled",
        "soft boiled", "steamed", "smoked", "burnt", "burned", "charred", "melted", "frozen",
        "stuffed", "folded", "abandoned", "deserted", "crowded", "busy", "vacant", "rusted",
        "unpainted", "potted", "uneaten", "half eaten",
        "worn", "faded", "stained", "tattered", "weathered", "overgrown", "paved",
        "unpaved", "asleep", "awake", "dead", "bare", "leafless", "calm", "choppy", "sunny",
        "overcast", "foggy", "misty", "rainy", "stormy", "blurry", "blurred", "hot", "cold",
        "warm", "steaming", "brand new",
    }
)  # fmt: skip

#: Age and era ("young boy", "antique clock", "adult panda").
AGES: frozenset[str] = frozenset(
    {
        "young", "old", "new", "baby", "adult", "elderly", "antique", "vintage", "ancient",
        "modern", "older", "oldest", "newer", "newest", "younger", "youngest", "teenage",
        "juvenile", "retro", "aged", "grown", "mother",
    }
)  # fmt: skip

#: Other common descriptive adjectives without a telling suffix ("cute", "outdoor", "electric"):
#: listed so that a tagger mistake ("outdoor/NN table") cannot hide them, and so that a word the
#: tagger calls an adjective before a noun is believed (see :data:`ADJECTIVE_SUFFIXES`).
QUALITIES: frozenset[str] = frozenset(
    {
        "cute", "nice", "pretty", "beautiful", "lovely", "ugly", "happy", "sad", "angry",
        "hungry", "sleepy", "tired", "lazy", "fancy", "good", "bad", "great", "fine", "fast",
        "slow", "quick", "wild", "tame", "stray", "quiet", "loud", "strange", "odd", "weird",
        "funny", "cool", "sweet", "sour", "spicy", "tasty", "delicious", "juicy", "salty",
        "rich", "poor", "plain", "simple", "brave", "proud", "safe", "real", "strong", "weak",
        "heavy", "hard", "firm", "loose", "tight", "tough", "broad", "steep", "sharp", "blunt",
        "dim", "dark", "bright", "male", "female", "public", "private", "local", "famous",
        "popular", "elegant", "vibrant", "pregnant", "brilliant", "ornate", "intricate",
        "elaborate", "delicate", "desolate", "outdoor", "indoor", "urban",
        "rural", "electric", "classic", "scenic", "organic", "historic", "polar", "solar",
        "regular", "cozy", "comfy", "alive", "naked", "barefoot", "blind", "smart", "cheap",
        "formal", "casual", "sporty", "serene", "rugged", "uneven", "grand", "mature", "senior",
        "junior", "gentle", "fierce", "cheerful", "friendly", "lonely",
        "distinct", "unique", "extravagant", "gourmet", "homemade", "handmade", "wireless",
        "digital", "electronic", "mechanical", "industrial", "commercial", "residential",
        "professional", "athletic", "military", "royal", "tropical", "western", "eastern",
        "northern", "southern", "oriental", "open air", "pale", "silly", "chilly", "hilly",
        "bubbly", "cuddly", "lively", "shabby", "handsome", "vast", "petite", "lean", "stout",
        "plump", "obese", "muscular", "sleek", "trendy", "chic", "posh", "filthy", "grimy",
        "greasy", "oily", "soggy", "crisp", "tender", "chewy", "rare", "bland", "savory",
        "sugary", "bitter", "tangy", "moist", "humid", "windy", "breezy", "frosty", "mild",
        "dense", "sparse", "coarse", "dull", "vivid", "faint", "bold", "silent", "scared",
        "afraid", "idle", "roomy", "quaint", "sick", "ill", "nude", "scruffy", "frizzy",
        "sturdy", "flimsy", "fragile", "solid", "hollow", "wobbly", "steady", "barren", "arid",
        "foreign", "native", "upright", "vegan", "cheesy", "tasteful", "shady", "sheer",
        "oral", "normal", "tribal", "coastal", "global", "neutral",
        "stylish", "fake", "floppy", "evergreen", "balding", "standard", "abstract", "random",
    }
)  # fmt: skip

#: Phrasal [adjective noun] properties of the head noun, kept whole ("thick crust pizza" ->
#: (thick crust, pizza), "flat screen tv", "long sleeve shirt", "two story house").
FORMS: frozenset[str] = frozenset(
    {
        "thick crust", "thin crust", "deep dish", "long sleeve", "short sleeve", "high heel",
        "high heeled", "flat screen", "big screen", "wide screen", "double sink", "double door",
        "two tier", "three tier", "multi tier", "two story", "three story", "two storey",
        "multi story", "single story", "old style", "old fashioned", "old fashion", "old time",
        "high rise", "low rise", "high speed", "long distance", "full length", "single engine",
        "twin engine", "four wheel", "two wheel", "open face", "open faced", "all terrain",
        "hard top", "soft top", "one way", "two way", "three way", "four way", "king size",
        "queen size", "twin size", "full size", "life size", "big rig", "long range",
        "short range", "open top", "double layer", "two layer", "three layer", "double scoop",
        "single scoop",
    }
)  # fmt: skip

#: Nationality and origin adjectives ("chinese food", "a german street sign").
ORIGINS: frozenset[str] = frozenset(
    {
        "american", "african", "asian", "european", "mexican", "italian", "indian", "japanese",
        "chinese", "french", "german", "british", "english", "irish", "scottish", "spanish",
        "dutch", "swiss", "thai", "korean", "russian", "greek", "australian", "canadian",
        "brazilian", "vietnamese", "turkish", "arabic", "moroccan", "cuban", "hawaiian", "roman",
    }
)  # fmt: skip

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
ADJECTIVE_SUFFIXES: tuple[str, ...] = (
    "ical", "ial", "ual", "onal", "ntal", "tic", "ive", "ous", "ful", "less", "able", "ible",
    "ish", "ese", "ian", "ed", "ing", "like", "some", "ward", "ary",
)  # fmt: skip

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
