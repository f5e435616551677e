"""When a correction pass runs: each pass declares its trigger, what a caption must hold for the
pass to have anything to do, and :class:`Dispatch` calls it only then.

Most of the tagger's slips are rare ("wide open", a list of colours, a noun in -ing read as a
gerund), and asking every pass in turn whether its slip occurs cost more than mending the slips
themselves. A pass now states its trigger once, beside its code, with :func:`trigger`:

- ``unit``: a test of one unit (its written text, key, tag and kind), true for a unit that the
  pass may act on; :func:`words` and :func:`tags` build the common ones;
- ``kinds``: a regular expression over :meth:`.units.Units.kinds`, a sequence of kinds that the
  pass acts on.

The pass runs when some unit passes the unit test or the pattern occurs; a pass without a trigger
always runs. A trigger is a necessary condition only: the pass still checks everything it acts on,
so calling a pass directly gives the same result. The unit tests of all passes are answered
together, once per distinct (text, key, tag, kind) of a corpus, and remembered as one bit per
pass: a caption's triggered passes are the union of its units' bits.

A caption changes only when a rule fires (a rule acts after :meth:`.ruleset.Trace.fire` allows
it: the contract of :mod:`.ruleset`), so the dispatcher looks at the caption again after a pass
during which a rule fired, and the next passes see the caption as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .memo import Memo
from .units import Units

__all__ = ["Dispatch", "Trigger", "Unit", "tags", "trigger", "words"]


class Unit(NamedTuple):
    """One unit as a trigger's unit test sees it."""

    text: str
    key: str
    tag: str
    kind: str


#: A unit test: whether a pass may act on (or needs) a unit.
UnitTest = Callable[[Unit], bool]
#: A correction pass: it mends one caption's units in place.
Correction = Callable[[Units], None]
_Pass = TypeVar("_Pass", bound=Correction)

#: Distinct units remembered before the memory is emptied (a bound on memory in a long run).
_UNIT_LIMIT = 1 << 17


@dataclass(frozen=True)
class Trigger:
    """What a caption must hold for a correction pass to have anything to do: a unit that passes
    ``unit``, or the regular expression ``kinds`` found in the caption's kinds (either
    suffices)."""

    unit: UnitTest | None = None
    kinds: str | None = None


#: The trigger of each correction pass that declared one.
TRIGGERS: dict[Callable[..., None], Trigger] = {}


def trigger(*, unit: UnitTest | None = None, kinds: str | None = None) -> Callable[[_Pass], _Pass]:
    """Declare the trigger of the correction pass it decorates (see the module's docstring)."""
    if unit is None and kinds is None:
        raise ValueError("a trigger needs a unit test, a kinds pattern or both")
    if kinds is not None:
        re.compile(kinds)  # a wrong pattern fails here, where it is written

    def register(correction: _Pass) -> _Pass:
        if correction in TRIGGERS:
            raise ValueError(f"{correction.__name__} already has a trigger")
        TRIGGERS[correction] = Trigger(unit, kinds)
        return correction

    return register


def words(*tables: Collection[str]) -> UnitTest:
    """The unit test "the unit's key is in one of ``tables``"."""
    return lambda unit: any(unit.key in table for table in tables)


def tags(*penn_tags: str) -> UnitTest:
    """The unit test "the tagger gave the unit one of ``penn_tags``"."""
    return lambda unit: unit.tag in penn_tags


class Dispatch:
    """Runs correction passes in order, each one only where its trigger holds."""

    def __init__(self, passes: Sequence[Correction]) -> None:
        #: Each pass by its bit; a caption's triggered passes are an int of these bits.
        self._passes = {1 << position: correction for position, correction in enumerate(passes)}
        #: (bit, unit test) of every pass with one.
        self._tests: list[tuple[int, UnitTest]] = []
        #: (bit, kinds) of the passes whose kinds pattern is a plain sequence of kinds, and (bit,
        #: compiled pattern) of the others: a substring test is the cheaper.
        self._sequences: list[tuple[int, str]] = []
        self._patterns: list[tuple[int, re.Pattern[str]]] = []
        #: The bits of the passes that always run.
        self._always = 0
        #: The unit tests' answers, as bits, for each (text, tag, kind) seen.
        self._bits: Memo[tuple[str, str, str], int] = Memo(self._unit_bits, _UNIT_LIMIT)
        for bit, correction in self._passes.items():
            found = TRIGGERS.get(correction)
            if found is None:
                self._always |= bit
                continue
            if found.unit is not None:
                self._tests.append((bit, found.unit))
            if found.kinds is not None and found.kinds.isalpha():
                self._sequences.append((bit, found.kinds))
            elif found.kinds is not None:
                self._patterns.append((bit, re.compile(found.kinds)))

    def _unit_bits(self, unit: tuple[str, str, str]) -> int:
        """The passes whose unit test ``unit`` (text, tag, kind) passes, as bits."""
        text, tag, kind = unit
        # a unit's key is its text with hyphens read as spaces (tests/test_passes.py checks it)
        seen = Unit(text, text.replace("-", " "), tag, kind)
        bits = 0
        for bit, test in self._tests:
            if test(seen):
                bits |= bit
        return bits

    def _triggered(self, units: Units) -> int:
        """The passes whose trigger holds on ``units`` as they are, with those that always run,
        as bits."""
        found = set(
            map(self._bits.__getitem__, zip(units.text, units.tag, units.kind, strict=True))
        )
        mask = self._always
        for bits in found:
            mask |= bits
        kinds = units.kinds()
        for bit, sequence in self._sequences:
            if sequence in kinds:
                mask |= bit
        for bit, pattern in self._patterns:
            if pattern.search(kinds):
                mask |= bit
        return mask

    def triggered(self, units: Units) -> list[Correction]:
        """The passes whose trigger holds on ``units`` as they are, in order."""
        mask = self._triggered(units)
        return [correction for bit, correction in self._passes.items() if mask & bit]

    def run(self, units: Units) -> None:
        """Run every pass whose trigger holds on ``units`` as they are when its turn comes."""
        trace, passes = units.trace, self._passes
        firings = trace.firings
        pending = self._triggered(units)
        while pending:
            bit = pending & -pending  # the first triggered pass not run yet
            passes[bit](units)
            if trace.firings != firings:  # a rule fired: the caption may have changed
                firings = trace.firings
                pending = self._triggered(units)
            pending &= -(bit << 1)  # the passes after it
