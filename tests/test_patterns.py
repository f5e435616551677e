"""The engine of the correction rules (parsing/patterns.py) on hand-made rule tables and units:
what each key of a unit pattern tests, the ops of a window, what a rule sets, the order of the
rules of a pass and of its scan, switching a rule off, and the trigger derived from the windows
(a pass runs only on a caption that holds every unit pattern one of its windows needs)."""

from __future__ import annotations

from typing import Any

import pytest

from bindsplit_datasets.parsing import kinds as k
from bindsplit_datasets.parsing.patterns import Engine, Unit, unit_test
from bindsplit_datasets.parsing.pipeline import PIPELINE
from bindsplit_datasets.parsing.ruleset import RULES, Pass, Pattern, Rule, RuleSet, Trace
from bindsplit_datasets.parsing.units import Units

#: Rule names of the shipped table, borrowed so that a Trace accepts them.
NAMES = RULES.names("correction")


def _units(*pairs: tuple[str, str], trace: Trace | None = None) -> Units:
    words, kinds = zip(*pairs, strict=True)
    keys = [w.replace("-", " ") for w in words]
    return Units(list(words), keys, list(kinds), ["NN"] * len(words), trace or Trace(record=True))


def _engine(*passes: tuple[str, list[dict[str, Any]]]) -> Engine:
    """An engine over passes of (scan, rules), each rule {"match", "set"[, "test"]}; the rules
    take the names of the shipped table in order."""
    rules, records = [], []
    names = iter(NAMES)
    for number, (scan, entries) in enumerate(passes):
        members = []
        for entry in entries:
            name = next(names)
            patterns = tuple(
                Pattern(tuple(p["match"]), tuple(p.get("set", ())))
                for p in entry.get("patterns", [entry])
            )
            rules.append(Rule(name, "correction", "-", patterns=patterns, test=entry.get("test")))
            members.append(name)
        records.append(Pass(f"pass-{number}", "correction", tuple(members), scan))
    return Engine("correction", RuleSet(tuple(rules), tuple(records)))


def test_each_key_of_a_unit_pattern():
    unit = Unit("well-lit", "well lit", "JJ", k.ATTR)

    def holds(pattern: dict[str, Any]) -> bool:
        return unit_test(pattern)(unit)

    assert holds({"kind": "attribute"}) and not holds({"kind_not": ["attribute", "noun"]})
    assert holds({"tag": ["JJ", "JJR"]}) and not holds({"tag_not": "JJ"})
    assert holds({"word": "well lit"}) and holds(
        {"word_not": ["well-lit"]}
    )  # the key, not the text
    assert holds({"phrase": True, "hyphen": True, "alpha": False, "punct": False})
    assert holds({"suffix": ["it", "ed"]}) and not holds({"suffix_not": "lit"})
    assert holds({"any": [{"kind": "noun"}, {"suffix": "lit"}]})
    assert not holds({"any": [{"kind": "noun"}, {"tag": "NN"}]})
    assert unit_test({"in": "materials"})(Unit("wood", "wood", "NN", k.NOUN))
    assert unit_test({"in": "prepositions:locative"})(Unit("on", "on", "IN", k.PREP))
    assert not unit_test({"in": "prepositions:blocking"})(Unit("on", "on", "IN", k.PREP))
    assert unit_test({"in": "lexicon:colours"})(Unit("dark blue", "dark blue", "JJ", k.ATTR))
    assert unit_test({"ends_in": "endings:adjective"})(Unit("mossy", "mossy", "NN", k.NOUN))
    # word classes: "stove" is a noun and a verb, "qwzx" unknown to the table
    stove, unknown = Unit("stove", "stove", "NN", k.NOUN), Unit("qwzx", "qwzx", "NN", k.NOUN)
    assert unit_test({"class": "noun"})(stove) and not unit_test({"class": "unknown"})(stove)
    assert unit_test({"class": ["verb", "unknown"]})(unknown)
    assert unit_test({"classes": []})(unknown) and not unit_test({"classes": []})(stove)
    assert unit_test({"class_not": ["adjective"]})(stove)
    assert unit_test({"test": "plural"})(Unit("dogs", "dogs", "NNS", k.NOUN))
    assert unit_test({"test_not": ["plural", "adjective"]})(stove)


