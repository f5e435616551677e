"""Which (subject, relation, object) triples a caption's chunks state (SPEC section 1b).

The chunks (:mod:`.chunks`) are read left to right. For each chunk the rules of its kind
in :data:`RELATION_RULES` are tried in order; the first that applies handles it. Each rule is a
small named function, here for noun phrases, verbs and clause breaks and in
:mod:`.relation_prepositions` for prepositions (the state they share: :mod:`.relation_state`),
named with its chunk kind, description and example captions (with the
triples they give) in the rule table ``data/rules.json`` (stage ``"relation"``), so the table
reads as the parser's specification; rules are switched off and recorded through a
:class:`.ruleset.Trace`, like the attribute parser's rules.

Attachment follows one convention where SPEC 1b is silent: a preposition phrase relates the noun
right before it (low attachment: "sign on pole next to road" -> (sign, on, pole), (pole, next to,
road)), or the verb's subject when the verb has no noun object ("a cat is sitting on a mat").
A participle after a noun relates that noun ("a man standing behind a woman holding a bat"),
except after a place the subject is in or at, which is no person or animal ("a man standing in
the kitchen cooking food", "people in a field flying a kite": the man, the people).
"""

from __future__ import annotations

import functools
from dataclasses import replace

from . import lexicon as lx
from .chunks import Chunk
from .normalise import singularise
from .relation_state import (
    Apply,
    Group,
    State,
    Verb,
    animate_noun,
    body_part_owner,
    is_body_part,
    start_verb,
    written_singular,
)
from .ruleset import NO_TRACE, RULES, Rule, Trace

__all__ = ["RELATION_RULES", "read_relations"]


# --- noun phrases --------------------------------------------------------------------------


