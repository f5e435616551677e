"""Which (attribute, object) pairs a caption states, read from its units (protocol section 1).

Positions that bind:

*Attributive*
    the modifiers before a noun ("a large brown dog" -> (large, dog), (brown, dog)), stacked or
    conjoined ("a red and white bus", with a serial comma "a green, yellow, and red kite"); a
    modifier binds to the noun it precedes, not to coordinated nouns after it ("tall trees and
    buildings" -> (tall, tree)). Participles before the noun are modifiers ("a parked car", "a
    sleeping cat", "different colored umbrellas" -> colored). A participle made from a noun or
    describing a manner keeps the word before it ("snow covered", "cream colored", "nice
    looking", "long haired"); an adverb before it is dropped ("brightly colored" -> colored).
*Elliptical*
    conjuncts whose noun is left out bind to the noun of the last one ("one black and one white
    cat", "two red and three blue balloons"), and "one"/"ones" with attributes bind to the noun
    they stand for ("two dogs, one black and one white", "a gray one and an orange one").
*Predicative*
    adjectives after a copula or linking verb ("is", "looks", "sits" before an adjective) bind to
    the subject: the noun before the copula or before "that/which/who is", climbing out of a
    prepositional phrase ("the dog on the bed is white" -> dog) except after a group or container
    noun ("a bowl of soup is hot" -> soup); negated predicates ("is not empty") are skipped. A past
    participle counts there only where nothing follows it ("bicycles are parked", "the shop is
    closed and dark"; not "is parked on the street"). A copula right after a relative clause has
    the same subject ("a car that is red looks new" -> (new, car)).
*Post-nominal*
    an adjective right after its noun, before a preposition or at the end of a phrase ("a cup
    full of coffee", "with its mouth open", "holding the door open"); a participle there only in
    a "with" phrase that it ends ("with her eyes closed"). Colours after a colour participle ("a
    wall painted blue", "the door is painted a light blue").

Objects are the head noun with its compound ("teddy bear", "fire hydrant": a run of nouns is one
object), except lexicon words at its left edge, which are attributes ("glass vase" -> (glass,
vase)). What never binds, and the tagger's slips that are mended first, are described in
:mod:`.corrections` and :mod:`.lexicon`.
"""

from __future__ import annotations

from . import lexicon as lx
from . import wordclasses as wc
from . import wordlists as wl
from .chunks import object_start
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, NOUN, PART, PREP, REL, WEAK
from .normalise import Binding, object_of
from .predicates import PredicateReader
from .units import _ARTICLES, Units

__all__ = ["read_bindings"]

_DISTRIBUTIVES: frozenset[str] = wl.words("determiners", "distributive")
#: Determiners of the conjuncts of an elliptical phrase ("one black and one white cat").
_ELLIPSIS_DETERMINERS = _ARTICLES | wl.words("determiners", "ellipsis")
#: What may stand left of a participle that modifies a noun ("a parked car", "with sliced apples").
_MODIFIER_CONTEXT = frozenset({DET, ATTR, WEAK, PART, GERUND, CONJ, PREP})
#: Prepositions after which a present participle modifies the noun after it ("with rolling
#: hills", "in shimmering grass"); after others it is a verb ("by riding bikes").
_GERUND_PREPOSITIONS: frozenset[str] = wl.words("prepositions", "gerund")
#: Adjectives that after a noun say where it is, not what it is like ("a kite high in the sky").
_POSITIONAL: frozenset[str] = wl.words("adjectives", "positional")
#: Participles that introduce a name: a verb after the noun, no part of an attribute.
_NAMING: frozenset[str] = wl.words("participles", "naming")
#: Possessives of a "with" phrase naming a body part or belonging: "with its mouth closed".
_POSSESSIVES: frozenset[str] = wl.words("determiners", "possessive")
#: A material the word-class table knows as a noun and not as an adjective ("dirt", not "wooden").
_NOUN_ONLY = wc.NOUN | wc.ADJECTIVE
#: Kinds of a participle that may keep the word before it (:meth:`_Reader.compound_attribute`).
_COMPOUND_KINDS = frozenset({PART, WEAK, ATTR, GERUND})
#: Kinds that may stand right before a noun run and bind to it or lead to what does (a modifier,
#: an adverb or a conjunction between modifiers): before any other, nothing binds to the run.
_BEFORE_MODIFIED = frozenset({ATTR, WEAK, PART, GERUND, ADV, CONJ})


