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

Besides the attribute categories, this module holds the noun tables of the normalisation
(:data:`COMPOUND_NOUNS`: multi-word objects whose first word would otherwise read as an attribute;
:data:`INVARIANT_NOUNS`: nouns singularisation leaves alone) and the closed word classes the rules
look for (copulas, intensifiers, verbs the tagger mistakes for plural nouns, ...). Changing any
table changes parses, so ``PARSER_VERSION`` in :mod:`bindsplit_datasets.parsing` must be bumped
with it (a test enforces this through a hash of every table).
"""

from __future__ import annotations

from collections.abc import Mapping

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
        "tabby", "calico", "brindle", "marbled", "pinstriped", "two toned", "two tone",
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
        "stylish", "fake", "floppy", "evergreen", "balding",
    }
)  # fmt: skip

#: Phrasal [adjective noun] properties of the head noun, kept whole ("thick crust pizza" ->
#: (thick crust, pizza), "flat screen tv", "long sleeve shirt", "two story house").
FORMS: frozenset[str] = frozenset(
    {
        "thick crust", "thin crust", "deep dish", "long sleeve", "short sleeve", "high heel",
        "high heeled", "flat screen", "big screen", "wide screen", "double sink", "double door",
        "two tier", "three tier", "multi tier", "two story", "three story", "two storey",
        "multi story", "single story", "old style", "old fashioned", "old fashion",
        "high rise", "low rise", "high speed", "long distance", "full length", "single engine",
        "twin engine", "four wheel", "two wheel", "open face", "open faced", "all terrain",
        "hard top", "soft top", "one way", "two way", "king size", "queen size", "twin size",
        "full size", "life size", "big rig", "long range", "short range", "open top",
        "double layer", "two layer", "three layer", "double scoop", "single scoop",
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

#: Nouns that can be adjectives but before a noun name its kind, not a property ("a video game",
#: "a vegetable dish", "a chocolate cake"): a compound, even where the tagger says adjective.
NOUN_MODIFIERS: frozenset[str] = frozenset(
    {
        "video", "vegetable", "animal", "army", "signal", "bust", "mural", "cross", "pickup",
        "grizzly", "mobile", "chocolate", "dress", "country", "home", "house", "party", "plane",
        "master", "cherry", "olive", "cardinal", "veggie", "fruit", "toy", "police", "fire",
    }
)  # fmt: skip

#: Nouns with an adjective ending ("table", "bed", "library").
SUFFIX_EXCEPTIONS: frozenset[str] = frozenset(
    {
        "table", "vegetable", "cable", "turntable", "timetable", "stable", "bed", "shed",
        "flatbed", "seabed", "riverbed", "hotbed", "daybed", "waterbed", "flowerbed",
        "birdseed", "seaweed", "tumbleweed", "toolshed", "woodshed", "watershed",
        "sled", "seed", "weed", "reed", "steed", "speed", "feed", "breed", "cheese", "geese",
        "library",
        "dictionary", "diary", "anniversary", "itinerary", "sanctuary", "salary", "dispensary",
        "ceiling", "building", "king", "ring", "wing", "string", "swing", "spring", "sling",
        "thing", "icing",
        "pudding", "stuffing", "frosting", "topping", "filling", "dressing", "clothing",
        "bedding", "awning", "railing", "siding", "lighting", "wedding", "painting", "drawing",
        "belly", "jelly", "lily", "fly", "butterfly", "dragonfly", "family", "rally", "alley",
        "valley", "trolley", "pulley", "bully", "dolly", "gully", "tally",
    }
)  # fmt: skip

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

#: Prepositions that attach a phrase to the noun before it; a predicate after the phrase describes
#: that noun ("the dog on the bed is white" -> dog).
LOCATIVE_PREPOSITIONS: frozenset[str] = frozenset(
    {
        "on", "in", "at", "with", "near", "by", "from", "under", "behind", "beside", "inside",
        "over", "above", "below", "along", "across", "against", "atop", "around", "of",
        "underneath", "beneath", "outside", "without",
    }
)  # fmt: skip

#: Nouns in -ing, which are no verb's participle after another noun ("a stone building", "a
#: wedding ring", "a tile flooring").
ING_NOUNS: frozenset[str] = frozenset(
    {
        "building", "ceiling", "clothing", "painting", "drawing", "wedding", "evening",
        "morning", "railing", "awning", "frosting", "icing", "topping", "filling", "stuffing",
        "pudding", "dressing", "bedding", "siding", "lighting", "flooring", "carving",
        "engraving", "sibling", "duckling", "seedling", "dumpling", "string", "spring",
        "opening", "crossing", "clearing", "housing", "tubing", "piping", "padding", "netting",
        "fencing", "paneling", "panelling", "shelving", "plumbing", "roofing", "scaffolding",
        "stocking", "earring", "herring", "bunting", "sapling", "carpeting", "tiling",
        "lettering", "molding", "moulding", "wiring", "something", "nothing", "anything",
        "everything", "ring", "king", "wing", "swing", "sling", "thing",
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

#: Every attribute of the lexicon (single- and multi-word, lower case, words separated by spaces).
ATTRIBUTES: frozenset[str] = frozenset().union(*ATTRIBUTE_CATEGORIES.values())

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

#: Adjectives that state no visual property ("ready to eat", "able to").
NON_DESCRIPTIVE: frozenset[str] = frozenset(
    {
        "ready",
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

#: "N1 of N2" words whose N2 is what a predicate describes ("a bowl of soup is hot" -> soup).
GROUP_NOUNS: frozenset[str] = frozenset(
    {
        "group", "bunch", "pile", "stack", "heap", "herd", "flock", "pack", "couple", "pair",
        "lot", "lots", "number", "set", "row", "line", "variety", "assortment", "collection",
        "kind", "type", "sort", "piece", "pieces", "slice", "bit", "plate", "bowl", "cup",
        "glass", "mug", "box", "bag", "basket", "tray", "bottle", "jar", "can", "pot", "pan",
        "bucket", "carton", "platter", "dish", "crowd", "team", "fleet", "family", "bundle",
        "handful", "loaf", "bar", "clump", "cluster", "display",
    }
)  # fmt: skip

# --- nouns -----------------------------------------------------------------------------------

#: Multi-word objects kept whole, written in the singular, whose first word would otherwise be read
#: as an attribute (an adjective, a gerund or a lexicon word). Noun + noun compounds ("fire
#: hydrant", "tennis racket") need no entry: a run of nouns is always one object.
COMPOUND_NOUNS: frozenset[str] = frozenset(
    {
        # adjective + noun
        "hot dog", "hot tub", "high chair", "french fry", "french toast", "ice cream",
        "sweet potato", "soft drink", "hard drive", "remote control", "polar bear",
        "grizzly bear", "teddy bear", "stop sign", "stop light", "double decker",
        "double decker bus", "double bed", "twin bed", "t shirt", "tee shirt",
        "jumbo jet", "orange juice", "orange peel", "gold fish", "cream cheese", "fast food",
        "light pole", "light post", "light fixture", "light switch", "light bulb",
        "dirt bike", "baby stroller", "baby carriage", "baby bottle", "baby seat",
        "hot air balloon", "solar panel", "mobile phone", "close up", "pickup truck",
        "stuffed animal", "stuffed toy", "flying disk", "flying disc", "smart phone",
        "dress shirt", "smart car", "smart watch", "smart tv", "wet suit",
        "gaming system", "gaming console", "touring motorcycle", "aerial view", "aerial shot",
        "aerial photo", "fire hydrant",
        # gerund + noun
        "living room", "living area", "living space", "dining room", "dining table",
        "dining area", "dining hall", "dining car", "sitting area", "sitting room",
        "waiting area", "waiting room", "cutting board", "parking meter", "parking lot",
        "parking space", "parking garage", "parking spot", "swimming pool", "swimming suit",
        "sleeping bag", "washing machine", "frying pan", "baking sheet", "baking pan",
        "baking dish", "serving tray", "serving bowl", "serving plate", "serving platter",
        "serving spoon", "mixing bowl", "shopping cart", "shopping bag", "shopping center",
        "shopping mall", "fishing boat", "fishing pole", "fishing rod", "fishing net",
        "sailing boat", "sailing ship", "skating rink", "training wheel", "running shoe",
        "running track", "walking stick", "walking path", "walking trail", "hiking trail",
        "landing gear", "landing strip", "changing table", "boxing glove", "boxing ring",
        "rolling pin", "ironing board", "drinking fountain", "rocking chair",
        "folding chair", "folding table", "sliding door", "moving truck",
        "moving van", "writing desk", "cooking pot", "cooking utensil", "building block",
        "passing lane", "crossing guard", "stir fry", "roasting pan", "batting cage", "petting zoo",
        "watering hole", "watering can", "shelving unit",
        "drinking glass", "drinking water", "chewing gum", "baking soda", "hiking boot",
        "walking cane", "dressing table", "dressing room", "washing station", "cooking area",
        "changing room", "loading dock", "boarding pass", "racing car", "racing bike",
        "riding helmet", "riding gear", "skiing gear", "shaving cream", "sewing machine",
        "vending machine", "wedding cake", "wedding dress", "wrapping paper", "measuring cup",
        "tasting room", "mixing spoon", "carving knife", "steering wheel", "rolling suitcase",
    }
)  # fmt: skip

#: Nouns singularisation leaves as they are: singular words ending in "s" and pluralia tantum.
#: ("glasses" is not here on purpose: tag-free normalisation cannot tell eyewear from drinking
#: glasses, so both become "glass", which keeps "wine glasses" == "wine glass".)
INVARIANT_NOUNS: frozenset[str] = frozenset(
    {
        "bus", "gas", "lens", "canvas", "tennis", "christmas", "news", "series", "species",
        "scissors", "pants", "jeans", "shorts", "trousers", "clothes", "sunglasses",
        "eyeglasses", "goggles", "binoculars", "pajamas", "pyjamas", "tongs", "pliers",
        "tweezers", "overalls", "leggings", "tights", "dice", "data", "physics", "gymnastics",
        "electronics", "athletics", "aerobics", "billiards", "cattle", "police", "goods",
        "headquarters", "premises", "outskirts", "surroundings", "belongings", "iris", "axis",
        "oasis", "pelvis", "chassis", "analysis", "measles", "mathematics", "politics",
        "economics", "suds", "kudos", "headphones", "earphones",
    }
)  # fmt: skip

#: Plural nouns ending in "us" (every other word ending in "us" is singular: bus, cactus, ...).
PLURAL_US_NOUNS: frozenset[str] = frozenset(
    {"menus", "emus", "gurus", "tutus", "haikus", "tofus", "gnus", "bayous"}
)


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
