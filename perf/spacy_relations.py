"""A dependency-parse baseline for relation triples (SPEC section 1b), read from spaCy's parse.

Benchmark-only (``perf/bench_spacy_relations.py`` compares it with the project's relation parser
on the same gold sets): neither spaCy nor an English model is a dependency of the project. It
reads any object with spaCy's ``Doc`` / ``Token`` attributes (``i``, ``text``, ``lower_``,
``lemma_``, ``tag_``, ``pos_``, ``dep_``, ``head``, ``children``), so its tests build the trees by
hand and need no spaCy.

What it does, in the order of SPEC 1b:

- arguments: a noun with its ``compound`` modifiers (materials left out, as SPEC 1 does with
  attribute modifiers), as :func:`~bindsplit_datasets.parsing.normalise_object` writes objects
  (singular last word, "people" -> person); transparent nouns (quantities, containers,
  collectives, kinds, frames: "a bowl of soup", "a photo of a dog") pass to the noun after "of";
  "someone" / "something" are kept; "each other" / "one another" stand for the subject; a
  personal pronoun stands for the noun (or the clause's subject) a "with" above it hangs on ("a
  box with labels on it"), a subject pronoun for the caption's first noun, any other for the
  nearest noun before it of its number outside its own clause;
- relations: the verb's lemma (lemminflect's where installed: spaCy's small model reads
  "riding" as "rid") with its particles and preposition (``prt``, ``prep``; "next to", "far
  from", "inside of", "in front of", "on the side of" read whole: a position noun with "of"
  joins the preposition), the preposition alone where the head is a noun or the verb is a
  copula; a preposition after a verb's object relates that object (SPEC 1b's right
  association), unless the object is a game ("playing tennis on the court") or the phrase is a
  with-absolute ("sitting on a couch with a dog on the floor": the subject, relation "with");
- the subject of a verb: its ``nsubj``, the noun a participle or relative clause modifies
  (``acl``, ``relcl``), or the subject of the verb it is conjoined to; a passive with "by"
  (``agent``) gives the active triple, one without keeps its surface subject;
- conjoined subjects and objects distribute;
- not relations: "of" for parts and possession, objects that are times or scene frames ("at
  night", "in the background"; a with-phrase whose noun sits in a scene frame states nothing),
  verbs under an infinitive of intention ("ready to swing"), text in quotes, "without", "like",
  "as", "than".
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from bindsplit_datasets.parsing import normalise_object

Token = Any  # spaCy's Token, or any object with its attributes
Triple = tuple[str, str, str]

#: Nouns that pass to the noun after their "of" (quantities, containers, collectives, kinds,
#: frames).
TRANSPARENT = frozenset(
    "group bunch pile stack herd flock pair couple slice piece pieces bowl plate cup glass bottle "
    "box tray basket lot lots variety type types kind kinds sort row set number crowd team body "
    "bouquet bag jar pot pan carton loaf school collection assortment photo photograph picture "
    "image view close closeup shot drawing painting display plenty array bundle handful few "
    "dozen all some one each most many several couple".split()
)
#: Position nouns that join a preposition when "of" follows ("on the side of").
POSITIONS = frozenset(
    "front top side middle edge back bottom center centre corner left right foot head end rear "
    "base sidelines outskirts inside outside surface".split()
)
#: Objects that state no relation: times and scene frames.
NOT_ARGUMENTS = frozenset(
    "night day daytime evening morning afternoon time background foreground distance dusk dawn "
    "sunset sunrise moment".split()
)
#: Prepositions that state no relation.
NOT_RELATIONS = frozenset("of without like as than because during".split())
#: Adverbs and adjectives that form a preposition with the one after them ("next to").
PREPOSITION_HEADS = frozenset("next close far out away ahead apart together up down".split())
#: Material modifiers: attributes, not part of an argument (SPEC 1).
MATERIALS = frozenset(
    "wood wooden glass brick stone tile marble lego jean hay leather metal porcelain dirt wire "
    "plastic rubber steel concrete cement paper straw wicker iron ceramic".split()
)
#: Words after which an infinitive states an intention, not an event.
INTENTION_HEADS = frozenset("ready about going try trying want wants wait waiting prepare".split())
#: SPEC 1's lexicalised adjective + noun compounds (objects, no binding).
LEXICALISED = frozenset(
    (
        "teddy bear",
        "hot dog",
        "stuffed animal",
        "flying disk",
        "smart phone",
        "french fry",
        "french fries",
        "living room",
        "dress shirt",
        "stop sign",
        "fire hydrant",
    )
)
#: Objects that cannot host a place phrase: games and sports.
GAMES = frozenset(
    "tennis chess soccer baseball frisbee basketball football golf volleyball game games cards "
    "hockey cricket rugby video".split()
)
KEPT_PRONOUNS = frozenset(("someone", "something", "somebody", "anything", "everything"))
PERSONAL_PRONOUNS = frozenset(
    "it them him her itself themselves himself herself they he she".split()
)
COPULAS = frozenset(("be",))


def triples(doc: Iterable[Token]) -> list[Triple]:
    """The (subject, relation, object) triples of one parsed caption, in order, without
    duplicates."""
    tokens = list(doc)
    quoted = _quoted(tokens)
    found: dict[Triple, None] = {}
    for token in tokens:
        if token.i in quoted:
            continue
        for triple in _of_token(token, tokens):
            if all(triple) and triple[0] != "" and triple[2] != "":
                found[triple] = None
    return list(found)


def _quoted(tokens: list[Token]) -> set[int]:
    """Indices of the tokens between quote marks."""
    inside, out = False, set()
    for token in tokens:
        if token.text in ('"', "\u201c", "\u201d", "``", "''"):
            inside = not inside
        elif inside:
            out.add(token.i)
    return out


def _of_token(token: Token, tokens: list[Token]) -> Iterator[Triple]:
    """The triples headed by ``token``: a verb's objects and prepositions, a noun's
    prepositions."""
    if token.pos_ in ("VERB", "AUX") and not _intention(token):
        subjects = list(_subjects(token, tokens))
        if not subjects:
            return
        lemma = _lemma(token)
        copula = lemma in COPULAS
        particles = " ".join(c.lower_ for c in token.children if c.dep_ == "prt")
        verb = " ".join(w for w in (lemma, particles) if w)
        passive_by = [c for c in token.children if c.dep_ == "agent"]
        if passive_by:
            for agent in _objects_of_preposition(passive_by[0], tokens):
                for subject in subjects:
                    yield agent, verb, subject
            return
        if not copula:
            for child in token.children:
                if child.dep_ in ("dobj", "obj"):
                    for obj in _arguments(child, tokens, subjects):
                        for subject in subjects:
                            yield subject, verb, obj
        for first, preposition, name in _prepositions(token):
            absolute = name == "with" and _small_clause(preposition)
            host = None if copula or absolute else _nearest_host(token, first)
            objects = list(_objects_of_preposition(preposition, tokens, subjects))
            if host is not None:  # right association: the noun before the phrase
                for head in _arguments(host, tokens, subjects):
                    for obj in objects:
                        yield head, name, obj
                continue
            relation = name if copula or absolute else f"{verb} {name}"
            for obj in objects:
                for subject in subjects:
                    yield subject, relation, obj
    elif token.pos_ in ("NOUN", "PROPN", "PRON"):
        for head in _arguments(token, tokens, None):
            for _, preposition, name in _prepositions(token):
                if name == "with" and _in_scene_frame(preposition):
                    continue
                for obj in _objects_of_preposition(preposition, tokens, [head]):
                    yield head, name, obj


def _lemma(verb: Token) -> str:
    """The verb's lemma: lemminflect's for the word as written where it is installed (spaCy's
    small model reads "riding" as "rid"), else spaCy's."""
    try:
        from lemminflect import getLemma
    except ImportError:
        return str(verb.lemma_).lower()
    lemmas = getLemma(verb.lower_, upos="AUX" if verb.pos_ == "AUX" else "VERB")
    return str(lemmas[0]) if lemmas else str(verb.lemma_).lower()


