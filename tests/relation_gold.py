"""The hand-labelled relation gold set (``tests/data/relations_gold.json``) and the label-free
checks of the relation parser; shared by ``tests/test_relations.py`` and
``perf/bench_relations.py``.

Items hold either their text (``"text"``: region-description phrases written by the project) or a
reference into the real SugarCrepe samples under ``$BINDSPLIT_SHARED/data`` (``"source"``: file,
key and column), read in place and never copied into the repository (see the file's description
for the sampling, the split and the labelling conventions).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

GOLD = Path(__file__).parent / "data" / "relations_gold.json"

Triple = tuple[str, str, str]
Counts = list[int]  # [true positives, false positives, false negatives]


def items() -> list[dict[str, Any]]:
    return json.loads(GOLD.read_text(encoding="utf-8"))["items"]


def text_of(item: dict[str, Any], shared: Path | None) -> str | None:
    """The item's caption; ``None`` for a real caption when the shared samples are absent."""
    if "text" in item:
        return str(item["text"])
    if shared is None:
        return None
    source = item["source"]
    samples = _subset(shared, source["file"])
    return str(samples[source["key"]][source["column"]])


_SUBSETS: dict[tuple[Path, str], dict[str, Any]] = {}


def _subset(shared: Path, name: str) -> dict[str, Any]:
    if (shared, name) not in _SUBSETS:
        _SUBSETS[shared, name] = json.loads((shared / name).read_text(encoding="utf-8"))
    return _SUBSETS[shared, name]


def triples(parse: Callable[[str], Iterable[Any]], text: str) -> set[Triple]:
    return {(r.subject, r.relation, r.object) for r in parse(text)}


def score(
    gold_items: Iterable[dict[str, Any]], shared: Path | None, parse: Callable[[str], Iterable[Any]]
) -> tuple[dict[str, Counts], dict[str, int], list[str]]:
    """Exact-match triple counts per split, items per split, and one line per disagreement."""
    counts: dict[str, Counts] = defaultdict(lambda: [0, 0, 0])
    sizes: dict[str, int] = defaultdict(int)
    errors = []
    for item in gold_items:
        text = text_of(item, shared)
        if text is None:
            continue
        gold = {(s, r, o) for s, r, o in item["triples"]}
        found = triples(parse, text)
        split = item["split"]
        sizes[split] += 1
        tp, fp, fn = len(gold & found), len(found - gold), len(gold - found)
        counts[split] = [counts[split][0] + tp, counts[split][1] + fp, counts[split][2] + fn]
        if gold != found:
            errors.append(f"{item['id']} {text!r}: missed {sorted(gold - found)}; "
                          f"extra {sorted(found - gold)}")  # fmt: skip
    return dict(counts), dict(sizes), errors


def micro(counts: Sequence[int]) -> tuple[float, float]:
    """(precision, recall); 1.0 where nothing was found / expected."""
    tp, fp, fn = counts
    return (tp / (tp + fp) if tp + fp else 1.0), (tp / (tp + fn) if tp + fn else 1.0)


def is_relation_swap(first: set[Triple], second: set[Triple]) -> bool:
    """Same (subject, object) pairs, exactly one triple differing, and only in its relation."""
    only_first, only_second = first - second, second - first
    if len(only_first) != 1 or len(only_second) != 1:
        return False
    (s1, r1, o1), (s2, r2, o2) = next(iter(only_first)), next(iter(only_second))
    return (s1, o1) == (s2, o2) and r1 != r2


def is_argument_swap(first: set[Triple], second: set[Triple]) -> bool:
    """``second`` is ``first`` with two of its arguments exchanged everywhere."""
    arguments = sorted({a for s, _, o in first for a in (s, o)})
    for i, a in enumerate(arguments):
        for b in arguments[i + 1 :]:
            swap = {a: b, b: a}
            moved = {(swap.get(s, s), r, swap.get(o, o)) for s, r, o in first}
            if moved == second and moved != first:
                return True
    return False


def written_swap_pairs(split: str | None = None) -> list[tuple[str, str]]:
    """The written phrase pairs whose gold triples form a relation swap (``split``: dev,
    heldout or both)."""
    by_pair: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for item in items():
        if "pair" in item and (split is None or item["split"] == split):
            by_pair[item["pair"]].append(item)
    pairs = []
    for _, (a, b) in sorted(by_pair.items()):
        gold_a = {tuple(t) for t in a["triples"]}
        gold_b = {tuple(t) for t in b["triples"]}
        if is_relation_swap(gold_a, gold_b):
            pairs.append((a["text"], b["text"]))
    return pairs


def share(
    pairs: Iterable[tuple[str, str]],
    parse: Callable[[str], Iterable[Any]],
    check: Callable[[set[Triple], set[Triple]], bool],
    *,
    skip_empty: bool = False,
) -> tuple[int, int]:
    """(pairs passing ``check`` on their parses, pairs counted); ``skip_empty`` leaves out the
    pairs whose first caption parses to no triple (label-free checks on real captions)."""
    passed = total = 0
    for first, second in pairs:
        parsed = triples(parse, first)
        if skip_empty and not parsed:
            continue
        total += 1
        passed += check(parsed, triples(parse, second))
    return passed, total
