"""The binding parser: every rule of docs/protocol.md, section 1 on exact examples, normalisation,
parse_many against parse_bindings, damaged tagger weights, and
precision/recall on the hand-labelled gold set (tests/data/bindings_gold.json). The tagger itself
is tested in test_tagger.py."""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import random
import time
from collections import Counter
from pathlib import Path

import gold_sets
import pytest

from bindsplit_datasets.errors import PackageDataError
from bindsplit_datasets.parsing import (
    NORMALISATION,
    Binding,
    clean_text,
    lexicon,
    normalise_attribute,
    normalise_binding,
    normalise_object,
    parse_bindings,
    parse_many,
    pipeline,
    singularise,
    tagger,
    tagger_weights,
    tokenise,
)
from bindsplit_datasets.parsing import text as text_module

#: The project's first gold set: precision and recall at least these (measured: 0.991 / 0.986).
TARGET_PRECISION, TARGET_RECALL = 0.98, 0.97


def B(attribute: str, obj: str) -> Binding:
    return Binding(attribute, obj)


def pairs(text: str) -> list[tuple[str, str]]:
    return [(b.attribute, b.object) for b in parse_bindings(text)]


# ------------------------------------------------------------------------------- Binding
def test_binding_is_a_frozen_ordered_hashable_pair():
    binding = B("red", "bus")
    assert str(binding) == "red bus"
    assert (binding.attribute, binding.object) == ("red", "bus")
    assert sorted([B("red", "car"), B("blue", "car"), B("red", "bus")]) == [
        B("blue", "car"), B("red", "bus"), B("red", "car"),
    ]  # fmt: skip
    assert len({B("red", "bus"), B("red", "bus"), B("red", "car")}) == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        binding.attribute = "blue"  # type: ignore[misc]


# ----------------------------------------------------------------------- rules (protocol, 1)
RULE_CASES = {
    # attributive
    "a large brown dog": [("large", "dog"), ("brown", "dog")],
    "An old man and a young woman.": [("old", "man"), ("young", "woman")],
    "A LARGE BLACK DOG": [("large", "dog"), ("black", "dog")],
    # conjoined
    "a red and white bus": [("red", "bus"), ("white", "bus")],
    "a small, white kitchen": [("small", "kitchen"), ("white", "kitchen")],
    "red, yellow and orange fruit": [("red", "fruit"), ("yellow", "fruit"), ("orange", "fruit")],
    "a black and white photo of a man": [("black", "photo"), ("white", "photo")],
    "tall trees and buildings": [("tall", "tree")],
    # predicative
    "the sky is blue": [("blue", "sky")],
    "the train is yellow and blue": [("yellow", "train"), ("blue", "train")],
    "The bananas are green and the apples look ripe.": [("green", "banana"), ("ripe", "apple")],
    "the room looks clean and tidy": [("clean", "room"), ("tidy", "room")],
    "a bus that is red": [("red", "bus")],
    "the dog on the bed is white": [("white", "dog")],
    "a bowl of soup is hot": [("hot", "soup")],
    "the walls are all white": [("white", "wall")],
    "the plate is not empty": [],
    "The kitchen is yellow with white cabinets.": [("yellow", "kitchen"), ("white", "cabinet")],
    # lexicon words the tagger calls nouns or verbs
    "a glass vase on a metal tray next to a brown table": [
        ("glass", "vase"),
        ("metal", "tray"),
        ("brown", "table"),
    ],
    "a glass and metal table": [("glass", "table"), ("metal", "table")],
    "an open laptop on a round table": [("open", "laptop"), ("round", "table")],
    "light brown hair and dark blue jeans": [("light brown", "hair"), ("dark blue", "jeans")],
    "a stainless steel refrigerator": [("stainless steel", "refrigerator")],
    "a cream colored cat": [("cream colored", "cat")],
    "a baby elephant next to an adult elephant": [("baby", "elephant"), ("adult", "elephant")],
    # compounds
    "a brown teddy bear next to a yellow fire hydrant": [
        ("brown", "teddy bear"),
        ("yellow", "fire hydrant"),
    ],
    "a hot dog and a cup of hot coffee": [("hot", "coffee")],
    "a living room with a leather couch": [("leather", "couch")],
    "a red double decker bus": [("red", "double decker bus")],
    "a plate of hot dogs with french fries": [],
    "a green tennis ball": [("green", "tennis ball")],
    # participles
    "three sliced apples": [("sliced", "apple")],
    "a parked car next to a smiling man": [("parked", "car"), ("smiling", "man")],
    "a snow covered mountain": [("snow covered", "mountain")],
    "a sleeping cat on a dining table": [("sleeping", "cat")],
    # never attributes
    "two white cats": [("white", "cat")],
    "several bananas and many oranges": [],
    "the left side of a tall building": [("tall", "building")],
    "a pair of scissors": [],
    "a couple of dogs": [],
    "a close up of a sandwich": [],
    "a group of people on top of a hill": [],
    "a man standing in front of a blue wall": [("blue", "wall")],
    # traps: verbs, gerunds, post-nominal phrases
    "a man riding a skateboard": [],
    "people riding horses on the beach": [],
    "a plate of food": [],
    "a cup full of tea": [("full", "cup")],
    "a cat sitting on a toilet looking in a mirror": [],
    # hyphens, possessives, adverbs
    "a red-and-white striped shirt": [("red", "shirt"), ("white", "shirt"), ("striped", "shirt")],
    "a wood-paneled wall": [("wood-paneled", "wall")],
    "a snow-covered mountain": [("snow-covered", "mountain")],
    "a man's blue jacket": [("blue", "jacket")],
    "a very large elephant": [("large", "elephant")],
    "a pretty large dog": [("large", "dog")],
    # the tagger's usual slips
    "a kitchen scene and a ski slope": [],
    "a pizza with cheese and herbs": [],
    "a pretty girl standing by a parking meter": [("pretty", "girl")],
    "A woman wearing black leather sits on her motorcycle.": [("black", "leather")],
    "a lamp shining light on a bed": [],
    "an otherwise dark room": [("dark", "room")],
    "a cloudy blue sky over grey and red walls": [
        ("cloudy", "sky"),
        ("blue", "sky"),
        ("grey", "wall"),
        ("red", "wall"),
    ],
    "a shabby looking shower": [("shabby looking", "shower")],
    "a snowy, tree-lined path": [("snowy", "path"), ("tree-lined", "path")],
    "a white snow covered slope": [("white", "slope"), ("snow covered", "slope")],
    "a burger, fries, a glass and condiments": [],
    # ARO VG-Attribution's template
    "the white plate and the wooden table": [("white", "plate"), ("wooden", "table")],
    "the paved road and the white house": [("paved", "road"), ("white", "house")],
}


