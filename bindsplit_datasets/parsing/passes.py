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
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .units import Units

__all__ = ["TRIGGERS", "Trigger", "Unit", "tags", "trigger", "words"]


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
