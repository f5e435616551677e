"""The noun tables of the binding parser: objects kept whole, nouns normalisation leaves alone,
and nouns that look like adjectives or participles.

:data:`COMPOUND_NOUNS` are multi-word objects whose first word would otherwise read as an
attribute; :data:`INVARIANT_NOUNS` and :data:`PLURAL_US_NOUNS` guide singularisation; the other
tables keep a noun from being read as an attribute or a verb for its form ("a video game",
"table", "building") and name the "N1 of N2" words whose N2 a predicate describes. The parser reads
these tables through :mod:`.lexicon`, whose namespace the ``PARSER_VERSION`` guard hashes.
"""

from __future__ import annotations

__all__ = [
    "COMPOUND_NOUNS",
    "GROUP_NOUNS",
    "ING_NOUNS",
    "INVARIANT_NOUNS",
    "NOUN_MODIFIERS",
    "PLURAL_US_NOUNS",
    "SUFFIX_EXCEPTIONS",
]

# --- objects ---------------------------------------------------------------------------------

#: Multi-word objects kept whole, written in the singular, whose first word would otherwise be read
#: as an attribute (an adjective, a gerund or a lexicon word). Noun + noun compounds ("fire
#: hydrant", "tennis racket") need no entry: a run of nouns is always one object.
COMPOUND_NOUNS: frozenset[str] = frozenset(
    {
        # adjective + noun
        "hot dog", "hot tub", "high chair", "grilled cheese", "french fry", "french toast",
        "ice cream", "sweet potato", "soft drink", "hard drive", "remote control", "polar bear",
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

# --- nouns that look like attributes or verbs -------------------------------------------------

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