@pytest.mark.parametrize("text", list(RULE_CASES))
def test_rule(text):
    assert pairs(text) == RULE_CASES[text]


# Constructions: for each, what the rule must produce and look-alikes it must leave alone.
CONSTRUCTION_CASES = {
    # relative clause with a copula, then the main verb (tagged as a noun by the tagger)
    "a cat that is grey sleeps on the sofa": [("grey", "cat")],
    "a dog that is white and brown runs on the beach": [("white", "dog"), ("brown", "dog")],
    "the horses which are brown graze in a field": [("brown", "horse")],
    "a man who is old reads a newspaper": [("old", "man")],
    "a bird that is small perches on a branch": [("small", "bird")],
    "two dogs that are brown and white play in the snow": [("brown", "dog"), ("white", "dog")],
    "a dog that is brown looks happy": [("brown", "dog"), ("happy", "dog")],
    "a cat that is grey and a dog that is black": [("grey", "cat"), ("black", "dog")],
    "a cat that is on the sofa sleeps": [],
    "a cat that is sleeping on a grey sofa": [("grey", "sofa")],
    # coordinated predicates whose first conjunct is a participle
    "the shop is closed and dark": [("closed", "shop"), ("dark", "shop")],
    "the door is locked and rusty": [("locked", "door"), ("rusty", "door")],
    "the windows are broken and dirty": [("broken", "window"), ("dirty", "window")],
    "the cake is decorated and colorful": [("decorated", "cake"), ("colorful", "cake")],
    "the road is wet and flooded": [("wet", "road"), ("flooded", "road")],
    "the man is tired and dressed in black": [("tired", "man")],
    "the car is parked on the street": [],
    "the car is parked and the man is tall": [("parked", "car"), ("tall", "man")],
    "the man is seated and talking on a phone": [("seated", "man")],
    # serial comma
    "a green, yellow, and red kite": [("green", "kite"), ("yellow", "kite"), ("red", "kite")],
    "a small, old, and rusty truck": [("small", "truck"), ("old", "truck"), ("rusty", "truck")],
    "a small, round, and shiny table": [
        ("small", "table"),
        ("round", "table"),
        ("shiny", "table"),
    ],  # fmt: skip
    "the kite is green, yellow, and red": [
        ("green", "kite"),
        ("yellow", "kite"),
        ("red", "kite"),
    ],  # fmt: skip
    "a plate, a fork, and a red cup": [("red", "cup")],
    "apples, oranges, and red grapes": [("red", "grape")],
    "a white plate, and red cups": [("white", "plate"), ("red", "cup")],
    # colour participles
    "a wall painted blue": [("blue", "wall")],
    "a door that is painted red": [("red", "door")],
    "a bus painted red and white": [("red", "bus"), ("white", "bus")],
    "the fence is painted white": [("white", "fence")],
    "walls painted light blue": [("light blue", "wall")],
    "hair dyed pink": [("pink", "hair")],
    "a fence painted brown next to a tree": [("brown", "fence")],
    "a man painted a red wall": [("red", "wall")],
    "a woman painted red flowers": [("red", "flower")],
    "a wall painted with white stripes": [("white", "stripe")],
    "a painted wall": [("painted", "wall")],
    # ellipsis
    "one black and one white cat": [("black", "cat"), ("white", "cat")],
    "one large and one small dog": [("large", "dog"), ("small", "dog")],
    "a brown and a white horse in a field": [("brown", "horse"), ("white", "horse")],
    "two red and three blue balloons": [("red", "balloon"), ("blue", "balloon")],
    "one red, one blue, and one green umbrella": [
        ("red", "umbrella"),
        ("blue", "umbrella"),
        ("green", "umbrella"),
    ],  # fmt: skip
    "a dog and a white cat": [("white", "cat")],
    "a glass and a red mug": [("red", "mug")],
    "one dog and one white cat": [("white", "cat")],
    "an orange and a green apple": [("green", "apple")],
    "a male and a female and a tray of food": [],
    "the dog is black and the white cat sleeps": [("black", "dog"), ("white", "cat")],
    "a black and a white dog play in the snow": [("black", "dog"), ("white", "dog")],
    "a dog and a white cat sit on a bench": [("white", "cat")],
    "red, white, and blue flags hang from a pole": [
        ("red", "flag"),
        ("white", "flag"),
        ("blue", "flag"),
    ],  # fmt: skip
    "a red fruit stand with bananas": [("red", "fruit stand")],
    "a man and a red fruit stand": [("red", "fruit stand")],
    # participles alone after "different": the participle binds; with an adjective: kept whole
    "different sized boxes": [("sized", "box")],
    "various shaped cookies": [("shaped", "cookie")],
    "assorted sized plates on a table": [("sized", "plate")],
    "a medium sized dog": [("medium sized", "dog")],
    "a large sized pizza": [("large sized", "pizza")],
    "a heart shaped cake": [("heart shaped", "cake")],
    "a coin operated machine": [("coin operated", "machine")],
    # objects are written as in the caption
    "a black lap top computer": [("black", "lap top computer")],
    "two silver lap tops": [("silver", "lap top")],
    "a white tea pot and a blue tea cup": [("white", "tea pot"), ("blue", "tea cup")],
    "a red tooth brush in a cup": [("red", "tooth brush")],
    "a lap top on a desk": [],
    # count words are not attributes
    "a lone tree in a snowy field": [("snowy", "field")],
    "a solo surfer on a big wave": [("big", "wave")],
    "a lone black horse": [("black", "horse")],
    "a man surfing solo": [],
}


