"""Sources of the field's benchmarks in their exact public schemas, for tests.

Each generator writes what the benchmark's public release holds, as its dataset card or loader
code gives it (the specs' ``schema.verified`` say where each was read):

* :func:`make_winoground_source`: a Parquet file with the features of the Hub dataset
  ``facebook/winoground`` (its loading script): ``id`` int32, ``image_0``, ``image_1``,
  ``caption_0``, ``caption_1``, ``tag``, ``secondary_tag``, ``num_main_preds`` int32,
  ``collapsed_tag``.
* :func:`make_colorswap_source`: the features of ``stanfordnlp/colorswap``: ``id`` int32,
  ``image_1``, ``image_2``, ``caption_1``, ``caption_2``, ``image_source``, ``caption_source``.
* :func:`make_whatsup_source`: What'sUp's ``data/`` folder: ``controlled_images_dataset.json``
  (and ``controlled_clevr_dataset.json``), lists of ``{"image_path", "caption_options"}`` with
  the repository's ``data/``-prefixed image paths, and the image files.
* :func:`make_hard_positives_source`: seed 003's repository, ``data/<set>.json`` and
  ``swapped_data/<set>.json`` (records ``{"image_id", "true_caption", "false_caption",
  "image_path"}``, the second with the hard positive as ``true_caption``) and the Visual Genome
  images their ``data/VG_100K/<id>.jpg`` paths name.
* :func:`make_sugarcrepe_pp_source`: SugarCrepe++'s ``data/<subset>.json`` files (lists of
  ``{"id", "filename", "caption", "caption2", "negative_caption"}``) and the COCO val2017
  images they name.

Images are small solid-colour PNGs (JPEGs for COCO) whose colour encodes the row and slot
(:func:`fixtures_sources.fixture_colour`), so a test can tell which image went where.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import datasets
from fixtures_sources import UNREADABLE, fixture_colour, png_bytes
from fixtures_sugarcrepe import coco_filename, image_colour, jpeg_bytes

__all__ = [
    "COLORSWAP_FEATURES",
    "WINOGROUND_FEATURES",
    "make_colorswap_source",
    "make_hard_positives_source",
    "make_sugarcrepe_pp_source",
    "make_whatsup_source",
    "make_winoground_source",
]

#: The features of ``facebook/winoground`` (its loading script's ``_info``).
WINOGROUND_FEATURES = datasets.Features(
    {
        "id": datasets.Value("int32"),
        "image_0": datasets.Image(),
        "image_1": datasets.Image(),
        "caption_0": datasets.Value("string"),
        "caption_1": datasets.Value("string"),
        "tag": datasets.Value("string"),
        "secondary_tag": datasets.Value("string"),
        "num_main_preds": datasets.Value("int32"),
        "collapsed_tag": datasets.Value("string"),
    }
)

#: The features of ``stanfordnlp/colorswap``.
COLORSWAP_FEATURES = datasets.Features(
    {
        "id": datasets.Value("int32"),
        "image_1": datasets.Image(),
        "image_2": datasets.Image(),
        "caption_1": datasets.Value("string"),
        "caption_2": datasets.Value("string"),
        "image_source": datasets.Value("string"),
        "caption_source": datasets.Value("string"),
    }
)


def _image(row: int, slot: int, unreadable: Collection[int] = ()) -> dict[str, Any]:
    data = UNREADABLE if row in unreadable else png_bytes(fixture_colour(row, slot))
    return {"bytes": data, "path": None}


def make_winoground_source(
    path: str | Path,
    pairs: Sequence[tuple[str, str]],
    *,
    tags: Sequence[str] | None = None,
    unreadable: Collection[int] = (),
) -> Path:
    """A Parquet file in Winoground's Hub schema: row ``i`` has ``caption_0``/``caption_1`` from
    ``pairs[i]``, ``image_k`` = ``fixture_colour(i, k)``, ids ``i``, ``collapsed_tag`` from
    ``tags`` (default ``Object``)."""
    n = len(pairs)
    tags = list(tags or ["Object"] * n)
    columns = {
        "id": list(range(n)),
        "image_0": [_image(i, 0, unreadable) for i in range(n)],
        "image_1": [_image(i, 1) for i in range(n)],
        "caption_0": [first for first, _ in pairs],
        "caption_1": [second for _, second in pairs],
        "tag": ["Noun" for _ in range(n)],
        "secondary_tag": ["" for _ in range(n)],
        "num_main_preds": [1 for _ in range(n)],
        "collapsed_tag": tags,
    }
    return _write(path, columns, WINOGROUND_FEATURES)


def make_colorswap_source(path: str | Path, pairs: Sequence[tuple[str, str]]) -> Path:
    """A Parquet file in ColorSwap's Hub schema: row ``i`` has ``caption_1``/``caption_2`` from
    ``pairs[i]``, ``image_1`` = ``fixture_colour(i, 0)`` and ``image_2`` =
    ``fixture_colour(i, 1)``."""
    n = len(pairs)
    columns = {
        "id": list(range(n)),
        "image_1": [_image(i, 0) for i in range(n)],
        "image_2": [_image(i, 1) for i in range(n)],
        "caption_1": [first for first, _ in pairs],
        "caption_2": [second for _, second in pairs],
        "image_source": ["midjourney" for _ in range(n)],
        "caption_source": ["human" for _ in range(n)],
    }
    return _write(path, columns, COLORSWAP_FEATURES)


def _write(path: str | Path, columns: Mapping[str, list[Any]], features: datasets.Features) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    datasets.Dataset.from_dict(dict(columns), features=features).to_parquet(str(path))
    return path


def make_whatsup_source(
    root: Path,
    subsets: Mapping[str, Sequence[tuple[str, Sequence[str]]]],
    *,
    missing: Collection[str] = (),
) -> Path:
    """What'sUp's ``data/`` folder under ``root`` (returned): for each subset
    (``controlled_images`` or ``controlled_clevr``) its annotation file with one record per
    ``(file name, four caption options)`` and the image ``<subset>/<file name>`` (a PNG of
    ``fixture_colour(k, 0)`` for the k-th record of all subsets), except those in ``missing``."""
    files = {"controlled_images": "controlled_images_dataset.json"}
    files["controlled_clevr"] = "controlled_clevr_dataset.json"
    root.mkdir(parents=True, exist_ok=True)
    k = 0
    for subset, records in subsets.items():
        (root / subset).mkdir(exist_ok=True)
        content = []
        for name, options in records:
            content.append(
                {"image_path": f"data/{subset}/{name}", "caption_options": list(options)}
            )
            if name not in missing:
                (root / subset / name).write_bytes(png_bytes(fixture_colour(k, 0)))
            k += 1
        (root / files[subset]).write_text(json.dumps(content, indent=4), encoding="utf-8")
    return root


def make_sugarcrepe_pp_source(
    root: Path, samples: Mapping[str, Sequence[tuple[int, str, str, str]]]
) -> Path:
    """SugarCrepe++'s layout under ``root`` (returned): ``data/<subset>.json`` with sample ``i``
    ``{"id": i, "filename", "caption", "caption2", "negative_caption"}`` from ``(image id,
    caption, caption2, negative_caption)``, and the COCO val2017 images in ``val2017/``."""
    data, images = root / "data", root / "val2017"
    data.mkdir(parents=True, exist_ok=True)
    images.mkdir(parents=True, exist_ok=True)
    for subset, rows in samples.items():
        content = [
            {
                "id": i,
                "filename": coco_filename(image_id),
                "caption": caption,
                "caption2": caption2,
                "negative_caption": negative,
            }
            for i, (image_id, caption, caption2, negative) in enumerate(rows)
        ]
        (data / f"{subset}.json").write_text(json.dumps(content, indent=1), encoding="utf-8")
        for image_id, *_ in rows:
            (images / coco_filename(image_id)).write_bytes(jpeg_bytes(image_colour(image_id)))
    return root


def make_hard_positives_source(
    root: Path, sets: Mapping[str, Sequence[tuple[int, str, str, str]]]
) -> Path:
    """Seed 003's repository layout under ``root`` (returned): per set (file stem) the records
    ``(image id, original caption, hard positive, negative)`` written to ``data/<set>.json`` and,
    with the hard positive as ``true_caption``, to ``swapped_data/<set>.json``; the image of id
    ``i`` at ``data/VG_100K/<i>.jpg`` (a JPEG of :func:`fixtures_sugarcrepe.image_colour`)."""
    for folder in ("data", "swapped_data", "data/VG_100K"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for stem, rows in sets.items():
        for folder, slot in (("data", 1), ("swapped_data", 2)):
            records = [
                {
                    "image_id": str(row[0]),
                    "true_caption": row[slot],
                    "false_caption": row[3],
                    "image_path": f"data/VG_100K/{row[0]}.jpg",
                }
                for row in rows
            ]
            (root / folder / f"{stem}.json").write_text(json.dumps(records), encoding="utf-8")
        for image_id, *_ in rows:
            (root / "data" / "VG_100K" / f"{image_id}.jpg").write_bytes(
                jpeg_bytes(image_colour(image_id))
            )
    return root
