"""What the relation rules know while they read a caption's chunks, and the helpers rules of
several chunk kinds share (:mod:`.relation_rules` for noun phrases, verbs and clause breaks,
:mod:`.relation_prepositions` for prepositions): the reader's :class:`State`, a verb's
:class:`Verb`, whether an object is a person or animal, a body part and its owner.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import lexicon as lx
from .chunks import Chunk
from .normalise import singularise

__all__ = [
    "Apply",
    "Group",
    "State",
    "Verb",
    "animate_noun",
    "is_body_part",
    "body_part_owner",
    "start_verb",
    "written_singular",
]

Group = list[str]  # the objects of a (conjoined) noun phrase; "" = no argument


@dataclass
class Verb:
    """The verb a clause's relations are read with, and whose subject it relates."""

    lemma: str  # "" for a copula or light verb
    subject: Group
    participle: str = ""
    negated: bool = False


@dataclass
class State:
    """What the reader knows at one chunk of a caption."""

    chunks: list[Chunk]
    found: list[tuple[str, str, str]] = field(default_factory=list)
    first_subject: Group | None = None
    subject: Group | None = None  # the clause's subject
    last: Group | None = None  # the last noun phrase: where a preposition phrase attaches
    last_from_subject: bool = False  # the last NP is a place the subject is in or at
    verb: Verb | None = None
    pending: tuple[str, str, Group] | None = None  # (mode, relation, sources) awaiting an NP
    applied: tuple[str, str, Group] | None = None  # what the last NP received (for conjuncts)
    clause_verb: bool = False  # a lexical verb stood in this clause
    block_head: Group | None = None  # the noun before "of"/"for"... ("a drape full of feathers")
    blocked_head: Group | None = None  # the same, once the noun after it is read
    with_head: Group | None = None  # the head of the last with-phrase: what its "it" stands for
    fronted: tuple[str, Group] | None = None  # a clause-opening place phrase awaiting its subject

    def emit(self, mode: str, relation: str, sources: Group, objects: Group) -> None:
        for source in sources:
            for obj in objects:
                if source and obj and relation:
                    pair = (obj, source) if mode == "agent" else (source, obj)
                    self.found.append((pair[0], relation, pair[1]))

    def kind_at(self, i: int) -> str:
        return self.chunks[i].kind if 0 <= i < len(self.chunks) else ""


def animate_noun(obj: str) -> bool:
    return singularise(obj.rpartition(" ")[2]) in lx.ANIMATE_NOUNS


def is_body_part(chunk: Chunk) -> bool:
    return singularise(chunk.key) in lx.BODY_PART_NOUNS


def body_part_owner(s: State, i: int, after_with: bool = False) -> Group:
    """The person or animal whose body part closes the preposition phrase right before chunk
    ``i`` ("a toothbrush in his hand": the infant holding it), else an empty group; after "with"
    only where ``after_with`` ("with their mouths open growling": the bears growl)."""
    before = s.chunks[i - 2] if s.kind_at(i - 2) == "PREP" else None
    if s.kind_at(i - 1) != "NP" or before is None or before.blocking:
        return []
    if before.text == "with" and not after_with:
        return []  # a with-absolute's own small clause: "a man with his arm around a woman"
    if not is_body_part(s.chunks[i - 1]) or not s.chunks[i - 1].text:
        return []
    owner = s.verb.subject if s.verb is not None else s.subject
    return owner if owner and any(animate_noun(noun) for noun in owner) else []


def written_singular(s: State, i: int, noun: str) -> bool:
    """Whether the nearest noun phrase before chunk ``i`` whose object is ``noun`` is written in
    the singular ("a man", not "men", which both give the object "man")."""
    for before in range(i - 1, -1, -1):
        chunk = s.chunks[before]
        if chunk.kind == "NP" and chunk.text == noun:
            return singularise(chunk.key) == chunk.key
    return False


def start_verb(s: State, chunk: Chunk, subject: Group) -> bool:
    s.verb = Verb(chunk.text, subject, chunk.participle, chunk.negated)
    lexical = bool(chunk.text) and not chunk.negated
    s.pending = ("rel", chunk.text, subject) if lexical else None
    s.clause_verb = s.clause_verb or lexical
    return True


#: A rule's code: whether it read the chunk at the index (and changed the state).
Apply = Callable[[State, int], bool]