class _Reader(PredicateReader):
    """The attributive, elliptical and post-nominal rules, and the predicative ones of
    :class:`.predicates.PredicateReader`."""

    # --- attributive ----------------------------------------------------------------------------
    def modifier_ok(self, i: int) -> bool:
        """Whether the participle / verb-tagged lexicon word at ``i`` modifies the noun after it:
        something that opens or continues a noun phrase stands to its left. A present participle
        needs a determiner or an attribute there ("a sleeping cat"; not "men all eating bananas",
        "holding and eating bananas", "riding horses" after a noun or preposition)."""
        u = self.u
        j = u.previous(i)
        if u.kind[i] != GERUND:
            return j < 0 or u.kind[j] in _MODIFIER_CONTEXT or self.lone_attribute_noun(j)
        if j < 0:
            return False
        if u.kind[j] == DET:
            return u.key[j] not in _DISTRIBUTIVES
        if u.kind[j] == PREP:
            return u.key[j] in _GERUND_PREPOSITIONS  # "with rolling hills"; not "by riding"
        if u.kind[j] == CONJ:
            k = u.previous(j)
            return k >= 0 and self.is_attribute(k)
        return self.is_attribute(j)

    def compound_attribute(self, i: int) -> bool:
        """Whether the participle at ``i`` keeps the word before it: a noun ("snow covered",
        "light/JJ filled") or, outside a coordination, an adjective of manner ("cream colored",
        "nice looking", "long haired")."""
        u = self.u
        if i < 1 or u.kind[i] not in _COMPOUND_KINDS:
            return False
        material = u.key[i - 1] in lx.MATERIALS and wc.classes(u.key[i - 1]) & _NOUN_ONLY == wc.NOUN
        if (self.noun_like(i - 1) or (material and u.key[i] in lx.COMPOUND_PARTICIPLES)) and u.key[
            i
        ].endswith(("ed", "en", "lit", "made")):  # "snow covered"; "straw covered", "dirt filled"
            if u.key[i] in lx.COLOUR_PARTICIPLES and u.key_at(i + 1) in lx.COLOURS:
                return False  # "a woman painted red flowers", "walls painted beige"
            if u.key[i] in lx.COMPOUND_PARTICIPLES:  # "snow covered", "light filled netted bed"
                return u.kind_at(i + 1) in (NOUN, ATTR, WEAK, PART, GERUND)
            return (  # "a wall mounted sink"; not "a dog named Rex"
                u.kind_at(i + 1) == NOUN and u.kind[i] == PART and u.key[i] not in _NAMING
            )
        if u.kind_at(i - 2) == CONJ and i >= 3 and self.is_modifier(u.previous(i - 2)):
            return False  # "a red and white striped shirt": each attribute on its own
        if u.key[i - 1] in lx.DEGREE and u.kind[i] in (GERUND, PART):
            return True  # "a low flying airplane", "a high rise building"
        if u.kind[i - 1] == PART:  # "a shocked looking man"
            return u.key[i] == "looking"
        if not self.is_attribute(i - 1):
            return False
        return u.key[i] in lx.ADJECTIVE_PARTICIPLES or (
            u.key[i] in lx.COLOUR_MANNER_PARTICIPLES
            and (u.key[i - 1] in lx.COLOURS or u.key[i - 1] in lx.PATTERNS)
        )

    def attributive(self, start: int, end: int) -> None:
        """Bindings of the noun run ``[start, end)`` with the modifiers before it. A run that is
        the noun of a compound attribute ("snow" in "white snow covered slope") takes the
        modifiers right before it, not conjoined ones ("snowy, tree lined path" says nothing
        about the tree)."""
        u = self.u
        kind, key, text = u.kind, u.key, u.text
        if (start == 0 or kind[start - 1] not in _BEFORE_MODIFIED) and (
            end - start == 1 or key[start] not in lx.ATTRIBUTES
        ):
            return  # nothing before the run can bind to it, and no lexicon word opens it
        if end < u.n and kind[end] in _COMPOUND_KINDS and self.compound_attribute(end):
            return  # "snow" in "white snow covered slope": the modifiers describe the slope
        head = object_start(self.u, start, end)
        # (position, attribute, rule) of each binding; the object is normalised only if any
        pending = [(i, text[i], "lexicon-word-before-noun") for i in range(start, head)]
        bound = 0
        i = start - 1
        while i >= 0:
            if kind[i] in _COMPOUND_KINDS and self.compound_attribute(i):
                # "snow covered", "nice looking"
                pending.append((i - 1, f"{text[i - 1]} {text[i]}", "compound-attribute"))
                bound += 1
                i -= 1
            elif kind[i] == ATTR:
                pending.append((i, text[i], "attributive"))
                bound += 1
            elif kind[i] == NOUN and self.lone_attribute_noun(i):
                pending.append((i, text[i], "attribute-tagged-as-noun"))
                bound += 1
            elif kind[i] == ADV:
                pass
            elif kind[i] == CONJ:
                if not pending:
                    break  # "orange and pastry": a conjunct without a noun after it is a noun
                j = u.previous(i)
                if j >= 0 and u.serial_comma(j):
                    j = u.previous(j)  # "green, yellow, and red"
                if j < 0 or not self.is_modifier(j):
                    break
            elif kind[i] in (WEAK, PART, GERUND) and self.modifier_ok(i):
                pending.append((i, text[i], "participle-modifier"))
                bound += 1
            elif kind[i] == DET and key[i] in _ELLIPSIS_DETERMINERS:
                if bound:
                    self.elided(i, pending)
                break
            else:
                break
            i -= 1
        if pending:
            obj = object_of(text[head:end])
            for position, attribute, rule in pending:
                self.bind(position, attribute, obj, rule)

    def colour_noun(self, i: int) -> bool:
        """A colour the tagger calls a noun, standing alone ("a brown/NN and a white horse")."""
        u = self.u
        return (
            u.kind[i] == NOUN
            and u.key[i] in lx.COLOURS
            and u.key[i] not in lx.COLOUR_NOUNS
            and u.kind_at(i - 1) != NOUN
            and u.kind_at(i + 1) != NOUN
        )

    def elided(self, determiner: int, pending: list[tuple[int, str, str]]) -> None:
        """Ellipsis: in "one black and one white cat" the conjuncts before the last one ("one
        black"), each a determiner and attributes with the noun left out, describe the same noun.
        ``determiner`` opens the last conjunct, which has attributes of its own; the bindings
        join ``pending`` (position, attribute, rule)."""
        u = self.u
        while True:
            conjunction = u.previous(determiner)
            if conjunction < 0 or u.kind[conjunction] != CONJ:
                return
            k = u.previous(conjunction)
            if k >= 0 and u.serial_comma(k):
                k = u.previous(k)
            attributes = []
            while k >= 0 and (u.kind[k] in (ATTR, WEAK, ADV) or self.colour_noun(k)):
                if u.kind[k] != ADV:
                    attributes.append(k)
                k -= 1
            if not attributes or k < 0 or u.kind[k] != DET or u.key[k] not in _ELLIPSIS_DETERMINERS:
                return
            pending.extend((a, u.text[a], "ellipsis") for a in attributes)
            determiner = k

    def antecedent(self, before: int) -> str | None:
        """The object of the last noun run ending before unit ``before``."""
        run = self.antecedent_run(before)
        return None if run is None else self.object_at(*run)[1]

    def pro_nouns(self) -> None:
        """Attributes of "one"/"ones" bind to the noun they stand for: "two cats, a gray one and
        an orange one", "an adult giraffe next to a young one", "two dogs, one black and one
        white"."""
        u = self.u
        if lx.PRO_NOUNS.isdisjoint(u.key):
            return
        for i in range(u.n):
            if u.key[i] not in lx.PRO_NOUNS:
                continue
            attributes: list[int] = []
            j = u.following(i)
            if u.key[i] == "one" and j < u.n and self.is_attribute(j):
                while j < u.n and self.is_attribute(j):  # "one black", "one large"
                    attributes.append(j)
                    j = u.following(j)
                while j < u.n and (
                    u.kind[j] in (CONJ, ADV, ATTR, WEAK) or u.key[j] in _ELLIPSIS_DETERMINERS
                ):
                    j += 1
                if j < u.n and u.kind[j] in (NOUN, PART, GERUND):
                    continue  # "one black cat", "one black and one white cat": a noun follows
            elif u.kind_at(j) != NOUN:
                k = u.previous(i)
                while k >= 0 and (  # "a gray one", "young ones", "an orange/NN one"
                    self.is_attribute(k) or (u.kind[k] == NOUN and u.key[k] in lx.ATTRIBUTES)
                ):
                    attributes.append(k)
                    k = u.previous(k)
            if attributes:
                obj = self.antecedent(min(attributes))
                if obj is not None:
                    for a in attributes:
                        self.bind(a, u.text[a], obj, "one-anaphora")

    def postnominal(self, start: int, end: int) -> None:
        """An adjective right after the noun run ``[start, end)`` that ends a phrase or comes
        before a preposition describes the noun: "a cup full of coffee", "holding the door open",
        "with its mouth open"; in a "with" phrase a participle that ends it too ("with her eyes
        closed")."""
        u = self.u
        if not self.has_with and (end == u.n or u.kind[end] not in (ATTR, ADV)):
            return  # no adjective after the run, and no "with" phrase
        attributes: list[int] = []
        j = u.following(end - 1)
        while (
            j < u.n
            and u.key[j] not in _POSITIONAL
            and (u.kind[j] == ATTR or (attributes and self.lone_attribute_noun(j, predicate=True)))
            and u.key_at(u.following(j)) != "by"  # "a hat worn/NN by a man": a passive
        ):  # "open and empty", "white and round/NN"
            attributes.append(j)
            j = u.following(j)
            if (
                j < u.n
                and u.kind[j] == CONJ
                and u.key[j] != ","
                and j + 1 < u.n
                and (u.kind[j + 1] == ATTR or self.lone_attribute_noun(j + 1, predicate=True))
            ):
                j = u.following(j)
        rule = "postnominal-adjective"
        if not attributes:
            attributes, rule = self.absolute_participle(start, end), "absolute-participle"
        elif j < u.n and not (
            u.kind[j] == REL
            or not u.key[j][0].isalnum()
            or u.kind[j] == PREP
            or (u.kind[j] == CONJ and u.kind_at(u.following(j)) not in (ATTR, WEAK))
        ):
            return
        if attributes:
            obj = self.object_at(start, end)[1]
            for a in attributes:
                self.bind(a, u.text[a], obj, rule)

    def absolute_participle(self, start: int, end: int) -> list[int]:
        """A "with" phrase: noun + a participle or adjective that ends the phrase: "with her legs
        crossed", "with its eyes closed"."""
        u = self.u
        if not self.has_with:
            return []
        j = start - 1
        while j >= 0 and u.kind[j] in (DET, ATTR, ADV):
            j -= 1
        after = u.following(end - 1)
        if j < 0 or u.key[j] != "with" or after >= u.n or u.kind[after] not in (PART, WEAK, ATTR):
            return []
        if u.ends_phrase(after):
            return [after]  # "with her eyes closed"
        if u.key_at(start - 1) in _POSSESSIVES and u.kind_at(u.following(after)) == PREP:
            return [after]  # "with its mouth closed in a pen", "with her legs crossed on a chair"
        return []  # not "with a vase filled with flowers", "with cheese served on a tray"


