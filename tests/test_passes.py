"""The correction passes' dispatch (parsing/passes.py): every pass runs only where its trigger
holds, and a trigger is only a necessary condition, so the dispatch gives exactly what running
every pass in turn gives.

On the rule examples, the written evaluation pairs and every gold item (real captions read in
place when ``$BINDSPLIT_SHARED`` is there), each with its articles removed too, every pass is
run in turn as the parser ran them before the dispatch: a pass whose trigger does not hold must
change nothing, and a pass that changes a caption must fire a rule (the dispatch looks at a
caption again only after a firing). Hand-made passes check the dispatch itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import gold_sets
import pytest

from bindsplit_datasets.parsing import corrections
from bindsplit_datasets.parsing.memo import Memo
from bindsplit_datasets.parsing.passes import Dispatch, Unit, tags, trigger, words
from bindsplit_datasets.parsing.ruleset import RULES, Trace
from bindsplit_datasets.parsing.text import tokenise
from bindsplit_datasets.parsing.units import ATTR, NOUN, Units, classify_units
from bindsplit_datasets.parsing.virtual_articles import tag_caption

WRITTEN_PAIRS = Path(__file__).parent / "data" / "swap_pairs_written.json"
ARTICLES = re.compile(r"\b(?:a|an|the)\s+", re.IGNORECASE)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


@pytest.fixture(scope="module")
def corpus(request: pytest.FixtureRequest) -> list[str]:
    try:
        texts = gold_sets.real_texts(request.getfixturevalue("shared_data"))
    except pytest.skip.Exception:
        texts = None
    captions = [example.caption for rule in RULES for example in rule.examples]
    captions += _strings(json.loads(WRITTEN_PAIRS.read_text(encoding="utf-8")))
    for path in (gold_sets.ORIGINAL, gold_sets.SUGARCREPE):
        captions += [
            text for item in gold_sets.items(path) if (text := gold_sets.text_of(item, texts))
        ]
    captions = list(dict.fromkeys(captions))
    return list(dict.fromkeys(captions + [ARTICLES.sub("", text) for text in captions]))


def _units(text: str) -> Units:
    tokens = tokenise(text)
    return classify_units(tokens, tag_caption(tokens), Trace())


def _state(units: Units) -> tuple[list[str], ...]:
    return list(units.text), list(units.key), list(units.tag), list(units.kind)


def test_a_pass_whose_trigger_does_not_hold_changes_nothing(corpus):
    dispatch = Dispatch(corrections.PASSES)
    silent_changes, unfired_changes = [], []
    for text in corpus:
        units = _units(text)
        for correction in corrections.PASSES:
            # the dispatch remembers unit tests by (text, tag, kind): the key follows the text
            assert units.key == [written.replace("-", " ") for written in units.text], text
            holds = correction in dispatch.triggered(units)
            before, firings = _state(units), units.trace.firings
            correction(units)
            if _state(units) != before:
                if not holds:
                    silent_changes.append((correction.__name__, text))
                if units.trace.firings == firings:
                    unfired_changes.append((correction.__name__, text))
        dispatched = _units(text)
        corrections.correct(dispatched)  # the parser's path: the dispatch of every pass
        assert _state(dispatched) == _state(units), text
    assert not silent_changes, (
        f"passes acted where their trigger does not hold: {silent_changes[:10]}"
    )
    assert not unfired_changes, (
        f"passes changed a caption without firing a rule: {unfired_changes[:10]}"
    )
    assert len(corpus) > 1500


# --- the dispatch on hand-made passes --------------------------------------------------------


def _toy_units(*pairs: tuple[str, str]) -> Units:
    words_, kinds = zip(*pairs, strict=True)
    return Units(list(words_), list(words_), list(kinds), ["NN"] * len(pairs), Trace())


def test_a_pass_runs_where_its_word_tag_or_kinds_trigger_holds_and_nowhere_else():
    calls: list[str] = []

    @trigger(unit=words({"wide"}))
    def on_word(units: Units) -> None:
        calls.append("word")

    @trigger(unit=tags("JJ"))
    def on_tag(units: Units) -> None:
        calls.append("tag")

    @trigger(kinds=f"{NOUN}{NOUN}")
    def on_kinds(units: Units) -> None:
        calls.append("kinds")

    def always(units: Units) -> None:
        calls.append("always")

    dispatch = Dispatch([on_word, on_tag, on_kinds, always])
    dispatch.run(_toy_units(("wide", ATTR), ("road", NOUN)))
    assert calls == ["word", "always"]
    calls.clear()
    dispatch.run(_toy_units(("bus", NOUN), ("stop", NOUN)))
    assert calls == ["kinds", "always"]


def test_a_caption_changed_by_a_rule_is_looked_at_again_and_earlier_passes_do_not_rerun():
    calls: list[str] = []

    @trigger(kinds=ATTR)
    def needs_attribute(units: Units) -> None:
        calls.append("needs attribute")

    def makes_attribute(units: Units) -> None:
        calls.append("makes attribute")
        if units.trace.fire("adjective-tagged-as-noun", 0):
            units.kind[0] = ATTR

    @trigger(kinds=ATTR)
    def after(units: Units) -> None:
        calls.append("after")

    units = _toy_units(("mossy", NOUN), ("wall", NOUN))
    Dispatch([needs_attribute, makes_attribute, after]).run(units)
    assert calls == ["makes attribute", "after"]
    assert units.kind == [ATTR, NOUN]


def test_a_unit_test_sees_text_key_tag_and_kind():
    seen: list[Unit] = []

    def test(unit: Unit) -> bool:
        seen.append(unit)
        return False

    @trigger(unit=test)
    def never(units: Units) -> None:
        raise AssertionError("never triggered")

    units = Units(["t-shirt"], ["t shirt"], [NOUN], ["NN"], Trace())
    Dispatch([never]).run(units)
    assert seen == [Unit("t-shirt", "t shirt", "NN", NOUN)]


def test_triggers_are_checked_where_they_are_declared():
    with pytest.raises(ValueError, match="needs a unit test"):
        trigger()
    with pytest.raises(re.error):
        trigger(kinds="[N")

    def correction(units: Units) -> None:
        pass

    trigger(kinds=NOUN)(correction)
    with pytest.raises(ValueError, match="already has a trigger"):
        trigger(kinds=ATTR)(correction)


def test_memo_computes_each_value_once_and_forgets_all_past_its_limit():
    calls: list[int] = []

    def square(x: int) -> int:
        calls.append(x)
        return x * x

    memo = Memo(square, limit=2)
    assert [memo[3], memo[3], memo[4]] == [9, 9, 16]
    assert calls == [3, 4]
    assert memo[5] == 25 and len(memo) == 1  # the third key: the first two forgotten
    assert list(map(memo.__getitem__, [5, 2])) == [25, 4] and calls == [3, 4, 5, 2]
