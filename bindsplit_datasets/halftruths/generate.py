"""Half-truths of an image from its captions: anchor, half-truth and truthful refinement.

For each kind of unit asked for (``units``: ``entity``, ``relation`` or ``both``), one caption of
the image and one of its units of that kind are drawn (seeded), among those that can be written
(:func:`~.units.unit_text`) and that leave at least one other unit of the caption for the anchor:

* the **anchor** is one or two other units of the same caption (two with probability 1/2 where
  there are two), written as a short description ("a red circle");
* the **truthful refinement** is the anchor plus the drawn unit ("a red circle and a blue
  square");
* a **half-truth** is the anchor plus a *foil* of the drawn unit, made by one minimal edit
  (:data:`~.foils.EDITS`): "a red circle and a green square". For every edit of the unit's kind
  there is one half-truth with a foil the reference has seen and one with a foil it has not
  (``added_label``: ``seen`` when the foil occurs at least ``min_count`` times in the reference,
  ``unseen`` otherwise), where such foils exist, so that seen and unseen foils of one edit share
  anchor and refinement.

The refinement and its half-truths differ only in the added phrase, which is CS-CLIP's matched
control (seed 004): ``s(I, refinement) > s(I, half-truth)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import BindsplitValueError
from ..parsing import Binding, Relation
from .foils import Vocabulary, edits_of
from .truth import ImageUnits
from .units import ENTITY, KINDS, RELATION, Unit, describe, unit_kind, unit_text

__all__ = [
    "ADDED_COLUMNS",
    "FAMILIARITIES",
    "UNITS",
    "HalfTruth",
    "familiarity",
    "image_halftruths",
    "unit_kinds",
]

#: ``--units``: the kinds of unit half-truths add.
UNITS: dict[str, tuple[str, ...]] = {ENTITY: (ENTITY,), RELATION: (RELATION,), "both": KINDS}
#: A foil's familiarity against the reference (the ``added_label``), in report order.
FAMILIARITIES: tuple[str, ...] = ("seen", "unseen")
#: The columns a half-truth build adds to the source's own, in order.
ADDED_COLUMNS: tuple[str, ...] = (
    "anchor",
    "half_truth",
    "refinement",
    "added_unit",
    "added_kind",
    "edit",
    "added_label",
)
#: Share of anchors written from two units (where the caption has two besides the added one).
TWO_UNIT_ANCHORS = 0.5

ParsedCaption = tuple[Sequence[Binding], Sequence[Relation]]


def unit_kinds(units: str) -> tuple[str, ...]:
    """The kinds of unit of a ``--units`` value; a clear error for anything else."""
    try:
        return UNITS[units]
    except KeyError:
        raise BindsplitValueError(
            f"unknown --units {units!r}; choose one of {', '.join(UNITS)}"
        ) from None


@dataclass(frozen=True)
class HalfTruth:
    """One half-truth sample of an image: the texts, the foil and the true unit it replaces."""

    anchor: str
    half_truth: str
    refinement: str
    added_unit: str
    added_kind: str
    edit: str
    added_label: str
    foil: Unit
    truth: Unit
    caption: int

    def to_row(self) -> dict[str, str]:
        """The columns a half-truth build adds (:data:`ADDED_COLUMNS`)."""
        return {column: getattr(self, column) for column in ADDED_COLUMNS}


def familiarity(unit: Unit, index: Any) -> str:
    """``seen`` when ``unit`` occurs at least ``index.min_count`` times in the reference (its
    binding count, or its triple count), else ``unseen``."""
    count = index.count(unit) if isinstance(unit, Binding) else index.relation_count(unit)
    return FAMILIARITIES[0] if count >= index.min_count else FAMILIARITIES[1]


def _units(caption: ParsedCaption) -> list[Unit]:
    return list(dict.fromkeys([*caption[0], *caption[1]]))


def _from_unit(
    position: int,
    unit: Unit,
    caption: ParsedCaption,
    image: ImageUnits,
    index: Any,
    vocabulary: Vocabulary,
    rng: np.random.Generator,
) -> list[HalfTruth]:
    """The half-truths that add ``unit`` (or its foils) to an anchor from the rest of its
    caption; empty when the unit or every other unit of the caption cannot be written."""
    text = unit_text(unit)
    others = [u for u in _units(caption) if u != unit and unit_text(u) is not None]
    if text is None or not others:
        return []
    size = 2 if len(others) >= 2 and rng.random() < TWO_UNIT_ANCHORS else 1
    picked = sorted(int(k) for k in rng.choice(len(others), size=size, replace=False))
    anchor = describe([str(unit_text(others[k])) for k in picked])
    made = []
    for edit in edits_of(unit_kind(unit)):
        candidates = list(dict.fromkeys(edit.candidates(unit, vocabulary, image)))
        labels = [familiarity(foil, index) for foil in candidates]
        for label in FAMILIARITIES:
            pool = [foil for foil, found in zip(candidates, labels, strict=True) if found == label]
            for k in rng.permutation(len(pool)):
                foil_text = unit_text(pool[int(k)])
                if foil_text is None:
                    continue
                made.append(
                    HalfTruth(
                        anchor=anchor,
                        half_truth=describe([anchor, foil_text]),
                        refinement=describe([anchor, text]),
                        added_unit=foil_text,
                        added_kind=unit_kind(unit),
                        edit=edit.name,
                        added_label=label,
                        foil=pool[int(k)],
                        truth=unit,
                        caption=position,
                    )
                )
                break
    return made


def image_halftruths(
    captions: Sequence[ParsedCaption],
    index: Any,
    vocabulary: Vocabulary,
    *,
    kinds: Sequence[str] = KINDS,
    rng: np.random.Generator,
) -> list[HalfTruth]:
    """The half-truths of one image from the parsed units of all its captions (``(bindings,
    triples)`` per caption, every caption true of the image), as the module docstring says: per
    kind, the first drawn (caption, unit) that gives any."""
    image = ImageUnits.of(captions)
    made: list[HalfTruth] = []
    for kind in kinds:
        candidates = [
            (position, unit)
            for position, caption in enumerate(captions)
            for unit in _units(caption)
            if unit_kind(unit) == kind
        ]
        for k in rng.permutation(len(candidates)):
            position, unit = candidates[int(k)]
            found = _from_unit(position, unit, captions[position], image, index, vocabulary, rng)
            if found:
                made += found
                break
    return made