def read_bindings(units: Units) -> list[Binding]:
    """The bindings the caption's units state, in order of first occurrence, without
    duplicates."""
    reader = _Reader(units)
    kind = units.kind
    inherited: dict[int, list[tuple[int, int]]] = {}
    for i in range(units.n) if COPULA in kind else ():
        if kind[i] == COPULA:
            subjects = inherited.get(i) or reader.subject_runs(i)
            end = reader.predicative(i, subjects)
            if (
                i > 0
                and kind[i - 1] == REL
                and end < units.n
                and kind[end] == COPULA
                and units.trace.fire("copula-after-relative-clause", end)
            ):
                inherited[end] = subjects  # "a car that is red looks new": the car looks new
    reader.colour_participles()
    predicated = {i for i, _ in reader.found}
    for start, end in reader.runs:
        if end - start == 1 and (
            start in predicated
            or (units.key[start] in lx.ATTRIBUTES and reader.lone_attribute_noun(start))
        ):
            continue  # "cloudy/NN blue sky", "looks clean and tidy/NN": an attribute, no object
        reader.attributive(start, end)
        reader.postnominal(start, end)
        reader.colours_after_in(start, end)
    reader.pro_nouns()
    reader.found.sort(key=lambda item: item[0])
    return list(dict.fromkeys(binding for _, binding in reader.found))