@pytest.mark.parametrize(
    "pattern",
    [
        {"colour": "red"},
        {"op": "%"},
        {"in": "no-such-table"},
        {"in": "prepositions:nowhere"},
        {"test": "no-such-test"},
        {"kind": "thing"},
    ],  # fmt: skip
)
def test_a_wrong_unit_pattern_fails_where_it_is_compiled(pattern):
    with pytest.raises((ValueError, KeyError, Exception)):
        unit_test(pattern)


def test_a_window_sets_what_it_says_at_its_anchor_and_around_it():
    engine = _engine(
        (
            "left",
            [
                {
                    "match": [{"word": "each", "anchor": True}, {"word": "other"}],
                    "set": [{"kind": "other"}, {"kind": "other", "tag": "PRP"}],
                }
            ],
        ),  # fmt: skip
    )
    units = _units(("each", k.DET), ("other", k.ATTR), ("dog", k.NOUN))
    engine.run(units)
    assert units.kind == [k.OTHER, k.OTHER, k.NOUN] and units.tag == ["NN", "PRP", "NN"]
    assert units.trace.fired == [(NAMES[0], 0)]  # fired at the anchor


def test_not_matches_the_edge_and_another_unit_and_star_skips_adverbs():
    engine = _engine(
        (
            "left",
            [
                {
                    "match": [
                        {"kind": "noun", "op": "!"},
                        {"word": "light", "anchor": True},
                        {"kind": "adverb", "op": "*"},
                        {"kind": "noun"},
                    ],
                    "set": [None, {"kind": "attribute"}, None, None],
                }
            ],
        ),  # fmt: skip
    )
    for words, changed in (
        ([("light", k.NOUN), ("very", k.ADV), ("very", k.ADV), ("scarf", k.NOUN)], True),
        ([("a", k.DET), ("light", k.NOUN), ("scarf", k.NOUN)], True),
        ([("street", k.NOUN), ("light", k.NOUN), ("pole", k.NOUN)], False),  # a noun before it
        ([("light", k.NOUN), ("on", k.PREP)], False),
    ):
        units = _units(*words)
        engine.run(units)
        assert (k.ATTR in units.kind) == changed, words


def test_plus_takes_every_unit_it_can_and_set_changes_them_all():
    engine = _engine(
        (
            "left",
            [
                {
                    "match": [
                        {"kind": "noun", "anchor": True},
                        {"kind": "noun", "op": "+"},
                        {"kind": "attribute"},
                    ],
                    "set": [{"kind": "attribute"}, {"kind": "attribute"}, None],
                }
            ],
        ),  # fmt: skip
    )
    units = _units(("round", k.NOUN), ("pink", k.NOUN), ("flat", k.NOUN), ("new", k.ATTR))
    engine.run(units)
    assert units.kind == [k.ATTR] * 4
    single = _units(("round", k.NOUN), ("new", k.ATTR))
    engine.run(single)
    assert single.kind == [k.NOUN, k.ATTR]  # "+" needs one unit at least


def test_optional_units_and_several_windows():
    engine = _engine(
        (
            "left",
            [
                {
                    "patterns": [
                        {
                            "match": [
                                {"word": "ready", "anchor": True},
                                {"word": "to"},
                                {"kind": "verb"},
                            ],
                            "set": [{"kind": "other"}, None, None],
                        },
                        {
                            "match": [
                                {"word": "ready", "anchor": True},
                                {"word": "for"},
                                {"kind": "noun", "op": "?"},
                                {"word": "to"},
                                {"kind": "verb"},
                            ],
                            "set": [{"kind": "other"}, None, None, None, None],
                        },
                    ]
                }
            ],
        ),  # fmt: skip
    )
    for words, changed in (
        (["ready", "to", "go"], True),
        (["ready", "for", "us", "to", "go"], True),
        (["ready", "for", "to", "go"], True),
        (["ready", "for", "us", "them", "to", "go"], False),
    ):
        kinds = {"go": k.VERB, "us": k.NOUN, "them": k.NOUN}
        units = _units(
            *[(w, kinds.get(w, k.OTHER if w in ("to", "for") else k.ATTR)) for w in words]
        )
        engine.run(units)
        assert (units.kind[0] == k.OTHER) == changed, words