def _nearest_host(verb: Token, preposition: Token) -> Token | None:
    """The noun right before a preposition hanging on ``verb`` that can host it (SPEC 1b: right
    association): the verb's object or the object of an earlier preposition of the verb; None
    where there is none or it is a game ("playing tennis on the court": the verb's)."""
    candidates = []
    for child in verb.children:
        if child.dep_ in ("dobj", "obj") and child.i < preposition.i:
            candidates.extend(c for c in _conjuncts(child) if c.i < preposition.i)
        elif child.dep_ == "prep" and child.i < preposition.i:
            candidates.extend(
                c
                for o in child.children
                if o.dep_ == "pobj"
                for c in _conjuncts(o)
                if c.i < preposition.i
            )
    if not candidates:
        return None
    host = max(candidates, key=lambda c: c.i)
    return None if host.lower_ in GAMES or host.pos_ not in ("NOUN", "PROPN") else host


def _small_clause(preposition: Token) -> bool:
    """Whether the object of a "with" has a predicate of its own (a with-absolute: "with a dog
    on the floor", "with a man looking on")."""
    return any(
        child.dep_ in ("prep", "acl", "advmod", "amod") and child.i > obj.i
        for obj in preposition.children
        if obj.dep_ == "pobj"
        for child in obj.children
    )


