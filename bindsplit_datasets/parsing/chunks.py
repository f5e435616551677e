"""The one chunker of both readers: noun runs, their objects and clause subjects, and the chunks
relations are made of (SPEC section 1b).

The binding reader (:mod:`.rules`) and the relation reader find noun phrases the same way: a noun
phrase's head is a maximal run of nouns (:func:`noun_runs`, :func:`noun_run_end`), its object the
run without the lexicon words at its left edge, the last word singular (:func:`object_at`, SPEC
section 1), and the subject of a clause whose second predicate starts after "and" is the run before
its first verb (:func:`clause_subject`).

For the relation reader, a caption's units (corrected, and mended by the rule table's stage
``relation-correction``) are grouped into a flat list of :class:`Chunk` s:

- ``NP``: a noun run, its object normalised as in SPEC section 1 (lexicon words at its left edge are
  attributes, the last word singular); ``obj`` is ``""`` for a phrase that is no argument (a
  pronoun, a position noun on its own, a noun of time, a noun after "no"). A transparent noun
  (partitive, container, frame) before "of" gives way to the noun after it ("a group of people"
  -> person, "a bowl of soup" -> soup).
- ``PREP``: a preposition or multi-word preposition as written ("next to", "on the side of"), or
  an adjective with its preposition ("full of"; ``key`` the adjective);
  ``blocking`` for those that state no relation ("of", "without"; "for" and "after" but right
  after a verb).
- ``VERB``: a verb group (auxiliaries, adverbs, the main verb, a particle): the main verb's lemma
  with its particle ("is sitting" -> sit, "blow out"), ``""`` for a copula or light verb alone.
  A possessor before "'s" gives way to the noun after it ("boy's suit" -> suit).
- ``CONJ``, ``REL`` (that / which / who) and ``BREAK`` (a new clause: while, as, where, a full
  stop).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import lexicon as lx
from . import relation_words as rw
from . import wordclasses as wc
from . import wordlists as wl
from .kinds import (
    ADV,
    ATTR,
    CONJ,
    COPULA,
    DET,
    GERUND,
    NEG,
    NOUN,
    OTHER,
    PART,
    PREP,
    REL,
    VERB,
    WEAK,
)
from .normalise import object_of, singularise
from .units import Units

__all__ = [
    "Chunk",
    "chunk_units",
    "clause_subject",
    "noun_run_end",
    "noun_runs",
    "object_at",
    "object_start",
    "phrasal_length",
]

#: Words that open a new clause whose subject is named afresh.
_CLAUSE_WORDS: frozenset[str] = wl.words("conjunctions", "clause")
#: Words that open a new clause only when a subject and a finite verb follow ("as he holds").
_CLAUSE_IF_FINITE: frozenset[str] = wl.words("conjunctions", "clause-if-finite")
_SENTENCE_ENDS: frozenset[str] = wl.words("conjunctions", "sentence-end")
_FINITE_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
_VERB_KINDS = frozenset({COPULA, VERB, GERUND, PART, WEAK})
_MODIFIER_LEFT = frozenset({DET, ATTR, PREP, WEAK, PART, GERUND})
_MODIFIED = frozenset({NOUN, ATTR, WEAK, PART, GERUND})
#: The words read as prepositions whatever their kind (the others only when tagged as one).
_READ_PREPOSITIONS = (
    lx.RELATION_PREPOSITIONS | lx.BLOCKING_PREPOSITIONS | lx.AFTER_VERB_PREPOSITIONS
)
#: The words whose preposition chunk states a relation wherever it stands.
_STATING_PREPOSITIONS = lx.RELATION_PREPOSITIONS | lx.BEFORE_NOUN_PREPOSITIONS


def noun_run_end(units: Units, start: int, stop: frozenset[str] = frozenset()) -> int:
    """Where the run of nouns from unit ``start`` ends (exclusive), before any word of ``stop``."""
    end = start
    while end < units.n and units.kind[end] == NOUN and units.key[end] not in stop:
        end += 1
    return end


def noun_runs(units: Units) -> list[tuple[int, int]]:
    """(start, end) of every maximal run of nouns, end exclusive: one pass over the kinds (about
    twice as fast as a regular expression over :meth:`.units.Units.kinds` and its matches)."""
    runs: list[tuple[int, int]] = []
    start = 0  # where a run can start: after the last unit that is no noun
    for i, kind in enumerate(units.kind):
        if kind != NOUN:
            if start < i:
                runs.append((start, i))
            start = i + 1
    if start < units.n:
        runs.append((start, units.n))
    return runs


def object_start(units: Units, start: int, end: int) -> int:
    """Where the object of the noun run ``[start, end)`` starts: lexicon words at its left edge
    are attributes ("glass vase" -> vase)."""
    key = units.key
    while end - start > 1 and key[start] in lx.ATTRIBUTES:
        start += 1
    return start


def object_at(units: Units, start: int, end: int) -> tuple[int, str]:
    """(object start, object) of the noun run ``[start, end)`` (see :func:`object_start`)."""
    head = object_start(units, start, end)
    return head, object_of(units.text[head:end])


def clause_subject(
    units: Units, run_ending: dict[int, tuple[int, int]], conjunction: int
) -> list[tuple[int, int]]:
    """The subject of a clause whose second predicate starts after ``conjunction``: the noun
    run (of ``run_ending``, by its last unit) right before the first verb of the caption, when
    that verb comes before the conjunction ("this bathroom has pink tiles ... and is painted
    blue" -> bathroom)."""
    for i in range(conjunction):
        if units.is_verb(i) or units.key[i] in lx.VERBS_3SG:
            run = run_ending.get(units.previous(i))
            return [run] if run is not None else []
        if units.kind[i] in (PREP, REL, CONJ):
            return []
    return []


@dataclass
class Chunk:
    """One chunk of a caption (see the module docstring)."""

    kind: str  # NP, PREP, VERB, CONJ, REL, BREAK
    text: str  # NP: the object ("" = no argument); PREP: as written; VERB: lemma [+ particle]
    key: str = ""  # NP: the pronoun or head as written; CONJ: the conjunction; PREP: an adjective
    finite: bool = False  # VERB: a finite form or an auxiliary ("sits", "is sitting")
    participle: str = ""  # VERB: the main verb as written when a past participle ("flown")
    blocking: bool = False  # PREP: states no relation
    infinitive: bool = False  # VERB: after "to"
    negated: bool = False  # VERB: with "not"/"n't"/"never"
    intention: bool = False  # VERB: an infinitive of intention ("stopped to pet", "about to jump")


def _is_verb_unit(u: Units, i: int) -> bool:
    """Whether unit ``i`` acts as a verb: a finite verb or copula, or a participle / gerund that
    does not modify the noun after it ("a sleeping cat", "a grass covered forest")."""
    kind = u.kind[i]
    if kind == COPULA or (kind == OTHER and u.tag[i] in _FINITE_TAGS) or kind == VERB:
        return True
    if kind == OTHER and (
        (u.tag[i] in ("NNS", "NN") and wc.classes(u.key[i]) & wc.VERB)
        or (u.tag[i] == "JJ" and u.key[i] in lx.VERBS_3SG)
    ):  # a verb tagged as a noun or adjective that the corrections took out of a noun run
        return True  # ("stands/NNS", "her dog sleeps/JJ beside her")
    if kind not in (GERUND, PART, WEAK):
        return False
    before, after = u.previous(i), u.following(i)
    modifies = after < u.n and u.kind[after] in _MODIFIED
    if not modifies:
        return True
    if before < 0 or u.kind[before] in _MODIFIER_LEFT:
        # after "to" a verb, unless a past participle ("walking to parked car")
        return _infinitive_to(u, before) and (kind == GERUND or rw.verb_lemma(u.key[i]) == u.key[i])
    if u.kind[before] == NOUN and u.key[i] in lx.COMPOUND_PARTICIPLES and u.kind[after] == NOUN:
        return before > 0 and u.kind[before - 1] == NOUN  # "man riding horse"; not "grass covered"
    return True


#: The multi-word prepositions by their first word, longest first.
_PHRASAL_BY_FIRST: dict[str, tuple[tuple[str, ...], ...]] = {}
for _words in lx.PHRASAL_PREPOSITIONS:
    _PHRASAL_BY_FIRST[_words[0]] = (*_PHRASAL_BY_FIRST.get(_words[0], ()), _words)


def phrasal_length(u: Units, i: int) -> int:
    """Length of the multi-word preposition starting at unit ``i`` (0 if none)."""
    keys = u.key
    for words in _PHRASAL_BY_FIRST.get(keys[i], ()):
        if tuple(keys[i : i + len(words)]) == words:
            return len(words)
    # "on the side of", "on the left side of", "on the spotty back of": PREP the POSITION of;
    # without the article in telegraphic text ("clock on side of building")
    if u.kind[i] != PREP and keys[i] not in lx.RELATION_PREPOSITIONS:
        return 0
    j = i + 2 if u.key_at(i + 1) == "the" else i + 1
    while j < u.n and u.kind[j] in (ATTR, ADV) and keys[j] not in lx.POSITION_NOUNS:
        j += 1  # modifiers of the position noun
    while j + 1 < u.n and keys[j] in lx.POSITION_NOUNS and keys[j + 1] in lx.POSITION_NOUNS:
        j += 1  # "the left side"
    if j + 1 < u.n and keys[j] in lx.POSITION_NOUNS and keys[j + 1] == "of":
        return j + 2 - i
    return 0


def _infinitive_to(u: Units, i: int) -> bool:
    """Whether unit ``i`` is a "to" that can mark an infinitive: not the last word of a
    multi-word preposition ("next to parked bike": the participle modifies the bike)."""
    return (
        u.kind_at(i) == PREP
        and u.key[i] == "to"
        and not any(phrasal_length(u, s) == i + 1 - s for s in range(max(0, i - 3), i))
    )


def _phrasal_text(u: Units, i: int, length: int) -> str:
    """The multi-word preposition of ``length`` units at ``i`` as written, modifiers of its
    position noun left out ("on the spotty back of" -> on the back of)."""
    keys = u.key[i : i + length]
    if length <= 4 or keys[1] != "the":
        return " ".join(keys)
    kept = [key for key in keys[2:-1] if key in lx.POSITION_NOUNS]
    return " ".join([keys[0], "the", *kept, "of"])


def _gives_way(head: str) -> bool:
    """Whether a noun before "of" gives way to the noun after it (SPEC 1b, transparent nouns): a
    partitive or quantity noun ("a group of people", "two kinds of crackers"), a container ("a
    bowl of soup") or a frame ("a photo of a boat", "a picture of a lighthouse")."""
    noun = singularise(head)
    return any(
        word in table
        for word in (head, noun)
        for table in (lx.PARTITIVE_NOUNS, lx.CONTAINER_NOUNS, lx.PICTURE_NOUNS)
    )


def _noun_phrase(u: Units, start: int, end: int) -> str:
    """The object of the noun run ``start:end``, or "" when it is no argument."""
    start = object_start(u, start, end)
    head = u.key[end - 1]
    if end - start == 1 and (
        head in lx.SCENE_NOUNS or head in lx.TIME_NOUNS or head in lx.PRONOUNS
    ):
        return ""
    before = start - 1
    while before >= 0 and u.kind[before] in (DET, ATTR, ADV, WEAK, PART, GERUND):
        if u.key[before] == "no":
            return ""  # "with no train around"
        before -= 1
    return object_of(u.text[start:end])


def _pronoun(u: Units, i: int) -> int:
    """Length of the pronoun at unit ``i`` (0 if none): "it", "them", "each other"."""
    if " ".join(u.key[i : i + 2]) in lx.PRONOUNS:
        return 2
    if u.key[i] in lx.PRONOUNS and u.kind[i] not in (DET, REL) and u.tag[i] != "PRP$":
        return 1 if u.kind[i] in (OTHER, NOUN) or u.tag[i].startswith("PRP") else 0
    return 0


def _opens_clause(u: Units, i: int) -> bool:
    """Whether the word at ``i`` opens a clause: always for "while", "where"...; for "as" only
    when a subject and a finite verb follow ("as he holds", "as people go by")."""
    key = u.key[i]
    if key in _CLAUSE_WORDS:
        return True
    if key not in _CLAUSE_IF_FINITE:
        return False
    j = i + 1
    while j < u.n and (u.kind[j] in (DET, ATTR, NOUN, ADV) or _pronoun(u, j)):
        j += 1
    if j <= i + 1 or j >= u.n:
        return False
    return u.kind[j] in (COPULA, VERB) or u.tag[j] in _FINITE_TAGS or _is_verb_unit(u, j)


def _of_intention(u: Units, to: int) -> bool:
    """Whether the infinitive after "to" at unit ``to`` is one of intention (SPEC 1b: it states
    nothing): after a lexical verb ("stopped to pet", "prepares to hit", "bends down to drink")
    or an adjective with a complement clause ("about to jump", "getting ready to throw"); not
    after a copula or linking verb ("appears to be made") or another adjective ("happy to
    pose")."""
    before = u.previous(to)
    if before < 0:
        return False
    word = u.key[before]
    if word in lx.COMPLEMENT_ADJECTIVES:
        return True
    if not _is_verb_unit(u, before):
        return False
    return word not in lx.COPULAS and rw.verb_lemma(word) not in lx.COPULAS


def _verb_group(u: Units, i: int, infinitive: bool) -> tuple[Chunk, int]:
    """The verb group starting at unit ``i``: (chunk, index after it)."""
    words: list[int] = []
    negated = False
    j = i
    while j < u.n:
        if u.kind[j] == NEG:
            negated = True
        elif u.kind[j] != ADV:
            if not _is_verb_unit(u, j) and (words or u.kind[j] not in _VERB_KINDS):
                break
            words.append(j)
        j += 1
    while j > i and u.kind[j - 1] in (ADV, NEG):
        j -= 1  # adverbs after the verb are left for what follows ("sitting outside")
    lexical = [k for k in words if u.key[k] not in lx.AUXILIARIES]
    if not lexical and words and u.key[words[-1]] in ("has", "have", "had", "having"):
        lexical = words[-1:]  # "a bus has a sign": "have" alone is the relation
    main = lexical[-1] if lexical else -1
    lemma = rw.verb_lemma(u.key[main]) if main >= 0 else ""
    if lemma in lx.LIGHT_VERBS:
        lemma = ""
    if lemma and j < u.n and u.tag[j] == "RP" and u.key[j] in lx.PARTICLES:
        lemma, j = f"{lemma} {u.key[j]}", j + 1  # "blow out", "pucker up"
    finite = any(
        u.kind[k] in (COPULA, VERB)
        or u.tag[k] in _FINITE_TAGS
        or (u.kind[k] == OTHER and u.tag[k].startswith("NN"))
        for k in words
    )
    participle = u.key[main] if main >= 0 and u.tag[main] in ("VBN", "VBD") else ""
    chunk = Chunk(
        "VERB", lemma, finite=finite and not infinitive, participle=participle,
        infinitive=infinitive, negated=negated,
    )  # fmt: skip
    return chunk, max(j, i + 1)


def _is_preposition(u: Units, i: int) -> bool:
    return i < u.n and (u.kind[i] == PREP or u.key[i] in lx.RELATION_PREPOSITIONS)


def _reads_preposition(u: Units, i: int, chunks: list[Chunk]) -> bool:
    """Whether the preposition (or preposition-like word) at unit ``i`` makes a chunk: one that
    states a relation or blocks one; "for" / "after" right after a verb ("run after"); an adverb
    a rule made a preposition before a noun ("bench nearby tree")."""
    key = u.key[i]
    if key in lx.RELATION_PREPOSITIONS or key in lx.BLOCKING_PREPOSITIONS:
        return True
    if key in lx.AFTER_VERB_PREPOSITIONS:
        return bool(chunks) and chunks[-1].kind == "VERB" and bool(chunks[-1].text)
    return u.kind[i] == PREP and key in lx.BEFORE_NOUN_PREPOSITIONS


def chunk_units(u: Units) -> list[Chunk]:
    """The chunks of a caption's units (see the module docstring)."""
    chunks: list[Chunk] = []
    i = 0
    while i < u.n:
        kind, key = u.kind[i], u.key[i]
        length = phrasal_length(u, i)
        if length:
            chunks.append(Chunk("PREP", _phrasal_text(u, i, length)))
            i += length
            continue
        if key in lx.INDEFINITE_PRONOUNS:
            chunks.append(Chunk("NP", key, key=key))  # "someone", "something": kept as written
            i += 1
            continue
        if key in lx.RELATION_ADJECTIVES and u.kind_at(i - 1) == NOUN and _is_preposition(u, i + 1):
            chunks.append(Chunk("PREP", f"{key} {u.key[i + 1]}", key=key))  # "full of"
            i += 2
            continue
        if kind == NOUN and key in lx.QUANTIFIERS and u.key_at(i + 1) == "of":
            i += 2  # "one of the posts": a quantity a rule read as a noun gives way to the posts
            continue
        length = _pronoun(u, i)
        if length == 1 and u.key_at(i + 1) == "'s" and u.kind_at(i + 2) in (NOUN, ATTR):
            i += 2  # "under it's window": a possessive, which states nothing
            continue
        if length:
            chunks.append(Chunk("NP", "", key=" ".join(u.key[i : i + length])))
            i += length
            continue
        if kind == NOUN:
            end = noun_run_end(u, i, _CLAUSE_WORDS)
            if end == i:  # "while/NN": a clause word
                chunks.append(Chunk("BREAK", key))
                i += 1
                continue
            if end < u.n and u.key[end] == "of" and _gives_way(u.key[end - 1]):
                i = end + 1  # "a group of people", "a bowl of soup": the noun after "of"
                continue
            if end < u.n and u.tag[end] == "POS" and u.kind_at(end + 1) in (NOUN, ATTR):
                i = end + 1  # "a boy's suit": the suit is the argument
                continue
            chunks.append(Chunk("NP", _noun_phrase(u, i, end), key=u.key[end - 1]))
            i = end
        elif key in _SENTENCE_ENDS or _opens_clause(u, i):
            chunks.append(Chunk("BREAK", key))
            i += 1
        elif (
            key == "to"
            and i + 1 < u.n
            and (u.kind[i + 1] == VERB or (u.tag[i + 1] == "VB" and u.kind[i + 1] != ATTR))
        ):  # an infinitive; not an adjective tagged as one ("talking to angry/VB customer")
            intention = _of_intention(u, i)
            chunk, i = _verb_group(u, i + 1, infinitive=True)
            chunk.intention = intention
            chunks.append(chunk)
        elif _is_verb_unit(u, i):
            chunk, i = _verb_group(u, i, infinitive=False)
            chunks.append(chunk)
        elif kind in (ADV, PREP) and u.kind_at(i + 1) == PREP and key not in _CLAUSE_IF_FINITE:
            i += 1  # "moving around in a park", "sitting outside on a beach": an adverb
        elif kind == PREP or key in _READ_PREPOSITIONS:
            if _reads_preposition(u, i, chunks):
                blocking = key not in _STATING_PREPOSITIONS
                chunks.append(Chunk("PREP", key, blocking=blocking))
            i += 1
        elif kind == CONJ:
            chunks.append(Chunk("CONJ", "", key=key))
            i += 1
        elif kind == REL:
            chunks.append(Chunk("REL", key))
            i += 1
        else:
            i += 1  # determiners, attributes, adverbs, "there"
    return chunks