def test_the_first_rule_of_a_pass_that_applies_acts_and_a_rule_switched_off_gives_way():
    rules = [
        {"match": [{"kind": "noun"}], "set": [{"kind": "attribute"}]},
        {"match": [{"kind": "noun"}], "set": [{"kind": "verb"}]},
    ]
    engine = _engine(("left", rules))
    units = _units(("dog", k.NOUN))
    engine.run(units)
    assert units.kind == [k.ATTR]
    off = _units(("dog", k.NOUN), trace=Trace(frozenset({NAMES[0]}), record=True))
    engine.run(off)
    assert off.kind == [k.VERB] and off.trace.fired == [(NAMES[1], 0)]


def test_the_scan_order_decides_what_later_units_see():
    # a noun before a noun becomes an attribute: from the right a change hides the noun before
    rule = {"match": [{"kind": "noun", "anchor": True}, {"kind": "noun"}],
            "set": [{"kind": "attribute"}, None]}  # fmt: skip
    left, right = _engine(("left", [rule])), _engine(("right", [rule]))
    words = (("wii", k.NOUN), ("game", k.NOUN), ("controller", k.NOUN))
    from_left, from_right = _units(*words), _units(*words)
    left.run(from_left)
    right.run(from_right)
    assert from_left.kind == [k.ATTR, k.ATTR, k.NOUN]
    assert from_right.kind == [k.NOUN, k.ATTR, k.NOUN]


def test_a_pass_runs_only_where_every_unit_one_of_its_windows_needs_is_there(monkeypatch):
    calls: list[int] = []
    import bindsplit_datasets.parsing.corrections as corrections

    def spy(units: Units, i: int) -> bool:
        calls.append(i)
        return True

    monkeypatch.setattr(corrections, "hyphenated_adverb", spy, raising=True)
    engine = _engine(
        ("left", [{"match": [{"word": "can", "anchor": True}, {"kind": "verb"}],
                   "set": [{"kind": "other"}, None], "test": "corrections.hyphenated_adverb"}]),
    )  # fmt: skip
    engine.run(_units(("can", k.NOUN), ("dog", k.NOUN)))  # no verb anywhere: the pass never runs
    assert calls == [] and engine.passes(_units(("can", k.NOUN))) == []
    verb_elsewhere = _units(("a", k.DET), ("dog", k.NOUN), ("runs", k.VERB), ("can", k.NOUN))
    assert engine.passes(verb_elsewhere) == ["pass-0"]  # both are there: the pass runs,
    engine.run(verb_elsewhere)
    assert calls == []  # but its window matches nowhere, so the test is never asked
    engine.run(_units(("can", k.NOUN), ("be", k.VERB)))
    assert calls == [0]


@pytest.mark.parametrize(
    ("match", "sets", "error"),
    [
        ([{"kind": "noun"}, {"kind": "noun"}], [], "exactly one anchor"),
        ([{"kind": "noun", "anchor": True, "op": "?"}], [], "exactly one unit"),
        (
            [{"kind": "noun", "anchor": True}, {"kind": "noun", "op": "?"}],
            [None, {"kind": "verb"}],
            "may be absent",
        ),  # fmt: skip
        ([{"kind": "noun"}], [None, None], "set has 2 entries"),
    ],
)
def test_a_wrong_window_is_refused_when_the_table_is_compiled(match, sets, error):
    with pytest.raises(ValueError, match=error):
        _engine(("left", [{"match": match, "set": sets}]))


def test_every_correction_rule_of_the_table_compiles_with_a_derived_trigger():
    engine = PIPELINE.corrections
    assert engine.passes(_units(("a", k.DET), ("wide", k.ATTR), ("open", k.ATTR), ("view", k.NOUN)))
    for each in RULES.passes("correction"):
        for name in each.rules:
            assert RULES[name].patterns, f"{name}: a correction rule is a window"


def test_every_word_table_and_each_of_its_uses_is_read_by_a_pattern_or_the_code():
    from pathlib import Path

    from bindsplit_datasets.parsing import wordlists as wl

    package = Path(wl.__file__).parent
    code = "\n".join(path.read_text(encoding="utf-8") for path in package.glob("*.py"))
    table = (package / "data" / "rules.json").read_text(encoding="utf-8")
    unread = []
    for name in wl.table_names():
        if not wl.uses(name):
            if f'"{name}"' not in code + table:
                unread.append(name)
            continue
        for use in wl.uses(name):
            if f'"{name}", "{use}"' not in code and f'"{name}:{use}"' not in code + table:
                unread.append(f"{name}:{use}")
    assert unread == []
