"""The binding parser: every rule of docs/protocol.md, section 1 on exact examples, normalisation,
parse_many against parse_bindings, damaged tagger weights, the PARSER_VERSION guard, and
precision/recall on the hand-labelled gold set (tests/data/bindings_gold.json). The tagger itself
is tested in test_tagger.py."""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import json
import multiprocessing
import os
import time
from collections import defaultdict
from pathlib import Path

import pytest

from bindsplit_datasets.parsing import (
    NORMALISATION,
    PARSER_VERSION,
    Binding,
    batch,
    lexicon,
    normalise_attribute,
    normalise_binding,
    normalise_object,
    parse_bindings,
    parse_many,
    rules,
    singularise,
    tagger,
    tokenise,
    units,
)

GOLD_PATH = Path(__file__).parent / "data" / "bindings_gold.json"
TARGET = 0.93


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
    "a cream colored cat": [("cream", "cat")],
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
    "a cup full of tea": [],
    "a cat sitting on a toilet looking in a mirror": [],
    # hyphens, possessives, adverbs
    "a red-and-white striped shirt": [("red", "shirt"), ("white", "shirt"), ("striped", "shirt")],
    "a wood-paneled wall": [("wood paneled", "wall")],
    "a snow-covered mountain": [("snow covered", "mountain")],
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
    "a shabby looking shower": [("shabby", "shower")],
    "a snowy, tree-lined path": [("snowy", "path"), ("tree lined", "path")],
    "a white snow covered slope": [("white", "snow"), ("snow covered", "slope")],
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
    "the car is parked and the man is tall": [("tall", "man")],
    "the man is seated and talking on a phone": [],
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
    # participles that need a word before them
    "different sized boxes": [],
    "various shaped cookies": [],
    "assorted sized plates on a table": [],
    "a medium sized dog": [("medium sized", "dog")],
    "a large sized pizza": [("large", "pizza")],
    "a heart shaped cake": [("heart shaped", "cake")],
    "a coin operated machine": [("coin operated", "machine")],
    # split compounds are one object
    "a black lap top computer": [("black", "laptop computer")],
    "two silver lap tops": [("silver", "laptop")],
    "a white tea pot and a blue tea cup": [("white", "teapot"), ("blue", "teacup")],
    "a red tooth brush in a cup": [("red", "toothbrush")],
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


def test_split_compounds_and_count_words_in_structured_fields():
    assert normalise_object("Lap Tops") == "laptop"
    assert normalise_object("tea-pot") == "teapot"
    assert normalise_object("lap top computers") == "laptop computer"
    assert normalise_object("sun glasses") == "sunglasses"
    assert normalise_object("black board") == "black board"  # an attribute first: not joined
    assert normalise_binding("black", "lap top") == B("black", "laptop")
    assert {"lone", "solo"} <= lexicon.NON_ATTRIBUTES and not {"lone", "solo"} & lexicon.ATTRIBUTES
    for phrase, word in lexicon.SPLIT_COMPOUNDS.items():
        assert phrase.split()[0] not in lexicon.ATTRIBUTES, phrase
        assert normalise_object(phrase) == singularise(word), phrase


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
        "a", "man", "'s", "red", "and", "white", "t", "shirt", ",", "is", "n't", "it", "?",
    ]  # fmt: skip
    assert tokenise("Caf\u00e9 \u2019s  8:25") == ["caf\u00e9", "'s", "8", ":", "25"]


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
    assert normalise_object(" fire-hydrants ") == "fire hydrant"
    assert normalise_object("buses") == "bus"
    assert normalise_object("glasses") == "glass"
    assert normalise_object("french fries") == "french fry"
    assert normalise_object("") == ""


