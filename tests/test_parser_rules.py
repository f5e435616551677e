"""The parser's named rules (parsing/ruleset.py, data/rules.json) and ``explain``: every rule is
in the table with an example caption that parses differently when the rule is switched off, the
code fires only names of the table, rules can be switched off by name, other modules can add
rules, and ``explain`` agrees with ``parse_bindings``."""

from __future__ import annotations

import pytest

from bindsplit_datasets.errors import BindsplitValueError
from bindsplit_datasets.parsing import explain, parse_bindings
from bindsplit_datasets.parsing import ruleset as rs

PARSER_RULES = [rule for rule in rs.RULES if rule.stage in ("correction", "binding")]


def _pairs(bindings) -> list[list[str]]:
    return [[b.attribute, b.object] for b in bindings]


@pytest.mark.parametrize("rule", PARSER_RULES, ids=lambda rule: rule.name)
def test_each_rule_fires_on_its_examples_which_fail_without_it(rule):
    assert rule.description and rule.examples, f"{rule.name} needs a description and an example"
    for example in rule.examples:
        with_rule = explain(example.caption)
        assert _pairs(with_rule.bindings) == [list(pair) for pair in example.bindings]
        assert rule.name in with_rule.rules
        without = parse_bindings(example.caption, disabled={rule.name})
        assert _pairs(without) != [list(pair) for pair in example.bindings], (
            f"{rule.name}: {example.caption!r} parses the same with the rule switched off"
        )


def test_the_code_fires_only_rules_of_the_table():
    captions = [example.caption for rule in rs.RULES for example in rule.examples]
    fired = {name for caption in captions for name in explain(caption).rules}
    assert fired <= set(rs.RULES.names())
    assert fired == set(rs.RULES.names("correction")) | set(rs.RULES.names("binding"))


def test_switching_rules_off_by_name():
    assert parse_bindings("the dog is white") == parse_bindings("the dog is white", disabled=())
    assert _pairs(parse_bindings("the dog is white")) == [["white", "dog"]]
    assert parse_bindings("the dog is white", disabled={"predicative"}) == []
    with pytest.raises(BindsplitValueError, match="no parser rule is named 'predicativ'"):
        parse_bindings("the dog is white", disabled={"predicativ"})


def test_explain_reports_tokens_kinds_rules_and_bindings():
    explanation = explain("a man in a white top poses with a bat.")
    assert explanation.tokens[:6] == ("a", "man", "in", "a", "white", "top")
    assert explanation.tags[5] == "JJ"
    top = explanation.units.index("top")
    assert (explanation.kinds_before[top], explanation.kinds_after[top]) == ("adverb", "noun")
    assert explanation.rules == ("garment-top", "third-person-verb-tagged-as-noun", "attributive")
    assert _pairs(explanation.bindings) == [["white", "top"]]
    data = explanation.to_dict()
    assert data["rules"][0] == {"rule": "garment-top", "stage": "correction", "unit": top,
                                "text": "top"}  # fmt: skip
    assert data["bindings"] == [["white", "top"]]
    assert isinstance(data["relations"], list)
    assert explain("").bindings == () and explain("").rules == ()


def test_another_module_can_register_rules_in_order():
    table = rs.RuleSet((rs.Rule("first", "correction", "one"), rs.Rule("third", "binding", "3")))
    table.register(rs.Rule("second", "relation", "two"), after="first")
    table.register(rs.Rule("fourth", "relation", "four"))
    assert table.names() == ["first", "second", "third", "fourth"]
    assert table.names("relation") == ["second", "fourth"]
    with pytest.raises(BindsplitValueError, match="already registered"):
        table.register(rs.Rule("first", "binding", "again"))
    with pytest.raises(BindsplitValueError, match="stage 'tags'"):
        rs.Rule("odd", "tags", "no such stage")


def test_a_trace_records_only_when_asked_and_skips_disabled_rules():
    trace = rs.Trace(frozenset({"predicative"}), record=True)
    assert trace.fire("attributive", 3) and not trace.fire("predicative", 4)
    assert trace.fired == [("attributive", 3)]
    assert rs.NO_TRACE.fire("attributive", 0) and rs.NO_TRACE.fired is None


def test_relation_rules_are_in_the_registry_and_explained():
    from bindsplit_datasets.parsing.relation_rules import RELATION_RULES

    assert rs.RULES.names("relation") == [rule.name for rule in RELATION_RULES]
    explanation = explain("a kite flown by a boy")
    assert "passive-agent" in explanation.relation_rules
    assert "passive-agent" not in explanation.rules
    assert [str(r) for r in explanation.relations] == ["boy fly kite"]
    assert "  relation   passive-agent at 'by'" in explanation.lines()
    # switched off, the next rule of the chunk's kind reads "by": a plain preposition
    off = explain("a kite flown by a boy", disabled={"passive-agent"})
    assert "passive-agent" not in off.relation_rules
    assert [str(r) for r in off.relations] != ["boy fly kite"]
