"""Predicative bindings: adjectives after a copula or linking verb bind to its subject, and
colours after a colour participle ("a wall painted blue") to the noun before it (see
:mod:`.rules` for the positions, protocol section 1)."""

from __future__ import annotations

from . import lexicon as lx
from . import wordlists as wl
from .chunks import clause_subject
from .kinds import ADV, ATTR, CONJ, COPULA, DET, GERUND, NEG, NOUN, PART, PREP, REL, WEAK
from .reader import Reader

__all__ = ["PredicateReader"]

#: Forms of "be" after which a participle reports an event, not a state ("is being renovated").
_EVENT_COPULAS: frozenset[str] = wl.words("verbs", "event-copula")
#: Words before "one" that make it stand for a noun ("the other one"), not count ("one is").
_PRO_NOUN_DETERMINERS: frozenset[str] = wl.words("determiners", "pro-noun")
#: What may stand before "one", "another" or "other" opening a clause of its own, so that the word
#: stands for a noun mentioned before ("two dogs: one is brown and another is black").
_CLAUSE_JOINERS: frozenset[str] = wl.words("conjunctions", "coordinating") | wl.words(
    "conjunctions", "sentence-end"
)
#: Object pronouns that close a prepositional phrase after a subject ("the cushions on it").
_OBJECT_PRONOUNS = lx.INANIMATE_PRONOUNS | lx.ANIMATE_PRONOUNS | lx.PLURAL_PRONOUNS
#: Participles that make one attribute with the word before them (protocol section 1, kept whole:
#: "purple colored", "snow covered", "long haired", "nice looking").
_WHOLE_PARTICIPLES = lx.COMPOUND_PARTICIPLES | lx.ADJECTIVE_PARTICIPLES