@pytest.mark.parametrize("text", list(CONSTRUCTION_CASES))
def test_construction(text):
    assert pairs(text) == CONSTRUCTION_CASES[text]


# The hard cases of protocol section 1 and the error families seen on real benchmark captions.
SPEC_CASES = {
    # participles before the noun are attributes; after a copula, stative ones are predicative
    "a tattooed woman next to a glowing sign": [("tattooed", "woman"), ("glowing", "sign")],
    "a sliced apple beside a parked car": [("sliced", "apple"), ("parked", "car")],
    "a shimmering lake": [("shimmering", "lake")],
    "bicycles are parked": [("parked", "bicycle")],
    "cars sit parked": [("parked", "car")],
    "a zone that looks incredible": [("incredible", "zone")],
    "a chair sits empty": [("empty", "chair")],
    # passives with a complement, reduced relatives and verbs after the noun do not bind
    "the wall is covered with papers": [],
    "a bus parked by the road": [],
    "a man sitting": [],
    "a vase filled with flowers": [],
    "an elephant drinking water": [],
    "a cake is shown on a plate": [],
    "a house that is being renovated": [],
    # post-nominal properties and secondary predicates
    "a cup full of coffee": [("full", "cup")],
    "a hydrant painted yellow": [("yellow", "hydrant")],
    "a man holding the door open": [("open", "door")],
    "a dog with its mouth open": [("open", "mouth")],
    "a cat with its eyes closed": [("closed", "eye")],
    "a sheep with its mouth closed in a pen": [("closed", "mouth")],
    "a table with cheese served on a tray": [],
    "the bathroom is painted a light blue": [("light blue", "bathroom")],
    "walls painted beige and furnishings in blue": [("beige", "wall"), ("blue", "furnishing")],
    # adverbs dropped; "different" is never an attribute
    "an oddly shaped vase": [("shaped", "vase")],
    "an all black cat": [("black", "cat")],
    "different colored umbrellas": [("colored", "umbrella")],
    "a brightly colored kite": [("colored", "kite")],
    "a wide open door": [("open", "door")],
    # kept whole: shade + colour, noun/adjective + participle, phrasal properties
    "a dark blue car and a lime green bike": [("dark blue", "car"), ("lime green", "bike")],
    "a neon green sign": [("neon green", "sign")],
    "a fluorescent yellow vest": [("fluorescent yellow", "vest")],
    "a navy blue coat on a burnt orange sofa": [("navy blue", "coat"), ("burnt orange", "sofa")],
    "a solid black umbrella": [("solid black", "umbrella")],
    "a rain soaked street": [("rain soaked", "street")],
    "a chocolate-filled pastry": [("chocolate-filled", "pastry")],
    "a sticker-covered laptop": [("sticker-covered", "laptop")],
    "a purple colored car": [("purple colored", "car")],
    "a nice looking cake": [("nice looking", "cake")],
    "a shocked looking man": [("shocked looking", "man")],
    "a large blue lit bridge": [("large", "bridge"), ("blue lit", "bridge")],
    "a red and white striped shirt": [("red", "shirt"), ("white", "shirt"), ("striped", "shirt")],
    "a small tiled bathroom": [("small", "bathroom"), ("tiled", "bathroom")],
    "a wall mounted sink": [("wall mounted", "sink")],
    "a low flying airplane": [("low flying", "airplane")],
    "a thick crust pizza": [("thick crust", "pizza")],
    "a flat screen tv": [],  # lexicalised (protocol section 1)
    "a long sleeve shirt": [("long sleeve", "shirt")],
    # materials bind; other noun modifiers make a compound object
    "a wood table on a tile floor": [("wood", "table"), ("tile", "floor")],
    "a brick wall and a stone bench": [("brick", "wall"), ("stone", "bench")],
    "a lego figure in a jean jacket": [("lego", "figure"), ("jean", "jacket")],
    "a porcelain sink and a marble counter": [("porcelain", "sink"), ("marble", "counter")],
    "a dirt road along a wire fence": [("dirt", "road"), ("wire", "fence")],
    "a rock wall": [("rock", "wall")],
    "sheep on hay ground indoors": [("hay", "ground")],
    "a street sign near a tennis court": [],
    "an oven door and a money sign": [],
    "a huge fed ex truck": [("huge", "fed ex truck")],
    # lexicalised adjective + noun compounds do not bind; compositional ones do
    "a teddy bear with a hot dog": [],
    "a stuffed animal and a flying disk": [],
    "a smart phone, french fries and a dress shirt": [],
    "a blue stuffed animal": [("blue", "stuffed animal")],
    "an electric tooth brush": [("electric", "tooth brush")],
    "a round pink flat shoe": [("round", "shoe"), ("pink", "shoe"), ("flat", "shoe")],
    "a blank red sign": [("blank", "sign"), ("red", "sign")],
    "a makeshift wooden shelter": [("makeshift", "shelter"), ("wooden", "shelter")],
    "a dozen red roses": [("red", "rose")],
    "red buses line the street": [("red", "bus")],
    "men in blue shirts push carts": [("blue", "shirt")],
    "the shirtless men": [("shirtless", "man")],
    "a zigzag rail": [("zigzag", "rail")],
    "a man in uniform rides a horse": [],
    "a four way intersection": [("four way", "intersection")],
    "an open-mouthed park-like vista": [("open-mouthed", "vista"), ("park-like", "vista")],
    "an airplane letting off white smoke": [("white", "smoke")],
    "an off white couch": [("off white", "couch")],
    "the restored old time car": [("restored", "car"), ("old time", "car")],
    "a grilled cheese sandwich": [],
    "a large stuffed bear sitting outside": [("large", "bear"), ("stuffed", "bear")],
    "people scattered outside of a building": [],
    "the traffic lights and a billboard glow green": [
        ("green", "billboard"),
        ("green", "traffic light"),
    ],
    "the bedroom is clean and ready": [("clean", "bedroom"), ("ready", "bedroom")],
    "a crimson, teal, and mauve rug": [("crimson", "rug"), ("teal", "rug"), ("mauve", "rug")],
    "a standard bed": [("standard", "bed")],
    "a stack of random books": [("random", "book")],
    "a green street light shining": [("green", "street light")],
    "a red bus full.": [("red", "bus"), ("full", "bus")],
    "the kids are looking happy": [("happy", "kid")],
    "the cars are sitting parked": [("parked", "car")],
    "the men are looking at old books": [("old", "book")],
    "a baby elephant next to an african elephant": [
        ("baby", "elephant"),
        ("african", "elephant"),
    ],  # fmt: skip
    # a colour naming clothes states no binding
    "a woman in black sits on a bench": [],
    "a lady wearing red playing tennis": [],
    "a girl wearing white rides a pony": [],
    "a man in a black shirt": [("black", "shirt")],
    # ellipsis and "one" anaphora
    "two dogs, one black and one white": [("black", "dog"), ("white", "dog")],
    "two cats, a gray one and an orange one": [("gray", "cat"), ("orange", "cat")],
    "an adult giraffe next to a young one": [("adult", "giraffe"), ("young", "giraffe")],
    # casing, named colours, nouns that read as verbs
    "A LARGE RED BUS": [("large", "bus"), ("red", "bus")],
    "a crimson scarf, a teal door and a mauve dress": [
        ("crimson", "scarf"),
        ("teal", "door"),
        ("mauve", "dress"),
    ],  # fmt: skip
    "a gray can on a table": [("gray", "can")],
    "a metallic trash can by the door": [("metallic", "trash can")],
    "a tall lamp post clock rises above a wooden fence": [
        ("tall", "lamp post clock"),
        ("wooden", "fence"),
    ],  # fmt: skip
    "a large bird lands on the bank": [("large", "bird")],
    "a mossy brick wall": [("mossy", "wall"), ("brick", "wall")],
    "a squinting tennis player": [("squinting", "tennis player")],
    "a stainless steel stove top": [("stainless steel", "stove top")],
    # symbols, emoji and control characters never swallow or drop a binding
    "a red 🍎 apple and a 🐶 blue dog": [("red", "apple"), ("blue", "dog")],
    "a red\x00dog and a ⭐️ yellow star": [("red", "dog"), ("yellow", "star")],
    "a black/white photo": [("black", "photo"), ("white", "photo")],
    "a red-and-white bus": [("red", "bus"), ("white", "bus")],
}


