"""Which (subject, relation, object) triples a caption's chunks state (SPEC section 1b).

The chunks (:mod:`.relation_chunks`) are read left to right. For each chunk the rules of its kind
in :data:`RELATION_RULES` are tried in order; the first that applies handles it. Each rule is a
small named function with a description and example captions (the tests parse every example),
so the table reads as the parser's specification; each rule is also registered in
:data:`.ruleset.RULES` with stage ``"relation"`` (switched off and recorded through a
:class:`.ruleset.Trace`, like the attribute parser's rules).

Attachment follows one convention where SPEC 1b is silent: a preposition phrase relates the noun
right before it (low attachment: "sign on pole next to road" -> (sign, on, pole), (pole, next to,
road)), or the verb's subject when the verb has no noun object ("a cat is sitting on a mat").
A participle after a noun relates that noun ("a man standing behind a woman holding a bat"),
except after a place the subject is in or at, which is no person or animal ("a man standing in
the kitchen cooking food", "people in a field flying a kite": the man, the people).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import lexicon as lx
from .normalise import singularise
from .relation_chunks import Chunk
from .ruleset import NO_TRACE, RULES, Example, Rule, Trace

__all__ = ["RELATION_RULES", "RelationRule", "read_relations"]

Group = list[str]  # the objects of a (conjoined) noun phrase; "" = no argument


@dataclass
class _Verb:
    lemma: str  # "" for a copula or light verb
    subject: Group
    participle: str = ""
    negated: bool = False


@dataclass
class _State:
    """What the reader knows at one chunk of a caption."""

    chunks: list[Chunk]
    found: list[tuple[str, str, str]] = field(default_factory=list)
    first_subject: Group | None = None
    subject: Group | None = None  # the clause's subject
    last: Group | None = None  # the last noun phrase: where a preposition phrase attaches
    last_from_subject: bool = False  # the last NP is a place the subject is in or at
    verb: _Verb | None = None
    pending: tuple[str, str, Group] | None = None  # (mode, relation, sources) awaiting an NP
    applied: tuple[str, str, Group] | None = None  # what the last NP received (for conjuncts)
    clause_verb: bool = False  # a lexical verb stood in this clause
    block_head: Group | None = None  # the noun before "of"/"for"... ("a drape full of feathers")
    blocked_head: Group | None = None  # the same, once the noun after it is read
    block_container: bool = False  # that noun is a container ("a plate of food")
    blocked_container: bool = False

    def emit(self, mode: str, relation: str, sources: Group, objects: Group) -> None:
        for source in sources:
            for obj in objects:
                if source and obj and relation:
                    pair = (obj, source) if mode == "agent" else (source, obj)
                    self.found.append((pair[0], relation, pair[1]))

    def kind_at(self, i: int) -> str:
        return self.chunks[i].kind if 0 <= i < len(self.chunks) else ""


Apply = Callable[[_State, int], bool]


@dataclass(frozen=True)
class RelationRule:
    """One rule of the relation parser: ``apply(state, i)`` handles chunk ``i`` or declines.

    Shaped like the attribute parser's rule records (name in kebab case, ``stage``
    ``"relation"``, description, example captions), so that a rule registry can hold both.
    """

    name: str
    chunk: str  # the chunk kind it reads: NP, PREP, VERB, CONJ, REL, BREAK
    description: str
    examples: tuple[str, ...]
    apply: Apply
    stage: str = "relation"


# --- noun phrases --------------------------------------------------------------------------


def _conjoined_noun(s: _State, i: int) -> bool:
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
    if own_place and s.applied is not None and s.applied[1] != "with" and s.verb is None:
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


def _conjoined_subject(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "CONJ" or s.kind_at(i - 2) != "VERB" or s.kind_at(i + 1) != "VERB":
        return False
    s.subject = s.last = [s.chunks[i].text]  # "a goat standing and a goat sitting in a field"
    s.verb, s.pending, s.applied, s.clause_verb = None, None, None, False
    return True


def _pronoun_subject(s: _State, i: int) -> bool:
    if s.chunks[i].key not in lx.SUBJECT_PRONOUNS or s.subject is not None:
        return False
    s.subject = list(s.first_subject or [""])
    s.last, s.last_from_subject = s.subject, False
    return True


def _pending_object(s: _State, i: int) -> bool:
    if s.pending is None:
        return False
    obj = s.chunks[i].text
    mode, relation, sources = s.pending
    bare = relation == s.chunks[i - 1].text != "with"  # "people in a field"
    placed = relation.endswith(" " + s.chunks[i - 1].text) and not _animate(obj)  # "in a kitchen"
    s.last_from_subject = mode == "rel" and sources is s.subject and (bare or placed)
    s.blocked_head = s.block_head if mode == "block" else None
    s.blocked_container = s.block_container and mode == "block"
    if mode != "block":
        s.emit(mode, relation, sources, [obj])
    s.applied = (mode, relation, sources) if mode != "block" and obj else None
    s.pending, s.last = None, [obj]
    return True


def _animate(obj: str) -> bool:
    return singularise(obj.rpartition(" ")[2]) in lx.ANIMATE_NOUNS


def _clause_subject(s: _State, i: int) -> bool:
    if s.subject is not None:
        return False
    s.subject = s.last = [s.chunks[i].text]
    s.first_subject = s.first_subject or s.subject
    s.applied, s.last_from_subject, s.blocked_head = None, False, None
    return True


def _other_noun(s: _State, i: int) -> bool:
    s.last, s.applied, s.last_from_subject = [s.chunks[i].text], None, False
    s.blocked_head = None
    return True


# --- prepositions ----------------------------------------------------------------------------


def _blocking_preposition(s: _State, i: int) -> bool:
    if not s.chunks[i].blocking:
        return False
    s.pending = ("block", "", [])
    after_noun = s.chunks[i].text == "of" and s.kind_at(i - 1) == "NP"
    s.block_head = s.last if after_noun else None
    s.block_container = after_noun and singularise(s.chunks[i - 1].key) in lx.CONTAINER_NOUNS
    return True


def _passive_agent(s: _State, i: int) -> bool:
    verb = s.verb
    if (
        s.chunks[i].text != "by"
        or s.kind_at(i - 1) != "VERB"
        or verb is None
        or not verb.lemma
        or not verb.participle
        or verb.participle in lx.LOCATIVE_PARTICIPLES
    ):
        return False
    s.pending = ("agent", verb.lemma, verb.subject)
    return True


def _with_absolute(s: _State, i: int) -> bool:
    if s.chunks[i].text != "with" or s.kind_at(i - 1) != "NP" or not s.clause_verb:
        return False
    if s.kind_at(i + 1) != "NP" or s.verb is None:
        return False
    after = s.chunks[i + 2] if i + 2 < len(s.chunks) else None
    if after is None or not (
        (after.kind == "VERB" and not after.finite) or (after.kind == "PREP" and not after.blocking)
    ):
        return False
    s.pending = ("rel", "with", s.verb.subject)
    return True


def _preposition_after_noun(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "NP" or not s.last or not any(s.last):
        return False
    head = s.last
    if s.blocked_container and s.blocked_head and any(s.blocked_head):
        head = s.blocked_head
    s.pending = ("rel", s.chunks[i].text, head)  # "a plate of food on a table": the plate
    return True


def _preposition_after_verb(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "VERB" or s.verb is None:
        return False
    verb = s.verb
    relation = "" if verb.negated else f"{verb.lemma} {s.chunks[i].text}".strip()
    s.pending = ("rel", relation, verb.subject)
    return True


def _preposition_after_pronoun(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "NP":
        return False
    verb = s.verb
    if verb is not None and verb.lemma and not verb.negated:
        s.pending = ("rel", f"{verb.lemma} {s.chunks[i].text}", verb.subject)
    elif s.subject is not None:
        s.pending = ("rel", s.chunks[i].text, s.subject)
    return True


def _dangling_preposition(s: _State, i: int) -> bool:
    s.pending = None
    return True


# --- verbs -----------------------------------------------------------------------------------


def _start_verb(s: _State, chunk: Chunk, subject: Group) -> bool:
    s.verb = _Verb(chunk.text, subject, chunk.participle, chunk.negated)
    lexical = bool(chunk.text) and not chunk.negated
    s.pending = ("rel", chunk.text, subject) if lexical else None
    s.clause_verb = s.clause_verb or lexical
    return True


def _relative_clause(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "REL" or not s.last:
        return False
    return _start_verb(s, s.chunks[i], s.last)


def _infinitive(s: _State, i: int) -> bool:
    if not s.chunks[i].infinitive:
        return False
    subject = s.verb.subject if s.verb is not None else s.subject
    return _start_verb(s, s.chunks[i], subject or [""])


def _conjoined_verb(s: _State, i: int) -> bool:
    if s.kind_at(i - 1) != "CONJ":
        return False
    subject = s.verb.subject if s.verb is not None else s.subject
    return _start_verb(s, s.chunks[i], subject or [""])


def _reduced_relative(s: _State, i: int) -> bool:
    chunk = s.chunks[i]
    if chunk.finite or s.kind_at(i - 1) != "NP" or not s.last:
        return False
    if s.blocked_head and any(s.blocked_head):
        return _start_verb(s, chunk, s.blocked_head)  # "a drape full of feathers sitting on"
    if not any(s.last) or (s.last_from_subject and not chunk.participle):
        return _start_verb(s, chunk, s.subject or [""])  # "people in a field flying a kite"
    return _start_verb(s, chunk, s.last)


def _finite_verb(s: _State, i: int) -> bool:
    return _start_verb(s, s.chunks[i], s.subject or s.last or [""])


# --- clause structure ------------------------------------------------------------------------


def _clause_break(s: _State, i: int) -> bool:
    nxt = s.chunks[i + 1] if i + 1 < len(s.chunks) else None
    if nxt is not None and nxt.kind == "VERB" and not nxt.finite and s.subject:
        s.verb = s.pending = s.applied = None  # "talking on a phone while walking": same subject
        s.last = None
        return True
    s.subject = s.last = s.verb = s.pending = s.applied = None
    s.clause_verb = s.last_from_subject = False
    return True


def _pass(s: _State, i: int) -> bool:
    return True


def _rule(name: str, chunk: str, description: str, examples: tuple[str, ...], apply: Apply):
    return RelationRule(name, chunk, description, examples, apply)


#: The rules, in the order they are tried for a chunk of their stage.
RELATION_RULES: tuple[RelationRule, ...] = (
    _rule("conjoined-noun", "NP", "a noun conjoined with the one before shares its relation; "
          "after a verb and before a finite verb it opens a new clause",
          ("a man and a woman sitting on a bench", "a bathroom with toys and books",
           "a statue is sitting on a bench and a woman sits on a block"), _conjoined_noun),
    _rule("conjoined-subject", "NP", "a noun after a verb and 'and', before a verb, is that "
          "verb's subject", ("a goat standing and a dog sitting in a field",), _conjoined_subject),
    _rule("pronoun-subject", "NP", "he/she/they as a clause's subject stand for the caption's "
          "first subject", ("a man puckers up as he holds an orange",), _pronoun_subject),
    _rule("pending-object", "NP", "the noun after a verb or preposition is its object; after "
          "'by' a passive's agent", ("man riding horse", "a kite flown by a boy"), _pending_object),
    _rule("clause-subject", "NP", "the first noun of a clause is its subject",
          ("a cat is on a mat",), _clause_subject),
    _rule("other-noun", "NP", "any other noun is where a preposition phrase after it attaches",
          ("the animal is a dog on a bed",), _other_noun),
    _rule("blocking-preposition", "PREP", "'of', 'for', 'without' state no relation",
          ("the side of the road", "a boy without a bat"), _blocking_preposition),
    _rule("passive-agent", "PREP", "'by' after a past participle names the agent of the active "
          "triple, unless the participle places its noun ('parked by the road')",
          ("a kite flown by a boy", "a bus parked by the road"), _passive_agent),
    _rule("with-absolute", "PREP", "'with NOUN' followed by a participle or place phrase, after "
          "a verb, relates the verb's subject",
          ("a cat sitting on a couch with a dog on the floor",), _with_absolute),
    _rule("preposition-after-noun", "PREP", "a preposition after a noun relates that noun",
          ("handle on door", "sign on pole next to road"), _preposition_after_noun),
    _rule("preposition-after-verb", "PREP", "a preposition after a verb joins it (verb lemma + "
          "preposition); after a copula it stands alone",
          ("bike leaning against fence", "a cat is on a mat"), _preposition_after_verb),
    _rule("preposition-after-pronoun", "PREP", "after a pronoun or a place word, a preposition "
          "relates the clause's subject", ("two bears fight with each other in front of a log",),
          _preposition_after_pronoun),
    _rule("dangling-preposition", "PREP", "a preposition with nothing to relate is dropped",
          ("in front of a house",), _dangling_preposition),
    _rule("relative-clause", "VERB", "a relative clause relates its head",
          ("a man who is holding an umbrella",), _relative_clause),
    _rule("infinitive", "VERB", "a verb after 'to' has the subject of the verb before it",
          ("a boy getting ready to blow out candles",), _infinitive),
    _rule("conjoined-verb", "VERB", "a verb after 'and' or a comma has the subject of the verb "
          "before it", ("a girl playing with a doll and chewing on a toy",), _conjoined_verb),
    _rule("reduced-relative", "VERB", "a participle after a noun relates that noun, or the "
          "clause's subject after a place phrase of it",
          ("man WEARING shirt", "people in a field flying a kite"), _reduced_relative),
    _rule("finite-verb", "VERB", "a finite verb's subject is the clause's subject",
          ("a man near a skateboard is coming up a ramp",), _finite_verb),
    _rule("conjunction", "CONJ", "conjunctions are read by the rules of what follows",
          ("a cat and a dog on a sofa",), _pass),
    _rule("relative-word", "REL", "that/which/who: the verb after it relates the noun before",
          ("a woman that is petting a cat",), _pass),
    _rule("clause-break", "BREAK", "a new clause (while, as, where, a full stop) names its "
          "subject afresh", ("a woman prepares a pizza while a man watches",), _clause_break),
)  # fmt: skip

_BY_CHUNK: dict[str, tuple[RelationRule, ...]] = {}
for _r in RELATION_RULES:
    _BY_CHUNK[_r.chunk] = (*_BY_CHUNK.get(_r.chunk, ()), _r)
    # one registry for every named rule of the parser (stage "relation"); the examples' triples
    # are checked by tests/test_relations.py, so they carry no attribute bindings here
    RULES.register(
        Rule(_r.name, _r.stage, _r.description, tuple(Example(c, ()) for c in _r.examples))
    )


def read_relations(chunks: list[Chunk], trace: Trace = NO_TRACE) -> list[tuple[str, str, str]]:
    """The triples the chunks state, in order, with duplicates (the caller removes them).
    A rule that ``trace`` switches off is skipped (the next rule of the chunk's kind is tried);
    a recording ``trace`` receives (rule name, chunk index) for every chunk read."""
    state = _State(chunks)
    disabled = trace.disabled
    for i, chunk in enumerate(chunks):
        for rule in _BY_CHUNK[chunk.kind]:
            if rule.name not in disabled and rule.apply(state, i):
                trace.fire(rule.name, i)
                break
    return state.found