class PredicateReader(Reader):
    """The predicative rules of a :class:`.reader.Reader`."""

    def subject_runs(self, copula: int) -> list[tuple[int, int]]:
        """Noun runs a predicate after the copula at ``copula`` describes (may be empty)."""
        u = self.u
        end = copula - 1
        while end >= 0 and u.kind[end] == ADV:  # "the kids are looking happy", "it really is"
            end -= 1
        climb = True
        if end >= 0 and u.kind[end] == REL:
            end -= 1
            climb = False
            if end >= 0 and u.key[end] == ",":  # "the umbrella, which is red,"
                end -= 1
        if (
            end >= 0
            and u.key[end] == "and"
            and end not in self.run_ending
            and u.trace.fire("subject-of-second-predicate", end)
        ):
            return clause_subject(
                u, self.run_ending, end
            )  # "the bathroom has pink tiles and is painted blue"
        run = self.run_ending.get(end)
        if run is None and climb and end >= 2 and u.key[end] in _OBJECT_PRONOUNS:
            j = end - 1  # "the cushions on it are yellow": the cushions
            if (
                u.kind[j] == PREP
                and u.key[j] in lx.LOCATIVE_PREPOSITIONS
                and (j - 1) in self.run_ending
                and u.trace.fire("subject-before-prepositional-phrase", j)
            ):
                run = self.run_ending[j - 1]
        if run is None:
            return self.pro_noun_subject(end)
        runs = [run]
        while True:
            j = run[0] - 1
            while j >= 0 and u.kind[j] in (DET, ATTR, ADV, PART, GERUND, WEAK):
                j -= 1
            earlier = self.run_ending.get(j - 1)
            head = self.reduced_relative_head(j, run) if climb and earlier is None else None
            if head is not None and u.trace.fire("subject-before-reduced-relative", j):
                run = head  # "the shirt worn by the man is red": the shirt
                runs = [run]
                continue
            if (
                climb
                and j >= 1
                and earlier is None
                and u.kind[j] == PREP
                and u.key[j] in lx.LOCATIVE_PREPOSITIONS
            ):
                return self.pro_noun_subject(j - 1) or runs  # "the one on the right is white"
            if j < 1 or earlier is None:
                break
            if u.kind[j] == CONJ and u.key[j] == "and" and len(runs) == 1:
                k = earlier[0] - 1
                while k >= 0 and u.kind[k] in (DET, ATTR, ADV, WEAK):
                    k -= 1
                if k >= 0 and u.kind[k] == COPULA:
                    break  # "the sun is orange/NN and the sky is yellow": a predicate, no subject
                if not u.trace.fire("coordinated-subjects", j):
                    break
                runs.append(earlier)  # "the cat and the dog are white"
                if not self.with_phrase_before(earlier):
                    break
                run = earlier  # "a kitchen with pans and pots sits empty": the kitchen
                continue
            if not climb or u.kind[j] != PREP or u.key[j] not in lx.LOCATIVE_PREPOSITIONS:
                break
            if u.key[j] == "of" and u.key[earlier[1] - 1] in lx.GROUP_NOUNS:
                if u.trace.fire("group-noun-of-subject", j):
                    break  # "a bowl of soup is hot": the soup
            if not u.trace.fire("subject-before-prepositional-phrase", j):
                break
            runs = [earlier]
            run = earlier
        return runs

    def reduced_relative_head(self, j: int, run: tuple[int, int]) -> tuple[int, int] | None:
        """The noun run a reduced relative clause follows, where the noun run ``run`` (the unit
        at ``j`` left of its modifiers) is that clause's object: "the shirt worn by the man",
        "the dog running on the grass" (a participle and its preposition), "the man wearing the
        hat" (a participle and its object); none where there is no such clause."""
        u = self.u
        if j >= 2 and u.kind[j] == PREP and u.kind[j - 1] in (PART, WEAK, GERUND):
            return self.run_ending.get(j - 2)
        if j >= 2 and u.key[j] == "by" and u.kind[j - 1] == ATTR:  # "the hat worn/NN by"
            return self.run_ending.get(j - 2)
        if j in self.run_ending and j + 1 < run[0] and u.kind[j + 1] == GERUND:
            return self.run_ending[j]
        return None

    def with_phrase_before(self, run: tuple[int, int]) -> bool:
        """Whether the noun run ``run`` opens the object of a "with" after another noun run, so
        that runs coordinated with it belong to the with-phrase, not to the subject."""
        j = run[0] - 1
        while j >= 0 and self.u.kind[j] in (DET, ATTR, ADV, PART, GERUND, WEAK):
            j -= 1
        return j >= 1 and self.u.key[j] == "with" and (j - 1) in self.run_ending

    def pro_noun_subject(self, i: int) -> list[tuple[int, int]]:
        """The noun run "one"/"ones" at unit ``i`` stands for, as a predicate's subject: "one cup
        is green and the other one is yellow" -> cup; so do "one", "another" and "the other"
        standing alone at the start of a clause: "two dogs: one is brown and the other is black"
        -> dog (none when unit ``i`` is another word)."""
        if not 0 < i < self.u.n:
            return []
        key, before = self.u.key[i], self.u.key[i - 1]
        if not (
            (key in lx.PRO_NOUNS and before in _PRO_NOUN_DETERMINERS)  # "the other one"
            or (
                key in lx.ANAPHORIC_PRONOUNS
                and (before in _CLAUSE_JOINERS or (key == "other" and before == "the"))
            )
        ):
            return []  # not "a pink one", "this one"
        run = self.antecedent_run(i)
        if run is None or not self.u.trace.fire("pro-noun-subject", i):
            return []
        return [run]

    def predicative(self, copula: int, subjects: list[tuple[int, int]]) -> int:
        """Bindings of the adjectives after the copula at ``copula`` with its subject noun runs;
        returns the index where the predicate ends.

        Past participles count only where nothing follows them ("is closed and dark", "are
        parked"; not "is parked next to", "is wet and covered in snow"); a colour participle
        passes its colours on ("is painted red")."""
        u = self.u
        attributes: list[int] = []
        participles: list[int] = []
        coloured: list[int] = []
        whole: dict[int, str] = {}  # attributes of a word and a participle ("light colored")
        i = copula + 1
        if (
            u.key_at(i) in ("a", "an")
            and u.kind_at(i + 1) == ATTR
            and lx.category_of(u.key[i + 1]) == "colour"
            and u.ends_phrase(i + 1)
            and u.trace.fire("predicative-colour-noun", i + 1)
        ):
            i += 1  # "the apple is a bright red": the colour, named as a noun
        while i < u.n:
            kind = u.kind[i]
            if self.whole_with_participle(i):
                whole[i] = f"{u.text[i]} {u.text[i + 1]}"
                i += 1  # the participle is part of the attribute
            elif kind in (ATTR, WEAK) or self.lone_attribute_noun(i, predicate=True):
                attributes.append(i)
            elif u.key[i] in lx.COLOUR_PARTICIPLES and (colours := self.colours_after(i)):
                coloured.extend(colours)
                i = colours[-1]
            elif (
                kind == PART
                and u.ends_phrase(i)
                and u.key[copula] not in _EVENT_COPULAS
                and u.key[i] not in lx.EVENT_PARTICIPLES
            ):
                participles.append(i)  # "are parked"; not "is being renovated", "is shown"
            elif kind == NEG:
                return i
            elif kind == CONJ:
                if not attributes and not participles and not coloured and not whole:
                    return i
            elif kind != ADV and u.key[i] not in lx.INTENSIFIERS:  # "are all white"
                break
            i += 1
        if (not attributes and not participles and not coloured and not whole) or (
            i < u.n and u.kind[i] == NOUN and not self.opens_clause(i)
        ):
            return i  # nothing predicated, or the adjectives modify the noun after them
        rules = dict.fromkeys(attributes, "predicative")
        rules.update(dict.fromkeys(coloured, "predicative-colour-participle"))
        rules.update(dict.fromkeys(participles, "predicative-participle"))
        rules.update(dict.fromkeys(whole, "predicative-compound-attribute"))
        for start, end in subjects:
            obj = self.object_at(start, end)[1]
            for a in sorted(rules):
                self.bind(a, whole.get(a, u.text[a]), obj, rules[a])
        return i

    def whole_with_participle(self, i: int) -> bool:
        """Whether the word at ``i`` of a predicate and the participle after it, which ends the
        predicate, are one attribute, as before a noun ("the shirt is light colored", "the slope
        is snow covered", "the dog is long haired"; a colour keeps a participle of manner: "the
        tie is red striped"); not in a coordination ("is red and white striped")."""
        u = self.u
        j = i + 1
        if j >= u.n or u.kind[i] not in (ATTR, WEAK, NOUN) or u.kind_at(i - 1) == CONJ:
            return False
        if u.key[j] not in _WHOLE_PARTICIPLES and not (
            u.key[j] in lx.COLOUR_MANNER_PARTICIPLES
            and (u.key[i] in lx.COLOURS or u.key[i] in lx.PATTERNS)
        ):
            return False
        k = j + 1
        return k == u.n or u.kind[k] == CONJ or not u.key[k][0].isalnum()

    def opens_clause(self, i: int) -> bool:
        """Whether the noun run at ``i``, right after a conjunction, is the subject of a clause of
        its own (a copula or verb follows it): "bananas are yellow and strawberries are red",
        "carrots are orange, peas are green"."""
        u = self.u
        if u.kind_at(i - 1) != CONJ:
            return False
        j = i
        while j < u.n and u.kind[j] == NOUN:
            j += 1
        return j < u.n and u.is_verb(j) and u.trace.fire("predicate-before-clause", i)

    def colours_after(self, participle: int) -> list[int]:
        """The colours right after a colour participle ("painted light blue and white", "painted
        a light blue"), or none when they modify a noun after them ("painted red flowers")."""
        u = self.u
        colours: list[int] = []
        j = participle + 1
        if j < u.n and u.key[j] in ("a", "an"):
            j += 1  # "painted a light blue"
        while j < u.n:
            if u.key[j] in lx.COLOURS:
                colours.append(j)
            elif not (u.kind[j] == ADV or (u.kind[j] == CONJ and colours)):
                break
            j += 1
        if colours and u.kind_at(u.following(colours[-1])) == NOUN:
            return []  # "painted red flowers"; not "painted beige and furnishings"
        return colours

    def colours_after_in(self, start: int, end: int) -> None:
        """Colours after "in" right after a thing's noun run ``[start, end)``, ending the phrase,
        are that thing's colours: "a shirt in yellow and pants in blue" -> (yellow, shirt),
        (blue, pants); "a woman in black" names no garment and states nothing (protocol
        section 1)."""
        u = self.u
        if u.key_at(end) != "in" or u.key_at(end - 1) in lx.ANIMATE_NOUNS:
            return
        colours: list[int] = []
        j = end + 1
        while j < u.n and (u.key[j] in lx.COLOURS or (colours and u.key[j] in ("and", "or"))):
            if u.key[j] in lx.COLOURS:
                colours.append(j)
            j += 1
        if colours and colours[-1] + 1 < j:
            j = colours[-1] + 1  # "in yellow and pants": the conjunction is not the colours'
        if not colours or not (j == u.n or u.kind[j] in (CONJ, PREP) or not u.key[j][0].isalnum()):
            return
        obj = self.object_at(start, end)[1]
        for c in colours:
            self.bind(c, u.text[c], obj, "colour-after-in")

    def colour_participles(self) -> None:
        """Bindings of the colours after a colour participle right after a noun ("a wall
        painted blue" -> (blue, wall))."""
        u = self.u
        if lx.COLOUR_PARTICIPLES.isdisjoint(u.key):
            return
        for i in range(1, u.n):
            if u.key[i] in lx.COLOUR_PARTICIPLES and i - 1 in self.run_ending:
                colours = self.colours_after(i)
                if colours:
                    obj = self.object_at(*self.run_ending[i - 1])[1]
                    for c in colours:
                        self.bind(c, u.text[c], obj, "colour-after-participle")