@pytest.mark.parametrize("text", list(SPEC_CASES))
def test_spec_hard_case(text):
    assert pairs(text) == SPEC_CASES[text]


def test_objects_and_attributes_of_structured_fields_are_kept_as_written():
    assert normalise_object("Lap Tops") == "lap top"
    assert normalise_object("tea-pots") == "tea-pot"
    assert normalise_binding("black", "lap top") == B("black", "lap top")
    assert normalise_binding("Snow-Covered", "Mountains") == B("snow-covered", "mountain")
    assert {"lone", "solo"} <= lexicon.NON_ATTRIBUTES and not {"lone", "solo"} & lexicon.ATTRIBUTES


def test_order_of_first_occurrence_and_no_duplicates():
    assert pairs("a red car, a blue car and another red car") == [("red", "car"), ("blue", "car")]
    assert pairs("The car is red. A red car.") == [("red", "car")]
    # attribute position decides the order, predicates included
    assert pairs("the bus is red and a small dog sleeps") == [("red", "bus"), ("small", "dog")]


def test_empty_and_whitespace_captions_have_no_bindings():
    for text in ("", " \n\t ", "..."):
        assert parse_bindings(text) == []


@pytest.mark.parametrize("bad", [None, b"a red car", 3, ["a red car"]])
def test_non_string_input_is_a_type_error(bad):
    with pytest.raises(TypeError, match="caption string"):
        parse_bindings(bad)


