"""SugarCrepe sources in the official repository layout, for tests.

:func:`make_sugarcrepe_source` writes ``ROOT/data/<subset>.json`` files exactly as the SugarCrepe
repository does (``{"<key>": {"filename", "caption", "negative_caption"}}``, keys not necessarily
contiguous) and the COCO val2017 images they name into ``ROOT/val2017``: each image is a small
solid-colour JPEG whose colour encodes its file name (:func:`image_colour`), so a test can tell
which image ended up in which row.
"""

from __future__ import annotations

import io
import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from PIL import Image

__all__ = [
    "NOT_AN_IMAGE",
    "SUGARCREPE_SAMPLES",
    "coco_filename",
    "image_colour",
    "jpeg_bytes",
    "make_sugarcrepe_source",
]

#: Bytes written for an "unreadable" image.
NOT_AN_IMAGE = b"not a jpeg"

#: A small source: subset -> (image id, caption, negative caption) per sample, in file order.
SUGARCREPE_SAMPLES: Mapping[str, Sequence[tuple[int, str, str]]] = {
    "add_att": [
        (139, "a dog on a green lawn", "a black dog on a green lawn"),
        (285, "a bus on the street", "a red bus on the street"),
    ],
    "replace_att": [
        (632, "a white plate on a table", "a blue plate on a table"),
    ],
    "swap_att": [
        (139, "a black dog and a white cat", "a white dog and a black cat"),
        (724, "a wooden table and a red chair", "a red table and a wooden chair"),
    ],
    "swap_obj": [
        (776, "a cat next to a dog", "a dog next to a cat"),
    ],
}


def coco_filename(image_id: int) -> str:
    """The COCO val2017 file name of ``image_id`` (``139`` -> ``000000000139.jpg``)."""
    return f"{image_id:012d}.jpg"


def image_colour(image_id: int) -> tuple[int, int, int]:
    """The colour of the fixture image ``image_id`` (distinct for ids below 1,000)."""
    return (40 + (image_id * 37) % 200, 40 + (image_id * 91) % 200, 40 + (image_id * 13) % 200)


def jpeg_bytes(colour: tuple[int, int, int], size: tuple[int, int] = (16, 16)) -> bytes:
    """A solid-colour JPEG."""
    buffer = io.BytesIO()
    Image.new("RGB", size, colour).save(buffer, format="JPEG", quality=95)
    return buffer.getvalue()


def make_sugarcrepe_source(
    root: Path,
    samples: Mapping[str, Sequence[tuple[int, str, str]]] = SUGARCREPE_SAMPLES,
    *,
    file_names: Mapping[str, str] | None = None,
    missing: Collection[int] = (),
    unreadable: Collection[int] = (),
) -> Path:
    """Write the repository layout under ``root`` and return ``root``.

    ``samples`` maps a subset to its samples (image id, caption, negative caption); sample ``i``
    gets the key ``str(3 * i)`` (non-contiguous, as the real files may be). ``file_names`` maps a
    subset to another file stem (``{"swap_obj": "swap_ent"}``). Images of ``missing`` ids are not
    written, those of ``unreadable`` ids hold :data:`NOT_AN_IMAGE`.
    """
    data = root / "data"
    images = root / "val2017"
    data.mkdir(parents=True, exist_ok=True)
    images.mkdir(parents=True, exist_ok=True)
    names = dict(file_names or {})
    for subset, rows in samples.items():
        content = {
            str(3 * i): {
                "filename": coco_filename(image_id),
                "caption": caption,
                "negative_caption": negative,
            }
            for i, (image_id, caption, negative) in enumerate(rows)
        }
        stem = names.get(subset, subset)
        (data / f"{stem}.json").write_text(json.dumps(content, indent=4), encoding="utf-8")
        for image_id, _, _ in rows:
            if image_id in missing:
                continue
            payload = NOT_AN_IMAGE if image_id in unreadable else jpeg_bytes(image_colour(image_id))
            (images / coco_filename(image_id)).write_bytes(payload)
    return root
