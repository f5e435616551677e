"""Sources of half-truths (the ``halftruth`` benchmark): images with captions, every caption true
of its image.

:func:`read_source` reads one of three kinds of source into
:class:`~bindsplit_datasets.halftruths.rows.CaptionedImages` (the rows with the source's own
columns, which column holds the image, and each image's captions):

* the **synthetic relation test set** (``synthetic``, or a folder written by
  :func:`~bindsplit_datasets.synthetic.write_test_benchmark`): ``image_0`` with ``caption_0``;
  its rows carry the scene description (``objects``, ``attributes``, ``boxes_0``) that the
  ground-truth test checks every foil against;
* **COCO captions** (a caption file in COCO's format, ``captions_val2017.json``, with the folder
  of its images, ``images``): one row per image with ``image_id``, ``file_name``, ``captions``
  (all the image's captions, in file order) and ``image``;
* a **table** (Parquet, CSV, JSON lines or a Hub id) with one image column and one or more caption
  columns (``image_columns``, ``caption_columns``; ``--image-columns``, ``--caption-columns``),
  read by :func:`read_table` through the generic table reader of ``bindsplit build custom``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import datasets

from ..downloads import files_digest
from ..errors import BindsplitFileNotFoundError, BindsplitValueError, SchemaError
from ..halftruths.rows import CaptionedImages
from ..input_files import check_input_file

__all__ = [
    "SYNTHETIC",
    "read_coco",
    "read_source",
    "read_table",
    "source_kind",
]

#: The ``--source`` naming the default synthetic relation test set.
SYNTHETIC = "synthetic"


def source_kind(
    source: str | Path | None,
    *,
    image_columns: Sequence[str] | None = None,
) -> str:
    """``synthetic``, ``coco`` or ``table``: what :func:`read_source` reads ``source`` as (a
    table: anything else, which needs its columns)."""
    if source is None or str(source) == SYNTHETIC:
        return "synthetic"
    path = Path(source).expanduser()
    if image_columns:
        return "table"
    if path.is_dir() and ((path / "relations").is_dir() or (path / "world.json").is_file()):
        return "synthetic"
    if path.suffix == ".json":
        return "coco"
    return "table"


def read_source(
    source: str | Path | None,
    *,
    images: str | Path | None = None,
    image_columns: Sequence[str] | None = None,
    caption_columns: Sequence[str] | None = None,
) -> CaptionedImages:
    """Read ``source`` as :func:`source_kind` says (module docstring)."""
    kind = source_kind(source, image_columns=image_columns)
    if kind != "table" and caption_columns:
        raise BindsplitValueError(
            "--caption-columns names a table's columns: pass --image-columns with it"
        )
    if kind == "synthetic":
        return _read_synthetic(source)
    if kind == "coco":
        assert source is not None
        if images is None:
            raise BindsplitValueError(
                f"{Path(source).name} is a COCO caption file: pass the folder of its images with "
                "--images (COCO val2017: the val2017/ folder)"
            )
        return read_coco(source, images)
    assert source is not None
    if not image_columns or not caption_columns:
        raise BindsplitValueError(
            f"{Path(source).name} is read as a table of images and captions: pass its columns "
            "with --image-columns IMAGE --caption-columns CAPTION[,CAPTION_2...] (or pass the "
            "synthetic test set, or a COCO caption file with --images)"
        )
    return read_table(source, image_columns, caption_columns)


def _read_synthetic(source: str | Path | None) -> CaptionedImages:
    from . import get_benchmark

    adapter = get_benchmark("synthetic_relation")
    loaded = adapter.load(None if source is None or str(source) == SYNTHETIC else source)
    captions = [[caption] for caption in loaded.dataset["caption_0"]]
    return CaptionedImages(loaded.dataset, "image_0", captions, dict(loaded.identity))


def read_coco(captions_file: str | Path, images: str | Path) -> CaptionedImages:
    """A COCO caption file and its image folder: one row per image that has captions, in the
    file's image order (``image_id``, ``file_name``, ``captions``, ``image``)."""
    path = check_input_file(Path(captions_file).expanduser(), "COCO caption file")
    folder = Path(images).expanduser()
    if not path.is_file():
        raise BindsplitFileNotFoundError(f"no COCO caption file at {path}")
    if not folder.is_dir():
        raise BindsplitFileNotFoundError(
            f"no image folder at {folder}: pass the folder the caption file's file_name values "
            "are in (--images)"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = {int(image["id"]): str(image["file_name"]) for image in data["images"]}
        captions: dict[int, list[str]] = {}
        for annotation in data["annotations"]:
            captions.setdefault(int(annotation["image_id"]), []).append(
                str(annotation["caption"]).strip()
            )
    except (ValueError, KeyError, TypeError) as error:
        raise SchemaError(
            f"{path} is not a COCO caption file (images[id, file_name], annotations[image_id, "
            f"caption]): {error!r}"
        ) from None
    ids = [image_id for image_id in entries if captions.get(image_id)]
    features = datasets.Features(
        {
            "image_id": datasets.Value("int64"),
            "file_name": datasets.Value("string"),
            "captions": datasets.List(datasets.Value("string")),
            "image": datasets.Image(),
        }
    )
    dataset = datasets.Dataset.from_dict(
        {
            "image_id": ids,
            "file_name": [entries[i] for i in ids],
            "captions": [captions[i] for i in ids],
            "image": [{"path": str(folder / entries[i]), "bytes": None} for i in ids],
        },
        features=features,
    )
    identity = {
        "path": path.name,
        "files": [path.name],
        "sha256": files_digest([path]),
        "images": folder.resolve().name,
    }
    return CaptionedImages(dataset, "image", [captions[i] for i in ids], identity)


def read_table(
    source: str | Path, image_columns: Sequence[str], caption_columns: Sequence[str]
) -> CaptionedImages:
    """A table of images and captions (Parquet file or folder, CSV, JSON lines or a Hub id, read
    by the generic table reader,
    :func:`~bindsplit_datasets.benchmarks.table_source.read_table_source`: image paths relative
    to the table): one image column, one or more caption columns, every caption true of the
    row's image."""
    from .table_source import read_table_source

    if len(image_columns) != 1:
        raise BindsplitValueError(
            f"a half-truth table has one image column, the image every caption describes; got "
            f"--image-columns {','.join(image_columns)}"
        )
    dataset, identity = read_table_source(source, split="test", image_columns=image_columns)
    missing = [c for c in (*image_columns, *caption_columns) if c not in dataset.column_names]
    if missing:
        raise SchemaError(
            f"{Path(source).name} has no column(s) {missing}; its columns are "
            f"{dataset.column_names}"
        )
    image = image_columns[0]
    if not isinstance(dataset.features[image], datasets.Image):
        dataset = dataset.cast_column(image, datasets.Image())
    texts = dataset.select_columns(list(caption_columns)).to_dict()
    captions = [
        [
            str(value).strip()
            for c in caption_columns
            if (value := texts[c][i]) and str(value).strip()
        ]
        for i in range(len(dataset))
    ]
    identity = {
        **identity,
        "image_columns": list(image_columns),
        "caption_columns": list(caption_columns),
    }
    return CaptionedImages(dataset, image, captions, identity)
