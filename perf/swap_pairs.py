"""Attribute-swap and replacement pairs written by the project (issue 28): the parser on the two
registers of the hidden pair sets, on text nobody tuned on a benchmark with.

``tests/data/swap_pairs_written.json`` holds minimal pairs in two registers: ``colorswap`` (short
sentences in which two colours, shades, colour compounds or materials are swapped between two
objects, as in ColorSwap) and ``region`` (telegraphic region descriptions, as in Visual Genome,
where one attribute is replaced, "brown knob" / "teal knob", or two are swapped). Each side has its
expected bindings (protocol section 1). Per register this prints:

- exact-match precision and recall of the bindings, both sides of every pair pooled;
- *consistent*: the share of pairs whose two sides both parse exactly as expected (what the
  hidden sets count as swap-consistent);
- *label-free consistent*: without the labels, the share of pairs whose parses move the
  attribute as written. A swap: both sides give bindings, the same set of objects and the same
  multiset of attributes. A replacement of x by y: side a binds x, and side b's bindings are side
  a's with x replaced by y and nothing else changed.

Each share comes with its n and a 95% Wilson interval.

    python perf/swap_pairs.py [--split dev|heldout|all] [--show N] [--quick]

``--show N`` prints N failing pairs of the ``dev`` split with what each side lost and gained;
failures of ``heldout`` pairs are counted, never printed, so that no rule is tuned on them.
``--quick`` measures the first 12 pairs of each register (the test suite runs it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "swap_pairs_written.json"
REGISTERS = ("colorswap", "region")
SPLITS = ("dev", "heldout", "all")
QUICK_PAIRS = 12

Pair = tuple[str, str]
Parse = Callable[[str], Sequence[Any]]


@dataclass
class Scores:
    """The counts of one register: bindings (both sides pooled) and pairs."""

    pairs: int = 0
    true_positives: int = 0
    false_positives: int = 0
    false_negatives: int = 0
    consistent: int = 0
    label_free: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        found = self.true_positives + self.false_positives
        return self.true_positives / found if found else 1.0

    @property
    def recall(self) -> float:
        expected = self.true_positives + self.false_negatives
        return self.true_positives / expected if expected else 1.0


def load_items(path: Path = DATA, split: str = "all") -> list[dict[str, Any]]:
    """The pairs of ``split`` (``dev``, ``heldout`` or ``all``) in file order."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; valid: {', '.join(SPLITS)}")
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    return [item for item in items if split == "all" or item["split"] == split]


def replace_words(text: str, mapping: dict[str, str]) -> str:
    """``text`` with each whole word or phrase of ``mapping`` (any case) replaced, at once."""
    if not mapping:
        return text
    keys = sorted(mapping, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, keys)) + r")(?!\w)", re.IGNORECASE)
    return pattern.sub(lambda match: mapping[match.group(0).lower()], text)


def _pairs(bindings: Sequence[Any]) -> set[Pair]:
    return {(b.attribute, b.object) for b in bindings}


def label_free_consistent(item: dict[str, Any], a: set[Pair], b: set[Pair]) -> bool:
    """Whether the two parses move the attribute as the texts do (see the module docstring)."""
    if item["kind"] == "swap":
        same_objects = {o for _, o in a} == {o for _, o in b}
        same_attributes = Counter(x for x, _ in a) == Counter(x for x, _ in b)
        return bool(a and b) and same_objects and same_attributes
    old, new = item["change"]
    replaced = {(replace_words(attribute, {old: new}), obj) for attribute, obj in a}
    return replaced != a and replaced == b


def measure(items: Sequence[dict[str, Any]], parse: Parse) -> dict[str, Scores]:
    """The :class:`Scores` of each register of ``items`` under ``parse`` (text -> bindings with
    ``.attribute`` and ``.object``); ``failures`` lists the dev pairs not parsed exactly."""
    scores = {register: Scores() for register in REGISTERS}
    for item in items:
        score = scores[item["register"]]
        score.pairs += 1
        found = {side: _pairs(parse(item[side])) for side in "ab"}
        exact = True
        for side in "ab":
            expected = {(x, o) for x, o in item[f"{side}_bindings"]}
            score.true_positives += len(found[side] & expected)
            score.false_positives += len(found[side] - expected)
            score.false_negatives += len(expected - found[side])
            exact = exact and found[side] == expected
        score.consistent += exact
        score.label_free += label_free_consistent(item, found["a"], found["b"])
        if not exact and item["split"] == "dev":
            score.failures.append({**item, "found_a": found["a"], "found_b": found["b"]})
    return scores


def _share(successes: int, n: int) -> str:
    from bindsplit_datasets.metric_core import proportion_interval

    if not n:
        return "n/a (n = 0)"
    low, high = proportion_interval(successes, n)
    return f"{successes}/{n} = {successes / n:.3f} [{low:.3f}, {high:.3f}]"


def report(scores: dict[str, Scores], split: str) -> list[str]:
    """The printed table: one block per register."""
    lines = [f"Written swap/replacement pairs ({DATA.name}), split {split}, 95% Wilson intervals"]
    for register, score in scores.items():
        found = score.true_positives + score.false_positives
        expected = score.true_positives + score.false_negatives
        lines += [
            f"{register}: {score.pairs} pairs",
            f"  bindings P {score.precision:.3f} (n {found}) / R {score.recall:.3f} (n {expected})",
            f"  consistent (both sides exact): {_share(score.consistent, score.pairs)}",
            f"  label-free consistent: {_share(score.label_free, score.pairs)}",
        ]
    return lines


def _of_register(items: Sequence[dict[str, Any]], register: str) -> list[dict[str, Any]]:
    return [item for item in items if item["register"] == register]


def _show(failure: dict[str, Any]) -> list[str]:
    lines = []
    for side in "ab":
        expected = {(x, o) for x, o in failure[f"{side}_bindings"]}
        found = failure[f"found_{side}"]
        if found != expected:
            lost, gained = sorted(expected - found), sorted(found - expected)
            lines.append(
                f"  [{failure['register']}] {failure[side]!r}: lost {lost}; gained {gained}"
            )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=SPLITS, default="all", help="pairs to measure")
    parser.add_argument("--show", type=int, default=0, help="print N failing dev pairs")
    parser.add_argument("--quick", action="store_true", help=f"first {QUICK_PAIRS} per register")
    args = parser.parse_args(argv)
    from bindsplit_datasets.parsing import parse_bindings

    items = load_items(split=args.split)
    if args.quick:
        items = [item for r in REGISTERS for item in _of_register(items, r)[:QUICK_PAIRS]]
    scores = measure(items, parse_bindings)
    print("\n".join(report(scores, args.split)))
    failures = [f for score in scores.values() for f in score.failures]
    if args.show:
        print(f"{min(args.show, len(failures))} of {len(failures)} failing dev pairs:")
        for failure in failures[: args.show]:
            print("\n".join(_show(failure)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