# ---------------------------------------------------------------------------- normalisation
def test_tokenise_splits_like_the_tagger_was_trained():
    assert tokenise("A man's red-and-white T-shirt, isn't it?") == [
        "a", "man", "'s", "red", "and", "white", "t-shirt", ",", "is", "n't", "it", "?",
    ]  # fmt: skip
    assert tokenise("a salt-and-pepper beard, black/white") == [
        "a", "salt-and-pepper", "beard", ",", "black", "/", "white",
    ]  # fmt: skip
    assert tokenise("Caf\u00e9 \u2019s  8:25") == ["caf\u00e9", "'s", "8", ":", "25"]


def test_ascii_fast_paths_of_cleaning_and_tokenising_equal_the_general_ones():
    """ASCII text skips NFKC, and a caption of words, spaces, full stops and commas skips the
    token pattern: both must give exactly what the general path gives."""
    rng = random.Random(0)
    alphabet = "aZ9 .,.,  '-`^_\"!?/\x00\t\n\x7f"
    texts = ["A red dog.", "two dogs, 3 cats.", "1.5 m", " . ,", "", "isn't", "red-and-white"]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(0, 14))) for _ in range(20_000)]
    for text in texts:
        assert clean_text(text) == text_module._clean_normalised(text), repr(text)
        assert tokenise(text) == text_module._pattern_tokens(clean_text(text)), repr(text)