def test_normalise_binding_matches_what_the_parser_reads():
    assert normalise_attribute(" Light-Brown ") == "light brown"
    assert normalise_binding("Light Brown", "Teddy Bears") == B("light brown", "teddy bear")
    for attribute, obj, caption in [
        ("light brown", "teddy bears", "a light brown teddy bear"),
        ("red", "buses", "two red buses"),
        ("wooden", "glasses", "wooden glasses"),
        ("striped", "T-shirts", "striped t-shirts"),
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
    shipped = (tagger._weights_path()).read_bytes()
    altered = tmp_path / tagger.WEIGHTS_FILE
    altered.write_bytes(shipped[:-1] + bytes([shipped[-1] ^ 1]))
    monkeypatch.setattr(tagger, "_weights_path", lambda: altered)
    monkeypatch.setattr(tagger, "_TAGGER", None)
    for call in (lambda: parse_bindings("a red car"), lambda: parse_many(["a red car"] * 3)):
        with pytest.raises(tagger.TaggerDataError, match="reinstall bindsplit-datasets"):
            call()
    monkeypatch.setattr(tagger, "_weights_path", lambda: tmp_path / "absent.npz")
    with pytest.raises(tagger.TaggerDataError, match="missing from the installed package"):
        parse_bindings("a red car")


# ----------------------------------------------------------------- PARSER_VERSION guard
#: PARSER_VERSION -> sha256 of every word list and rule table the parser reads.
RECORDED_TABLE_HASHES = {
    "1.0": "2740d61b6eab889afa51bf2dd49029c7299de59216d6d05309952db37a61b29b",
    "2.0+tagger-sha256.dd665a62eeebe96c40eddba319f1392d410e8a2c1fd62ad6207661fbf0053ae5": (
        "2e6e7fc5ff491341068c93a333dac2e08247163005218aee3879bd03c9e08a54"
    ),
}


def _table_fingerprint() -> str:
    def canonical(value):
        if isinstance(value, (frozenset, set)):
            return sorted(value)
        if isinstance(value, dict):
            return {key: canonical(item) for key, item in sorted(value.items())}
        if isinstance(value, (tuple, list)):
            return [canonical(item) for item in value]
        return value

    tables = {
        f"lexicon.{name}": canonical(value)
        for name, value in vars(lexicon).items()
        if name.isupper() and isinstance(value, (frozenset, tuple, dict))
    }
    tables.update(
        (f"{module.__name__.rpartition('.')[2]}.{name}", canonical(value))
        for module in (units, rules)
        for name, value in vars(module).items()
        if name.startswith("_") and name[1:].isupper() and isinstance(value, (frozenset, dict))
    )
    return hashlib.sha256(json.dumps(tables, sort_keys=True).encode()).hexdigest()


def test_parser_version_is_bumped_when_the_tables_change():
    fingerprint = _table_fingerprint()
    assert RECORDED_TABLE_HASHES.get(PARSER_VERSION) == fingerprint, (
        "the parser's word lists or rule tables changed: bump PARSER_VERSION and update this hash "
        f"(RECORDED_TABLE_HASHES[<new version>] = {fingerprint!r}); reference indexes built by the "
        "old parser are then refused instead of silently mixing two parsers' bindings"
    )


# --------------------------------------------------------------------------------- gold set
@pytest.fixture(scope="module")
def shared(request) -> Path | None:
    """The shared real-data folder, or None when it is absent (its items are then skipped)."""
    try:
        return request.getfixturevalue("shared_data")
    except pytest.skip.Exception:
        return None


@pytest.fixture(scope="module")
def coco_captions(shared) -> list[str]:
    if shared is None:
        pytest.skip("real COCO captions not available")
    return [text for _, text in sorted(_coco_texts(shared).items())]


def _coco_texts(shared: Path) -> dict[tuple[str, int], str]:
    texts = {}
    for split in ("train", "val"):
        name = f"coco_mini/captions_{split}2017.json"
        for annotation in json.loads((shared / name).read_text(encoding="utf-8"))["annotations"]:
            texts[name, annotation["id"]] = annotation["caption"]
    return texts


def _bivlc_texts(shared: Path) -> dict[tuple[str, int, str], str]:
    name = "bivlc/bivlc_text_sample.csv"
    with open(shared / name, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    return {
        (name, int(row["row"]), column): row[column]
        for row in rows
        for column in ("caption", "negative_caption")
    }


GOLD_RULES = {
    "attributive", "conjoined", "predicative", "lexicon", "compound", "exclusion", "trap",
    "participle", "hyphen", "possessive", "adverb", "negation", "normalisation", "aro",
    "relative", "participle_predicate", "serial_comma", "colour_participle", "ellipsis",
    "bound_participle", "split_compound", "count_word",
}  # fmt: skip


def _gold() -> list[dict]:
    return json.loads(GOLD_PATH.read_text(encoding="utf-8"))["items"]


def test_gold_set_is_well_formed_and_covers_every_rule():
    items = _gold()
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


def _micro(counts: list[int]) -> tuple[float, float]:
    """(precision, recall); 1.0 where nothing was found / expected."""
    tp, fp, fn = counts
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def _show(found: set[Binding]) -> str:
    return ", ".join(f"({b.attribute}, {b.object})" for b in sorted(found)) or "-"


def test_gold_set_precision_and_recall(shared, record_property):
    texts: dict = {}
    if shared is not None:
        texts.update(_coco_texts(shared))
        texts.update(_bivlc_texts(shared))
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    evaluated = skipped = 0
    errors = []
    for item in _gold():
        if "text" in item:
            text = item["text"]
        else:
            source = item["source"]
            key = (source["file"], source.get("annotation_id", source.get("row")))
            key += (source["column"],) if "column" in source else ()
            if shared is None:
                skipped += 1
                continue
            text = texts[key]
        evaluated += 1
        gold = {B(a, o) for a, o in item["bindings"]}
        found = set(parse_bindings(text))
        counts = (len(gold & found), len(found - gold), len(gold - found))
        names = ["all", f"source:{item['id'].split('-')[0]}", *item["rules"]]
        names.append(f"batch:{item.get('batch', 'original')}")
        if item.get("heldout"):
            names += ["heldout", f"heldout round {item['heldout']}"]
        else:
            names.append("development")
        for name in names:
            groups[name] = [g + c for g, c in zip(groups[name], counts, strict=True)]
        if gold != found:
            missed, extra = _show(gold - found), _show(found - gold)
            errors.append(f"  {item['id']}: missed {missed}; extra {extra}")
    precision, recall = _micro(groups["all"])
    lines = [f"gold set: {evaluated} captions evaluated, {skipped} skipped (shared data absent)"]
    lines.append(f"{'group':<22}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}")
    for name in sorted(groups, key=lambda n: (n != "all", n)):
        p, r = _micro(groups[name])
        lines.append(f"{name:<22}{groups[name][0]:>5}{groups[name][1]:>5}{groups[name][2]:>5}"
                     f"{p:>11.3f}{r:>8.3f}")  # fmt: skip
    print("\n" + "\n".join(lines + ["disagreements:", *errors]))
    record_property("gold_precision", round(precision, 4))
    record_property("gold_recall", round(recall, 4))
    assert evaluated >= 60
    assert precision >= TARGET and recall >= TARGET, "\n".join(lines + errors)


def test_parse_many_parses_each_distinct_caption_once(monkeypatch):
    calls = []
    real = batch.parse_bindings

    def spy(text):
        calls.append(text)
        return real(text)

    monkeypatch.setattr(batch, "parse_bindings", spy)
    texts = ["a red car", "a blue bus", "a red car", "a red car"]
    parsed = parse_many(texts, num_proc=1)
    assert sorted(calls) == ["a blue bus", "a red car"]
    assert parsed == [real(t) for t in texts]
    assert parsed[0] is not parsed[2]  # every caption gets its own list
