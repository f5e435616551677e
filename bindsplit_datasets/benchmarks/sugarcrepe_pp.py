"""SugarCrepe++ (Dumpala et al., NeurIPS 2024 Datasets and Benchmarks): a COCO val2017 image of
SugarCrepe with a triplet of captions, two positives worded differently and one hard negative.

The second positive, ``caption2``, is a *hard positive* (seed 003): a caption that changes the
words and keeps the meaning. The build stores the captions as ``caption`` (the positive),
``caption2`` (the hard positive), ``negative_caption``; labels count the bindings of ``caption2``
as positive bindings (docs/protocol.md, section 3), and the metric can ask for both positives
above the negative (section 5).

Two source layouts are read, through SugarCrepe's code (:mod:`.sugarcrepe`):

* **official**: the ``data/`` folder of the Hub dataset ``Aman-J/SugarCrepe_pp`` (also in the
  repository github.com/Sri-Harsha/scpp): one JSON file per subset, ``replace_att``,
  ``replace_obj``, ``replace_rel``, ``swap_att``, ``swap_obj``, each a list of samples ``{"id",
  "filename", "caption", "caption2", "negative_caption"}``, plus the COCO val2017 images they
  name (``images`` option, ``--images``; else downloaded once). ``source`` is that folder, the
  folder above it or one subset file; ``source=None`` downloads the subset files from the Hub
  dataset. Rows: ``image`` (the JPEG's bytes), ``id``, ``filename``, ``caption``, ``caption2``,
  ``negative_caption``, ``subset``; subsets in the order above, samples in file order.
* **copy**: a Hub id or local Parquet files with the columns ``image`` (or ``images``),
  ``caption``, ``caption2``, ``negative_caption`` and ``subset``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..downloads import default_cache_dir
from ..errors import SchemaError
from . import from_spec
from .base import LoadedSource, resolve_hub_commit
from .sugarcrepe import DATA_FOLDER, SugarCrepe, check_filename

__all__ = ["RECORD_FIELDS", "SUBSETS", "SugarCrepePP"]

#: The subsets, one JSON file each, in build order.
SUBSETS: tuple[str, ...] = ("replace_att", "replace_obj", "replace_rel", "swap_att", "swap_obj")
#: The fields of every sample of a subset file (``id`` an integer, the others text).
RECORD_FIELDS: tuple[str, ...] = ("id", "filename", "caption", "caption2", "negative_caption")
_TEXT_FIELDS = RECORD_FIELDS[1:]


@from_spec("sugarcrepe_pp")
class SugarCrepePP(SugarCrepe):
    """SugarCrepe++, every subset; see the module docstring for the layouts it reads (its
    columns and their roles, licence and citation: ``specs/sugarcrepe_pp.yaml``)."""

    subsets: ClassVar[tuple[str, ...]] = SUBSETS
    subset_aliases: ClassVar[Mapping[str, str]] = {}
    record_features: ClassVar[datasets.Features] = datasets.Features(
        {"id": datasets.Value("int64"), **dict.fromkeys(_TEXT_FIELDS, datasets.Value("string"))}
    )

    def read_subset(self, path: Path) -> list[tuple[str, dict[str, Any]]]:
        """The ``(id, sample)`` pairs of one subset file (a JSON list of samples), checked."""
        try:
            samples = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise SchemaError(f"{path} is not a readable JSON file: {error}") from None
        if not isinstance(samples, list) or not samples:
            raise SchemaError(
                f"{path} must hold a non-empty JSON list of samples {{{', '.join(RECORD_FIELDS)}}}"
                ", as SugarCrepe++'s files do"
            )
        records = []
        for position, sample in enumerate(samples):
            fine = isinstance(sample, dict) and all(
                isinstance(sample.get(field), str) for field in _TEXT_FIELDS
            )
            if not fine or isinstance(sample.get("id"), bool) or not isinstance(sample["id"], int):
                raise SchemaError(
                    f"{path}: sample {position} must have an integer 'id' and the text fields "
                    f"{list(_TEXT_FIELDS)}, got {sample!r}"
                )
            key = str(sample["id"])
            check_filename(path, key, sample["filename"])
            records.append((key, {field: sample[field] for field in RECORD_FIELDS}))
        return records

    def download_source(self) -> Path:
        """The subset files of the Hub dataset (:attr:`hub_id` at the spec's revision),
        downloaded once into ``<cache>/sugarcrepe_pp/<commit>/data``."""
        from huggingface_hub import hf_hub_download

        assert self.hub_id is not None  # declared by the spec
        commit = resolve_hub_commit(self.hub_id, self.hub_revision) or self.hub_revision
        folder = default_cache_dir() / self.name / (commit or "main")
        for subset in self.subsets:
            hf_hub_download(
                self.hub_id,
                f"{DATA_FOLDER}/{subset}.json",
                repo_type="dataset",
                revision=commit,
                local_dir=folder,
            )
        return folder / DATA_FOLDER

    def source_url(self) -> str:
        return f"https://huggingface.co/datasets/{self.hub_id}"

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """SugarCrepe's reading (module docstring); from the Hub (``source=None``) the source
        identity names the Hub dataset, as a build read from the Hub records it."""
        loaded = super().load(source, strict=strict, **options)
        if source is None:
            loaded.identity.update(hub_id=self.hub_id, revision=self.hub_revision or "main")
        return loaded
