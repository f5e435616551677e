"""The hard-positive benchmark of seed 003 (Kamath et al., ECCV 2024, *The Hard Positive Truth
about Vision-Language Compositionality*): a Visual Genome image, its original caption, a *hard
positive* (the caption with a word replaced by one that keeps it true: "walking elephant" ->
"strolling elephant") and the hard negative (a replacement that makes it false: "jumping
elephant").

Source: the repository github.com/amitakamath/hard_positives, whose REPLACE benchmark is two
parallel files per set: ``data/<set>.json`` (records ``{"image_id", "true_caption",
"false_caption", "image_path"}``: the original caption and the negative) and
``swapped_data/<set>.json`` (the same records, ``true_caption`` replaced by the hard positive),
for the sets ``vl_checklist_attributes`` (subset ``replace_att``) and ``vl_checklist_relations``
(``replace_rel``). Record ``k`` of one file pairs with record ``k`` of the other, as the
repository's evaluation pairs them; a pair whose ``image_id`` or ``false_caption`` differ is
refused. ``source`` is the repository folder. The images are Visual Genome's: ``image_path``
(``data/VG_100K/<id>.jpg``) is read relative to the repository folder, or, with the ``images``
option (``--images``), relative to that folder with the leading ``data/`` removed (the folder
that holds ``VG_100K/`` and ``VG_100K_2/``). A record whose image is missing or unreadable is
dropped and counted (``--strict`` fails instead).

Rows: ``image``, ``image_id``, ``image_path``, ``caption``, ``hard_positive``,
``negative_caption``, ``subset``. Or a Parquet copy with those columns.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import datasets

from ..downloads import files_digest
from ..errors import BindsplitFileNotFoundError, SchemaError
from . import from_spec
from .base import LoadedSource, ParsedCaptionsAdapter, SourceReport, drop_rows, image_problem

__all__ = ["HardPositives", "SETS"]

#: The REPLACE sets: file stem -> subset.
SETS: Mapping[str, str] = {
    "vl_checklist_attributes": "replace_att",
    "vl_checklist_relations": "replace_rel",
}
#: The folders of the original and the hard-positive captions in the repository.
ORIGINAL, SWAPPED = "data", "swapped_data"
_FIELDS = ("image_id", "true_caption", "false_caption", "image_path")
_FEATURES = datasets.Features(
    {
        "image": datasets.Image(),
        **{
            name: datasets.Value("string")
            for name in (
                "image_id",
                "image_path",
                "caption",
                "hard_positive",
                "negative_caption",
                "subset",
            )
        },
    }
)


@from_spec("hard_positives")
class HardPositives(ParsedCaptionsAdapter):
    """Seed 003's REPLACE benchmark (module docstring; its columns and their roles, licence and
    citation: ``specs/hard_positives.yaml``)."""

    load_options: ClassVar[tuple[str, ...]] = ("images",)

    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the repository layout, or a Parquet copy."""
        self.check_options(options)
        if source is None:
            raise BindsplitFileNotFoundError(
                f"{self.pretty_name} has no Hub source; clone github.com/amitakamath/"
                "hard_positives and pass its folder as --source (and the Visual Genome images "
                "with --images)"
            )
        root = Path(source).expanduser()
        sets = [stem for stem in SETS if (root / ORIGINAL / f"{stem}.json").is_file()]
        if not sets:
            if root.is_dir() and not any(root.rglob("*.parquet")):
                raise BindsplitFileNotFoundError(
                    f"{root} is not a {self.pretty_name} source: it has no {ORIGINAL}/"
                    f"{{{','.join(SETS)}}}.json (with {SWAPPED}/ beside) and no Parquet files"
                )
            return self.read_table(source, strict=strict)
        images = options.get("images")
        image_root = Path(images).expanduser() if images is not None else root
        rows: list[dict[str, Any]] = []
        for stem in sets:
            rows += _paired_rows(root, stem, image_root, strip=images is not None)
        problems = [
            (position, f"{row['subset']} image {row['image_path']!r}", problem)
            for position, row in enumerate(rows)
            if (problem := image_problem(row["image"])) is not None
        ]
        for row in rows:
            image = Path(row["image"]["path"])
            row["image"] = (
                {"bytes": image.read_bytes(), "path": image.name} if image.is_file() else None
            )
        report = SourceReport()
        dataset = datasets.Dataset.from_list(rows, features=_FEATURES)
        dataset = drop_rows(
            dataset, iter(problems), report, strict=strict, unit="record",
            fix="pass the Visual Genome image folder with --images",
        )  # fmt: skip
        report.n_rows = len(dataset)
        files = [root / folder / f"{stem}.json" for stem in sets for folder in (ORIGINAL, SWAPPED)]
        identity = {
            "path": root.resolve().name,
            "files": [f.relative_to(root).as_posix() for f in files],
            "sha256": files_digest(files),
            "layout": "repository",
            "n_records": len(rows),
        }
        return LoadedSource(dataset=dataset, report=report, identity=identity)


def _records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise BindsplitFileNotFoundError(
            f"{path} not found: each set has its original captions in {ORIGINAL}/ and its hard "
            f"positives in {SWAPPED}/"
        )
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SchemaError(f"{path} is not a readable JSON file: {error}") from None
    if not isinstance(records, list) or not all(
        isinstance(r, dict) and all(isinstance(r.get(f), str) for f in _FIELDS) for r in records
    ):
        raise SchemaError(
            f"{path} must hold a JSON list of records with the text fields {list(_FIELDS)}, as "
            "the hard_positives repository's files do"
        )
    return records


def _paired_rows(root: Path, stem: str, image_root: Path, *, strip: bool) -> list[dict[str, Any]]:
    """The rows of one set: record k of ``data/`` with record k of ``swapped_data/``."""
    original = _records(root / ORIGINAL / f"{stem}.json")
    swapped = _records(root / SWAPPED / f"{stem}.json")
    if len(original) != len(swapped):
        raise SchemaError(
            f"{root}: {ORIGINAL}/{stem}.json has {len(original)} records, {SWAPPED}/{stem}.json "
            f"{len(swapped)}; their records pair by position, so they must be as many"
        )
    rows = []
    for k, (first, second) in enumerate(zip(original, swapped, strict=True)):
        if (first["image_id"], first["false_caption"]) != (
            second["image_id"],
            second["false_caption"],
        ):
            raise SchemaError(
                f"{root}: record {k} of {ORIGINAL}/{stem}.json and of {SWAPPED}/{stem}.json "
                "are not of the same sample (their image_id or false_caption differ)"
            )
        relative = (
            first["image_path"].removeprefix(f"{ORIGINAL}/") if strip else first["image_path"]
        )
        rows.append(
            {
                "image": {"bytes": None, "path": str(image_root / relative)},
                "image_id": first["image_id"],
                "image_path": first["image_path"],
                "caption": first["true_caption"],
                "hard_positive": second["true_caption"],
                "negative_caption": first["false_caption"],
                "subset": SETS[stem],
            }
        )
    return rows
