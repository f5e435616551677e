"""BiVLC (Miranda et al., NeurIPS 2024 Datasets and Benchmarks): bidirectional vision-language
compositionality, two images and two captions per sample.

Source: the Hub dataset ``imirandam/BiVLC``, split ``test`` (2,933 rows), or a local Parquet copy
with the Hub's columns: ``image``, ``caption``, ``negative_image``, ``negative_caption``, ``type``
(``replace``/``swap``/``add``) and ``subtype`` (``obj``/``att``/``rel``). ``caption`` describes
``image`` and ``negative_caption`` describes ``negative_image``; ``caption`` is the positive
caption of the familiarity statistics. Bindings come from the caption parser, each distinct
caption parsed once. Per-category breakdowns use ``type/subtype``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from . import register
from .base import LoadedSource, ParsedCaptionsAdapter

__all__ = ["BiVLC"]


@register
class BiVLC(ParsedCaptionsAdapter):
    """BiVLC test split: ``caption``/``image`` and ``negative_caption``/``negative_image``."""

    name: ClassVar[str] = "bivlc"
    pretty_name: ClassVar[str] = "BiVLC"
    hub_id: ClassVar[str | None] = "imirandam/BiVLC"
    hub_revision: ClassVar[str | None] = None
    hub_split: ClassVar[str] = "test"
    image_columns: ClassVar[tuple[str, ...]] = ("image", "negative_image")
    caption_columns: ClassVar[tuple[str, ...]] = ("caption", "negative_caption")
    required_columns: ClassVar[tuple[str, ...]] = (
        "image",
        "caption",
        "negative_image",
        "negative_caption",
        "type",
        "subtype",
    )
    category_columns: ClassVar[tuple[str, ...]] = ("type", "subtype")
    license: ClassVar[str] = "mit"
    image_sources: ClassVar[tuple[str, ...]] = (
        "COCO 2017 images (from Flickr, each under the terms of the COCO terms of use)",
        "BiVLC's generated images (the benchmark's licence)",
    )
    citation: ClassVar[str] = """@inproceedings{miranda2024bivlc,
  title     = {{BiVLC}: Extending Vision-Language Compositionality Evaluation with
               Text-to-Image Retrieval},
  author    = {Miranda, Imanol and Salaberria, Ander and Agirre, Eneko and Azkune, Gorka},
  booktitle = {Advances in Neural Information Processing Systems, Datasets and Benchmarks Track},
  year      = {2024}
}"""
    paper_figures: ClassVar[Mapping[str, float]] = {"unseen_share": 0.018}

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the Hub source (``None``), another Hub id, or a local Parquet file/folder."""
        self.check_options(options)
        return self.read_table(source, strict=strict)
