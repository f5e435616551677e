"""What an image's captions make true: the units a foil must never state.

Every caption of an image is true of it, so each of their units is, and so is each triple a
relation entails (``data/relation_entailments.txt``: "a cup to the left of a plate" is also "a
plate to the right of a cup"; "a cat on top of a car" is also "a cat above a car"; "next to" holds
both ways). :class:`ImageUnits` holds that closure and the objects the captions mention. A foil
must not be among the known-true units, and a foil that names an object of its own (a wrong
object, a changed argument) names one no caption of the image mentions, so that the foil is false
of the image rather than merely unsaid.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from ..errors import PackageDataError
from ..parsing import Binding, Relation
from .units import Unit

__all__ = ["Entailments", "ImageUnits", "entailments"]

_FILE = "relation_entailments.txt"


@dataclass(frozen=True)
class Entailments:
    """Relation -> the relations its triple entails with the same arguments (``implies``) and
    with the arguments exchanged (``converse``, ``symmetric``)."""

    same: dict[str, frozenset[str]] = field(default_factory=dict)
    swapped: dict[str, frozenset[str]] = field(default_factory=dict)

    def of(self, triple: Relation) -> set[Relation]:
        """``triple`` and every triple it entails, closed under repetition."""
        found = {triple}
        frontier = [triple]
        while frontier:
            current = frontier.pop()
            implied = [
                *(
                    Relation(current.subject, r, current.object)
                    for r in self.same.get(current.relation, ())
                ),
                *(
                    Relation(current.object, r, current.subject)
                    for r in self.swapped.get(current.relation, ())
                ),
            ]
            for new in implied:
                if new not in found:
                    found.add(new)
                    frontier.append(new)
        return found


@cache
def entailments() -> Entailments:
    """The entailments of ``data/relation_entailments.txt``."""
    text = (resources.files(__package__) / "data" / _FILE).read_text(encoding="utf-8")
    same: dict[str, set[str]] = {}
    swapped: dict[str, set[str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        kind, *relations = (part.strip() for part in line.split("|"))
        if kind == "converse" and len(relations) == 2:
            a, b = relations
            swapped.setdefault(a, set()).add(b)
            swapped.setdefault(b, set()).add(a)
        elif kind == "symmetric" and len(relations) == 1:
            swapped.setdefault(relations[0], set()).add(relations[0])
        elif kind == "implies" and len(relations) == 2:
            same.setdefault(relations[0], set()).add(relations[1])
        else:
            raise PackageDataError(
                f"halftruths/data/{_FILE}, line {number}: {line!r} is not 'converse | A | B', "
                "'symmetric | A' or 'implies | A | B'; reinstall bindsplit-datasets"
            )
    return Entailments(
        same={k: frozenset(v) for k, v in same.items()},
        swapped={k: frozenset(v) for k, v in swapped.items()},
    )


@dataclass(frozen=True)
class ImageUnits:
    """The units the captions of one image state (and entail), and the objects they mention."""

    bindings: frozenset[Binding]
    relations: frozenset[Relation]
    objects: frozenset[str]

    @classmethod
    def of(cls, captions: Iterable[tuple[Iterable[Binding], Iterable[Relation]]]) -> ImageUnits:
        """The units of every caption of an image (``(bindings, triples)`` per caption)."""
        rules = entailments()
        bindings: set[Binding] = set()
        relations: set[Relation] = set()
        for caption_bindings, caption_relations in captions:
            bindings.update(caption_bindings)
            for triple in caption_relations:
                relations |= rules.of(triple)
        objects = {b.object for b in bindings} | {
            noun for r in relations for noun in (r.subject, r.object)
        }
        return cls(frozenset(bindings), frozenset(relations), frozenset(objects))

    def known(self, unit: Unit) -> bool:
        """Whether a caption of the image states or entails ``unit``."""
        return unit in (self.bindings if isinstance(unit, Binding) else self.relations)

    def mentions(self, noun: str) -> bool:
        """Whether a caption of the image names the object ``noun``."""
        return noun in self.objects