def _intention(verb: Token) -> bool:
    """Whether ``verb`` is an infinitive of intention ("ready to swing", "about to jump")."""
    has_to = any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)
    return (
        has_to
        and verb.dep_ in ("xcomp", "advcl", "acl")
        and (verb.head.lower_ in INTENTION_HEADS or verb.head.lemma_ in INTENTION_HEADS)
    )


def _subjects(verb: Token, tokens: list[Token]) -> Iterator[str]:
    """The subjects of ``verb``: its nsubj (passive too), the noun it modifies, or the subject
    of the verb it is conjoined to."""
    for child in verb.children:
        if child.dep_ in ("nsubj", "nsubjpass", "expl") and child.lower_ not in ("there",):
            if child.tag_ in ("WDT", "WP") or child.lower_ == "that":
                yield from _arguments(verb.head, tokens, None)
            else:
                yield from _arguments(child, tokens, None)
            return
    if verb.dep_ in ("acl", "relcl"):
        yield from _arguments(verb.head, tokens, None)
    elif verb.dep_ in ("conj", "advcl", "xcomp", "pcomp") and verb.head.i != verb.i:
        yield from _subjects(verb.head, tokens)


def _prepositions(head: Token) -> Iterator[tuple[Token, Token, str]]:
    """The prepositions hanging on ``head``: (their first word, the word whose object is the
    relation's object, the written relation); "next to" through its adverb, "in front of" /
    "on the side of" through their position noun."""
    for child in head.children:
        if child.dep_ in ("prep", "agent") and child.lower_ not in NOT_RELATIONS:
            for last, name in _with_position(child, child.lower_):
                yield child, last, name
        elif child.dep_ in ("advmod", "amod") and child.lower_ in PREPOSITION_HEADS:
            for grandchild in child.children:
                if grandchild.dep_ == "prep" and grandchild.lower_ not in NOT_RELATIONS:
                    name = f"{child.lower_} {grandchild.lower_}"
                    for last, full in _with_position(grandchild, name):
                        yield child, last, full


def _with_position(preposition: Token, name: str) -> Iterator[tuple[Token, str]]:
    """``preposition`` itself, or the "of" after its position noun with the whole phrase (also
    "inside of", "out of": a preposition whose own "of" carries the object; "far from": its
    adverb first)."""
    for child in preposition.children:
        if child.dep_ == "advmod" and child.lower_ in PREPOSITION_HEADS and child.i < preposition.i:
            name = f"{child.lower_} {name}"
        elif child.dep_ == "prep" and child.lower_ == "of" and child.i == preposition.i + 1:
            yield child, f"{name} of"
            return
    for obj in preposition.children:
        if obj.dep_ == "pobj" and obj.lower_ in POSITIONS:
            for of in obj.children:
                if of.dep_ == "prep" and of.lower_ == "of":
                    between = [
                        c.lower_ for c in obj.children if c.dep_ in ("det", "amod") and c.i < obj.i
                    ]
                    yield of, " ".join([name, *between, obj.lower_, "of"])
                    return
    yield preposition, name


