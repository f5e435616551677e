"""The engine of the correction rules: unit patterns from the rule table, matched and applied.

A correction rule of ``data/rules.json`` is a window of *unit patterns* (``match``) and what it
sets on the units it matched (``set``), as a pattern of spaCy's ``Matcher`` or ``AttributeRuler``
is. A unit pattern is a mapping of conditions on one unit, all of which must hold:

- ``kind`` / ``kind_not``: the unit's kind is (not) one of these (by the names of
  :data:`.kinds.KIND_NAMES`);
- ``tag`` / ``tag_not``: the tagger's tag is (not) one of these;
- ``word`` / ``word_not``: the unit's key (its text, hyphens read as spaces) is (not) one of these;
- ``in`` / ``not_in``: the key is (not) in one of these word tables (``"table"`` or
  ``"table:use"``, read by :mod:`.wordlists`, or a set the lexicon derives: :data:`TABLES`);
- ``class`` / ``class_not``: the word-class table (:mod:`.wordclasses`) gives the word one of
  these classes (``noun``, ``verb``, ``adjective``, ``adverb``; ``unknown``: the table does not
  know the word) / none of them; ``classes``: exactly these (``[]``: a word the table does not
  know);
- ``suffix`` / ``suffix_not``: the key ends (does not end) with one of these; ``ends_in`` /
  ``ends_not_in``: with one of the endings of these tables;
- ``phrase`` (the key has a space), ``hyphen`` (the text has a hyphen), ``alpha`` (only letters),
  ``punct`` (starts with no letter or digit): ``true`` or ``false``;
- ``test`` / ``test_not``: the named tests of the word (:data:`.wordtests.WORD_TESTS`) all hold /
  none holds;
- ``any``: a list of unit patterns, one of which the unit matches (besides the other keys);
- ``op``: how many units the pattern takes: none (exactly one), ``"!"`` (one unit that does *not*
  match, or the caption's edge), ``"?"`` (zero or one), ``"*"`` (zero or more), ``"+"`` (one or
  more); ``"*"`` and ``"+"`` take as many units as match, never fewer (``[{"kind": "adverb",
  "op": "*"}, X]``: the first unit after the adverbs is X);
- ``anchor``: ``true`` on the unit the rule fires at (a window of one unit is its own anchor).

``set`` is aligned with ``match``: ``{"kind": name}`` (and ``"tag"``) for a unit the rule changes,
``null`` for one it leaves alone. A rule may list several windows (``patterns``: the first that
matches acts); a rule whose condition reaches beyond a window adds a ``test`` and a rule whose
effect is more than setting kinds an ``effect``, both ``"module.function"`` of this package.

The rules of a pass (consecutive rules of the table) are tried at each unit in order, the first
that applies acting there, units scanned from the left or the right; a pass runs only on a caption
where some unit matches the anchor of one of its rules, and the engine looks at the caption again
after a rule fired. The anchor *is* the trigger: what starts a pass is the pattern itself, so no
trigger can disagree with the condition it stands for. Every unit pattern's answer is remembered,
as one bit, per distinct (text, tag, kind) of a corpus: a window is matched by bit tests.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import KINDS_BY_NAME
from .memo import Memo
from .ruleset import RULES, Pass, Rule, RuleSet
from .units import Units

__all__ = ["TABLES", "Engine", "Unit", "code", "table", "unit_test"]

#: Word sets the lexicon derives from its tables, by the name a pattern gives them.
TABLES: dict[str, frozenset[str]] = {
    "attributes": lx.ATTRIBUTES,
    "colours": lx.COLOURS,
    "non-attributes": lx.NON_ATTRIBUTES,
}
_CLASSES = {
    "noun": wc.NOUN,
    "verb": wc.VERB,
    "adjective": wc.ADJECTIVE,
    "adverb": wc.ADVERB,
    "unknown": 0,
}
_KEYS = frozenset(
    "kind kind_not tag tag_not word word_not in not_in class class_not classes suffix suffix_not "
    "ends_in ends_not_in phrase hyphen alpha punct test test_not any op anchor".split()
)
#: ``class``: a word the word-class table does not know.
_UNKNOWN = 1 << 8
_OPS = (None, "!", "?", "*", "+")
#: Distinct units remembered before the memory is emptied (a bound on memory in a long run).
_UNIT_LIMIT = 1 << 17


class Unit(NamedTuple):
    """One unit as a unit pattern sees it."""

    text: str
    key: str
    tag: str
    kind: str


#: A compiled unit pattern: whether one unit matches it.
UnitTest = Callable[[Unit], bool]


def table(ref: str) -> frozenset[str]:
    """The word set a pattern names: a derived set of :data:`TABLES`, a table or a table's use
    (``"prepositions:locative"``)."""
    if ref in TABLES:
        return TABLES[ref]
    name, _, use = ref.partition(":")
    return wl.words(name, use or None)


def code(path: str) -> Callable[..., Any]:
    """The function ``"module.function"`` of this package that a rule names."""
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)  # type: ignore[no-any-return]


def _many(value: Any) -> tuple[Any, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else (value,)


def _endings(ref: str) -> tuple[str, ...]:
    name, _, use = ref.partition(":")
    return wl.endings(name, use or None)


def _words(value: Any) -> frozenset[str]:
    return frozenset().union(*(table(ref) for ref in _many(value)))


def _class_bits(value: Any) -> int:
    bits = 0
    for name in _many(value):
        bits |= _CLASSES[name] or _UNKNOWN
    return bits


def _classes(key: str) -> int:
    """The word classes of ``key`` as bits, :data:`_UNKNOWN` for a word the table lacks."""
    return wc.classes(key) or _UNKNOWN


def unit_test(pattern: Mapping[str, Any], where: str = "a pattern") -> UnitTest:
    """The test of one unit a unit pattern states (see the module docstring)."""
    from .wordtests import WORD_TESTS

    unknown = set(pattern) - _KEYS
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)} in {dict(pattern)}")
    if pattern.get("op") not in _OPS:
        raise ValueError(f"{where}: op {pattern['op']!r} is none of {_OPS[1:]}")
    tests: list[UnitTest] = []
    for key, value in pattern.items():
        if key in ("kind", "kind_not"):
            kinds = frozenset(KINDS_BY_NAME[name] for name in _many(value))
            positive = key == "kind"
            tests.append(lambda u, kinds=kinds, p=positive: (u.kind in kinds) == p)
        elif key in ("tag", "tag_not"):
            found, positive = frozenset(_many(value)), key == "tag"
            tests.append(lambda u, f=found, p=positive: (u.tag in f) == p)
        elif key in ("word", "word_not"):
            found, positive = frozenset(_many(value)), key == "word"
            tests.append(lambda u, f=found, p=positive: (u.key in f) == p)
        elif key in ("in", "not_in"):
            found, positive = _words(value), key == "in"
            tests.append(lambda u, f=found, p=positive: (u.key in f) == p)
        elif key == "class":
            bits = _class_bits(value)
            tests.append(lambda u, b=bits: bool(_classes(u.key) & b))
        elif key == "class_not":
            bits = _class_bits(value)
            tests.append(lambda u, b=bits: not _classes(u.key) & b)
        elif key == "classes":
            bits = _class_bits(value) or _UNKNOWN
            tests.append(lambda u, b=bits: _classes(u.key) == b)
        elif key in ("suffix", "suffix_not", "ends_in", "ends_not_in"):
            endings = (
                _many(value)
                if key.startswith("suffix")
                else tuple(e for ref in _many(value) for e in _endings(ref))
            )
            positive = key in ("suffix", "ends_in")
            tests.append(lambda u, e=endings, p=positive: u.key.endswith(e) == p)
        elif key == "phrase":
            tests.append(lambda u, v=value: (" " in u.key) == v)
        elif key == "hyphen":
            tests.append(lambda u, v=value: ("-" in u.text) == v)
        elif key == "alpha":
            tests.append(lambda u, v=value: u.key.isalpha() == v)
        elif key == "punct":
            tests.append(lambda u, v=value: (not u.key[0].isalnum()) == v)
        elif key == "test":
            word_tests = tuple(WORD_TESTS[name] for name in _many(value))
            tests.append(lambda u, t=word_tests: all(test(u.key) for test in t))
        elif key == "test_not":
            word_tests = tuple(WORD_TESTS[name] for name in _many(value))
            tests.append(lambda u, t=word_tests: not any(test(u.key) for test in t))
        elif key == "any":
            options = tuple(unit_test(option, where) for option in value)
            tests.append(lambda u, o=options: any(option(u) for option in o))
    if len(tests) == 1:
        return tests[0]
    return lambda unit: all(test(unit) for test in tests)


@dataclass(frozen=True)
class _Window:
    """A compiled window: the anchor's bit, the bits and ops of the patterns before the anchor
    (nearest first) and after it, and what it sets at each offset of a fixed unit."""

    anchor: int
    before: tuple[tuple[int, str | None], ...]
    after: tuple[tuple[int, str | None], ...]
    sets: tuple[tuple[int, str | None, str | None], ...]  # (index in match, kind, tag)
    fixed: bool  # every pattern takes exactly one unit: positions are offsets


@dataclass(frozen=True)
class _Rule:
    name: str
    windows: tuple[_Window, ...]
    anchors: int
    test: Callable[[Units, int], bool] | None
    effect: Callable[[Units, int], int | None] | None


@dataclass(frozen=True)
class _Pass:
    name: str
    bit: int
    rules: tuple[_Rule, ...]
    anchors: int  # the anchor bits of its rules
    scan: str
    code: Callable[[Units], None] | None


def _side(
    patterns: Sequence[tuple[int, str | None]], bits: list[int], j: int, step: int, n: int
) -> list[int] | None:
    """Positions of the units ``patterns`` match from unit ``j`` on, going ``step`` (one per
    pattern: ``-1`` for none), or ``None``."""
    if not patterns:
        return []
    bit, op = patterns[0]
    rest = patterns[1:]
    inside = 0 <= j < n
    if op is None:
        if inside and bits[j] & bit:
            tail = _side(rest, bits, j + step, step, n)
            return None if tail is None else [j, *tail]
        return None
    if op == "!":
        if inside and bits[j] & bit:
            return None
        tail = _side(rest, bits, j + step, step, n)
        return None if tail is None else [j, *tail]
    if op == "?":
        if inside and bits[j] & bit:
            tail = _side(rest, bits, j + step, step, n)
            if tail is not None:
                return [j, *tail]
        tail = _side(rest, bits, j, step, n)
        return None if tail is None else [-1, *tail]
    # "*" and "+": as many as match, never fewer
    last = j
    while 0 <= last < n and bits[last] & bit:
        last += step
    if op == "+" and last == j:
        return None
    tail = _side(rest, bits, last, step, n)
    return None if tail is None else [last - step if last != j else -1, *tail]


class Engine:
    """The passes of one correction stage of a rule table, compiled, and their dispatch."""

    def __init__(
        self,
        stage: str,
        rules: RuleSet = RULES,
        triggers: Mapping[Callable[..., None], Any] | None = None,
    ) -> None:
        self._tests: list[UnitTest] = []  # the compiled unit patterns, by bit position
        self._index: dict[tuple[tuple[str, Any], ...], int] = {}
        passes: list[_Pass] = []
        #: Legacy passes' kinds patterns: (pass bit, regular expression).
        self._kind_patterns: list[tuple[int, re.Pattern[str]]] = []
        self._always = 0
        for position, each in enumerate(rules.passes(stage)):
            bit = 1 << position
            if each.code is not None:
                passes.append(self._legacy(each, bit, triggers or {}))
                continue
            compiled = tuple(self._rule(rules[name]) for name in each.rules)
            anchors = 0
            for rule in compiled:
                anchors |= rule.anchors
            passes.append(_Pass(each.name, bit, compiled, anchors, each.scan, None))
        self._passes = tuple(passes)
        self._by_bit = {each.bit: each for each in self._passes}
        self._bits: Memo[tuple[str, str, str], int] = Memo(self._unit_bits, _UNIT_LIMIT)
        self._pass_bits: Memo[int, int] = Memo(self._passes_of)

    # --- compiling ------------------------------------------------------------------------
    def _bit(self, pattern: Mapping[str, Any], where: str) -> int:
        """The bit of a unit pattern (``op`` and ``anchor`` aside), compiled once."""
        conditions = {k: v for k, v in pattern.items() if k not in ("op", "anchor")}
        key = tuple(sorted((k, repr(v)) for k, v in conditions.items()))
        if key not in self._index:
            self._index[key] = len(self._tests)
            self._tests.append(unit_test(conditions, where))
        return 1 << self._index[key]

    def _window(
        self, match: Sequence[Mapping[str, Any]], sets: Sequence[Any], where: str
    ) -> _Window:
        anchors = [i for i, pattern in enumerate(match) if pattern.get("anchor")]
        if len(match) > 1 and len(anchors) != 1:
            raise ValueError(f"{where}: a window of several units marks exactly one anchor")
        anchor = anchors[0] if anchors else 0
        if match[anchor].get("op") is not None:
            raise ValueError(f"{where}: the anchor takes exactly one unit")
        bits = [(self._bit(p, where), p.get("op")) for p in match]
        if sets and len(sets) != len(match):
            raise ValueError(f"{where}: set has {len(sets)} entries for {len(match)} units")
        changes = []
        for index, change in enumerate(sets):
            if change is None:
                continue
            if match[index].get("op") is not None:
                raise ValueError(f"{where}: set changes a unit of variable place")
            kind = change.get("kind")
            changes.append(
                (index, None if kind is None else KINDS_BY_NAME[kind], change.get("tag"))
            )
        return _Window(
            anchor=bits[anchor][0],
            before=tuple(reversed(bits[:anchor])),
            after=tuple(bits[anchor + 1 :]),
            sets=tuple(changes),
            fixed=all(op is None for _, op in bits),
        )

    def _rule(self, rule: Rule) -> _Rule:
        where = f"rule {rule.name!r}"
        if not rule.patterns:
            raise ValueError(f"{where}: a rule of a pattern pass needs a match")
        windows = tuple(self._window(p.match, p.set, where) for p in rule.patterns)
        anchors = 0
        for window in windows:
            anchors |= window.anchor
        return _Rule(
            rule.name,
            windows,
            anchors,
            code(rule.test) if rule.test else None,
            code(rule.effect) if rule.effect else None,
        )

    def _legacy(self, each: Pass, bit: int, triggers: Mapping[Callable[..., None], Any]) -> _Pass:
        function = code(each.code or "")
        found = triggers.get(function)
        anchors = 0
        if found is None:
            self._always |= bit
        else:
            if found.unit is not None:
                anchors = 1 << len(self._tests)
                self._tests.append(found.unit)
            if found.kinds is not None:
                self._kind_patterns.append((bit, re.compile(found.kinds)))
        return _Pass(each.name, bit, (), anchors, each.scan, function)

    # --- matching -------------------------------------------------------------------------
    def _unit_bits(self, unit: tuple[str, str, str]) -> int:
        text, tag, kind = unit
        seen = Unit(text, text.replace("-", " "), tag, kind)
        bits = 0
        for position, test in enumerate(self._tests):
            if test(seen):
                bits |= 1 << position
        return bits

    def _passes_of(self, bits: int) -> int:
        found = 0
        for each in self._passes:
            if bits & each.anchors:
                found |= each.bit
        return found

    def bits(self, units: Units) -> list[int]:
        """The unit patterns each unit matches, as bits."""
        return list(
            map(self._bits.__getitem__, zip(units.text, units.tag, units.kind, strict=True))
        )

    def triggered(self, units: Units) -> int:
        """The passes whose anchor some unit matches, with those that always run, as bits."""
        mask = self._always
        for bits in set(self.bits(units)):
            mask |= self._pass_bits[bits]
        if self._kind_patterns:
            kinds = units.kinds()
            for bit, pattern in self._kind_patterns:
                if pattern.search(kinds):
                    mask |= bit
        return mask

    def passes(self, units: Units) -> list[str]:
        """The names of the passes whose trigger holds on ``units`` as they are, in order."""
        mask = self.triggered(units)
        return [each.name for each in self._passes if mask & each.bit]

    def run(self, units: Units) -> None:
        """Run every pass whose trigger holds on ``units`` as they are when its turn comes, in
        the table's order; look again after a pass during which a rule fired."""
        if not self._passes:
            return
        trace = units.trace
        firings = trace.firings
        pending = self.triggered(units)
        while pending:
            bit = pending & -pending  # the first triggered pass not run yet
            each = self._by_bit[bit]
            if each.code is not None:
                each.code(units)
            else:
                self._apply(each, units)
            if trace.firings != firings:  # a rule fired: the caption may have changed
                firings = trace.firings
                pending = self.triggered(units)
            pending &= -(bit << 1)  # the passes after it

    def _apply(self, each: _Pass, units: Units) -> None:
        """The rules of a pattern pass at each unit, in scan order."""
        fire = units.trace.fire
        bits = self.bits(units)
        i = units.n - 1 if each.scan == "right" else 0
        step = -1 if each.scan == "right" else 1
        while 0 <= i < units.n:
            following = i + step
            if bits[i] & each.anchors:
                for rule in each.rules:
                    positions = self._match(rule, bits, i, units.n)
                    if positions is None:
                        continue
                    window, places = positions
                    if rule.test is not None and not rule.test(units, i):
                        continue
                    if not fire(rule.name, i):
                        continue
                    for index, kind, tag in window.sets:
                        if kind is not None:
                            units.kind[places[index]] = kind
                        if tag is not None:
                            units.tag[places[index]] = tag
                    if rule.effect is not None:
                        moved = rule.effect(units, i)
                        if moved is not None:
                            following = moved
                    bits = self.bits(units)
                    break
            i = following

    @staticmethod
    def _match(rule: _Rule, bits: list[int], i: int, n: int) -> tuple[_Window, list[int]] | None:
        """The first window of ``rule`` that matches with its anchor at ``i``, with the
        position of each of its units (``-1`` for a pattern that took none)."""
        here = bits[i]
        for window in rule.windows:
            if not here & window.anchor:
                continue
            before = _side(window.before, bits, i - 1, -1, n)
            if before is None:
                continue
            after = _side(window.after, bits, i + 1, 1, n)
            if after is None:
                continue
            return window, [*reversed(before), i, *after]
        return None

    def anchors(self, name: str) -> UnitTest:
        """The trigger of pass ``name``: whether a unit matches the anchor of one of its rules
        (derived from the patterns, for tests and explanations)."""
        mask = next(each.anchors for each in self._passes if each.name == name)
        return lambda unit: bool(self._unit_bits((unit.text, unit.tag, unit.kind)) & mask)
