"""The parser's named rules: one ordered table, what fired on a caption, and switching rules off.

Every rule the parser applies has a name: the tag corrections, the binding rules, the corrections
only the relation reader sees and the relation rules. The table of rules is the data file
``data/rules.json``, stage by stage in the order the parser runs them (:data:`STAGES`); the
correction stages are ordered *passes* of rules, which the pipeline (:mod:`.pipeline`) runs in the
table's order: the order is written there and nowhere else. Each rule says what it is for, gives
example captions that parse differently without it, and is either a pattern over a window of units
(``match`` and what it ``set`` s, applied by :mod:`.patterns`), or names the code that reads it
(``test``, ``effect``, or a whole pass's ``code``; a relation rule's ``code`` reads one chunk).
:data:`RULES` holds the table as :class:`Rule` and :class:`Pass` records.

Code asks :meth:`Trace.fire` before a rule acts::

    elif kind[i] == NOUN and ... and fire(ADJECTIVE_ENDING, i):
        kind[i] = ATTR

:meth:`~Trace.fire` answers ``False`` when the rule is switched off (the rule then does nothing,
and the code goes on as if its condition had failed) and, when a caption is explained, records
that the rule fired at unit ``i``. The normal path uses :data:`NO_TRACE`, which records nothing
and switches nothing off: one set lookup per firing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BindsplitValueError, PackageDataError

__all__ = [
    "NO_TRACE",
    "RULES",
    "RULES_FILE",
    "STAGES",
    "Example",
    "Pass",
    "Pattern",
    "Rule",
    "RuleSet",
    "Trace",
    "rule_name",
]

#: The ordered rule table with the examples of every rule.
RULES_FILE = Path(__file__).parent / "data" / "rules.json"
#: What a rule acts on, in the order the parser runs the stages: unit kinds (the tagger's slips),
#: bindings, the unit kinds the relation reader sees, relation triples.
STAGES = ("correction", "binding", "relation-correction", "relation")
#: The stages whose rules are ordered in passes.
PASS_STAGES = ("correction", "relation-correction")


@dataclass(frozen=True)
class Example:
    """A caption and what the parser gives it with every rule on: its bindings and, where the
    example gives them, its relation triples (``None``: not stated)."""

    caption: str
    bindings: tuple[tuple[str, str], ...] | None = ()
    triples: tuple[tuple[str, str, str], ...] | None = None


@dataclass(frozen=True)
class Pattern:
    """A window of unit patterns (``match``, one of them the anchor: the unit the rule fires
    at) and what the rule sets on the matched units (``set``, aligned with ``match``; ``None``
    for a unit it leaves alone). See :mod:`.patterns` for the keys of a unit pattern."""

    match: tuple[Mapping[str, Any], ...]
    set: tuple[Mapping[str, str] | None, ...] = ()


@dataclass(frozen=True)
class Rule:
    """One named rule of the parser.

    Attributes:
        name: the rule's name, unique, in kebab case ("noun-with-adjective-ending").
        stage: one of :data:`STAGES`.
        description: what the rule does and why, with a caption it is for.
        examples: captions that parse differently with the rule switched off.
        patterns: a correction rule's windows (tried in order; the first that matches acts).
        test: ``"module.function"`` of the rest of a correction rule's condition, beyond its
            window: ``function(units, i) -> bool`` at the anchor ``i``.
        effect: ``"module.function"`` of what a correction rule does beyond setting kinds:
            ``function(units, i) -> int | None`` (the position to look at next, or ``None``).
        chunk: a relation rule's chunk kind (NP, PREP, VERB, CONJ, REL, BREAK).
        code: a relation rule's ``"module.function"`` (``function(state, i) -> bool``), or the
            whole correction pass that fires the rule (``function(units) -> None``).
        pass_name: the correction pass the rule belongs to.
    """

    name: str
    stage: str
    description: str
    examples: tuple[Example, ...] = ()
    patterns: tuple[Pattern, ...] = ()
    test: str | None = None
    effect: str | None = None
    chunk: str | None = None
    code: str | None = None
    pass_name: str | None = None

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise BindsplitValueError(
                f"rule {self.name!r}: stage {self.stage!r} is none of {', '.join(STAGES)}"
            )


@dataclass(frozen=True)
class Pass:
    """One pass of a correction stage: its rules, tried in order at each unit (the first that
    applies acts), units scanned from the left (``scan="left"``) or from the right; or, with
    ``code``, the function that reads the whole caption and fires the pass's rules itself."""

    name: str
    stage: str
    rules: tuple[str, ...]
    scan: str = "left"
    code: str | None = None