def _anaphoric_pronoun(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if chunk.text or chunk.key not in lx.ANAPHORIC_PRONOUNS or not s.first_subject:
        return False
    first = next((noun for noun in s.first_subject if noun), "")
    if s.pending is None:  # a new subject: "skiers, one in a blue jacket and the other in black"
        antecedent = first
    elif s.pending[0] == "block":
        return False
    elif chunk.key == "one":  # "holding papers and cutting one": the nearest other noun
        sources = s.pending[2]
        before = (c.text for c in reversed(s.chunks[:i]) if c.kind == "NP" and c.text)
        antecedent = next((noun for noun in before if noun not in sources), first)
    elif s.pending[2] == s.first_subject:  # "one chasing the other": the same group
        antecedent = first
    elif chunk.key == "another" and animate_noun(first):  # "a zebra's head on the back of another"
        antecedent = first
    else:
        return False  # "a beverage in her right hand and a carrot in the other": not the subject
    if not antecedent:
        return False
    s.chunks[i] = replace(chunk, text=antecedent)
    if s.pending is not None:
        return _pending_object(s, i)
    s.subject = s.last = [antecedent]
    s.verb = s.pending = s.applied = None
    s.clause_verb = s.last_from_subject = False
    return True


def _conjoined_thing(s: State, i: int) -> bool:
    before = i - 1
    while s.kind_at(before) == "CONJ":
        before -= 1
    applied = s.applied
    if before == i - 1 or s.kind_at(before) != "NP" or applied is None or s.last is s.subject:
        return False
    mode, relation, sources = applied
    if mode != "rel" or relation not in lx.CONTAINMENT_PREPOSITIONS:
        return False  # verbs and "with" share their objects: "holding a cup and a plate"
    noun = s.chunks[i].text
    if not animate_noun(noun) and any(animate_noun(source) for source in sources):
        return False  # "a woman in a shirt and a skirt"
    s.subject = s.last = [noun]  # "a car in a garage and a bicycle": no (car, in, bicycle)
    s.applied = s.pending = None
    return True


def _subject_after_fronted_place(s: State, i: int) -> bool:
    if s.fronted is None or s.kind_at(i - 1) != "CONJ" or s.chunks[i - 1].key != ",":
        return False
    relation, places = s.fronted
    s.fronted = None
    s.subject = s.last = [s.chunks[i].text]
    s.first_subject = s.first_subject or s.subject
    s.emit("rel", relation, s.subject, places)  # "on top of a desk, a pair of scissors"
    s.applied, s.pending, s.last_from_subject = None, None, False
    return True


def _conjoined_with_object(s: State, i: int) -> bool:
    before = i - 1
    while s.kind_at(before) == "CONJ":
        before -= 1
    if before == i - 1 or s.kind_at(before) != "NP" or s.chunks[before].text or not s.with_head:
        return False  # the conjunct must follow a pronoun that closed a with-phrase's clause
    nxt = s.chunks[i + 1] if i + 1 < len(s.chunks) else None
    if nxt is None or nxt.blocking or nxt.finite or nxt.kind not in ("PREP", "VERB"):
        return False  # a small clause of its own follows: "and a flower next to it"
    if s.kind_at(i + 2) == "NP" and s.chunks[i + 2].key in lx.SCENE_NOUNS:
        return False  # not a scene frame: "and a building in the background" states nothing
    noun = s.chunks[i].text
    s.emit("rel", "with", s.with_head, [noun])  # "a cross with bears tied to it and a flower ..."
    s.last, s.applied = [noun], ("rel", "with", s.with_head)
    s.pending, s.last_from_subject = None, False
    return True


def _conjoined_subject_after_with(s: State, i: int) -> bool:
    applied, nxt = s.applied, s.chunks[i + 1] if i + 1 < len(s.chunks) else None
    if s.kind_at(i - 1) != "CONJ" or s.kind_at(i - 2) != "NP" or s.verb is not None:
        return False
    if nxt is None or nxt.kind != "VERB" or not nxt.plural or applied is None:
        return False
    if applied[:2] != ("rel", "with") or applied[2] is not s.subject or len(s.subject) != 1:
        return False  # one subject with a with-phrase, then "and" a noun and a plural verb
    if not written_singular(s, i, s.subject[0]):
        return False  # "people with bicycles and umbrellas are standing": the plural is theirs
    s.subject.append(s.chunks[i].text)  # "a man with a beard and a child are holding up food"
    s.last, s.applied, s.pending, s.last_from_subject = s.subject, None, None, False
    return True


def _conjoined_noun(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    before = i - 1
    while s.kind_at(before) == "CONJ":
        before -= 1  # a serial comma: "a floor, a sink, and a toaster"
    if before == i - 1 or s.kind_at(before) != "NP" or s.last is None:
        return False
    nxt = s.chunks[i + 1] if i + 1 < len(s.chunks) else None
    if nxt is not None and nxt.kind == "VERB" and nxt.finite and s.verb is not None:
        s.subject = s.last = [chunk.text]
        s.verb, s.pending, s.applied, s.clause_verb = None, None, None, False
        return True  # "a statue is on a bench and a woman sits on a block": a new clause
    own_place = nxt is not None and nxt.kind == "PREP" and not nxt.blocking
    # "girl with balloon and boy with kite": each has a with-phrase of its own
    with_again = own_place and nxt is not None and nxt.text == "with"
    applied = s.applied
    if own_place and applied is not None and (applied[1] != "with" or with_again) and not s.verb:
        s.subject = s.last = [chunk.text]  # "a cup on a table and a plate on the floor"
        s.applied = s.pending = None
        return True
    if s.applied is not None:
        s.emit(*s.applied, [chunk.text])
    if s.subject is s.last:
        s.subject.append(chunk.text)
    else:
        s.last.append(chunk.text)
    return True


def _conjoined_subject(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "CONJ" or s.kind_at(i - 2) != "VERB" or s.kind_at(i + 1) != "VERB":
        return False
    s.subject = s.last = [s.chunks[i].text]  # "a goat standing and a goat sitting in a field"
    s.verb, s.pending, s.applied, s.clause_verb = None, None, None, False
    return True


def _pronoun_subject(s: State, i: int) -> bool:
    if s.chunks[i].key not in lx.SUBJECT_PRONOUNS or s.subject is not None:
        return False
    s.subject = list(s.first_subject or [""])
    s.last, s.last_from_subject = s.subject, False
    return True


def _reflexive_object(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if s.pending is None or s.pending[0] != "rel" or chunk.text:
        return False
    reciprocal = chunk.key in lx.RECIPROCAL_PRONOUNS
    if not reciprocal and chunk.key not in lx.REFLEXIVE_PRONOUNS:
        return False
    _, relation, sources = s.pending
    verb = s.verb
    if (
        reciprocal
        and verb is not None
        and sources is not verb.subject
        and s.kind_at(i - 1) == "PREP"
        and s.kind_at(i - 2) == "NP"
        and singularise(s.chunks[i - 2].key) == s.chunks[i - 2].key
    ):  # "planes fly in the air near each other": the planes are near each other, not the air
        relation = "" if verb.negated else f"{verb.lemma} {s.chunks[i - 1].text}".strip()
        sources = verb.subject
    subjects = list(dict.fromkeys(source for source in sources if source))
    if reciprocal and verb is not None and verb.participle and sources is verb.subject:
        if len(subjects) == 1 and written_singular(s, i, subjects[0]):
            subjects = _plural_before_verb(s, i) or subjects
    if not reciprocal and relation.rpartition(" ")[2] == "by":
        subjects = []  # "a zebra all by itself": alone, no relation
    for source in subjects:  # "a man and a woman facing each other": both directions
        others = [other for other in subjects if other != source] if reciprocal else []
        s.emit("rel", relation, [source], others or [source])
    s.pending, s.applied, s.last, s.last_from_subject = None, None, [""], False
    return True


def _plural_before_verb(s: State, i: int) -> Group:
    """The plural noun right before the verb of the reciprocal at ``i``, when it is not that
    verb's one subject: "each other" needs more than one ("an airport with jets parked/VBD next
    to each other": the jets, not the airport)."""
    j = i - 1
    while j >= 0 and s.chunks[j].kind != "VERB":
        j -= 1
    noun = s.chunks[j - 1] if j >= 1 and s.kind_at(j - 1) == "NP" else None
    if noun is None or not noun.text or singularise(noun.key) == noun.key:
        return []
    verb = s.verb
    return [noun.text] if verb is not None and noun.text not in verb.subject else []


def _pronoun_object(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if s.pending is None or s.pending[0] == "block" or chunk.text:
        return False
    if chunk.key in lx.ANIMATE_PRONOUNS:
        fitting: bool | None = True
    elif chunk.key in lx.INANIMATE_PRONOUNS:
        fitting = False
    elif chunk.key in lx.PLURAL_PRONOUNS:
        fitting = None
    else:
        return False
    mode, relation, sources = s.pending
    antecedent = _antecedent(s, i, sources, fitting)
    if not antecedent:
        return False
    s.emit(mode, relation, sources, antecedent)
    s.pending, s.applied, s.last, s.last_from_subject = None, None, [""], False
    return True


def _antecedent(s: State, i: int, sources: Group, animate: bool | None) -> Group:
    """The nouns an object pronoun stands for (SPEC 1b: the nearest fitting noun of the
    subject phrase): the head of the with-phrase the pronoun closes ("a box with labels on it"),
    else the clause's subject, else the caption's first subject ("a shepherd watches them" ->
    the sheep the caption began with), else the nearest noun before it that is no body part
    ("holding a toothbrush in his hand looking at it" -> toothbrush); never the relation's own
    subject ("walking by the sheep and petting them" -> sheep). ``animate``: a person or animal
    ("him"), none ("it"), either ("them")."""

    def fitting(group: Group | None) -> Group:
        return [
            noun
            for noun in group or ()
            if noun and noun not in sources and animate in (None, animate_noun(noun))
        ]

    for group in (s.with_head, s.subject, s.first_subject):
        nouns = fitting(group)
        if nouns:
            return nouns
    for before in range(i - 1, -1, -1):
        chunk = s.chunks[before]
        if chunk.kind == "NP" and fitting([chunk.text]) and not is_body_part(chunk):
            return [chunk.text]  # not "his hand" in "holding a toothbrush in his hand ... it"
    return []


def _pending_object(s: State, i: int) -> bool:
    if s.pending is None:
        return False
    obj = s.chunks[i].text
    mode, relation, sources = s.pending
    if mode == "front":  # "on top of a desk, a pair of scissors": the subject comes later
        s.fronted, s.pending, s.applied, s.last = (relation, [obj]), None, None, [obj]
        return True
    bare = relation == s.chunks[i - 1].text != "with"  # "people in a field"
    placed = relation.endswith(" " + s.chunks[i - 1].text) and not animate_noun(
        obj
    )  # "in a kitchen"
    s.last_from_subject = mode == "rel" and sources is s.subject and (bare or placed)
    s.blocked_head = s.block_head if mode == "block" else None
    if mode != "block":
        s.emit(mode, relation, sources, [obj])
    if mode == "rel" and relation == "with" and obj:
        s.with_head = sources
    s.applied = (mode, relation, sources) if mode != "block" and obj else None
    s.pending, s.last = None, [obj]
    return True


def _clause_subject(s: State, i: int) -> bool:
    if s.subject is not None:
        return False
    s.subject = s.last = [s.chunks[i].text]
    s.first_subject = s.first_subject or s.subject
    s.applied, s.last_from_subject, s.blocked_head = None, False, None
    return True


def _other_noun(s: State, i: int) -> bool:
    s.last, s.applied, s.last_from_subject = [s.chunks[i].text], None, False
    s.blocked_head = None
    return True


# --- verbs -----------------------------------------------------------------------------------


def _partitive_relative(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "REL" or s.kind_at(i - 2) != "PREP" or s.chunks[i - 2].text != "of":
        return False
    if not s.blocked_head or not any(s.blocked_head):
        return False
    return start_verb(s, s.chunks[i], s.blocked_head)  # "flowers of various shapes, one of which"


def _relative_clause(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "REL" or not s.last:
        return False
    return start_verb(s, s.chunks[i], s.last)


def _infinitive(s: State, i: int) -> bool:
    if not s.chunks[i].infinitive:
        return False
    subject = s.verb.subject if s.verb is not None else s.subject
    if s.chunks[i].intention:  # "stopped to pet the sheep": an intention states nothing
        s.verb, s.pending = Verb(s.chunks[i].text, subject or [""], negated=True), None
        s.clause_verb = True
        return True
    return start_verb(s, s.chunks[i], subject or [""])


def _conjoined_verb(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "CONJ":
        return False
    subject = s.verb.subject if s.verb is not None else s.subject
    return start_verb(s, s.chunks[i], subject or [""])


def _participle_after_body_part(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    owner = body_part_owner(s, i, chunk.participle == "")
    if not owner or chunk.finite:
        return False
    return start_verb(s, s.chunks[i], owner)  # "holding a toothbrush in his hand looking at it"


def _posture_after_landmark(s: State, i: int) -> bool:
    chunk, verb, applied = s.chunks[i], s.verb, s.applied
    if chunk.finite or s.kind_at(i - 1) != "NP" or not s.last_from_subject or verb is None:
        return False
    if chunk.text.partition(" ")[0] not in lx.POSTURE_VERBS or applied is None:
        return False
    if verb.lemma.partition(" ")[0] not in lx.POSTURE_VERBS or applied[2] is not verb.subject:
        return False  # the subject's own posture, then a thing it is placed by
    preposition = applied[1].removeprefix(verb.lemma + " ")
    if preposition == applied[1] or preposition in lx.CONTAINMENT_PREPOSITIONS:
        return False  # not "a cat sitting on a laptop": a place the subject is on or in
    if not s.last or any(not noun or animate_noun(noun) for noun in s.last):
        return False
    return start_verb(s, chunk, s.last)  # "cats sitting next to a monitor sitting on a table"


def _reduced_relative(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if chunk.finite or s.kind_at(i - 1) != "NP" or not s.last:
        return False
    head = s.blocked_head
    if head and any(head):
        if all(singularise(noun) in lx.BODY_PART_NOUNS for noun in head) and animate_noun(
            s.last[0]
        ):
            head = s.last  # "the hand of a person picking up a pizza": the person picks it up
        return start_verb(s, chunk, head)  # "a drape full of feathers sitting on"
    if not any(s.last) or (s.last_from_subject and not chunk.participle):
        return start_verb(s, chunk, s.subject or [""])  # "people in a field flying a kite"
    return start_verb(s, chunk, s.last)


def _small_clause(s: State, i: int) -> bool:
    verb, applied = s.verb, s.applied
    if s.kind_at(i - 1) != "NP" or verb is None or verb.lemma not in lx.PERCEPTION_VERBS:
        return False
    if applied is None or applied[:2] != ("rel", verb.lemma) or not s.last or not any(s.last):
        return False  # the noun must be the perception verb's object
    return start_verb(s, s.chunks[i], s.last)  # "watching a man play tennis": the man plays


def _finite_verb(s: State, i: int) -> bool:
    return start_verb(s, s.chunks[i], s.subject or s.last or [""])


# --- clause structure ------------------------------------------------------------------------


def _clause_break(s: State, i: int) -> bool:
    nxt = s.chunks[i + 1] if i + 1 < len(s.chunks) else None
    if nxt is not None and nxt.kind == "VERB" and not nxt.finite and s.subject:
        s.verb = s.pending = s.applied = None  # "talking on a phone while walking": same subject
        s.last = None
        return True
    s.subject = s.last = s.verb = s.pending = s.applied = s.with_head = None
    s.clause_verb = s.last_from_subject = False
    return True


#: The relation rules of the table (stage "relation"), in the order they are tried.
RELATION_RULES: tuple[Rule, ...] = tuple(RULES[name] for name in RULES.names("relation"))


@functools.cache
def _by_chunk() -> dict[str, tuple[tuple[str, Apply], ...]]:
    """Each chunk kind's rules, in order, with their code (``code`` in the table)."""
    from .patterns import code

    table: dict[str, tuple[tuple[str, Apply], ...]] = {}
    for rule in RELATION_RULES:
        table[rule.chunk or ""] = (
            *table.get(rule.chunk or "", ()),
            (rule.name, code(rule.code or "")),
        )
    return table


def read_relations(chunks: list[Chunk], trace: Trace = NO_TRACE) -> list[tuple[str, str, str]]:
    """The triples the chunks state, in order, with duplicates (the caller removes them).
    A rule that ``trace`` switches off is skipped (the next rule of the chunk's kind is tried);
    a recording ``trace`` receives (rule name, chunk index) for every chunk read."""
    state = State(chunks)
    disabled = trace.disabled
    by_chunk = _by_chunk()
    for i, chunk in enumerate(chunks):
        for name, apply in by_chunk.get(chunk.kind, ()):
            if name not in disabled and apply(state, i):
                trace.fire(name, i)
                break
    return state.found
