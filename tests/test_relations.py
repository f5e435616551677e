"""The relation parser (SPEC section 1b): exact triples on hand-made phrases for every clause of the
protocol, the hand-labelled gold set, the relation-swap check, the batch form against the naive
loop, the rule table and the word tables."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest
import relation_gold
from hypothesis import given, settings
from hypothesis import strategies as st

import bindsplit_datasets
from bindsplit_datasets.errors import BindsplitValueError, PackageDataError
from bindsplit_datasets.parsing import (
    Relation,
    explain,
    explain_relations,
    parse_bindings,
    parse_bindings_and_relations,
    parse_bindings_and_relations_many,
    parse_relations,
    parse_relations_many,
)
from bindsplit_datasets.parsing import lexicon as lx
from bindsplit_datasets.parsing import relation_words as rw
from bindsplit_datasets.parsing import wordlists as wl
from bindsplit_datasets.parsing.relation_rules import RELATION_RULES
from bindsplit_datasets.parsing.ruleset import RULES

#: (caption, expected triples in order): one group per clause of SPEC 1b.
CASES = [
    # the SPEC's own examples
    ("a dog sitting on a couch", [("dog", "sit on", "couch")]),
    ("a man riding a horse", [("man", "ride", "horse")]),
    ("a cup to the left of a plate", [("cup", "to the left of", "plate")]),
    # subject and object normalised as SPEC 1 objects: attributes out, compounds kept, singular
    ("a black dog on a red couch", [("dog", "on", "couch")]),
    ("two teddy bears sitting on wooden benches", [("teddy bear", "sit on", "bench")]),
    ("a glass vase on a stone table", [("vase", "on", "table")]),
    ("a stop sign next to a fire hydrant", [("stop sign", "next to", "fire hydrant")]),
    # the relation: verb lemma with particle / preposition; prepositions as written
    ("a man is leaning against a wall", [("man", "lean against", "wall")]),
    ("a woman wearing a hat", [("woman", "wear", "hat")]),
    ("a bird flew over the lake", [("bird", "fly over", "lake")]),
    ("a boy blowing out the candles", [("boy", "blow out", "candle")]),
    ("a tree in front of a house", [("tree", "in front of", "house")]),
    ("a boy on top of a car", [("boy", "on top of", "car")]),
    ("a cat to the right of a dog", [("cat", "to the right of", "dog")]),
    ("a lamp behind a chair", [("lamp", "behind", "chair")]),
    ("a truck on the side of the road", [("truck", "on the side of", "road")]),
    # region nouns: with "of" one preposition (modifiers of the noun out), alone an object
    ("a bench on the left side of a path", [("bench", "on the left side of", "path")]),
    ("a zebra resting on the spotty back of a rock", [("zebra", "rest on the back of", "rock")]),
    ("statue in middle", [("statue", "in", "middle")]),
    ("a bus has a sign", [("bus", "have", "sign")]),
    # copula and auxiliaries dropped
    ("a cat is on a mat", [("cat", "on", "mat")]),
    ("the man has been sitting on a bench", [("man", "sit on", "bench")]),
    ("the stop sign is above the street sign", [("stop sign", "above", "street sign")]),
    # conjoined subjects and objects distribute
    (
        "a man and a woman sitting on a bench",
        [("man", "sit on", "bench"), ("woman", "sit on", "bench")],
    ),
    ("a man holding a cup and a plate", [("man", "hold", "cup"), ("man", "hold", "plate")]),
    ("a cup next to a plate and a fork", [("cup", "next to", "plate"), ("cup", "next to", "fork")]),
    # ... within the scope of the preposition: a thing of its own after containment or support
    ("a bowl in a kitchen and a spoon", [("bowl", "in", "kitchen")]),
    ("a woman in a shirt and a skirt", [("woman", "in", "shirt"), ("woman", "in", "skirt")]),
    ("girl with balloon and boy with kite", [("girl", "with", "balloon"), ("boy", "with", "kite")]),
    # relative and reduced relative clauses relate their head
    ("a man who is holding an umbrella", [("man", "hold", "umbrella")]),
    ("a man holding an umbrella", [("man", "hold", "umbrella")]),
    ("a woman that is cutting a cake", [("woman", "cut", "cake")]),
    ("a vase filled with flowers", [("vase", "fill with", "flower")]),
    # an adjective with its preposition; a with-absolute whose pronoun cannot be the subject
    ("a vase full of irises", [("vase", "full of", "iris")]),
    (
        "a man stands near a table with a laptop on it",
        [("man", "stand near", "table"), ("table", "with", "laptop"), ("laptop", "on", "table")],
    ),
    # passive with "by" gives the active triple; a placing participle's "by" is a place
    ("a kite flown by a boy", [("boy", "fly", "kite")]),
    ("a pizza being cut by a man", [("man", "cut", "pizza")]),
    ("a bus parked by the road", [("bus", "park by", "road")]),
    # transparent nouns (partitives, containers, frames): the noun after "of" is the argument
    ("a group of people on a beach", [("person", "on", "beach")]),
    ("a slice of pizza on a plate", [("pizza", "on", "plate")]),
    ("a plate of food on a table", [("food", "on", "table")]),
    ("a boy eating a bowl of soup", [("boy", "eat", "soup")]),
    # low attachment of a preposition phrase
    ("sign on pole next to road", [("sign", "on", "pole"), ("pole", "next to", "road")]),
    # clauses: a new subject after "while"; "as he" stands for the first subject
    (
        "a woman holds a bat while a man holds a ball",
        [("woman", "hold", "bat"), ("man", "hold", "ball")],
    ),
    ("a man puckers up as he holds an orange", [("man", "hold", "orange")]),
    # infinitives: of intention nothing, after a copula or another adjective the verb
    ("two women have stopped to pet the sheep", []),
    (
        "the snowboarders are happy to pose for the picture",
        [("snowboarder", "pose for", "picture")],
    ),
    # telegraphic phrases, any letter case
    ("handle on door", [("handle", "on", "door")]),
    ("man WEARING shirt", [("man", "wear", "shirt")]),
    ("bike leaning against fence", [("bike", "lean against", "fence")]),
    ("A MAN RIDING A HORSE", [("man", "ride", "horse")]),
    ("pillow beside bed", [("pillow", "beside", "bed")]),
    # a participle after a place reached from the subject relates the subject, after a person
    # or animal that noun
    (
        "a man is standing in the kitchen cooking food",
        [("man", "stand in", "kitchen"), ("man", "cook", "food")],
    ),
    (
        "a man standing behind a woman holding a bat",
        [("man", "stand behind", "woman"), ("woman", "hold", "bat")],
    ),
    ("tree next to building", [("tree", "next to", "building")]),
    ("man wearing hat", [("man", "wear", "hat")]),
    ("snow below mountain", [("snow", "below", "mountain")]),
    # a participle after the "to" of a multi-word preposition, or a past participle after "to",
    # modifies the noun after it: no infinitive
    ("cat sitting next to parked car", [("cat", "sit next to", "car")]),
    ("dog running next to sleeping cat", [("dog", "run next to", "cat")]),
    ("man walking to parked car", [("man", "walk to", "car")]),
    ("boy wants to play ball", []),  # an infinitive of intention states nothing
    # a colour tagged as a noun before a participle and a noun modifies the noun
    ("girl in pink flowered dress", [("girl", "in", "dress")]),
    ("a person holding a rainbow colored umbrella", [("person", "hold", "umbrella")]),
    # a second verb after "and" that the tagger read as a plural noun
    ("young girl smiles and waves at camera", [("girl", "wave at", "camera")]),
    # an adjective the tagger read as an infinitive after "to"
    ("girl reading to sleepy child", [("girl", "read to", "child")]),
    # a position noun with "of" is one preposition, with its article or without
    ("clock on side of building", [("clock", "on side of", "building")]),
    ("man at end of boat", [("man", "at end of", "boat")]),
    # a word in -ing after a plural noun is its verb, not the start of a compound
    (
        "three zebras drinking water from a pond",
        [("zebra", "drink", "water"), ("water", "from", "pond")],
    ),
    ("a bottle of drinking water", []),
    # a third-person verb the tagger read as an adjective, taken out of the noun run
    (
        "a woman reads a book while her dog sleeps beside her",
        [("woman", "read", "book"), ("dog", "sleep beside", "woman")],
    ),
    ("a light hanging from the ceiling", [("light", "hang from", "ceiling")]),
    ("several zebras eat the grass", [("zebra", "eat", "grass")]),
    ("people are moving around in a park", [("person", "move in", "park")]),
    # frames and containers pass through; serial commas
    ("a photo of a dog on a bed", [("dog", "on", "bed")]),
    ("a man taking a picture of his dog", [("man", "take", "dog")]),
    ("a man posing for a picture", [("man", "pose for", "picture")]),
    ("two bowls of soup next to a spoon", [("soup", "next to", "spoon")]),
    (
        "a kitchen with a stove, a sink, and a fridge",
        [("kitchen", "with", "stove"), ("kitchen", "with", "sink"), ("kitchen", "with", "fridge")],
    ),
]

#: Captions that state no relation (SPEC 1b, "Not relations").
NOT_RELATIONS = [
    "a slice of pizza",
    "a group of people",
    "a pair of shoes",
    "the side of the road",
    "the handle of the door",
    "a man in black",
    "a dog running",
    "sitting outside",
    "a boy without a bat",
    "a woman is not holding an umbrella",
    "a kite in the background",
    "",
    "...",
]


@pytest.mark.parametrize(("caption", "expected"), CASES)
def test_triples_of_hand_made_phrases(caption, expected):
    assert parse_relations(caption) == [Relation(*triple) for triple in expected]


@pytest.mark.parametrize("caption", NOT_RELATIONS)
def test_phrases_that_state_no_relation(caption):
    assert parse_relations(caption) == []


def test_duplicates_are_dropped_and_order_kept():
    found = parse_relations("a cup on a table and a cup on a table, a dog under a table")
    assert found == [Relation("cup", "on", "table"), Relation("dog", "under", "table")]


def test_the_relation_is_importable_from_the_package():
    assert bindsplit_datasets.parse_relations is parse_relations
    relation = bindsplit_datasets.Relation("dog", "sit on", "couch")
    assert str(relation) == "dog sit on couch"
    assert sorted([Relation("b", "on", "a"), Relation("a", "on", "b")])[0].subject == "a"
    with pytest.raises(AttributeError):
        relation.subject = "cat"  # type: ignore[misc]


@pytest.mark.parametrize("bad", [None, 3, b"a dog on a mat", ["a dog on a mat"]])
def test_parse_relations_refuses_what_is_not_a_string(bad):
    with pytest.raises(TypeError, match="caption string"):
        parse_relations(bad)  # type: ignore[arg-type]


# --- the gold set and the relation-swap pairs ------------------------------------------------


def test_gold_set_is_well_formed():
    items = relation_gold.items()
    assert len({item["id"] for item in items}) == len(items)
    for item in items:
        assert item["split"] in ("dev", "heldout")
        assert ("text" in item) != isinstance(item["source"], dict)
        assert all(len(triple) == 3 and all(triple) for triple in item["triples"])
    for path in relation_gold.FILES:
        part = relation_gold.items(path)
        heldout = sum(item["split"] == "heldout" for item in part)
        assert 0.25 <= heldout / len(part) <= 0.35, path.name


def test_register_set_follows_its_description():
    """Issue 39's set: each register present, every written item in a family, held out by its
    number (pairs: the pair number; singles and sentences: their index), and every pair a
    relation swap (same arguments, one triple differing in its relation)."""
    items = relation_gold.items(relation_gold.REGISTERS)
    assert len(items) >= 800
    registers = {item["register"] for item in items}
    assert registers == {"caption", "region", "sentence"}
    pairs: dict[int, list[dict]] = {}
    for item in items:
        if "text" not in item:
            continue
        assert item["family"]
        number = item["pair"] if "pair" in item else int(item["id"].rsplit("-", 1)[1])
        assert item["split"] == ("heldout" if number % 10 in (2, 5, 8) else "dev"), item["id"]
        if "pair" in item:
            pairs.setdefault(item["pair"], []).append(item)
    assert len(pairs) >= 150
    for a, b in pairs.values():
        gold_a, gold_b = ({tuple(t) for t in x["triples"]} for x in (a, b))
        assert relation_gold.is_relation_swap(gold_a, gold_b), (a["text"], b["text"])


def test_written_phrases_meet_the_quality_targets():
    written = [item for item in relation_gold.items(relation_gold.GOLD) if "text" in item]
    counts, sizes, errors = relation_gold.score(written, None, parse_relations)
    precision, recall = relation_gold.micro(counts["dev"])
    assert sizes["dev"] >= 60 and precision >= 0.90 and recall >= 0.85, "\n".join(errors)


def test_real_captions_meet_the_development_targets(shared_data):
    first = relation_gold.items(relation_gold.GOLD)
    counts, sizes, errors = relation_gold.score(first, shared_data, parse_relations)
    precision, recall = relation_gold.micro(counts["dev"])
    assert sizes["dev"] >= 150
    assert precision >= 0.90 and recall >= 0.85, "\n".join(errors)
    heldout = relation_gold.micro(counts["heldout"])
    print(f"held out ({sizes['heldout']} captions): P {heldout[0]:.3f} R {heldout[1]:.3f}")


#: Floors on issue 39's register set (development part), just below what the parser reached when
#: the set was labelled (P 0.799, R 0.731): a regression guard, not the targets (P >= 0.90,
#: R >= 0.88 on the hidden set), which rule work raises them towards.
REGISTER_FLOORS = (0.78, 0.71)


def test_register_set_stays_above_its_floor(shared_data):
    items = relation_gold.items(relation_gold.REGISTERS)
    counts, sizes, errors = relation_gold.score(items, shared_data, parse_relations)
    precision, recall = relation_gold.micro(counts["dev"])
    assert sizes["dev"] >= 600
    floor_p, floor_r = REGISTER_FLOORS
    assert precision >= floor_p and recall >= floor_r, "\n".join(errors)


def test_relation_swap_pairs_change_exactly_one_relation():
    pairs = relation_gold.written_swap_pairs(None, relation_gold.GOLD)
    passed, total = relation_gold.share(pairs, parse_relations, relation_gold.is_relation_swap)
    assert total == len(pairs) >= 30
    assert passed / total >= 0.85


#: The share of issue 39's relation-swap region pairs (development part) whose parses differ in
#: exactly one relation; 109 of 145 (75.2%) when the set was labelled (target on the hidden
#: pairs: 90%).
REGISTER_SWAP_FLOOR = 0.74


def test_register_swap_pairs_stay_above_their_floor():
    pairs = relation_gold.written_swap_pairs("dev", relation_gold.REGISTERS)
    passed, total = relation_gold.share(pairs, parse_relations, relation_gold.is_relation_swap)
    assert total == len(pairs) >= 100
    assert passed / total >= REGISTER_SWAP_FLOOR


def test_error_families_on_hand_made_disagreements():
    family = relation_gold.family_of
    assert family(("two boys next to each other", {("boy", "next to", "boy")}, set())) == (
        "each other"
    )
    assert family(('sign saying "stop" on pole', {("sign", "on", "pole")}, set())) == "quoted text"
    moved = ({("man", "play in", "park")}, {("soccer", "in", "park")})
    assert family(("man playing soccer in park", *moved)) == "attachment (noun vs verb)"
    swapped = ({("boy", "eat", "soup")}, {("boy", "eat", "bowl")})
    assert family(("boy eating bowl of soup", *swapped)) == "transparent partitive / frame"
    assert family(("a dog running", set(), {("dog", "run", "park")})) == (
        "intention / idiom / result (extra only)"
    )
    assert family(("x", set(), set())) == "other"
    found = [({"id": "a"}, ("two boys next to each other", {("boy", "next to", "boy")}, set()))]
    assert relation_gold.family_table(found) == {"each other": [1, 1, 0]}


@pytest.mark.parametrize(
    ("true", "false"),
    [
        ("the horse is eating the grass", "the grass is eating the horse"),
        ("the cup is to the left of the plate", "the plate is to the left of the cup"),
        ("the dog is sitting on the bench", "the bench is sitting on the dog"),
        ("the car is parked on the street", "the street is parked on the car"),
        ("the glass is filled with the water", "the water is filled with the glass"),
    ],
)
def test_aro_relation_template_pairs_exchange_their_arguments(true, false):
    first, second = (relation_gold.triples(parse_relations, c) for c in (true, false))
    assert len(first) == 1 and relation_gold.is_argument_swap(first, second)


def test_swap_checks_on_hand_made_triples():
    first = {("cup", "on", "table")}
    assert relation_gold.is_relation_swap(first, {("cup", "under", "table")})
    assert not relation_gold.is_relation_swap(first, {("table", "under", "cup")})
    assert not relation_gold.is_relation_swap(first, first)
    two = {("man", "ride", "horse"), ("horse", "on", "beach")}
    assert relation_gold.is_argument_swap(two, {("horse", "ride", "man"), ("man", "on", "beach")})
    assert not relation_gold.is_argument_swap(two, two)


# --- the batch form --------------------------------------------------------------------------

CAPTIONS = [
    "a dog sitting on a couch",
    "man WEARING shirt",
    "a dog sitting on a couch",
    "",
    "a kite flown by a boy",
    "a group of people on a beach",
    "a man in black",
]


@pytest.mark.parametrize("num_proc", [1, 2])
def test_parse_relations_many_equals_the_naive_loop(num_proc):
    many = parse_relations_many(CAPTIONS, num_proc=num_proc, chunksize=2)
    assert many == [parse_relations(caption) for caption in CAPTIONS]
    assert many[0] is not many[2]  # fresh lists, also for a repeated caption
    assert parse_relations_many(iter([])) == []


def test_bindings_and_relations_from_one_tagging_equal_the_two_parsers():
    captions = [caption for caption, _ in CASES] + NOT_RELATIONS + CAPTIONS
    captions += [item["text"] for item in relation_gold.items() if "text" in item]  # both files
    for caption in captions:
        expected = (parse_bindings(caption), parse_relations(caption))
        assert parse_bindings_and_relations(caption) == expected, caption
    many = parse_bindings_and_relations_many(captions, num_proc=2, chunksize=16)
    assert many == [(parse_bindings(c), parse_relations(c)) for c in captions]
    with pytest.raises(TypeError, match="caption string"):
        parse_bindings_and_relations(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("texts", "kwargs", "error"),
    [
        ("a dog on a mat", {}, TypeError),
        (["a dog", None], {}, TypeError),
        (["a dog"], {"num_proc": 0}, ValueError),
        (["a dog"], {"num_proc": True}, TypeError),
        (["a dog"], {"chunksize": 0}, ValueError),
    ],
)
def test_parse_relations_many_refuses_bad_input(texts, kwargs, error):
    with pytest.raises(error):
        parse_relations_many(texts, **kwargs)


# --- the rule table and the word tables ------------------------------------------------------


#: The rules only relations read: the relation rules and the corrections only they see.
RELATION_STAGE_RULES = [rule for rule in RULES if rule.stage in ("relation-correction", "relation")]


@pytest.mark.parametrize("rule", RELATION_STAGE_RULES, ids=lambda rule: rule.name)
def test_each_relation_rule_fires_on_its_examples_which_fail_without_it(rule):
    assert rule.examples and rule.description and rule.name == rule.name.lower()
    for example in rule.examples:
        assert example.triples is not None, f"{rule.name}: {example.caption!r} states no triples"
        explanation = explain(example.caption)
        found = [(r.subject, r.relation, r.object) for r in explanation.relations]
        assert found == list(example.triples)
        assert rule.name in explanation.relation_rules
        without = parse_relations(example.caption, disabled={rule.name})
        assert [(r.subject, r.relation, r.object) for r in without] != list(example.triples), (
            f"{rule.name}: {example.caption!r} parses the same with the rule switched off"
        )
    if rule.stage == "relation":
        trace = "\n".join(explain_relations(rule.examples[0].caption))
        assert f" {rule.name}" in trace, trace


def test_switching_relation_rules_off_by_name():
    assert parse_relations("a kite flown by a boy", disabled={"passive-agent"}) == [
        Relation("kite", "fly by", "boy")
    ]
    many = parse_relations_many(["a kite flown by a boy"], num_proc=1, disabled={"passive-agent"})
    assert many == [[Relation("kite", "fly by", "boy")]]
    both = parse_bindings_and_relations("a red kite flown by a boy", disabled={"attributive"})
    assert both == ([], [Relation("boy", "fly", "kite")])
    with pytest.raises(BindsplitValueError, match="no parser rule is named 'passive-agentt'"):
        parse_relations("a kite flown by a boy", disabled={"passive-agentt"})


def test_rule_names_are_unique():
    names = [rule.name for rule in RELATION_RULES]
    assert len(set(names)) == len(names)


def test_explain_shows_rules_and_triples():
    lines = explain_relations("a kite flown by a boy")
    assert any("passive-agent" in line for line in lines)
    assert lines[-1] == "-> (boy, fly, kite)"


def test_word_tables_have_a_header_and_one_clean_entry_per_line():
    tables = wl.table_names()
    assert {"prepositions", "nouns", "pronouns", "verbs", "materials"} <= set(tables)
    for name in tables:
        lines = (wl.WORDS_FOLDER / f"{name}.txt").read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# ") and wl.description(name), name
        entries = [line.partition(" | ")[0] for line in lines if line and not line.startswith("#")]
        assert entries and len(entries) == len(set(entries)), name
        assert all(entry == " ".join(entry.split()) for entry in entries), name
        for use in wl.uses(name):  # every use is described in the header
            assert f"#   {use}: " in "\n".join(lines), (name, use)


def test_a_table_read_by_an_unknown_use_is_refused():
    assert wl.words("prepositions", "blocking") <= wl.words("prepositions")
    with pytest.raises(BindsplitValueError, match="no use 'blockin'"):
        wl.words("prepositions", "blockin")


def test_word_tables_hold_what_the_rules_rely_on():
    assert {"on", "under", "with", "behind"} <= lx.RELATION_PREPOSITIONS
    assert ("to", "the", "left", "of") in lx.PHRASAL_PREPOSITIONS
    assert len(lx.PHRASAL_PREPOSITIONS[0]) >= len(lx.PHRASAL_PREPOSITIONS[-1])
    assert {"of", "for", "without"} <= lx.BLOCKING_PREPOSITIONS
    assert {"group", "slice", "pair"} <= lx.PARTITIVE_NOUNS
    assert "bowl" not in lx.PARTITIVE_NOUNS  # containers are objects
    assert lx.RELATION_PREPOSITIONS.isdisjoint(lx.BLOCKING_PREPOSITIONS)


def test_verb_lemmas_come_from_the_shipped_table():
    assert [rw.verb_lemma(w) for w in ("sitting", "flown", "lying", "wore", "parked")] == [
        "sit",
        "fly",
        "lie",
        "wear",
        "park",
    ]
    assert rw.verb_lemma("sit") == "sit" and rw.verb_lemma("qwzx") == "qwzx"


def test_a_changed_lemma_table_is_refused(monkeypatch):
    monkeypatch.setattr(rw, "LEMMA_SHA256", "0" * 64)
    rw._lemmas.cache_clear()
    try:
        with pytest.raises(PackageDataError, match="reinstall"):
            rw.verb_lemma("sitting")
    finally:
        monkeypatch.undo()
        rw._lemmas.cache_clear()


def test_export_of_lemminflect_reproduces_the_shipped_lemma_table(tmp_path):
    lemminflect = pytest.importorskip("lemminflect")
    source = Path(lemminflect.__file__).parent / "resources"
    digest = rw.export_lemmas(source, tmp_path / "verb_lemmas.txt.gz")
    assert digest == rw.LEMMA_SHA256
    data = (tmp_path / "verb_lemmas.txt.gz").read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest
    assert "sitting\tsit\n" in gzip.decompress(data).decode("utf-8")


# --- properties ------------------------------------------------------------------------------

_WORDS = (
    "a the two man woman dog cats bench on under next to in front of of is are sitting riding "
    "holding flown by and , with while who that group slice red wooden it his outside . people "
    "kite boy table top side left black"
).split()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=25))
def test_any_word_sequence_parses_to_normalised_triples(words):
    text = " ".join(words)
    found = parse_relations(text)
    assert found == parse_relations(text.upper())  # letter case changes nothing
    assert len(found) == len(set(found))
    for relation in found:
        for part in (relation.subject, relation.relation, relation.object):
            assert part and part == part.strip().lower() and "  " not in part
        assert relation.relation not in lx.AUXILIARIES
