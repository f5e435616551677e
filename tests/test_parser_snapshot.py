"""Per-item snapshot of the parser on every gold item (tests/data/parser_snapshot.json): its
bindings and the named rules that fired. Any change fails, listing the items that changed (caption,
old and new bindings, rules fired), until it is accepted deliberately:

    make snapshot
    python -m pytest tests/test_parser_snapshot.py --update-parser-snapshot   # the same

then review the snapshot's diff and commit it with the change. The snapshot stores item ids, never
the text of the real captions (those are read in place from ``$BINDSPLIT_SHARED/data``); without
the real samples only the written items are compared, and the snapshot cannot be rewritten.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gold_sets
import pytest

from bindsplit_datasets.parsing import explain

SNAPSHOT = gold_sets.DATA / "parser_snapshot.json"
DESCRIPTION = (
    "The parser's reading of every gold item (tests/data/bindings_gold*.json), by item id: its "
    "bindings and the named parser rules that fired (parsing/data/rules.json). Written by "
    "`make snapshot` (pytest tests/test_parser_snapshot.py --update-parser-snapshot); "
    "tests/test_parser_snapshot.py fails on any difference."
)
#: Changed items listed in a failure message (the rest are counted).
SHOWN = 40


def _gold_items() -> list[dict[str, Any]]:
    return gold_sets.items(gold_sets.ORIGINAL) + gold_sets.items(gold_sets.SUGARCREPE)


def _parse(text: str) -> dict[str, list[Any]]:
    explanation = explain(text)
    return {
        "bindings": [[b.attribute, b.object] for b in explanation.bindings],
        "rules": list(explanation.rules),
    }


def _texts(request: pytest.FixtureRequest) -> dict[tuple[Any, ...], str] | None:
    try:
        shared: Path = request.getfixturevalue("shared_data")
    except pytest.skip.Exception:
        return None
    return gold_sets.real_texts(shared)


def test_every_gold_item_parses_as_its_snapshot(request):
    texts = _texts(request)
    current: dict[str, dict[str, list[Any]]] = {}
    captions: dict[str, str] = {}
    for item in _gold_items():
        text = gold_sets.text_of(item, texts)
        if text is not None:
            captions[item["id"]] = text
            current[item["id"]] = _parse(text)
    if request.config.getoption("--update-parser-snapshot"):
        if texts is None:
            pytest.fail("rewriting the snapshot needs the real samples (set BINDSPLIT_SHARED)")
        SNAPSHOT.write_text(_dumps(current), encoding="utf-8")
        return
    stored = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["items"]
    assert set(stored) == {item["id"] for item in _gold_items()}, (
        "the gold items changed: run `make snapshot` and review the diff"
    )
    report = _differences(stored, current, captions)
    assert report is None, report


def _dumps(items: dict[str, dict[str, list[Any]]]) -> str:
    """The snapshot file: one item a line, so that a change shows as a diff of its lines."""
    lines = [f" {json.dumps(key)}: {json.dumps(items[key])}" for key in sorted(items)]
    head = f'{{\n "description": {json.dumps(DESCRIPTION)},\n "items": {{\n'
    return head + ",\n".join(lines) + "\n }\n}\n"


def _differences(
    stored: dict[str, dict[str, list[Any]]],
    current: dict[str, dict[str, list[Any]]],
    captions: dict[str, str],
) -> str | None:
    """The failure message listing the items of ``current`` that differ from ``stored``."""
    changed = [key for key in current if current[key] != stored[key]]
    if not changed:
        return None
    lines = []
    for key in changed[:SHOWN]:
        old, new = stored[key], current[key]
        lines.append(
            f"{key}: {captions[key]!r}\n    bindings {old['bindings']} -> {new['bindings']}\n"
            f"    rules fired {old['rules']} -> {new['rules']}"
        )
    if len(changed) > SHOWN:
        lines.append(f"... and {len(changed) - SHOWN} more")
    return (
        f"{len(changed)} of {len(current)} gold items parse differently from the snapshot:\n"
        + "\n".join(lines)
        + "\nIf the change is deliberate, accept it with `make snapshot` (pytest "
        "tests/test_parser_snapshot.py --update-parser-snapshot) and commit the snapshot's diff."
    )


def test_a_difference_names_the_item_its_caption_bindings_and_rules():
    stored = {"a": {"bindings": [["red", "car"]], "rules": ["attributive"]},
              "b": {"bindings": [], "rules": []}}  # fmt: skip
    current = {"a": {"bindings": [], "rules": []}, "b": {"bindings": [], "rules": []}}
    report = _differences(stored, current, {"a": "a red car", "b": "x"})
    assert report is not None and report.startswith("1 of 2 gold items parse differently")
    assert "a: 'a red car'\n    bindings [['red', 'car']] -> []\n" in report
    assert "rules fired ['attributive'] -> []" in report and "make snapshot" in report
    assert _differences(stored, stored, {}) is None
    assert json.loads(_dumps(stored))["items"] == stored
