"""What'sUp (Kamath et al., EMNLP 2023): one image of two objects in a spatial relation, and four
captions that differ only in the preposition ("A mug on a table" / "under" / "to the left of" /
"to the right of"); the first is the correct one. A relation benchmark: build it with
``--bindings relation`` (or ``both``) to label it by its (subject, relation, object) triples.

Two source layouts are read:

* **official** (the repository github.com/amitakamath/whatsup_vlms, its ``data/`` folder): the
  controlled subsets, ``controlled_images_dataset.json`` beside ``controlled_images/`` (A: real
  photographs; on, under, left of, right of) and ``controlled_clevr_dataset.json`` beside
  ``controlled_clevr/`` (B: CLEVR renders; in front of, behind, left of, right of). Each file is a
  list of records ``{"image_path", "caption_options"}``: four captions, the first correct, and
  the image path as the repository writes it (``data/controlled_images/<name>.jpeg``, read, as
  the repository's loader does, relative to the folder that holds the JSON file). ``source`` is
  that folder (either subset or both) or one JSON file. Rows: ``image`` (the file's bytes),
  ``image_path``, ``caption_0`` (correct) to ``caption_3``, ``subset`` (``controlled_images`` /
  ``controlled_clevr``) and ``preposition`` (from the image's file name, as the repository's
  evaluation reads it: ``left_of``, ``right_of``, ``on``, ``under``, ``in-front_of``,
  ``behind``). A record whose image is missing or unreadable is dropped and counted (``--strict``
  fails instead).
* **copy**: a Hub id or local Parquet files with the columns ``image``, ``caption_0`` to
  ``caption_3`` and ``subset``.

Per-category breakdowns are per ``subset/preposition``. The COCO-spatial and GQA-spatial subsets
of What'sUp (captions of COCO and GQA images) are not read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import datasets

from ..downloads import files_digest
from ..errors import BindsplitFileNotFoundError, SchemaError
from . import from_spec
from .base import LoadedSource, ParsedCaptionsAdapter, SourceReport, drop_rows, image_problem

__all__ = ["SUBSET_FILES", "WhatsUp", "preposition_of"]

#: The controlled subsets: annotation file -> the subset's name (its image folder's name).
SUBSET_FILES: Mapping[str, str] = {
    "controlled_images_dataset.json": "controlled_images",
    "controlled_clevr_dataset.json": "controlled_clevr",
}
#: The prepositions of the image file names, tested in this order (the repository's rule); a
#: name with none of them is ``under`` (A) or ``behind`` (B).
_PREPOSITIONS: tuple[tuple[str, str], ...] = (
    ("left_of", "left_of"),
    ("right_of", "right_of"),
    ("_on_", "on"),
    ("_in-front_of_", "in-front_of"),
)
_OTHERWISE: Mapping[str, str] = {"controlled_images": "under", "controlled_clevr": "behind"}
_N_CAPTIONS = 4
#: The prefix of the repository's image paths (its ``data/`` folder).
_REPOSITORY_PREFIX = "data/"


def preposition_of(image_path: str, subset: str) -> str:
    """The preposition an image's file name states, as What'sUp's evaluation reads it.

    >>> preposition_of("data/controlled_images/mug_left_of_plate.jpeg", "controlled_images")
    'left_of'
    >>> preposition_of("data/controlled_clevr/cube_behind_sphere.png", "controlled_clevr")
    'behind'
    """
    for marker, preposition in _PREPOSITIONS:
        if marker in image_path:
            return preposition
    return _OTHERWISE.get(subset, "other")


def _features() -> datasets.Features:
    return datasets.Features(
        {
            "image": datasets.Image(),
            "image_path": datasets.Value("string"),
            **{f"caption_{k}": datasets.Value("string") for k in range(_N_CAPTIONS)},
            "subset": datasets.Value("string"),
            "preposition": datasets.Value("string"),
        }
    )


@from_spec("whatsup")
class WhatsUp(ParsedCaptionsAdapter):
    """What'sUp's controlled subsets; see the module docstring for the layouts it reads (its
    columns, licence and citation: ``specs/whatsup.yaml``)."""

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the official layout (a folder or one annotation file) or a copy."""
        self.check_options(options)
        if source is None:
            raise BindsplitFileNotFoundError(
                f"{self.pretty_name} has no Hub source; pass the folder with "
                f"{' and/or '.join(SUBSET_FILES)} (the repository's data/ folder) as --source"
            )
        path = Path(source).expanduser()
        files = self._annotation_files(path)
        if files:
            return self._load_official(files, strict=strict)
        if path.is_dir() and not any(path.rglob("*.parquet")):
            raise BindsplitFileNotFoundError(
                f"{path} is not a {self.pretty_name} source: it has neither "
                f"{' nor '.join(SUBSET_FILES)} nor Parquet files"
            )
        return self.read_table(source, strict=strict)

    @staticmethod
    def _annotation_files(path: Path) -> dict[str, Path]:
        """The annotation files of an official-layout ``path``: subset -> file."""
        if path.is_file():
            return {SUBSET_FILES[path.name]: path} if path.name in SUBSET_FILES else {}
        if not path.is_dir():
            return {}
        return {
            subset: path / name for name, subset in SUBSET_FILES.items() if (path / name).is_file()
        }

    def _load_official(self, files: Mapping[str, Path], *, strict: bool) -> LoadedSource:
        rows: list[dict[str, Any]] = []
        for subset, path in files.items():
            rows += [
                self._row(path, position, record, subset)
                for position, record in enumerate(_records(path))
            ]
        report = SourceReport()
        located = (
            (position, f"{row['subset']} record {row['image_path']!r}", problem)
            for position, row in enumerate(rows)
            if (problem := image_problem(row["image"])) is not None
        )
        problems = list(located)
        for row in rows:  # the image's bytes, read once (paths are local)
            image = Path(row["image"]["path"])
            row["image"] = (
                {"bytes": image.read_bytes(), "path": image.name} if image.is_file() else None
            )
        dataset = datasets.Dataset.from_list(rows, features=_features())
        dataset = drop_rows(dataset, iter(problems), report, strict=strict, unit="record")
        report.n_rows = len(dataset)
        report.notes.append(
            "records per subset: "
            + ", ".join(f"{s} {sum(r['subset'] == s for r in rows):,}" for s in files)
        )
        paths = list(files.values())
        identity = {
            "path": paths[0].parent.resolve().name,
            "files": [p.name for p in paths],
            "sha256": files_digest(paths),
            "layout": "official",
            "n_records": len(rows),
        }
        return LoadedSource(dataset=dataset, report=report, identity=identity)

    @staticmethod
    def _row(path: Path, position: int, record: Mapping[str, Any], subset: str) -> dict[str, Any]:
        image_path = str(record["image_path"])
        relative = image_path.removeprefix(_REPOSITORY_PREFIX)
        captions = record["caption_options"]
        return {
            "image": {"bytes": None, "path": str(path.parent / relative)},
            "image_path": image_path,
            **{f"caption_{k}": captions[k] for k in range(_N_CAPTIONS)},
            "subset": subset,
            "preposition": preposition_of(image_path, subset),
        }


def _records(path: Path) -> list[dict[str, Any]]:
    """The records of one annotation file, each checked to have an image path and four caption
    options."""
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SchemaError(f"{path} is not a readable JSON file: {error}") from None
    if not isinstance(records, list) or not records:
        raise SchemaError(
            f"{path} must hold a non-empty JSON list of records {{image_path, caption_options}}, "
            "as What'sUp's files do"
        )
    for position, record in enumerate(records):
        options = record.get("caption_options") if isinstance(record, dict) else None
        if (
            not isinstance(record, dict)
            or not isinstance(record.get("image_path"), str)
            or not isinstance(options, list)
            or len(options) != _N_CAPTIONS
            or not all(isinstance(option, str) for option in options)
        ):
            raise SchemaError(
                f"{path}: record {position} must have a text 'image_path' and {_N_CAPTIONS} text "
                f"'caption_options' (the first correct), got {record!r}"
            )
    return records