@pytest.mark.parametrize(
    ("word", "singular"),
    [
        ("bananas", "banana"), ("buses", "bus"), ("bus", "bus"), ("glasses", "glass"),
        ("glass", "glass"), ("grass", "grass"), ("knives", "knife"), ("leaves", "leaf"),
        ("people", "person"), ("children", "child"), ("mice", "mouse"), ("teeth", "tooth"),
        ("sheep", "sheep"), ("fries", "fry"), ("skis", "ski"), ("cookies", "cookie"),
        ("scissors", "scissors"), ("jeans", "jeans"), ("pants", "pants"), ("clothes", "clothes"),
        ("cactus", "cactus"), ("octopus", "octopus"), ("menus", "menu"), ("tennis", "tennis"),
        ("lens", "lens"), ("lenses", "lens"), ("dice", "dice"), ("cattle", "cattle"),
        ("dog", "dog"), ("us", "us"),
    ],
)  # fmt: skip
def test_singularise(word, singular):
    assert singularise(word) == singular


def test_normalise_object_keeps_compounds_and_singularises_the_head():
    assert normalise_object("Teddy Bears") == "teddy bear"
    assert normalise_object(" fire-hydrants ") == "fire-hydrant"
    assert normalise_object("buses") == "bus"
    assert normalise_object("glasses") == "glass"
    assert normalise_object("french fries") == "french fry"
    assert normalise_object("") == ""


def test_normalise_binding_matches_what_the_parser_reads():
    assert normalise_attribute(" Light-Brown ") == "light-brown"
    assert normalise_binding("Light Brown", "Teddy Bears") == B("light brown", "teddy bear")
    for attribute, obj, caption in [
        ("light brown", "teddy bears", "a light brown teddy bear"),
        ("red", "buses", "two red buses"),
        ("wooden", "glasses", "wooden glasses"),
        ("striped", "T-shirts", "striped t-shirts"),
        ("snow-covered", "lap tops", "two snow-covered lap tops"),
    ]:
        assert parse_bindings(caption) == [normalise_binding(attribute, obj)]


def test_normalisation_record_is_json_and_names_the_choices():
    assert json.loads(json.dumps(NORMALISATION)) == NORMALISATION
    assert NORMALISATION["case"] == "lower"
    assert NORMALISATION["lexicon_size"] == len(lexicon.ATTRIBUTES)
    assert {"object", "attribute", "compounds", "tagger"} <= set(NORMALISATION)


# -------------------------------------------------------------------------------- lexicon
def test_lexicon_is_grouped_lower_case_and_disjoint_from_non_attributes():
    assert lexicon.ATTRIBUTES == frozenset().union(*lexicon.ATTRIBUTE_CATEGORIES.values())
    assert len(lexicon.ATTRIBUTES) >= 300
    for word in lexicon.ATTRIBUTES | lexicon.COMPOUND_NOUNS:
        assert word == normalise_attribute(word), word
    assert not lexicon.ATTRIBUTES & lexicon.NON_ATTRIBUTES
    assert {"light brown", "dark blue", "glass", "metal", "striped", "large"} <= lexicon.ATTRIBUTES
    assert lexicon.category_of("light brown") == "colour"
    assert lexicon.category_of("wicker") == "material"
    assert lexicon.category_of("happy") == "quality"
    assert lexicon.category_of("two") is None


# ----------------------------------------------------------------------------- parse_many
MANY = [caption for caption in RULE_CASES] + ["", "  ", "A BLUE SKY"] * 3


def test_parse_many_equals_parse_bindings_with_two_processes():
    expected = [parse_bindings(text) for text in MANY]
    assert parse_many(MANY, num_proc=2, chunksize=7) == expected
    assert parse_many(iter(MANY), num_proc=1, progress=True) == expected
    assert parse_many(MANY, num_proc=4, chunksize=1000) == expected  # one chunk: in-process
    assert parse_many([], num_proc=2) == []


def test_parse_many_really_uses_worker_processes(monkeypatch, tmp_path):
    if multiprocessing.get_start_method() != "fork":
        pytest.skip("the spy reaches the workers only through fork")
    real = tagger.get_tagger

    def spy():  # every process that tags leaves its pid behind
        marker = tmp_path / str(os.getpid())
        if not marker.exists():  # hold the first chunk long enough for the other worker to start
            marker.touch()
            time.sleep(0.5)
        return real()

    monkeypatch.setattr(tagger, "get_tagger", spy)
    assert parse_many(MANY, num_proc=2, chunksize=5) == [parse_bindings(t) for t in MANY]
    workers = {int(path.name) for path in tmp_path.iterdir()} - {os.getpid()}
    assert len(workers) == 2


