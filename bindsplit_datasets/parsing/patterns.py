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

import functools
import importlib
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import KINDS_BY_NAME
from .memo import Memo
from .ruleset import RULES, Rule, RuleSet
from .units import Units

__all__ = ["TABLES", "Engine", "Unit", "code", "table", "unit_test"]

#: Word sets the lexicon derives from its tables, by the name a pattern gives them.
TABLES: dict[str, frozenset[str]] = {
    "lexicon:attributes": lx.ATTRIBUTES,
    "lexicon:colours": lx.COLOURS,
    "lexicon:non-attributes": lx.NON_ATTRIBUTES,
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
    return getattr(importlib.import_module(f"{__package__}.{module}"), name)


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


class _Compiler:
    """Unit patterns as Python expressions over ``text``, ``key``, ``tag``, ``kind`` and ``cls``
    (the key's word classes, :data:`_UNKNOWN` for a word the table lacks); the sets, endings and
    word tests they name are constants of the namespace the expressions are evaluated in."""

    def __init__(self) -> None:
        self.namespace: dict[str, Any] = {}
        self._names: dict[tuple[str, Any], str] = {}

    def constant(self, kind: str, value: Any) -> str:
        """The name of a constant of the namespace holding ``value``."""
        found = self._names.get((kind, value))
        if found is None:
            found = self._names[kind, value] = f"{kind}{len(self._names)}"
            self.namespace[found] = value
        return found

    def expression(
        self, pattern: Mapping[str, Any], where: str, *, kind_known: bool = False
    ) -> str:
        """The condition ``pattern`` states, as an expression (see the module docstring). With
        ``kind_known`` its own ``kind`` / ``kind_not`` are left out: the caller evaluates it
        only on units of a kind they admit (:func:`kinds_of`)."""
        from .wordtests import WORD_TESTS

        unknown = set(pattern) - _KEYS
        if unknown:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)} in {dict(pattern)}")
        if pattern.get("op") not in _OPS:
            raise ValueError(f"{where}: op {pattern['op']!r} is none of {_OPS[1:]}")
        for name in _many(pattern.get("kind", ())) + _many(pattern.get("kind_not", ())):
            if name not in KINDS_BY_NAME:
                raise ValueError(f"{where}: no unit kind is named {name!r}")
        for name in _many(pattern.get("test", ())) + _many(pattern.get("test_not", ())):
            if name not in WORD_TESTS:
                raise ValueError(f"{where}: no word test is named {name!r}")
        parts: list[str] = []
        for key, value in sorted(pattern.items(), key=lambda item: _COST.get(item[0], 0)):
            negated = key.endswith("_not") or key == "not_in" or key == "ends_not_in"
            if key in ("kind", "kind_not"):
                if kind_known:
                    continue
                found = frozenset(KINDS_BY_NAME[name] for name in _many(value))
                parts.append(f"kind {'not in' if negated else 'in'} {self.constant('K', found)}")
            elif key in ("tag", "tag_not"):
                found = frozenset(_many(value))
                parts.append(f"tag {'not in' if negated else 'in'} {self.constant('T', found)}")
            elif key in ("word", "word_not", "in", "not_in"):
                found = frozenset(_many(value)) if key.startswith("word") else _words(value)
                parts.append(f"key {'not in' if negated else 'in'} {self.constant('S', found)}")
            elif key in ("class", "class_not"):
                parts.append(f"{'not ' if negated else ''}cls & {_class_bits(value)}")
            elif key == "classes":
                parts.append(f"cls == {_class_bits(value) or _UNKNOWN}")
            elif key in ("suffix", "suffix_not", "ends_in", "ends_not_in"):
                endings = (
                    tuple(_many(value))
                    if key.startswith("suffix")
                    else tuple(e for ref in _many(value) for e in _endings(ref))
                )
                test = f"key.endswith({self.constant('E', endings)})"
                parts.append(f"not {test}" if negated else test)
            elif key == "phrase":
                parts.append(f"{'' if value else 'not '}' ' in key")
            elif key == "hyphen":
                parts.append(f"{'' if value else 'not '}'-' in text")
            elif key == "alpha":
                parts.append(f"{'' if value else 'not '}key.isalpha()")
            elif key == "punct":
                parts.append(f"{'not ' if value else ''}key[0].isalnum()")
            elif key in ("test", "test_not"):
                for name in _many(value):
                    call = f"{self.constant('F', WORD_TESTS[name])}(key)"
                    parts.append(f"not {call}" if negated else call)
            elif key == "any":
                options = [self.expression(option, where) for option in value]
                parts.append("(" + " or ".join(f"({option})" for option in options) + ")")
        return " and ".join(f"({part})" for part in parts) or "True"

    def function(self, source: str) -> Callable[..., Any]:
        """The function ``source`` defines (named ``f``), in the namespace."""
        scope = dict(self.namespace, _classes=_classes)
        exec(compile(source, "<unit patterns>", "exec"), scope)  # noqa: S102 (our own patterns)
        return scope["f"]


