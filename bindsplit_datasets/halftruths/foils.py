"""Foils: a true unit changed by one minimal edit into a unit that is false of the image.

The edits (:data:`EDITS`, one registry; the ``edit`` column of a half-truth names one):

========== ========= =====================================================================
edit       kind      the foil of a true unit
========== ========= =====================================================================
attribute  entity    another attribute of the same object ("a brown horse" -> "a white horse")
object     entity    the same attribute of an object the image's captions never mention
relation   relation  another relation between the same arguments ("riding" -> "leading")
swap       relation  the subject and the object exchanged ("a horse riding a man")
argument   relation  the subject or the object replaced by an object never mentioned
========== ========= =====================================================================

Replacement words come from a :class:`Vocabulary`: the attributes, objects and relations of the
source's own units and of the reference's most frequent ones. A candidate foil is kept only when
no caption of the image states or entails it (:class:`~.truth.ImageUnits`), so no foil is one of
the image's own caption units.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from ..parsing import Binding, Relation
from .truth import ImageUnits
from .units import ENTITY, RELATION, Unit

__all__ = ["EDITS", "Edit", "Vocabulary", "edits_of"]

#: Most frequent bindings and triples of the reference added to a vocabulary.
REFERENCE_VOCABULARY = 1_000


@dataclass(frozen=True)
class Vocabulary:
    """The words foils are made of, each sorted (deterministic candidates)."""

    attributes: tuple[str, ...]
    objects: tuple[str, ...]
    relations: tuple[str, ...]

    @classmethod
    def of(
        cls, units: Iterable[Unit], index: Any = None, *, top: int = REFERENCE_VOCABULARY
    ) -> Vocabulary:
        """The words of ``units`` and of the ``top`` most frequent bindings and triples of
        ``index`` (a :class:`~bindsplit_datasets.reference.ReferenceIndex`; ``None``: none)."""
        pool: list[Unit] = list(units)
        if index is not None:
            pool += [binding for binding, _ in index.most_common(top)]
            if getattr(index, "has_relations", False):
                pool += [triple for triple, _ in index.most_common_relations(top)]
        attributes = {u.attribute for u in pool if isinstance(u, Binding)}
        objects = {u.object for u in pool if isinstance(u, Binding)} | {
            noun for u in pool if isinstance(u, Relation) for noun in (u.subject, u.object)
        }
        relations = {u.relation for u in pool if isinstance(u, Relation)}
        return cls(tuple(sorted(attributes)), tuple(sorted(objects)), tuple(sorted(relations)))


def _wrong_attribute(unit: Unit, words: Vocabulary, image: ImageUnits) -> Iterator[Unit]:
    assert isinstance(unit, Binding)
    for attribute in words.attributes:
        foil = Binding(attribute, unit.object)
        if attribute != unit.attribute and not image.known(foil):
            yield foil


def _wrong_object(unit: Unit, words: Vocabulary, image: ImageUnits) -> Iterator[Unit]:
    assert isinstance(unit, Binding)
    for obj in words.objects:
        if not image.mentions(obj):
            yield Binding(unit.attribute, obj)


def _changed_relation(unit: Unit, words: Vocabulary, image: ImageUnits) -> Iterator[Unit]:
    assert isinstance(unit, Relation)
    for relation in words.relations:
        foil = Relation(unit.subject, relation, unit.object)
        if relation != unit.relation and not image.known(foil):
            yield foil


def _swapped_roles(unit: Unit, words: Vocabulary, image: ImageUnits) -> Iterator[Unit]:
    assert isinstance(unit, Relation)
    foil = Relation(unit.object, unit.relation, unit.subject)
    if unit.subject != unit.object and not image.known(foil):
        yield foil


def _changed_argument(unit: Unit, words: Vocabulary, image: ImageUnits) -> Iterator[Unit]:
    assert isinstance(unit, Relation)
    for obj in words.objects:
        if not image.mentions(obj):
            yield Relation(obj, unit.relation, unit.object)
            yield Relation(unit.subject, unit.relation, obj)


@dataclass(frozen=True)
class Edit:
    """A minimal edit: its name (the ``edit`` column), the kind of unit it changes, what it
    does, and its candidate foils of a unit (``candidates(unit, vocabulary, image)``)."""

    name: str
    kind: str
    description: str
    candidates: Callable[[Unit, Vocabulary, ImageUnits], Iterable[Unit]]


#: Every edit, by name, in report order.
EDITS: dict[str, Edit] = {
    edit.name: edit
    for edit in (
        Edit("attribute", ENTITY, "a wrong attribute of the same object", _wrong_attribute),
        Edit("object", ENTITY, "the attribute of an object never mentioned", _wrong_object),
        Edit(
            "relation", RELATION, "another relation between the same arguments", _changed_relation
        ),
        Edit("swap", RELATION, "subject and object exchanged", _swapped_roles),
        Edit(
            "argument",
            RELATION,
            "an argument replaced by an object never mentioned",
            _changed_argument,
        ),
    )
}


def edits_of(kind: str) -> list[Edit]:
    """The edits of one kind of unit, in :data:`EDITS` order."""
    return [edit for edit in EDITS.values() if edit.kind == kind]
