"""ARO VG-Attribution (Yuksekgonul et al., ICLR 2023): one image, a true and an attribute-swapped
false caption.

Two source layouts are read:

* **original** (the ARO repository's layout): a folder with ``visual_genome_attribution.json`` (a
  list of records with ``image_path``, ``bbox_x``/``bbox_y``/``bbox_w``/``bbox_h``,
  ``true_caption``, ``false_caption``, ``attributes`` (two), ``obj1_name``, ``obj2_name``) and an
  ``images/`` folder. As ARO's own loader does, each image is converted to RGB and cropped to
  ``(x, y, x + w, y + h)``; the crop is stored losslessly (PNG) in the ``image`` column and every
  record field, the bbox included, is kept. Bindings come from the structured fields: the true
  caption states ``(attributes[0], obj1_name)`` and ``(attributes[1], obj2_name)``, the false
  caption the swapped attributes.
* **Hub mirror** ``gowitheflow/ARO-Visual-Attribution`` (or a local Parquet copy): columns
  ``image``, ``true_caption``, ``false_caption`` only. Bindings are read off ARO's fixed caption
  template ``"the {attr} {obj} and the {attr} {obj}"``, using the false caption (the same template
  with the attributes swapped) to decide where each attribute ends and its object begins. A row
  that does not fit the template is kept, its bindings come from the caption parser, and it is
  counted as ``template_mismatch`` in the source report (``--strict`` fails instead). When two
  splits both fit (an attribute's last word equal to the start of both objects, e.g. "light brown
  dog" / "dark brown cat") the one with the shortest attributes is taken and the row is counted
  as ``ambiguous_template``.

``macro_group`` is the attribute pair ``"{attributes[0]}_{attributes[1]}"``, the grouping of ARO's
own macro accuracy (its evaluation keeps the groups with at least 25 samples).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import datasets
import pyarrow as pa

from ..downloads import file_digest
from ..errors import BindsplitError, BindsplitFileNotFoundError, SchemaError
from ..parsing import Binding, normalise_binding, parse_bindings
from . import from_spec
from .base import (
    BenchmarkAdapter,
    LoadedSource,
    SourceReport,
    check_captions,
    drop_rows,
)

__all__ = ["AROVGAttribution", "ORIGINAL_FIELDS", "TEMPLATE", "split_template"]

#: The annotation file of the original layout.
ANNOTATION_FILE = "visual_genome_attribution.json"
#: The image folder of the original layout (``image_path`` is relative to it).
IMAGE_FOLDER = "images"
#: The fields every record of the original layout must have.
ORIGINAL_FIELDS: tuple[str, ...] = (
    "image_path",
    "bbox_x",
    "bbox_y",
    "bbox_w",
    "bbox_h",
    "true_caption",
    "false_caption",
    "attributes",
    "obj1_name",
    "obj2_name",
)
#: ARO's caption template (true caption; the false caption swaps the two attributes).
TEMPLATE = "the {attr} {obj} and the {attr} {obj}"

#: Records per shard of the cropping step (the unit of parallel work).
_CHUNK = 1000
#: Bumped when the crop/encoding changes, so cached crops are not reused.
_CROP_VERSION = 1
#: Temporary column holding each record's image problem while the original layout is read.
_PROBLEM = "_bindsplit_image_problem"
#: The first bytes of every Parquet file.
_PARQUET_MAGIC = b"PAR1"

_SPACES = re.compile(r"\s+")
_JOINER = " and the "


def _normalise_text(text: str) -> str:
    return _SPACES.sub(" ", text).strip().lower().rstrip(".").strip()


def _common_prefix(left: Sequence[str], right: Sequence[str]) -> int:
    return next(
        (k for k, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
        min(len(left), len(right)),
    )


def _joined(words: list[str]) -> tuple[list[str], list[str]] | None:
    """The words before and after the first ``and the``, if there is one with at least two
    words on each side."""
    k = next((k for k in range(len(words) - 1) if words[k : k + 2] == ["and", "the"]), 0)
    return (words[:k], words[k + 2 :]) if 2 <= k <= len(words) - 4 else None


def split_template(true_caption: str, false_caption: str) -> list[tuple[str, str, str, str]]:
    """Every ``(attr1, obj1, attr2, obj2)`` such that the true caption is
    ``"the {attr1} {obj1} and the {attr2} {obj2}"`` and the false caption is
    ``"the {attr2} {obj1} and the {attr1} {obj2}"`` (case, spaces and a final period ignored),
    ordered by attribute length (shortest first). Empty when the row does not fit the template.

    Attributes and objects are Visual Genome names, never holding ``and the``: each caption's
    first ``and the`` joins its two phrases. The splits that fit are then those whose first
    attribute length lies between bounds read off four common prefixes and suffixes, so they are
    found in time linear in the captions' length (a hostile record cannot stall a build).

    >>> split_template("the white dog and the black cat", "the black dog and the white cat")
    [('white', 'dog', 'black', 'cat')]
    """
    true, false = _normalise_text(true_caption).split(), _normalise_text(false_caption).split()
    if len(true) != len(false) or not true or true[0] != "the" or false[0] != "the":
        return []
    halves, swapped = _joined(true[1:]), _joined(false[1:])
    if halves is None or swapped is None:
        return []
    (left, right), (false_left, false_right) = halves, swapped
    # false_left = right[:j] + left[i:] and false_right = left[:i] + right[j:], with j = i + shift
    shift = len(false_left) - len(left)
    before = _common_prefix(false_left, right) - shift  # right[:j] starts false_left
    after = len(left) - _common_prefix(false_left[::-1], left[::-1])  # left[i:] ends it
    first = _common_prefix(false_right, left)  # left[:i] starts false_right
    last = len(right) - _common_prefix(false_right[::-1], right[::-1]) - shift  # right[j:] ends it
    lowest = max(1, 1 - shift, after, last)
    highest = min(len(left) - 1, len(right) - 1 - shift, first, before)
    return [
        (
            " ".join(left[:i]),
            " ".join(left[i:]),
            " ".join(right[: i + shift]),
            " ".join(right[i + shift :]),
        )
        for i in range(lowest, highest + 1)
    ]


@lru_cache(maxsize=1 << 16)
def _binding(attribute: str, obj: str) -> Binding:
    """:func:`normalise_binding`, cached: ARO repeats a small vocabulary over 28,748 records."""
    return normalise_binding(attribute, obj)


def _pair_bindings(attr1: str, obj1: str, attr2: str, obj2: str) -> list[list[Binding]]:
    """True caption: (attr1, obj1), (attr2, obj2); false caption: the attributes swapped."""
    true = [_binding(attr1, obj1), _binding(attr2, obj2)]
    false = [_binding(attr2, obj1), _binding(attr1, obj2)]
    return [list(dict.fromkeys(true)), list(dict.fromkeys(false))]


@from_spec("aro_vga")
class AROVGAttribution(BenchmarkAdapter):
    """ARO VG-Attribution; see the module docstring for the two layouts it reads (its source,
    columns, licence and citation: ``specs/aro_vga.yaml``)."""

    #: The original layout's annotation file and the fields each of its records must have
    #: (class variables, so that ARO VG-Relation reads its own file through the same code).
    annotation_file: ClassVar[str] = ANNOTATION_FILE
    record_fields: ClassVar[tuple[str, ...]] = ORIGINAL_FIELDS
    load_options: ClassVar[tuple[str, ...]] = ("num_proc",)

    # ------------------------------------------------------------------------------- reading
    def load(
        self, source: str | Path | None = None, *, strict: bool = False, **options: Any
    ) -> LoadedSource:
        """Read the original layout (a folder with ``visual_genome_attribution.json`` and
        ``images/``, or the JSON file itself), else the Hub mirror or a Parquet copy of it.

        Option ``num_proc``: processes that crop the original layout's images (default 1; at
        most one per 1,000 records; ``make bench`` measures the speed-up).
        """
        self.check_options(options)
        num_proc = options.get("num_proc")
        if source is not None:
            path = Path(source).expanduser()
            if path.is_file() and path.suffix == ".json":
                return self._load_original(path, strict=strict, num_proc=num_proc)
            annotations = path / self.annotation_file
            if path.is_dir() and annotations.is_file():
                return self._load_original(annotations, strict=strict, num_proc=num_proc)
            if path.is_dir() and not any(path.rglob("*.parquet")):
                raise BindsplitFileNotFoundError(
                    f"{path} is not an {self.pretty_name} source: it has neither "
                    f"{self.annotation_file} (with {IMAGE_FOLDER}/ beside it) nor Parquet files"
                )
            if path.is_file() and not _starts_with(path, _PARQUET_MAGIC):
                raise SchemaError(
                    f"{path} is not an {self.pretty_name} source: it is neither the JSON "
                    f"annotation file nor a Parquet file; pass the folder with "
                    f"{self.annotation_file} and {IMAGE_FOLDER}/, that JSON file, or a Parquet "
                    f"copy of {self.hub_id}"
                )
        loaded = self.read_table(source, strict=strict)
        loaded.identity["layout"] = "hub-mirror"
        self._check_template(loaded.dataset, loaded.report, strict=strict)
        return loaded

    def _check_template(
        self, dataset: datasets.Dataset, report: SourceReport, *, strict: bool
    ) -> None:
        captions = dataset.select_columns(list(self.caption_columns)).to_dict()
        mismatched: list[int] = []
        ambiguous = 0
        for position, (true, false) in enumerate(zip(*captions.values(), strict=True)):
            fits = split_template(true or "", false or "")
            if not fits:
                if strict:
                    raise BindsplitError(
                        f"row {position} does not fit the ARO template {TEMPLATE!r} "
                        f"(true: {true!r}, false: {false!r}); build without --strict to take "
                        "its bindings from the caption parser"
                    )
                mismatched.append(position)
            ambiguous += len(fits) > 1
        if mismatched:
            report.problems["template_mismatch"] += len(mismatched)
            first = mismatched[0]
            report.notes.append(
                f"{len(mismatched)} row(s) do not fit the template {TEMPLATE!r}; their bindings "
                f"come from the caption parser (first: row {first}, "
                f"{captions['true_caption'][first]!r})"
            )
        if ambiguous:
            report.problems["ambiguous_template"] += ambiguous
            report.notes.append(
                f"{ambiguous} row(s) fit the template in more than one way; the split with the "
                "shortest attributes was used"
            )

    def _load_original(
        self, annotation_file: Path, *, strict: bool, num_proc: int | None
    ) -> LoadedSource:
        image_dir = annotation_file.parent / IMAGE_FOLDER
        if not image_dir.is_dir():
            raise BindsplitFileNotFoundError(
                f"image folder {image_dir} not found; the original ARO layout has "
                f"{IMAGE_FOLDER}/ beside {self.annotation_file}"
            )
        records = self._read_records(annotation_file)
        # record fields keep their JSON types (inferred over all records); the crop is added
        inferred = datasets.Features.from_arrow_schema(pa.Table.from_pylist(records).schema)
        features = datasets.Features(
            {"image": datasets.Image(), **inferred, _PROBLEM: datasets.Value("string")}
        )
        json_sha256 = file_digest(annotation_file)
        fingerprint = hashlib.sha256(
            json.dumps([_CROP_VERSION, json_sha256, _image_stats(image_dir, records)]).encode()
        ).hexdigest()
        # a list in gen_kwargs is a list of shards: chunks of records, cropped by num_proc workers
        chunks = [records[i : i + _CHUNK] for i in range(0, len(records), _CHUNK)]
        dataset = datasets.Dataset.from_generator(
            _crop_records,
            features=features,
            gen_kwargs={"chunks": chunks, "image_dir": str(image_dir)},
            num_proc=min(num_proc or 1, len(chunks)),
            fingerprint=fingerprint,
        )
        report = SourceReport()
        located = (
            (i, f"record {i} ({records[i]['image_path']!r} in {image_dir})", problem)
            for i, problem in enumerate(dataset[_PROBLEM])
            if problem
        )
        dataset = drop_rows(dataset, located, report, strict=strict, unit="record")
        dataset = dataset.remove_columns(_PROBLEM)
        dataset = check_captions(dataset, self.caption_columns, report, strict=strict)
        report.n_rows = len(dataset)
        identity = {
            "path": annotation_file.parent.resolve().name,
            "files": [self.annotation_file],
            "sha256": json_sha256,
            "layout": "original",
            "n_records": len(records),
        }
        return LoadedSource(dataset=dataset, report=report, identity=identity)

    def _read_records(self, annotation_file: Path) -> list[dict[str, Any]]:
        try:
            records = json.loads(annotation_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise SchemaError(f"{annotation_file} is not a readable JSON file: {error}") from None
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise SchemaError(
                f"{annotation_file} must hold a JSON list of records (objects), as ARO's "
                f"{self.annotation_file} does"
            )
        if not records:
            raise SchemaError(f"{annotation_file} holds no records")
        for position, record in enumerate(records):
            missing = [f for f in self.record_fields if f not in record]
            if missing:
                raise SchemaError(
                    f"{annotation_file}: record {position} lacks the field(s) {missing}; every "
                    f"record needs {list(self.record_fields)}"
                )
            self._check_record(annotation_file, position, record)
        return records

    @staticmethod
    def _check_record(annotation_file: Path, position: int, record: Mapping[str, Any]) -> None:
        """Raise :class:`SchemaError` for a record whose fields have the wrong shape."""
        if not isinstance(record["attributes"], list) or len(record["attributes"]) != 2:
            raise SchemaError(
                f"{annotation_file}: record {position} must have exactly two 'attributes', "
                f"got {record['attributes']!r}"
            )

    # ------------------------------------------------------------------------------ bindings
    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Binding]]:
        if "attributes" in row and "obj1_name" in row:
            attr1, attr2 = row["attributes"]
            return _pair_bindings(attr1, row["obj1_name"], attr2, row["obj2_name"])
        fits = split_template(row["true_caption"] or "", row["false_caption"] or "")
        if fits:
            return _pair_bindings(*fits[0])
        return [parse_bindings(row[column] or "") for column in self.caption_columns]

    def macro_group(self, row: Mapping[str, Any]) -> str | None:
        if "attributes" in row:
            attr1, attr2 = row["attributes"]
            return f"{attr1}_{attr2}"
        fits = split_template(row["true_caption"] or "", row["false_caption"] or "")
        return f"{fits[0][0]}_{fits[0][2]}" if fits else None


def _starts_with(path: Path, prefix: bytes) -> bool:
    with open(path, "rb") as handle:
        return handle.read(len(prefix)) == prefix


def _image_stats(image_dir: Path, records: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Size and modification time of every referenced image (part of the cache fingerprint)."""
    stats = []
    for name in dict.fromkeys(str(r["image_path"]) for r in records):
        path = image_dir / name
        stat = path.stat() if path.is_file() else None
        stats.append([name, stat.st_size, stat.st_mtime_ns] if stat else [name, None, None])
    return stats


def _crop_records(
    chunks: Sequence[Sequence[Mapping[str, Any]]], image_dir: str
) -> Iterator[dict[str, Any]]:
    """Each record with its image cropped as ARO's loader does (RGB, then ``crop((x, y, x + w,
    y + h))``), stored as PNG; a record whose image is missing or unreadable gets ``image=None``
    and the problem in the ``_PROBLEM`` column."""
    from PIL import Image as PILImage

    folder = Path(image_dir)
    records = (record for chunk in chunks for record in chunk)
    for record in records:
        path = folder / str(record["image_path"])
        image: dict[str, Any] | None = None
        problem: str | None = None
        if not path.is_file():
            problem = "missing_image"
        else:
            try:
                with PILImage.open(path) as opened:
                    x, y, w, h = (record[k] for k in ("bbox_x", "bbox_y", "bbox_w", "bbox_h"))
                    crop = opened.convert("RGB").crop((x, y, x + w, y + h))
                buffer = io.BytesIO()
                crop.save(buffer, format="PNG")
                image = {"bytes": buffer.getvalue(), "path": None}
            except Exception:  # PIL raises many types for corrupt files; each means "unreadable"
                problem = "unreadable_image"
        yield {**record, "image": image, _PROBLEM: problem}