def unit_test(pattern: Mapping[str, Any], where: str = "a pattern") -> UnitTest:
    """The test of one unit a unit pattern states (see the module docstring)."""
    compiler = _Compiler()
    expression = compiler.expression(pattern, where)
    test = compiler.function(
        "def f(unit):\n"
        "    text, key, tag, kind = unit\n"
        "    cls = _classes(key)\n"
        f"    return bool({expression})\n"
    )
    return test


#: The order a unit pattern's conditions are checked in: the cheapest first.
_COST = {"class": 1, "class_not": 1, "classes": 1, "test": 2, "test_not": 2, "any": 3}
_ALL_KINDS = frozenset(KINDS_BY_NAME.values())


def kinds_of(pattern: Mapping[str, Any]) -> frozenset[str]:
    """The kinds a unit may have to match ``pattern`` (a unit of another kind cannot)."""
    kinds = _ALL_KINDS
    if "kind" in pattern:
        kinds &= frozenset(KINDS_BY_NAME[name] for name in _many(pattern["kind"]))
    if "kind_not" in pattern:
        kinds -= frozenset(KINDS_BY_NAME[name] for name in _many(pattern["kind_not"]))
    if "any" in pattern:
        kinds &= frozenset().union(*(kinds_of(option) for option in pattern["any"]))
    return kinds


@dataclass(frozen=True)
class _Window:
    """A compiled window: the anchor's bit, the bits and ops of the patterns before the anchor
    (nearest first) and after it, what it sets on the units of each pattern, and the bits of the
    patterns a caption must hold for the window to match anywhere (each takes a unit)."""

    anchor: int
    before: tuple[tuple[int, str | None], ...]
    after: tuple[tuple[int, str | None], ...]
    sets: tuple[tuple[int, str | None, str | None], ...]  # (index in match, kind, tag)
    required: tuple[int, ...]
    #: Where every pattern takes one place (no op but "!"): (offset from the anchor, bit,
    #: negated) of each pattern but the anchor.
    offsets: tuple[tuple[int, int, bool], ...] | None
    anchor_index: int

    def spans(self, i: int) -> list[tuple[int, int]]:
        """The span of each pattern's unit with the anchor at ``i`` (a window of offsets)."""
        return [
            (i + offset, i + offset + 1)
            for offset in range(
                -self.anchor_index, len(self.before) + len(self.after) + 1 - self.anchor_index
            )
        ]


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


Span = tuple[int, int]


#: Passes per group of :meth:`Engine._passes_of`.
_GROUP = 4


def _triggered(required: Sequence[tuple[int, tuple[int, ...]]], held: int) -> int:
    """The bits of the passes of ``required`` (each pass's bit, and the patterns each of its
    windows needs, as bits) one of whose windows has all it needs in ``held``."""
    found = 0
    for bit, masks in required:
        for mask in masks:
            if held & mask == mask:
                found |= bit
                break
    return found


def _side(
    patterns: Sequence[tuple[int, str | None]], bits: list[int], j: int, step: int, n: int
) -> list[Span] | None:
    """The span of units each of ``patterns`` matches from unit ``j`` on, going ``step``
    (``(start, end)``, end exclusive, in caption order), or ``None`` when they do not match."""
    spans: list[Span] = []
    for index, (bit, op) in enumerate(patterns):
        inside = 0 <= j < n
        if op is None:
            if not (inside and bits[j] & bit):
                return None
            spans.append((j, j + 1))
            j += step
        elif op == "!":
            if inside and bits[j] & bit:
                return None
            spans.append((j, j))
            j += step
        elif op == "?":
            if inside and bits[j] & bit:
                rest = _side(patterns[index + 1 :], bits, j + step, step, n)
                if rest is not None:
                    return [*spans, (j, j + 1), *rest]
            spans.append((j, j))
        else:  # "*" and "+": as many as match, never fewer
            last = j
            while 0 <= last < n and bits[last] & bit:
                last += step
            if op == "+" and last == j:
                return None
            spans.append((j, last) if step > 0 else (last + 1, j + 1))
            j = last
    return spans