class RuleSet:
    """The ordered table of rules, by name, and the passes of the correction stages."""

    def __init__(self, rules: tuple[Rule, ...] = (), passes: tuple[Pass, ...] = ()) -> None:
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            self.register(rule)
        self._passes = passes
        for each in passes:
            for name in each.rules:
                self.check(name)

    def register(self, rule: Rule, *, after: str | None = None) -> Rule:
        """Add ``rule`` at the end of the table, or right after rule ``after``."""
        if rule.name in self._rules:
            raise BindsplitValueError(f"a parser rule named {rule.name!r} is already registered")
        if after is None:
            self._rules[rule.name] = rule
            return rule
        self.check(after)
        items = list(self._rules.items())
        position = [name for name, _ in items].index(after) + 1
        items.insert(position, (rule.name, rule))
        self._rules = dict(items)
        return rule

    def check(self, name: str) -> str:
        """``name`` if a rule has it; a clear error naming the known rules otherwise."""
        if name not in self._rules:
            raise BindsplitValueError(
                f"no parser rule is named {name!r}; the rules are: {', '.join(self._rules)}"
            )
        return name

    def names(self, stage: str | None = None) -> list[str]:
        """The rule names in table order, of one stage or all."""
        return [r.name for r in self._rules.values() if stage is None or r.stage == stage]

    def passes(self, stage: str) -> tuple[Pass, ...]:
        """The passes of a correction stage, in the order they run."""
        return tuple(each for each in self._passes if each.stage == stage)

    def __getitem__(self, name: str) -> Rule:
        return self._rules[self.check(name)]

    def __contains__(self, name: object) -> bool:
        return name in self._rules

    def __iter__(self) -> Iterator[Rule]:
        return iter(list(self._rules.values()))

    def __len__(self) -> int:
        return len(self._rules)


def _example(entry: Mapping[str, Any]) -> Example:
    bindings = entry.get("bindings")
    triples = entry.get("triples")
    return Example(
        entry["caption"],
        None if bindings is None else tuple((a, o) for a, o in bindings),
        None if triples is None else tuple((s, r, o) for s, r, o in triples),
    )


def _patterns(entry: Mapping[str, Any]) -> tuple[Pattern, ...]:
    found = entry.get("patterns") or ([entry] if "match" in entry else [])
    return tuple(Pattern(tuple(each["match"]), tuple(each.get("set", ()))) for each in found)


def _rule(entry: Mapping[str, Any], stage: str, pass_name: str | None, code: str | None) -> Rule:
    return Rule(
        name=entry["name"],
        stage=stage,
        description=entry["description"],
        examples=tuple(_example(e) for e in entry.get("examples", ())),
        patterns=_patterns(entry),
        test=entry.get("test"),
        effect=entry.get("effect"),
        chunk=entry.get("chunk"),
        code=entry.get("code", code),
        pass_name=pass_name,
    )


def load(path: Path = RULES_FILE) -> RuleSet:
    """The rule table of ``path`` (see the module docstring)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PackageDataError(
            f"the parser's rule table {path} is missing from the installed package; "
            "reinstall bindsplit-datasets"
        ) from None
    rules: list[Rule] = []
    passes: list[Pass] = []
    stages = [entry["stage"] for entry in data["stages"]]
    if stages != list(STAGES):
        raise PackageDataError(f"{path}: the stages are {stages}, not {list(STAGES)}")
    for stage in data["stages"]:
        name = stage["stage"]
        if name not in PASS_STAGES:
            rules.extend(_rule(entry, name, None, None) for entry in stage["rules"])
            continue
        for each in stage["passes"]:
            code = each.get("code")
            members = [_rule(entry, name, each["pass"], code) for entry in each["rules"]]
            rules.extend(members)
            passes.append(
                Pass(
                    each["pass"],
                    name,
                    tuple(r.name for r in members),
                    each.get("scan", "left"),
                    code,
                )  # fmt: skip
            )
    return RuleSet(tuple(rules), tuple(passes))


#: Every rule of the parser, in the order it applies them.
RULES = load()


def rule_name(name: str) -> str:
    """``name``, checked against :data:`RULES` (for the module constants that code fires)."""
    return RULES.check(name)


class Trace:
    """Which rules are off for one parse, and (when recording) which fired where.

    Attributes:
        disabled: names of the rules switched off.
        fired: ``(rule name, position)`` of every firing in order (a unit's index; a relation
            rule's chunk index), or ``None`` when not recording.
        firings: how many times a rule fired: a caption changes only when one does, so the
            correction passes' dispatch (:mod:`.patterns`) knows when to look at it again.
    """

    __slots__ = ("disabled", "fired", "firings")

    def __init__(self, disabled: frozenset[str] = frozenset(), *, record: bool = False) -> None:
        for name in disabled:
            RULES.check(name)
        self.disabled = disabled
        self.fired: list[tuple[str, int]] | None = [] if record else None
        self.firings = 0

    def fire(self, name: str, position: int) -> bool:
        """Whether rule ``name`` may act at unit ``position``; recorded when it may."""
        if name in self.disabled:
            return False
        self.firings += 1
        if self.fired is not None:
            self.fired.append((name, position))
        return True


#: The trace of a normal parse: nothing off, nothing recorded.
NO_TRACE = Trace()
