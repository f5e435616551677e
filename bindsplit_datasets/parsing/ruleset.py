"""The parser's named rules: one ordered table, what fired on a caption, and switching rules off.

Every tag correction (:mod:`.corrections`, :mod:`.verb_slips`) and every binding rule
(:mod:`.rules`) that the parser applies has a name. The table of names, in the order the parser
applies them, with what each is for and the example captions that parse differently without it,
is the data file ``data/rules.json``; :data:`RULES` holds it as :class:`Rule` records.

The code of a rule asks :meth:`Trace.fire` before it acts::

    elif kind[i] == NOUN and ... and fire(ADJECTIVE_ENDING, i):
        kind[i] = ATTR

:meth:`~Trace.fire` answers ``False`` when the rule is switched off (the rule then does nothing,
and the code goes on as if its condition had failed) and, when a caption is explained, records
that the rule fired at unit ``i``. The normal path uses :data:`NO_TRACE`, which records nothing
and switches nothing off: one set lookup per firing.

Another module adds its own rules with :meth:`RuleSet.register` (at import time, before any
caption is parsed) and declares the names its code fires with :func:`rule_name`; examples may be
given in the :class:`Rule` or in ``data/rules.json``. A correction pass of its own joins the
ordered passes with :func:`.corrections.add_pass`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import BindsplitValueError, PackageDataError

__all__ = [
    "NO_TRACE",
    "RULES",
    "RULES_FILE",
    "STAGES",
    "Example",
    "Rule",
    "RuleSet",
    "Trace",
    "rule_name",
]

#: The ordered rule table with the examples of every rule.
RULES_FILE = Path(__file__).parent / "data" / "rules.json"
#: What a rule acts on: unit kinds (the tagger's slips), bindings, or relation triples.
STAGES = ("correction", "binding", "relation")


@dataclass(frozen=True)
class Example:
    """A caption and the bindings the parser gives it with every rule on."""

    caption: str
    bindings: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Rule:
    """One named rule of the parser.

    Attributes:
        name: the rule's name, unique, in kebab case ("noun-with-adjective-ending").
        stage: one of :data:`STAGES`.
        description: what the rule does and why, with a caption it is for.
        examples: captions that parse differently with the rule switched off.
    """

    name: str
    stage: str
    description: str
    examples: tuple[Example, ...] = ()

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise BindsplitValueError(
                f"rule {self.name!r}: stage {self.stage!r} is none of {', '.join(STAGES)}"
            )


class RuleSet:
    """The ordered table of rules, by name."""

    def __init__(self, rules: tuple[Rule, ...] = ()) -> None:
        self._rules: dict[str, Rule] = {}
        for rule in rules:
            self.register(rule)

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

    def __getitem__(self, name: str) -> Rule:
        return self._rules[self.check(name)]

    def __contains__(self, name: object) -> bool:
        return name in self._rules

    def __iter__(self) -> Iterator[Rule]:
        return iter(list(self._rules.values()))

    def __len__(self) -> int:
        return len(self._rules)


def _load(path: Path) -> RuleSet:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PackageDataError(
            f"the parser's rule table {path} is missing from the installed package; "
            "reinstall bindsplit-datasets"
        ) from None
    return RuleSet(
        tuple(
            Rule(
                name=entry["name"],
                stage=entry["stage"],
                description=entry["description"],
                examples=tuple(
                    Example(e["caption"], tuple((a, o) for a, o in e["bindings"]))
                    for e in entry.get("examples", ())
                ),
            )
            for entry in data["rules"]
        )
    )


#: Every rule of the parser, in the order it applies them.
RULES = _load(RULES_FILE)


def rule_name(name: str) -> str:
    """``name``, checked against :data:`RULES` (for the module constants that code fires)."""
    return RULES.check(name)


class Trace:
    """Which rules are off for one parse, and (when recording) which fired where.

    Attributes:
        disabled: names of the rules switched off.
        fired: ``(rule name, unit index)`` of every firing in order, or ``None`` when not
            recording.
        firings: how many times a rule fired: a caption changes only when one does, so the
            correction passes' dispatch (:mod:`.passes`) knows when to look at it again.
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
