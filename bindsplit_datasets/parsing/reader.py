"""What every binding rule of :mod:`.rules` reads a caption's units with: :class:`Reader`, the
noun runs and their objects (found by :mod:`.chunks`, as for relations), the attribute words that
stand alone, and :meth:`Reader.bind`, through which each named rule adds a binding (or, switched
off, none)."""

from __future__ import annotations

from . import lexicon as lx
from . import wordlists as wl
from .chunks import noun_runs, object_at
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, MODIFIERS, NOUN, PART, WEAK
from .normalise import Binding
from .units import Units
from .wordtests import is_adjective

__all__ = ["Reader"]

#: Prepositions of having and wearing: "one" in their phrase never stands for the noun before them.
_HAVING: frozenset[str] = wl.words("prepositions", "having")


class Reader:
    """The bindings of one caption's units: each rule adds ``(position, Binding)`` pairs, under
    its name in :data:`.ruleset.RULES` (a rule switched off adds none)."""

    def __init__(self, units: Units) -> None:
        self.u = units
        self.found: list[tuple[int, Binding]] = []
        self.runs = noun_runs(units)
        self.run_ending = {end - 1: (start, end) for start, end in self.runs}
        self.has_with = "with" in units.key

    def bind(self, position: int, attribute: str, obj: str, rule: str) -> None:
        if self.u.trace.fire(rule, position):
            self.found.append((position, Binding(attribute, obj)))

    def antecedent_run(self, before: int) -> tuple[int, int] | None:
        """The last noun run ending before unit ``before``: what "one" there stands for (not
        "pink" in "a pink one, and a tan one"); not the noun that has or wears it ("a woman
        with a red one")."""
        u = self.u
        k = self.phrase_opener(before)
        owner = k - 1 if k >= 1 and u.key[k] in _HAVING else -1
        subject = None
        for end in range(before - 1, -1, -1):
            run = self.run_ending.get(end)
            if run is None or u.key[end] in lx.SPATIAL:  # not "left" in "on the left"
                continue
            if not (run[1] - run[0] == 1 and u.key[end] in lx.ATTRIBUTES):
                had = u.key_at(self.phrase_opener(run[0])) in _HAVING  # "with a blue umbrella
                # stands": the verb is the owner's
                if end != owner and (had or not self.subject_of_verb(end)):
                    return run
                subject = subject or run
        return subject

    def phrase_opener(self, start: int) -> int:
        """The unit before the determiners and modifiers that open the phrase whose first word
        after them is at ``start`` (-1 at the caption's start)."""
        k = start - 1
        while k >= 0 and self.u.kind[k] in (DET, ATTR, WEAK, PART, ADV):
            k -= 1
        return k

    def subject_of_verb(self, end: int) -> bool:
        """Whether the noun run ending at unit ``end`` is followed by a verb other than a copula:
        the subject of "one"'s own verb is not what "one" stands for, where an earlier noun can
        be ("a man holding a red umbrella and a woman holding a blue one" -> umbrella; "a large
        giraffe next to a small one" -> giraffe)."""
        u = self.u
        j = u.following(end)
        return j < u.n and u.tag[j].startswith("VB") and u.kind[j] != COPULA

    def object_at(self, start: int, end: int) -> tuple[int, str]:
        """(object start, object) of the noun run ``[start, end)`` (:func:`.chunks.object_at`)."""
        return object_at(self.u, start, end)

    def lone_attribute_noun(self, i: int, *, predicate: bool = False) -> bool:
        """A lexicon word tagged as a noun on its own, followed by more modifiers ("cloudy/NN
        blue sky", "grey/NN and red walls") or, with ``predicate``, after a copula ("the apples
        look ripe/NN"): an attribute, not an object."""
        u = self.u
        kind, key = u.kind, u.key
        if kind[i] != NOUN or key[i] not in lx.ATTRIBUTES or (i > 0 and kind[i - 1] == NOUN):
            return False
        after = u.kind_at(i + 1)
        if predicate:
            return after != NOUN
        if after == CONJ:  # "grey and red walls", "glass and metal table"; not "a glass and cups"
            j = u.following(i + 2 if u.serial_comma(i + 1) else i + 1)
            if j >= u.n or kind[j] in (ATTR, WEAK, PART):
                if (  # "brown tile and bare pantry"; not "blue yellow/NN and red"
                    j < u.n and i > 0 and kind[i - 1] == ATTR and key[i] not in lx.COLOURS
                ):
                    return not u.trace.fire("modified-noun-before-conjunction", i)
                return j < u.n
            following = j + 1 < u.n and (
                (kind[j + 1] == NOUN and key[j] in lx.ATTRIBUTES)  # "and metal table"
                or (kind[j + 1] == PART and key[j + 1] in lx.COMPOUND_PARTICIPLES)  # ", tree lined"
            )
            return kind[j] == NOUN and following
        if after in (PART, GERUND) and key[i] not in lx.COLOURS:
            return u.kind_at(i + 2) in (NOUN, ATTR, WEAK, PART, GERUND) or (
                u.key[i + 1] in lx.ADJECTIVE_PARTICIPLES
            )  # "metal/NN framed mirror"; not "a young male/NN sitting", "curly wool/NN shaved"
        return after in (ATTR, WEAK, PART, GERUND) or (
            i + 1 < u.n and u.key[i + 1] in lx.ADJECTIVE_PARTICIPLES
        )

    def is_modifier(self, i: int) -> bool:
        return self.u.kind[i] in MODIFIERS or self.lone_attribute_noun(i)

    def is_attribute(self, i: int) -> bool:
        return self.u.kind[i] in (ATTR, WEAK) or self.lone_attribute_noun(i)

    def noun_like(self, i: int) -> bool:
        """A noun that is no attribute word, or a word the tagger calls an adjective that is none
        ("snow/JJ covered")."""
        kind, key = self.u.kind[i], self.u.key[i]
        return (kind == NOUN and key not in lx.ATTRIBUTES) or (
            kind == ATTR and not is_adjective(key)
        )