def test_parse_many_on_real_captions_with_two_processes(coco_captions):
    captions = coco_captions[:300]
    assert parse_many(captions, num_proc=2, chunksize=64) == [parse_bindings(c) for c in captions]


def test_parse_many_rejects_bad_arguments():
    with pytest.raises(TypeError, match="item 1 is NoneType"):
        parse_many(["a red car", None])
    with pytest.raises(ValueError, match="num_proc must be >= 1"):
        parse_many(["a red car"], num_proc=0)
    with pytest.raises(TypeError, match="num_proc must be an int"):
        parse_many(["a red car"], num_proc=1.5)
    with pytest.raises(ValueError, match="chunksize must be an int >= 1"):
        parse_many(["a red car"], chunksize=0)
    for single in ("a red car", b"a red car"):  # one caption is not a sequence of captions
        with pytest.raises(TypeError, match=r"got a single (str|bytes); pass a list"):
            parse_many(single)


# ----------------------------------------------------------------- damaged installation
def test_altered_tagger_weights_are_refused_before_any_parse(monkeypatch, tmp_path):
    shipped = (tagger_weights._weights_path()).read_bytes()
    altered = tmp_path / tagger_weights.WEIGHTS_FILE
    altered.write_bytes(shipped[:-1] + bytes([shipped[-1] ^ 1]))
    monkeypatch.setattr(tagger_weights, "_weights_path", lambda: altered)
    monkeypatch.setattr(tagger, "_TAGGER", None)
    for call in (lambda: parse_bindings("a red car"), lambda: parse_many(["a red car"] * 3)):
        with pytest.raises(PackageDataError, match="reinstall bindsplit-datasets"):
            call()
    monkeypatch.setattr(tagger_weights, "_weights_path", lambda: tmp_path / "absent.npz")
    with pytest.raises(PackageDataError, match="missing from the installed package"):
        parse_bindings("a red car")


# --------------------------------------------------------------------------------- gold sets
@pytest.fixture(scope="module")
def shared(request) -> Path | None:
    """The shared real-data folder, or None when it is absent (its items are then skipped)."""
    try:
        return request.getfixturevalue("shared_data")
    except pytest.skip.Exception:
        return None


@pytest.fixture(scope="module")
def real_texts(shared) -> dict | None:
    return None if shared is None else gold_sets.real_texts(shared)


@pytest.fixture(scope="module")
def coco_captions(shared) -> list[str]:
    if shared is None:
        pytest.skip("real COCO captions not available")
    texts = gold_sets.real_texts(shared)
    return [text for key, text in sorted(texts.items()) if key[0].startswith("coco_mini/")]


GOLD_RULES = {
    "attributive", "conjoined", "predicative", "lexicon", "compound", "exclusion", "trap",
    "participle", "hyphen", "possessive", "adverb", "negation", "normalisation", "aro",
    "relative", "participle_predicate", "serial_comma", "colour_participle", "ellipsis",
    "bound_participle", "split_compound", "count_word",
}  # fmt: skip


def test_gold_sets_are_well_formed_and_cover_every_rule_and_subset():
    items = gold_sets.items(gold_sets.ORIGINAL)
    assert len(items) >= 100 and len({item["id"] for item in items}) == len(items)
    covered = set()
    for item in items:
        assert ("text" in item) != ("source" in item), item["id"]
        assert set(item["rules"]) <= GOLD_RULES, item["id"]
        covered.update(item["rules"])
        for attribute, obj in item["bindings"]:  # labels are already normalised
            assert normalise_binding(attribute, obj) == B(attribute, obj), item["id"]
    assert covered == GOLD_RULES
    sources = {item["id"].split("-")[0] for item in items}
    assert sources == {"coco", "bivlc", "written", "aro"}
    real = gold_sets.items(gold_sets.SUGARCREPE)
    assert len({item["id"] for item in real}) == len(real) >= 900
    for item in real:
        for attribute, obj in item["bindings"]:
            assert normalise_binding(attribute, obj) == B(attribute, obj), item["id"]
    splits = Counter((item["split"], item["source"]["file"]) for item in real)
    for subset in ("add_att", "add_obj", "replace_att", "replace_obj", "replace_rel", "swap_att",
                   "swap_obj"):  # fmt: skip
        assert splits["development", f"sugarcrepe/{subset}.json"] >= 80, subset
        assert splits["heldout", f"sugarcrepe/{subset}.json"] >= 30, subset
    heldout_keys = {item["source"]["file"] + item["source"]["key"] for item in real
                    if item["split"] == "heldout"}  # fmt: skip
    development_keys = {item["source"]["file"] + item["source"]["key"] for item in real
                        if item["split"] == "development"}  # fmt: skip
    assert not heldout_keys & development_keys  # no pair has a caption on both sides