class Engine:
    """The passes of one correction stage of a rule table, compiled, and their dispatch."""

    def __init__(self, stage: str, rules: RuleSet = RULES) -> None:
        self._compiler = _Compiler()
        #: The unit patterns' expressions, by bit position (their own kind conditions left out:
        #: each is evaluated only on units of the kinds it admits).
        self._expressions: list[str] = []
        self._index: dict[tuple[tuple[str, str], ...], int] = {}
        #: (bit, expression) of the unit patterns a unit of each kind may match.
        self._by_kind: dict[str, list[tuple[int, str]]] = {}
        #: For each kind, the function that gives a unit of that kind its bits.
        self._kind_bits: dict[str, Callable[[str, str, str, str], int]] = {}
        passes: list[_Pass] = []
        for position, each in enumerate(rules.passes(stage)):
            compiled = tuple(self._rule(rules[name]) for name in each.rules)
            anchors = 0
            for rule in compiled:
                anchors |= rule.anchors
            passes.append(_Pass(each.name, 1 << position, compiled, anchors, each.scan))
        self._passes = tuple(passes)
        self._by_bit = {each.bit: each for each in self._passes}
        #: Each pass's bit and the patterns each of its windows needs in a caption (as bits).
        required = [
            (
                each.bit,
                tuple(
                    dict.fromkeys(
                        functools.reduce(operator.or_, window.required, 0)
                        for rule in each.rules
                        for window in rule.windows
                    )
                ),
            )
            for each in self._passes
        ]
        #: The passes in groups of :data:`_GROUP`, each with the patterns its windows need
        #: (bits) and the memory of its triggered passes by the caption's patterns among those:
        #: few patterns, so the captions of a corpus share them far more often than all their
        #: patterns (see :meth:`_passes_of`).
        self._groups = tuple(
            (
                functools.reduce(operator.or_, (m for _, masks in part for m in masks), 0),
                Memo(functools.partial(_triggered, tuple(part)), _UNIT_LIMIT),
            )
            for part in (
                required[start : start + _GROUP] for start in range(0, len(required), _GROUP)
            )
        )
        self._bits: Memo[tuple[str, str, str], int] = Memo(self._unit_bits, _UNIT_LIMIT)
        self._pass_bits: Memo[int, int] = Memo(self._passes_of, _UNIT_LIMIT)

    # --- compiling ------------------------------------------------------------------------
    def _bit(self, pattern: Mapping[str, Any], where: str) -> int:
        """The bit of a unit pattern (``op`` and ``anchor`` aside), compiled once."""
        conditions = {k: v for k, v in pattern.items() if k not in ("op", "anchor")}
        key = tuple(sorted((k, repr(v)) for k, v in conditions.items()))
        if key not in self._index:
            self._index[key] = len(self._expressions)
            self._expressions.append(
                self._compiler.expression(conditions, where, kind_known=True)
            )  # evaluated per kind, only on the kinds the pattern admits
            bit = 1 << self._index[key]
            for kind in kinds_of(conditions):
                self._by_kind.setdefault(kind, []).append((bit, self._expressions[-1]))
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
            if match[index].get("op") in ("!", "?"):
                raise ValueError(f"{where}: set changes a unit that may be absent")
            kind = change.get("kind")
            changes.append(
                (index, None if kind is None else KINDS_BY_NAME[kind], change.get("tag"))
            )
        fixed = all(op in (None, "!") for _, op in bits)
        return _Window(
            anchor=bits[anchor][0],
            before=tuple(reversed(bits[:anchor])),
            after=tuple(bits[anchor + 1 :]),
            sets=tuple(changes),
            required=tuple(bit for bit, op in bits if op in (None, "+")),
            offsets=tuple(
                (index - anchor, bit, op == "!")
                for index, (bit, op) in enumerate(bits)
                if index != anchor
            )
            if fixed
            else None,
            anchor_index=anchor,
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

    # --- matching -------------------------------------------------------------------------
    def _unit_bits(self, unit: tuple[str, str, str]) -> int:
        text, tag, kind = unit
        function = self._kind_bits.get(kind)
        if function is None:
            lines = ["def f(text, key, tag, kind):", "    cls = _classes(key)", "    bits = 0"]
            for bit, expression in self._by_kind.get(kind, ()):
                lines += [f"    if {expression}:", f"        bits |= {bit}"]
            function = self._kind_bits[kind] = self._compiler.function(
                "\n".join(lines) + "\n    return bits\n"
            )
        return function(text, text.replace("-", " "), tag, kind)

    def _passes_of(self, held: int) -> int:
        """The passes one of whose windows can match a caption whose units hold the patterns
        ``held`` (bits): every pattern of the window that takes a unit is among them. Asked
        of each group of passes with the patterns among ``held`` that its windows need."""
        found = 0
        for needed, memo in self._groups:
            found |= memo[held & needed]
        return found

    def bits(self, units: Units) -> list[int]:
        """The unit patterns each unit matches, as bits."""
        keys = zip(units.text, units.tag, units.kind, strict=True)
        return list(map(self._bits.__getitem__, keys))

    def triggered(self, units: Units) -> int:
        """The passes one of whose windows can match ``units`` as they are, as bits."""
        held = 0
        for bits in self.bits(units):
            held |= bits
        return self._pass_bits[held]

    def passes(self, units: Units) -> list[str]:
        """The names of the passes whose trigger holds on ``units`` as they are, in order."""
        mask = self.triggered(units)
        return [each.name for each in self._passes if mask & each.bit]

    def run(self, units: Units) -> None:
        """Run every pass whose trigger holds on ``units`` as they are when its turn comes, in
        the table's order; look again after a pass during which a rule fired."""
        if not self._passes:
            return
        bits = self.bits(units)
        held = 0
        for unit in bits:
            held |= unit
        pending = self._pass_bits[held]
        while pending:
            bit = pending & -pending  # the first triggered pass not run yet
            after = self._apply(self._by_bit[bit], units, bits)
            if after is not None:  # a rule fired: look again
                bits = after
                held = 0
                for unit in bits:
                    held |= unit
                pending = self._pass_bits[held]
            pending &= -(bit << 1)  # the passes after it

    def _apply(self, each: _Pass, units: Units, bits: list[int]) -> list[int] | None:
        """The rules of a pattern pass at each unit, in scan order: at each unit the first rule
        that applies acts (its window matches, its test holds and it may fire). The units' bits
        after the pass where a rule fired (``bits`` are then out of date), else None."""
        fire = units.trace.fire
        anchors = each.anchors
        fired = False
        step = -1 if each.scan == "right" else 1
        i = units.n - 1 if step < 0 else 0
        while 0 <= i < units.n:
            following = i + step
            here = bits[i]
            if here & anchors:
                for rule in each.rules:
                    if not here & rule.anchors:
                        continue
                    found = self._match(rule, bits, i, units.n)
                    if found is None:
                        continue
                    if rule.test is not None and not rule.test(units, i):
                        continue
                    if not fire(rule.name, i):
                        continue
                    window, spans = found
                    for index, kind, tag in window.sets:
                        for j in range(*spans[index]):
                            if kind is not None:
                                units.kind[j] = kind
                            if tag is not None:
                                units.tag[j] = tag
                    if rule.effect is not None:
                        moved = rule.effect(units, i)
                        if moved is not None:
                            following = moved
                    bits = self.bits(units)
                    fired = True
                    break
            i = following
        return bits if fired else None

    @staticmethod
    def _match(rule: _Rule, bits: list[int], i: int, n: int) -> tuple[_Window, list[Span]] | None:
        """The first window of ``rule`` that matches with its anchor at ``i``, with the span of
        the units each of its patterns took."""
        here = bits[i]
        for window in rule.windows:
            if not here & window.anchor:
                continue
            if window.offsets is not None:  # every pattern takes one place: a quick look
                for offset, bit, negated in window.offsets:
                    j = i + offset
                    if bool(0 <= j < n and bits[j] & bit) == negated:
                        break
                else:
                    return window, window.spans(i)
                continue
            before = _side(window.before, bits, i - 1, -1, n)
            if before is None:
                continue
            after = _side(window.after, bits, i + 1, 1, n)
            if after is None:
                continue
            return window, [*reversed(before), (i, i + 1), *after]
        return None
