"""Half-truths (seed 004, CS-CLIP), split by familiarity: does a model prefer a correct short
description to the same description with one wrong detail added, and does it matter whether the
wrong detail is familiar?

From any source of images with captions (the synthetic relation test set, COCO captions with
their images, a table), each caption is decomposed into units by the project's parsers
(:mod:`.units`): entities ("a brown horse") and relations ("a man riding a horse"). An *anchor*
is written from one or two true units of a caption; a *half-truth* adds a foil, a true unit
changed by one minimal edit (:mod:`.foils`: a wrong attribute or object; a changed relation,
swapped roles or a changed argument) that no caption of the image states or entails
(:mod:`.truth`); the *truthful refinement* adds the true unit instead (:mod:`.generate`). Each
half-truth is labelled by its foil's familiarity against the reference index: ``seen`` when the
foil unit occurs there, ``unseen`` when not.

``bindsplit build halftruth --source SRC [--units entity|relation|both]`` builds them as a
BindSplit dataset (the ``halftruth`` benchmark): the source's own columns plus ``anchor``,
``half_truth``, ``refinement``, ``added_unit``, ``added_kind``, ``edit``, ``added_label``, in the
configurations full / seen / unseen by the foil's familiarity; the metric's half-truth accuracy,
similarity gap and refinement accuracy are ``metrics/bindsplit/bindsplit_halftruth.py``'s.

Modules: :mod:`.units`, :mod:`.truth`, :mod:`.foils`, :mod:`.generate` (one image), :mod:`.rows`
(a source's rows); the sources are read by the benchmark
(:mod:`bindsplit_datasets.benchmarks.halftruth_sources`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "ADDED_COLUMNS": "generate",
    "EDITS": "foils",
    "FAMILIARITIES": "generate",
    "HalfTruth": "generate",
    "ImageUnits": "truth",
    "KINDS": "units",
    "UNITS": "generate",
    "Vocabulary": "foils",
    "familiarity": "generate",
    "CaptionedImages": "rows",
    "halftruth_rows": "rows",
    "image_halftruths": "generate",
    "unit_text": "units",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .foils import EDITS, Vocabulary
    from .generate import (
        ADDED_COLUMNS,
        FAMILIARITIES,
        UNITS,
        HalfTruth,
        familiarity,
        image_halftruths,
    )
    from .rows import CaptionedImages, halftruth_rows
    from .truth import ImageUnits
    from .units import KINDS, unit_text

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
