"""Per-item snapshot of the parser on every relation gold item (tests/data/relation_snapshot.json):
its bindings, its triples and the named rules that fired (every stage). A changed binding or
triple fails, listing the items that changed (caption, old and new, rules fired); changed rule
firings alone do not fail, but are reported as a summary (a warning: which rules fire on how many
more or fewer items). Accept a deliberate change with

    make snapshot
    python -m pytest tests/test_relation_snapshot.py --update-parser-snapshot   # the same

then review the snapshot's diff and commit it with the change. The snapshot stores item ids,
never the text of the real captions (read in place from ``$BINDSPLIT_SHARED/data``); without the
real samples only the written items are compared, and the snapshot cannot be rewritten.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import relation_gold

from bindsplit_datasets.parsing import explain

SNAPSHOT = Path(__file__).parent / "data" / "relation_snapshot.json"
DESCRIPTION = (
    "The parser's reading of every relation gold item (tests/data/relations_gold.json and "
    "relations_gold_registers.json), by item id: its bindings, its triples and the named parser "
    "rules that fired, of every stage "
    "(parsing/data/rules.json). Written by `make snapshot` (pytest "
    "tests/test_relation_snapshot.py --update-parser-snapshot); tests/test_relation_snapshot.py "
    "fails on changed bindings or triples and reports changed rule firings."
)
#: Changed items listed in a failure message (the rest are counted).
SHOWN = 40

Item = dict[str, list[Any]]


def _parse(text: str) -> Item:
    explanation = explain(text)
    return {
        "bindings": [[b.attribute, b.object] for b in explanation.bindings],
        "triples": [[r.subject, r.relation, r.object] for r in explanation.relations],
        "rules": list(explanation.rules + explanation.relation_rules),
    }


def _shared(request: pytest.FixtureRequest) -> Path | None:
    try:
        shared: Path = request.getfixturevalue("shared_data")
    except pytest.skip.Exception:
        return None
    return shared


def test_every_relation_gold_item_parses_as_its_snapshot(request):
    shared = _shared(request)
    current: dict[str, Item] = {}
    captions: dict[str, str] = {}
    for item in relation_gold.items():
        text = relation_gold.text_of(item, shared)
        if text is not None:
            captions[item["id"]] = text
            current[item["id"]] = _parse(text)
    if request.config.getoption("--update-parser-snapshot"):
        if shared is None:
            pytest.fail("rewriting the snapshot needs the real samples (set BINDSPLIT_SHARED)")
        SNAPSHOT.write_text(_dumps(current), encoding="utf-8")
        return
    stored = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["items"]
    assert set(stored) == {item["id"] for item in relation_gold.items()}, (
        "the relation gold items changed: run `make snapshot` and review the diff"
    )
    report, firings = _differences(stored, current, captions)
    if firings:
        warnings.warn(firings, stacklevel=1)
    assert report is None, report


def _dumps(items: dict[str, Item]) -> str:
    """The snapshot file: one item a line, so that a change shows as a diff of its lines."""
    lines = [f" {json.dumps(key)}: {json.dumps(items[key])}" for key in sorted(items)]
    head = f'{{\n "description": {json.dumps(DESCRIPTION)},\n "items": {{\n'
    return head + ",\n".join(lines) + "\n }\n}\n"


def _differences(
    stored: dict[str, Item], current: dict[str, Item], captions: dict[str, str]
) -> tuple[str | None, str | None]:
    """(the failure message listing the items whose bindings or triples differ, the summary of
    the rules that fire on items where they did not, or no longer fire), each ``None`` if
    nothing differs."""
    changed = [
        key
        for key in current
        if (current[key]["bindings"], current[key]["triples"])
        != (stored[key]["bindings"], stored[key]["triples"])
    ]
    gained: Counter[str] = Counter()
    lost: Counter[str] = Counter()
    for key in current:
        gained.update(set(current[key]["rules"]) - set(stored[key]["rules"]))
        lost.update(set(stored[key]["rules"]) - set(current[key]["rules"]))
    firings = None
    if gained or lost:
        parts = [f"{name} +{count}" for name, count in sorted(gained.items())]
        parts += [f"{name} -{count}" for name, count in sorted(lost.items())]
        firings = (
            "rule firings changed on the relation gold items (items a rule now fires on +, no "
            "longer fires on -): " + ", ".join(parts)
        )
    if not changed:
        return None, firings
    lines = []
    for key in changed[:SHOWN]:
        old, new = stored[key], current[key]
        lines.append(
            f"{key}: {captions[key]!r}\n    bindings {old['bindings']} -> {new['bindings']}\n"
            f"    triples {old['triples']} -> {new['triples']}\n"
            f"    rules fired {old['rules']} -> {new['rules']}"
        )
    if len(changed) > SHOWN:
        lines.append(f"... and {len(changed) - SHOWN} more")
    report = (
        f"{len(changed)} of {len(current)} relation gold items parse differently from the "
        "snapshot:\n" + "\n".join(lines) + "\nIf the change is deliberate, accept it with `make "
        "snapshot` (pytest tests/test_relation_snapshot.py --update-parser-snapshot) and commit "
        "the snapshot's diff."
    )
    return report, firings


def test_a_difference_names_the_item_and_a_firing_change_is_only_summarised():
    old = {
        "bindings": [["red", "car"]],
        "triples": [["car", "on", "road"]],
        "rules": ["attributive"],
    }
    stored = {"a": old, "b": {"bindings": [], "triples": [], "rules": ["clause-subject"]}}
    moved = {"a": old, "b": {"bindings": [], "triples": [], "rules": ["other-noun"]}}
    report, firings = _differences(stored, moved, {"a": "a red car on a road", "b": "x"})
    assert report is None
    assert firings is not None and "other-noun +1" in firings and "clause-subject -1" in firings
    lost = {"a": {"bindings": [["red", "car"]], "triples": [], "rules": ["attributive"]},
            "b": stored["b"]}  # fmt: skip
    report, firings = _differences(stored, lost, {"a": "a red car on a road", "b": "x"})
    assert report is not None and report.startswith("1 of 2 relation gold items")
    assert (
        "a: 'a red car on a road'" in report and "triples [['car', 'on', 'road']] -> []" in report
    )
    assert firings is None and "make snapshot" in report
    assert _differences(stored, stored, {}) == (None, None)
    assert json.loads(_dumps(stored))["items"] == stored
