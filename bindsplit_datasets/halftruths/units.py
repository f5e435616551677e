"""Units of a caption and their text: what a half-truth adds, written so that it reads back.

A caption is decomposed by the project's parsers into **entity units**, its (attribute, object)
bindings (:func:`~bindsplit_datasets.parsing.parse_bindings`: "a brown horse"), and **relation
units**, its (subject, relation, object) triples
(:func:`~bindsplit_datasets.parsing.parse_relations`: "a man riding a horse").

:func:`unit_text` writes a unit as a short phrase and keeps only a phrase that the parsers read
back as exactly that unit and nothing else, so that every text a half-truth adds can be checked
against the captions with the same parsers (a test does). An entity is written "a brown horse";
a relation "a man riding a horse": its first word as written when it heads a preposition or an
adjective phrase (``data/written_relation_words.txt``: "a cup on a table", "a vase full of
iris"), otherwise as a verb's present participle ("riding", "sitting on"), or its past
participle when only that reads back ("a vase filled with water"). A unit no phrase reads back
as (a few compounds and typos) has no text and is never added.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources

from ..parsing import Binding, Relation, parse_bindings_and_relations

__all__ = [
    "ENTITY",
    "KINDS",
    "RELATION",
    "Unit",
    "describe",
    "participles",
    "unit_kind",
    "unit_text",
    "written_relation_words",
]

#: A unit of a caption: an entity (a binding) or a relation (a triple).
Unit = Binding | Relation
ENTITY, RELATION = "entity", "relation"
#: The kinds of unit, in report order (the ``added_kind`` of a half-truth).
KINDS: tuple[str, ...] = (ENTITY, RELATION)

_VOWEL_SOUND = re.compile(r"^[aeiou]")
_CVC = re.compile(r"[^aeiou][aeiou][^aeiouwxy]$")


@cache
def written_relation_words() -> frozenset[str]:
    """First words of relations written as they are (``data/written_relation_words.txt``)."""
    text = (resources.files(__package__) / "data" / "written_relation_words.txt").read_text(
        encoding="utf-8"
    )
    return frozenset(
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    )


def unit_kind(unit: Unit) -> str:
    """``"entity"`` for a binding, ``"relation"`` for a triple."""
    return ENTITY if isinstance(unit, Binding) else RELATION


def _article(word: str) -> str:
    return "an" if _VOWEL_SOUND.match(word) else "a"


def _noun_phrase(noun: str) -> str:
    return f"{_article(noun)} {noun}"


def participles(verb: str) -> tuple[str, str]:
    """The present and past participle of a regular English verb (the forms a relation's verb
    lemma is written in; an irregular one simply fails to read back).

    >>> [participles(v)[0] for v in ("ride", "sit", "lie", "hold", "see", "visit")]
    ['riding', 'sitting', 'lying', 'holding', 'seeing', 'visiting']
    >>> participles("fill")[1], participles("place")[1], participles("stop")[1]
    ('filled', 'placed', 'stopped')
    """
    if verb.endswith("ie"):
        return verb[:-2] + "ying", verb + "d"
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return verb[:-1] + "ing", verb + "d"
    one_syllable = len(re.findall(r"[aeiouy]+", verb)) == 1
    stem = verb + verb[-1] if one_syllable and _CVC.search(verb) else verb
    return stem + "ing", (verb + "d" if verb.endswith("e") else stem + "ed")


def _relation_phrases(relation: Relation) -> list[str]:
    """Candidate phrases of a triple, in order of preference."""
    first, _, rest = relation.relation.partition(" ")
    tail = f" {rest}" if rest else ""
    if first in written_relation_words():
        heads = [relation.relation]
    else:
        heads = [f"{form}{tail}" for form in participles(first)]
    subject, obj = _noun_phrase(relation.subject), _noun_phrase(relation.object)
    return [f"{subject} {head} {obj}" for head in heads]


@lru_cache(maxsize=65_536)
def unit_text(unit: Unit) -> str | None:
    """A short phrase stating ``unit`` that the parsers read back as exactly ``unit`` (and no
    other unit), or ``None`` when no phrase does (module docstring).

    >>> unit_text(Binding("brown", "horse")), unit_text(Relation("man", "ride", "horse"))
    ('a brown horse', 'a man riding a horse')
    """
    if isinstance(unit, Binding):
        candidates = [f"{_article(unit.attribute)} {unit.attribute} {unit.object}"]
        expected: tuple[list[Binding], list[Relation]] = ([unit], [])
    else:
        candidates = _relation_phrases(unit)
        expected = ([], [unit])
    for text in candidates:
        bindings, relations = parse_bindings_and_relations(text)
        if (bindings, relations) == expected:
            return text
    return None


def describe(texts: list[str]) -> str:
    """A description made of unit phrases: ``"a red circle and a man riding a horse"``."""
    return " and ".join(texts)