def _report(title: str, groups: dict, errors: list[str], skipped: int) -> str:
    lines = [f"{title}: {skipped} items skipped (shared data absent)", *gold_sets.table(groups)]
    return "\n".join([*lines, "disagreements:", *errors])


def test_original_gold_set_precision_and_recall(real_texts, record_property):
    def groups_of(item):
        names = ["all", f"source:{item['id'].split('-')[0]}", *item["rules"]]
        names.append(f"batch:{item.get('batch', 'original')}")
        if item.get("heldout"):
            names += ["heldout", f"heldout round {item['heldout']}"]
        return names

    items = gold_sets.items(gold_sets.ORIGINAL)
    groups, errors, skipped = gold_sets.score(items, real_texts, parse_bindings, groups_of)
    report = _report("original gold set", groups, errors, skipped)
    print("\n" + report)
    precision, recall = gold_sets.micro(groups["all"])
    record_property("gold_precision", round(precision, 4))
    record_property("gold_recall", round(recall, 4))
    assert sum(groups["all"]) and len(items) - skipped >= 60
    assert precision >= TARGET_PRECISION and recall >= TARGET_RECALL, report


#: Measured P/R on real SugarCrepe captions (tests/data/bindings_gold_sugarcrepe.json), less a
#: margin: development (1,278 captions) 0.980 / 0.976; held out (210 captions) 0.959 / 0.925.
SUGARCREPE_TARGETS = {"development": (0.96, 0.945), "heldout": (0.94, 0.895)}


def test_real_sugarcrepe_captions_precision_and_recall(real_texts, record_property):
    if real_texts is None:
        pytest.skip("real SugarCrepe captions not available")

    def groups_of(item):
        subset = item["source"]["file"].split("/")[1].removesuffix(".json")
        return [item["split"], f"{item['split']}:{subset}"]

    items = gold_sets.items(gold_sets.SUGARCREPE)
    groups, errors, skipped = gold_sets.score(items, real_texts, parse_bindings, groups_of)
    report = _report("SugarCrepe gold set", groups, errors, skipped)
    print("\n" + report)
    for split, (p_min, r_min) in SUGARCREPE_TARGETS.items():
        precision, recall = gold_sets.micro(groups[split])
        record_property(f"sugarcrepe_{split}_precision", round(precision, 4))
        record_property(f"sugarcrepe_{split}_recall", round(recall, 4))
        assert precision >= p_min and recall >= r_min, report


#: Measured P/R on issue 39's object-boundary set (tests/data/bindings_gold_boundaries.json) when
#: it was labelled, less a margin: development (105 items) 0.968 / 0.974, held out (45) 1.000 /
#: 0.978.
BOUNDARY_TARGETS = {"development": (0.94, 0.94), "heldout": (0.95, 0.94)}


def test_object_boundary_set_is_well_formed():
    items = gold_sets.items(gold_sets.BOUNDARIES)
    assert len({item["id"] for item in items}) == len(items) >= 150
    real = [item for item in items if "source" in item]
    labelled = {(i["source"]["file"], i["source"]["key"], i["source"]["column"])
                for i in gold_sets.items(gold_sets.SUGARCREPE)}  # fmt: skip
    for item in items:
        assert ("text" in item) != ("source" in item), item["id"]
        for attribute, obj in item["bindings"]:
            assert normalise_binding(attribute, obj) == B(attribute, obj), item["id"]
    for position, item in enumerate(real):  # held out by its position in the sample
        assert item["split"] == ("heldout" if position % 10 in (2, 5, 8) else "development")
        source = item["source"]
        assert (source["file"], source["key"], source["column"]) not in labelled, item["id"]


def test_object_boundary_set_precision_and_recall(real_texts):
    if real_texts is None:
        pytest.skip("real SugarCrepe captions not available")
    items = gold_sets.items(gold_sets.BOUNDARIES)
    groups, errors, skipped = gold_sets.score(
        items, real_texts, parse_bindings, lambda item: [item["split"]]
    )
    report = _report("object-boundary gold set", groups, errors, skipped)
    for split, (p_min, r_min) in BOUNDARY_TARGETS.items():
        precision, recall = gold_sets.micro(groups[split])
        assert precision >= p_min and recall >= r_min, report


def test_parse_many_parses_each_distinct_caption_once(monkeypatch):
    calls = []
    real = pipeline.PIPELINE.read

    def spy(text, *args, **kwargs):
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(pipeline.PIPELINE, "read", spy)
    texts = ["a red car", "a blue bus", "a red car", "a red car"]
    parsed = parse_many(texts, num_proc=1)
    assert sorted(calls) == ["a blue bus", "a red car"]
    assert parsed == [parse_bindings(t) for t in texts]
    assert parsed[0] is not parsed[2]  # every caption gets its own list
