"""The relation rules of preposition chunks (SPEC section 1b): what a preposition relates, the
noun before it or the verb's subject, and with-phrases and their small clauses. Each function is
the code of a named rule of ``data/rules.json`` (stage ``"relation"``, chunk ``"PREP"``), read by
:func:`.relation_rules.read_relations` with the other chunk kinds' rules.
"""

from __future__ import annotations

from . import lexicon as lx
from .normalise import singularise
from .relation_state import State, animate_noun, body_part_owner, is_body_part

__all__: list[str] = []


def _fronted_preposition(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if chunk.blocking or chunk.text == "with" or s.subject is not None:
        return False
    if (i > 0 and s.kind_at(i - 1) != "BREAK") or s.kind_at(i + 1) != "NP":
        return False
    end = i + 1
    while s.kind_at(end) in ("NP", "PREP"):
        end += 1  # the phrase may go on: "on a bench in the park, ..."
    if s.kind_at(end) != "CONJ" or s.chunks[end].key != ",":
        return False
    s.pending = ("front", chunk.text, [])  # the place of a subject named after the comma
    return True


def _verb_preposition(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if chunk.text not in lx.AFTER_VERB_PREPOSITIONS or s.kind_at(i - 1) != "VERB":
        return False
    return _preposition_after_verb(s, i)  # "a dog waiting for a ball": wait for


def _blocking_preposition(s: State, i: int) -> bool:
    if not s.chunks[i].blocking:
        return False
    s.pending = ("block", "", [])
    after_noun = s.chunks[i].text == "of" and s.kind_at(i - 1) == "NP"
    s.block_head = s.last if after_noun else None
    return True


def _passive_agent(s: State, i: int) -> bool:
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


def _preposition_after_game(s: State, i: int) -> bool:
    verb, applied = s.verb, s.applied
    if s.kind_at(i - 1) != "NP" or s.chunks[i].blocking or verb is None or applied is None:
        return False
    if verb.lemma not in lx.GAME_VERBS or verb.negated or applied[1] != verb.lemma:
        return False  # the game must be the verb's object: "kids playing baseball on a field"
    if s.chunks[i - 1].text not in lx.GAME_NOUNS or _closing_pronoun(s, i):
        return False  # not "people playing board games in a room", "with spectators behind her"
    s.pending = ("rel", f"{verb.lemma} {s.chunks[i].text}", verb.subject)
    return True


def _with_scene_frame(s: State, i: int) -> bool:
    if s.chunks[i].text != "with" or s.kind_at(i + 1) != "NP" or s.kind_at(i + 2) != "PREP":
        return False
    if s.kind_at(i + 3) != "NP" or s.chunks[i + 3].key not in lx.SCENE_NOUNS:
        return False
    s.pending = ("block", "", [])  # "a sign with a building in the background": nothing
    return True


def _with_body_part(s: State, i: int) -> bool:
    if s.chunks[i].text != "with" or s.kind_at(i + 1) != "NP":
        return False
    if singularise(s.chunks[i + 1].key) not in lx.BODY_PART_NOUNS:
        return False
    after = s.kind_at(i + 2)
    small_clause = after == "PREP" or (after == "VERB" and not s.chunks[i + 2].finite)
    if s.kind_at(i - 1) == "VERB":
        if not small_clause:
            return False  # "sleeping with his head on a pillow", not "waving with his hand"
    elif s.kind_at(i - 1) != "NP" or not s.last or any(animate_noun(noun) for noun in s.last):
        return False  # "a dog with a long tail": the dog's own
    verb = s.verb
    owner = verb.subject if verb is not None else s.subject
    if not owner or not any(animate_noun(noun) for noun in owner):
        return False
    lexical = verb is not None and verb.lemma and not verb.negated and not small_clause
    s.pending = ("rel", f"{verb.lemma} with" if lexical and verb else "with", owner)
    return True


def _opens_small_clause(s: State, i: int) -> bool:
    """Whether the chunk at ``i`` is "with" opening a small clause: a noun and a participle or a
    place phrase ("with a dog on the floor", "with a man standing next to it")."""
    if s.chunks[i].text != "with" or s.kind_at(i + 1) != "NP":
        return False
    after = s.chunks[i + 2] if i + 2 < len(s.chunks) else None
    if after is None or after.blocking:
        return False
    if after.kind == "PREP":  # a preposition with no noun is an adverb: "a box with pizza inside"
        j = i + 3
        while s.kind_at(j) == "CONJ":
            j += 1  # "in the orange and purple sky", "up and down the sidewalk"
        return s.kind_at(j) in ("NP", "PREP")
    return after.kind == "VERB" and not after.finite


def _closing_pronoun(s: State, i: int) -> str:
    """The object pronoun that closes the small clause "with" at ``i`` opens ("with a dog beside
    him": him; "with a string attached to it": it), else ""."""
    if not _opens_small_clause(s, i):
        return ""
    at = i + 3 if s.kind_at(i + 2) == "VERB" else i + 2
    if s.kind_at(at) != "PREP" or s.kind_at(at + 1) != "NP":
        return ""
    closing = s.chunks[at + 1]
    return "" if closing.text else closing.key


def _with_on_body_part(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "NP" or not _opens_small_clause(s, i) or s.kind_at(i + 2) != "PREP":
        return False
    closing = s.chunks[i + 3]
    if not closing.text or not is_body_part(closing) or s.clause_verb:
        return False  # after a verb, with-absolute reads it
    owner = s.subject
    if not owner or s.last is owner or not any(animate_noun(noun) for noun in owner):
        return False
    if not s.last or any(animate_noun(noun) for noun in s.last):
        return False  # "a man on a horse with a saddle on its back": the horse's
    s.pending = ("rel", "with", owner)  # "a cat on a stool with something on its head"
    return True


def _with_absolute(s: State, i: int) -> bool:
    if not s.clause_verb or s.verb is None or not _opens_small_clause(s, i):
        return False
    pronoun = _closing_pronoun(s, i)
    if s.kind_at(i - 1) != "NP" and not (s.kind_at(i - 1) == "VERB" and pronoun):
        return False  # right after a verb only when a pronoun closes it: "sits with a dog by him"
    subject = s.verb.subject
    animate = any(animate_noun(noun) for noun in subject)
    if (pronoun in lx.INANIMATE_PRONOUNS and animate) or (
        pronoun in lx.ANIMATE_PRONOUNS and not animate
    ):
        return False  # "a man stands near a table with computer equipment on it": the table's
    s.pending = ("rel", "with", subject)
    return True


def _preposition_after_place_in(s: State, i: int) -> bool:
    applied, chunk = s.applied, s.chunks[i]
    if s.kind_at(i - 1) != "NP" or chunk.blocking or not s.last_from_subject or applied is None:
        return False
    mode, relation, sources = applied
    if mode != "rel" or relation != "in" or s.verb is not None or chunk.text == "in":
        return False  # not "a boy running in a field below a kite", "babies in a tub in a room"
    if not any(animate_noun(noun) for noun in sources):
        return False
    s.pending = ("rel", chunk.text, sources)  # "a man in a red jacket next to a motorcycle"
    return True


def _conjoined_preposition(s: State, i: int) -> bool:
    chunk = s.chunks[i]
    if s.kind_at(i - 1) != "CONJ" or s.kind_at(i - 2) != "NP" or chunk.blocking:
        return False
    if s.kind_at(i + 2) == "VERB" and s.chunks[i + 2].finite:
        return False  # a clause of its own: "and next to it is a yellow taxi"
    applied, verb = s.applied, s.verb
    if applied is None or applied[0] != "rel":
        return False
    _, relation, sources = applied
    before = s.chunks[i - 3] if s.kind_at(i - 3) == "PREP" else None
    if chunk.text == "with" or (before is not None and relation == before.text):
        s.pending = ("rel", chunk.text, sources)  # "a picnic table in sand, underneath a tree"
        return True
    if verb is None or not verb.lemma or verb.negated or sources is not verb.subject:
        return False
    if before is None or relation != f"{verb.lemma} {before.text}":
        return False  # the verb's object: "holding a cup, on a table" relates nothing new
    s.pending = ("rel", f"{verb.lemma} {chunk.text}", sources)  # "on the wall and on a shelf"
    return True


def _preposition_after_body_part(s: State, i: int) -> bool:
    owner = body_part_owner(s, i)
    if not owner or s.chunks[i].blocking or s.chunks[i].text == "with":
        return False
    verb = s.verb
    lexical = verb is not None and verb.lemma and not verb.negated and owner is verb.subject
    relation = f"{verb.lemma} {s.chunks[i].text}" if lexical and verb else s.chunks[i].text
    s.pending = ("rel", relation, owner)  # "a woman with pizza in her mouth next to a book"
    return True


def _preposition_after_colour_in(s: State, i: int) -> bool:
    pending = s.pending
    if s.kind_at(i - 1) != "PREP" or s.chunks[i - 1].text != "in" or pending is None:
        return False  # "in" with no noun: a colour the person is dressed in ("a man in green")
    mode, relation, sources = pending
    if mode != "rel" or relation != "in" or not any(animate_noun(noun) for noun in sources):
        return False
    s.pending = ("rel", s.chunks[i].text, sources)  # "a man in green next to an elephant"
    return True


def _preposition_after_noun(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "NP" or not s.last or not any(s.last):
        return False
    s.pending = ("rel", s.chunks[i].text, s.last)
    return True


def _preposition_after_verb(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "VERB" or s.verb is None:
        return False
    verb = s.verb
    relation = "" if verb.negated else f"{verb.lemma} {s.chunks[i].text}".strip()
    s.pending = ("rel", relation, verb.subject)
    return True


def _preposition_after_pronoun(s: State, i: int) -> bool:
    if s.kind_at(i - 1) != "NP":
        return False
    if s.chunks[i - 1].key in lx.TIME_NOUNS and s.kind_at(i - 2) == "VERB":
        s.pending = None  # "having fun in the zoo": an idiom and its phrase state nothing
        return True  # ("on display outside a building" relates the subject)
    verb = s.verb
    if verb is not None and verb.lemma and not verb.negated:
        s.pending = ("rel", f"{verb.lemma} {s.chunks[i].text}", verb.subject)
    elif s.subject is not None:
        s.pending = ("rel", s.chunks[i].text, s.subject)
    return True


def _dangling_preposition(s: State, i: int) -> bool:
    s.pending = None
    return True
