"""Generators of benchmark sources in their exact source schemas, for tests and benchmarks.

* :func:`make_aro_source`: the original ARO VG-Attribution layout,
  ``visual_genome_attribution.json``
  (records with ``image_path``, ``bbox_x/y/w/h``, ``true_caption``, ``false_caption``,
  ``attributes``, ``obj1_name``, ``obj2_name``) plus real image files in ``images/``.
* :func:`aro_vgr_record`: one record of ARO VG-Relation's ``visual_genome_relation.json`` (the
  fields ARO's ``VG_Relation`` loader reads, ``image_path``, ``bbox_x/y/w/h``, ``relation_name``,
  ``true_caption``, ``false_caption``, plus ``image_id``), written by :func:`make_aro_source`
  with ``annotation_file="visual_genome_relation.json"``.
* :func:`make_aro_mirror_source`: a Parquet file with the Hub mirror's columns (``image``,
  ``true_caption``, ``false_caption``), ``image`` an ``Image`` feature.
* :func:`make_bivlc_source`: a Parquet file with BiVLC's Hub columns, ``image`` and
  ``negative_image`` ``Image`` features.
* :func:`make_vismin_source`: a Parquet file with VisMin's Hub columns, optionally with crossed
  rows (``swapped``: ``image_0`` holds the image ``text_1`` describes, as the Hub release stores
  the rows its ``sim_solution.csv`` marks), with :func:`make_sim_solution` writing that file.

Every image is a small PNG whose colour encodes where it belongs (:func:`fixture_colour`), so a
test can tell which image ended up in which column. The same code paths read these files as read
the real sources; only the location differs.

:func:`label_names` reads a build's ``bindsplit_label`` column back as names.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import datasets
from PIL import Image

__all__ = [
    "ARO_ATTRIBUTES",
    "BIVLC_FEATURES",
    "ARO_OBJECTS",
    "UNREADABLE",
    "VISMIN_FEATURES",
    "aro_record",
    "aro_vgr_record",
    "aro_records",
    "centre_colour",
    "close_colours",
    "fixture_colour",
    "label_names",
    "make_aro_mirror_source",
    "make_aro_source",
    "make_bivlc_source",
    "make_sim_solution",
    "make_vismin_source",
    "png_bytes",
]

#: Attributes and objects the generated ARO records cycle through.
ARO_ATTRIBUTES: tuple[str, ...] = ("white", "red", "wooden", "black", "small", "green", "metal")
ARO_OBJECTS: tuple[str, ...] = ("dog", "car", "table", "cat", "house", "bus", "chair", "cup")
#: Bytes that are not an image: a row whose image cell holds these is "unreadable".
UNREADABLE = b"this is not an image"
#: Size of the full ARO images; records crop a box inside.
ARO_IMAGE_SIZE = (48, 40)
#: Colour outside the bbox of a generated ARO image (the crop must not contain it).
ARO_BACKGROUND = (250, 250, 250)


def centre_colour(image: Image.Image) -> tuple[int, int, int]:
    """The RGB colour at the centre of a decoded image (fixture images are solid colours)."""
    return image.convert("RGB").getpixel((image.width // 2, image.height // 2))


def close_colours(a: Sequence[int], b: Sequence[int], tolerance: int = 6) -> bool:
    """Whether two colours are equal up to ``tolerance`` per channel (JPEG is lossy)."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def fixture_colour(row: int, slot: int) -> tuple[int, int, int]:
    """The colour of the fixture image of ``row`` in image slot ``slot`` (unique per pair)."""
    return (row % 251, (row // 251) % 251, 10 + 60 * slot)


def label_names(dataset: datasets.Dataset) -> list[str]:
    """The rows' ``bindsplit_label`` as names, decoded by the dataset's own ClassLabel (the
    column stores the class index), as a reader of a build decodes it."""
    return list(dataset.features["bindsplit_label"].int2str(dataset["bindsplit_label"]))


def png_bytes(colour: tuple[int, int, int], size: tuple[int, int] = (8, 8)) -> bytes:
    """A solid-colour PNG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="PNG")
    return buffer.getvalue()


def _image_cell(
    row: int, slot: int, missing: Collection[int], unreadable: Collection[int]
) -> dict[str, Any] | None:
    if row in missing:
        return None
    if row in unreadable:
        return {"bytes": UNREADABLE, "path": None}
    return {"bytes": png_bytes(fixture_colour(row, slot)), "path": None}


def aro_record(position: int, attr1: str, obj1: str, attr2: str, obj2: str) -> dict[str, Any]:
    """One ARO record in the original schema: captions from the template, a bbox inside the
    image ``{position}.jpg``."""
    x, y = 2 + position % 5, 3 + position % 4
    return {
        "image_path": f"{position}.jpg",
        "bbox_x": x,
        "bbox_y": y,
        "bbox_w": 20 + position % 7,
        "bbox_h": 16 + position % 5,
        "true_caption": f"the {attr1} {obj1} and the {attr2} {obj2}",
        "false_caption": f"the {attr2} {obj1} and the {attr1} {obj2}",
        "attributes": [attr1, attr2],
        "obj1_name": obj1,
        "obj2_name": obj2,
    }


def aro_vgr_record(position: int, subject: str, relation: str, obj: str) -> dict[str, Any]:
    """One ARO VG-Relation record: ARO's captions ("the {subject} is {relation} the {object}",
    the false one with subject and object exchanged), a bbox inside the image
    ``{position}.jpg``."""
    x, y = 2 + position % 5, 3 + position % 4
    return {
        "image_id": str(2_300_000 + position),
        "relation_name": relation,
        "bbox_x": x,
        "bbox_y": y,
        "bbox_w": 20 + position % 7,
        "bbox_h": 16 + position % 5,
        "true_caption": f"the {subject} is {relation} the {obj}",
        "false_caption": f"the {obj} is {relation} the {subject}",
        "image_path": f"{position}.jpg",
    }


def aro_records(n: int) -> list[dict[str, Any]]:
    """``n`` records in the original schema cycling :data:`ARO_ATTRIBUTES` and :data:`ARO_OBJECTS`
    (two distinct attributes on two distinct objects each)."""
    records = []
    for i in range(n):
        attr1 = ARO_ATTRIBUTES[i % len(ARO_ATTRIBUTES)]
        attr2 = ARO_ATTRIBUTES[(i // len(ARO_ATTRIBUTES) + i + 1) % len(ARO_ATTRIBUTES)]
        if attr2 == attr1:
            attr2 = ARO_ATTRIBUTES[(ARO_ATTRIBUTES.index(attr1) + 1) % len(ARO_ATTRIBUTES)]
        obj1 = ARO_OBJECTS[i % len(ARO_OBJECTS)]
        obj2 = ARO_OBJECTS[(i * 3 + 1) % len(ARO_OBJECTS)]
        if obj2 == obj1:
            obj2 = ARO_OBJECTS[(ARO_OBJECTS.index(obj1) + 1) % len(ARO_OBJECTS)]
        records.append(aro_record(i, attr1, obj1, attr2, obj2))
    return records


def make_aro_source(
    directory: str | Path,
    n: int | None = None,
    *,
    records: Sequence[Mapping[str, Any]] | None = None,
    missing_images: Collection[int] = (),
    unreadable_images: Collection[int] = (),
    image_format: str = "JPEG",
    image_bytes: bytes | None = None,
    annotation_file: str = "visual_genome_attribution.json",
) -> Path:
    """Write the original ARO VG-Attribution layout into ``directory`` and return it.

    ``records`` (original schema, e.g. from :func:`aro_record`) or ``n`` generated ones. Each
    record's image is ``images/<image_path>``: background :data:`ARO_BACKGROUND` with the bbox
    filled with ``fixture_colour(position, 0)``, or ``image_bytes`` (an encoded image that must
    contain every bbox) for all. Records in ``missing_images`` get no file, those in
    ``unreadable_images`` a file that is not an image.
    """
    directory = Path(directory)
    if records is None:
        if n is None:
            raise ValueError("pass n or records")
        records = aro_records(n)
    images = directory / "images"
    images.mkdir(parents=True, exist_ok=True)
    for position, record in enumerate(records):
        path = images / str(record["image_path"])
        if position in missing_images:
            continue
        if position in unreadable_images or image_bytes is not None:
            path.write_bytes(UNREADABLE if position in unreadable_images else image_bytes)
            continue
        image = Image.new("RGB", ARO_IMAGE_SIZE, ARO_BACKGROUND)
        x, y, w, h = (record[k] for k in ("bbox_x", "bbox_y", "bbox_w", "bbox_h"))
        image.paste(fixture_colour(position, 0), (x, y, x + w, y + h))
        # PNG keeps the colours exact; JPEG is what the real ARO images are
        image.save(path, format=image_format, **({"quality": 95} if image_format == "JPEG" else {}))
    (directory / annotation_file).write_text(json.dumps(list(records)))
    return directory


def _write_parquet(
    path: str | Path, columns: Mapping[str, list[Any]], features: datasets.Features
) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_dict(dict(columns), features=features).to_parquet(str(path))
    return path


def make_aro_mirror_source(
    path: str | Path,
    captions: Iterable[tuple[str, str]],
    *,
    missing_images: Collection[int] = (),
    unreadable_images: Collection[int] = (),
) -> Path:
    """A Parquet file with the Hub mirror's columns: ``image`` (``fixture_colour(i, 0)``),
    ``true_caption`` and ``false_caption`` from ``captions``."""
    pairs = list(captions)
    features = datasets.Features(
        {
            "image": datasets.Image(),
            "true_caption": datasets.Value("string"),
            "false_caption": datasets.Value("string"),
        }
    )
    columns = {
        "image": [_image_cell(i, 0, missing_images, unreadable_images) for i in range(len(pairs))],
        "true_caption": [true for true, _ in pairs],
        "false_caption": [false for _, false in pairs],
    }
    return _write_parquet(path, columns, features)


#: BiVLC's Hub features.
BIVLC_FEATURES = datasets.Features(
    {
        "image": datasets.Image(),
        "caption": datasets.Value("string"),
        "negative_caption": datasets.Value("string"),
        "negative_image": datasets.Image(),
        "type": datasets.Value("string"),
        "subtype": datasets.Value("string"),
    }
)


def make_bivlc_source(
    path: str | Path,
    rows: Sequence[Mapping[str, str]],
    *,
    missing_images: Collection[int] = (),
    unreadable_images: Collection[int] = (),
    drop_columns: Collection[str] = (),
) -> Path:
    """A Parquet file with BiVLC's Hub columns. ``rows`` give ``caption``, ``negative_caption``,
    ``type`` and ``subtype``; ``image`` is ``fixture_colour(i, 0)``, ``negative_image``
    ``fixture_colour(i, 1)``. ``drop_columns`` leaves columns out (to test schema errors)."""
    columns = {
        "image": [_image_cell(i, 0, missing_images, unreadable_images) for i in range(len(rows))],
        "caption": [row["caption"] for row in rows],
        "negative_caption": [row["negative_caption"] for row in rows],
        "negative_image": [_image_cell(i, 1, (), ()) for i in range(len(rows))],
        "type": [row.get("type", "replace") for row in rows],
        "subtype": [row.get("subtype", "att") for row in rows],
    }
    features = datasets.Features({k: v for k, v in BIVLC_FEATURES.items() if k not in drop_columns})
    return _write_parquet(
        path, {k: v for k, v in columns.items() if k not in drop_columns}, features
    )


#: VisMin's Hub features (the columns BindSplit uses, plus ``id``).
VISMIN_FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "image_0": datasets.Image(),
        "text_0": datasets.Value("string"),
        "image_1": datasets.Image(),
        "text_1": datasets.Value("string"),
        "category": datasets.Value("string"),
    }
)


def make_vismin_source(
    path: str | Path,
    rows: Sequence[Mapping[str, str]],
    *,
    swapped: Collection[int] = (),
) -> Path:
    """A Parquet file with VisMin's Hub columns. ``rows`` give ``text_0``, ``text_1`` and
    ``category``. The image described by ``text_k`` of row ``i`` is ``fixture_colour(i, k)``;
    rows in ``swapped`` store it crossed (``image_0`` is the image of ``text_1``), as the Hub
    release stores about half of its rows."""
    image_0, image_1 = [], []
    for i in range(len(rows)):
        first, second = png_bytes(fixture_colour(i, 0)), png_bytes(fixture_colour(i, 1))
        if i in swapped:
            first, second = second, first
        image_0.append({"bytes": first, "path": None})
        image_1.append({"bytes": second, "path": None})
    columns = {
        "id": [str(i) for i in range(len(rows))],
        "image_0": image_0,
        "text_0": [row["text_0"] for row in rows],
        "image_1": image_1,
        "text_1": [row["text_1"] for row in rows],
        "category": [row["category"] for row in rows],
    }
    return _write_parquet(path, columns, VISMIN_FEATURES)


_STRAIGHT = ("T0_I0 > T1_I0 & T1_I1 > T0_I1", "T0_I0 > T0_I1 & T1_I1 > T1_I0")
_CROSSED = ("T1_I0 > T0_I0 & T0_I1 > T1_I1", "T0_I1 > T0_I0 & T1_I0 > T1_I1")


def make_sim_solution(
    path: str | Path, categories: Sequence[str], *, swapped: Collection[int] = ()
) -> Path:
    """A ``sim_solution.csv`` (``idx``, ``Text``, ``Image``, ``category``; ``idx`` restarting in
    every category) for a source whose rows have ``categories``; rows in ``swapped`` pair
    ``text_0`` with ``image_1``. Rows are written grouped by category, as the real file is."""
    path = Path(path)
    order = sorted(
        range(len(categories)),
        key=lambda i: (list(dict.fromkeys(categories)).index(categories[i]), i),
    )
    counters: dict[str, int] = {}
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["idx", "Text", "Image", "category"])
        for i in order:
            idx = counters.get(categories[i], 0)
            counters[categories[i]] = idx + 1
            text, image = _CROSSED if i in swapped else _STRAIGHT
            writer.writerow([idx, text, image, categories[i]])
    return path