def _in_scene_frame(preposition: Token) -> bool:
    """Whether the object of a "with" sits in a scene frame ("with a tree in the
    background")."""
    for obj in preposition.children:
        for child in obj.children:
            if child.dep_ == "prep" and any(
                o.lower_ in ("background", "foreground", "distance") for o in child.children
            ):
                return True
    return False


def _objects_of_preposition(
    preposition: Token, tokens: list[Token], subjects: list[str] | None = None
) -> Iterator[str]:
    for child in preposition.children:
        if child.dep_ in ("pobj", "dobj"):
            yield from _arguments(child, tokens, subjects)


def _transparent(noun: Token) -> bool:
    """Whether ``noun`` passes to the noun after its "of"."""
    return noun.lower_ in TRANSPARENT and any(
        c.dep_ == "prep" and c.lower_ == "of" and any(o.dep_ == "pobj" for o in c.children)
        for c in noun.children
    )


def _arguments(noun: Token, tokens: list[Token], subjects: list[str] | None) -> Iterator[str]:
    """The normalised arguments ``noun`` stands for, its conjuncts included."""
    for member in _conjuncts(noun):
        argument = _argument(member, tokens, subjects)
        if argument:
            yield argument


def _conjuncts(noun: Token) -> Iterator[Token]:
    yield noun
    for child in noun.children:
        if child.dep_ == "conj":
            yield from _conjuncts(child)


def _argument(noun: Token, tokens: list[Token], subjects: list[str] | None) -> str:
    """One noun as an argument ("" where it is none)."""
    word = noun.lower_
    if word in NOT_ARGUMENTS:
        return ""
    if _transparent(noun):
        for of in noun.children:
            if of.dep_ == "prep" and of.lower_ == "of":
                for obj in of.children:
                    if obj.dep_ == "pobj":
                        return _argument(obj, tokens, subjects)
    if word in ("other", "another") and any(c.lower_ in ("each", "one") for c in noun.children):
        return subjects[0] if subjects else ""
    if word in KEPT_PRONOUNS:
        return word
    if word in PERSONAL_PRONOUNS:
        return _antecedent(noun, tokens)
    if noun.pos_ not in ("NOUN", "PROPN"):
        return ""
    modifiers = [
        c.lower_
        for c in noun.children
        if c.i < noun.i
        and c.lower_ not in MATERIALS
        and (
            (c.dep_ in ("compound", "nmod") and c.pos_ in ("NOUN", "PROPN"))
            or f"{c.lower_} {word}" in LEXICALISED
        )
    ]
    return normalise_object(" ".join([*modifiers, word]))


def _antecedent(pronoun: Token, tokens: list[Token]) -> str:
    """The noun a personal pronoun stands for: the head of a "with" above it ("a box with labels
    on it"); a subject pronoun, the caption's first noun; else the nearest noun before it of its
    number that is not its own clause's subject ("walking by the sheep and petting them")."""
    node = pronoun
    while node.head.i != node.i:
        node = node.head
        if node.dep_ == "prep" and node.lower_ == "with":
            if node.head.pos_ in ("NOUN", "PROPN"):
                return _argument(node.head, tokens, None)
            return next(_subjects(node.head, tokens), "")
    plural = pronoun.lower_ in ("them", "themselves", "they")
    own_subjects = {c.i for c in pronoun.head.children if c.dep_ in ("nsubj", "nsubjpass")}
    if pronoun.head.dep_ in ("acl", "relcl"):
        own_subjects.add(pronoun.head.head.i)
    ancestors = {a.i for a in pronoun.ancestors}
    nouns = [
        t
        for t in tokens[: pronoun.i]
        if t.pos_ in ("NOUN", "PROPN")
        and not _transparent(t)
        and t.i not in own_subjects
        and t.i not in ancestors
    ]
    fitting = [t for t in nouns if (t.tag_ in ("NNS", "NNPS")) == plural] or nouns
    if pronoun.dep_ in ("nsubj", "nsubjpass"):  # "as he holds": the caption's first subject
        fitting = [t for t in tokens if t.pos_ in ("NOUN", "PROPN") and not _transparent(t)]
        return _argument(fitting[0], tokens, None) if fitting else ""
    return _argument(fitting[-1], tokens, None) if fitting else ""
