"""Relation bindings: the (subject, relation, object) triples a caption states (SPEC section 1b).

INTERFACE STUB (to be replaced by the relation parser): a crude reading of "NOUN (VERB|PREP)+ NOUN"
with the shared tokeniser and tagger, enough for the plumbing that counts and labels triples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from . import tagger
from .normalise import normalise_object
from .text import tokenise

__all__ = ["Relation", "parse_relations", "parse_relations_many"]


@dataclass(frozen=True, order=True)
class Relation:
    """A (subject, relation, object) triple stated by a caption, each part normalised (SPEC §1b)."""

    subject: str
    relation: str
    object: str

    def __str__(self) -> str:
        return f"{self.subject} {self.relation} {self.object}"


_NOUN = ("NN", "NNS")
_LINK = ("VB", "VBZ", "VBP", "VBD", "VBG", "VBN", "IN", "TO", "RP")
_DROP = frozenset({"is", "are", "was", "were", "be", "being", "been"})


def parse_relations(text: str) -> list[Relation]:
    """The triples ``text`` states, in order of first occurrence, without duplicates."""
    if not isinstance(text, str):
        raise TypeError(f"parse_relations expects a caption string, got {type(text).__name__}")
    tokens = tokenise(text)
    if not tokens:
        return []
    tags = tagger.get_tagger().tag(tokens)
    found: list[Relation] = []
    last_noun: str | None = None
    link: list[str] = []
    for token, tag in zip(tokens, tags, strict=True):
        if tag in _NOUN:
            noun = normalise_object(token)
            if last_noun is not None and link:
                found.append(Relation(last_noun, " ".join(link), noun))
            last_noun, link = noun, []
        elif tag in _LINK and last_noun is not None:
            if token.lower() not in _DROP:
                link.append(token.lower())
    return list(dict.fromkeys(found))


def parse_relations_many(
    texts: Iterable[str], *, num_proc: int | None = None, progress: bool = False
) -> list[list[Relation]]:
    """``[parse_relations(t) for t in texts]``; each distinct caption parsed once."""
    items = list(texts)
    by_text = {text: parse_relations(text) for text in dict.fromkeys(items)}
    return [list(by_text[text]) for text in items]
