"""The hand-labelled binding gold sets (``tests/data/bindings_gold*.json``) and how the parser is
scored on them; shared by the quality tests and ``perf/bench_parser.py``.

Items hold either their caption (``"text"``, written by the project) or a reference into the real
samples under ``$BINDSPLIT_SHARED/data`` (``"source"``: a file and the annotation id, row or key
and column), whose text is read in place, never copied into the repository.
"""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
#: The project's first gold set (COCO, BiVLC, written captions, ARO's template).
ORIGINAL = DATA / "bindings_gold.json"
#: Real SugarCrepe captions, development and held-out parts.
SUGARCREPE = DATA / "bindings_gold_sugarcrepe.json"
#: Issue 39 item 9: object boundaries on full sentences (real SugarCrepe captions and written
#: sentences), development and held-out parts.
BOUNDARIES = DATA / "bindings_gold_boundaries.json"
#: Issue 39 item 9: random real SugarCrepe captions, full sentences among them, labelled before the
#: parser ran on them (development and held-out parts).
SENTENCES = DATA / "bindings_gold_sentences.json"
#: Issue 39: the registers of the hidden attribute pair sets, written swap pairs labelled before the
#: parser ran on them: ColorSwap-style captions and Visual-Genome-style region phrases
#: (development and held-out parts; items carry their ``register``).
REGISTERS = DATA / "bindings_gold_registers.json"

Counts = list[int]  # [true positives, false positives, false negatives]


def items(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["items"]


def _source_key(source: dict[str, Any]) -> tuple[Any, ...]:
    key: tuple[Any, ...] = (source["file"],)
    for field in ("annotation_id", "row", "key", "column"):
        if field in source:
            key += (source[field],)
    return key


def real_texts(shared: Path) -> dict[tuple[Any, ...], str]:
    """Every caption of the real samples an item may reference, by its source key."""
    texts: dict[tuple[Any, ...], str] = {}
    for split in ("train", "val"):
        name = f"coco_mini/captions_{split}2017.json"
        for annotation in json.loads((shared / name).read_text(encoding="utf-8"))["annotations"]:
            texts[name, annotation["id"]] = annotation["caption"]
    name = "bivlc/bivlc_text_sample.csv"
    with open(shared / name, newline="", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            for column in ("caption", "negative_caption"):
                texts[name, int(row["row"]), column] = row[column]
    for path in sorted((shared / "sugarcrepe").glob("*.json")):
        name = f"sugarcrepe/{path.name}"
        for key, sample in json.loads(path.read_text(encoding="utf-8")).items():
            for column in ("caption", "negative_caption"):
                texts[name, key, column] = sample[column]
    return texts


def text_of(item: dict[str, Any], texts: dict[tuple[Any, ...], str] | None) -> str | None:
    """The caption of an item; ``None`` when it lies in the real samples and they are absent."""
    if "text" in item:
        return str(item["text"])
    return None if texts is None else texts[_source_key(item["source"])]


def micro(counts: Sequence[int]) -> tuple[float, float]:
    """(precision, recall); 1.0 where nothing was found / expected."""
    tp, fp, fn = counts
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def score(
    gold_items: Iterable[dict[str, Any]],
    texts: dict[tuple[Any, ...], str] | None,
    parse: Callable[[str], Iterable[Any]],
    groups_of: Callable[[dict[str, Any]], Iterable[str]],
) -> tuple[dict[str, Counts], list[str], int]:
    """Micro counts per group (``groups_of(item)`` names an item's groups), one line per
    disagreement, and the number of items skipped because their real caption is absent."""
    groups: dict[str, Counts] = defaultdict(lambda: [0, 0, 0])
    errors: list[str] = []
    skipped = 0
    for item in gold_items:
        text = text_of(item, texts)
        if text is None:
            skipped += 1
            continue
        gold = {(a, o) for a, o in item["bindings"]}
        found = {(b.attribute, b.object) for b in parse(text)}
        counts = (len(gold & found), len(found - gold), len(gold - found))
        for name in groups_of(item):
            groups[name] = [g + c for g, c in zip(groups[name], counts, strict=True)]
        if gold != found:
            missed = ", ".join(f"({a}, {o})" for a, o in sorted(gold - found)) or "-"
            extra = ", ".join(f"({a}, {o})" for a, o in sorted(found - gold)) or "-"
            errors.append(f"  {item['id']}: missed {missed}; extra {extra}")
    return dict(groups), errors, skipped


def table(groups: dict[str, Counts], first: str = "all") -> list[str]:
    """The groups' counts, precision and recall as text lines (``first`` on top)."""
    lines = [f"{'group':<24}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}"]
    for name in sorted(groups, key=lambda n: (n != first, n)):
        tp, fp, fn = groups[name]
        precision, recall = micro(groups[name])
        lines.append(f"{name:<24}{tp:>5}{fp:>5}{fn:>5}{precision:>11.3f}{recall:>8.3f}")
    return lines
