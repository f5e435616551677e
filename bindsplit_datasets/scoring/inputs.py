"""What the scorer runs over: the distinct images and captions of a ``datasets.Dataset``, and the
DataLoader plumbing that turns them into model inputs.

Benchmarks repeat both images and captions across samples, so every image is keyed by a hash of
its bytes and every caption by a hash of its text, and each distinct item is decoded and
preprocessed once. Images stay undecoded (``{bytes, path}``) until a DataLoader worker or the
prefetch thread needs them.
"""

from __future__ import annotations

import io
import queue
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pyarrow as pa
import torch
from PIL import Image

from ..errors import SchemaError
from ..models.identity import digest

__all__ = [
    "Collate",
    "Distinct",
    "ImageItems",
    "Items",
    "PairItems",
    "TextItems",
    "distinct_captions",
    "distinct_images",
    "image_key",
    "prefetched",
    "undecoded",
]

_ARROW_BATCH = 1024


@dataclass
class Distinct:
    """Distinct items of one kind: their keys, where to find each, and every sample's indices."""

    keys: list[str] = field(default_factory=list)
    refs: list[Any] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)

    def add(self, key: str, ref: Any) -> int:
        index = self.position.get(key)
        if index is None:
            index = self.position[key] = len(self.keys)
            self.keys.append(key)
            self.refs.append(ref)
        return index


def image_key(cell: Mapping[str, Any] | None, row: int, column: str) -> str:
    if cell is None or (cell.get("bytes") is None and not cell.get("path")):
        raise SchemaError(f"row {row} has no image in column {column!r}; every image must be set.")
    data = cell.get("bytes")
    if data is None:
        data = Path(cell["path"]).read_bytes()
    return digest(data)


def _iter_arrow(dataset: datasets.Dataset, columns: Sequence[str]) -> Iterator[pa.Table]:
    yield from dataset.select_columns(list(columns)).with_format("arrow").iter(_ARROW_BATCH)


def undecoded(dataset: datasets.Dataset, image_columns: Sequence[str]) -> datasets.Dataset:
    """``dataset`` restricted to the image columns, with images left as ``{bytes, path}``."""
    for column in image_columns:
        if column not in dataset.column_names:
            raise SchemaError(
                f"the dataset has no image column {column!r} (columns: {dataset.column_names})."
            )
        if not isinstance(dataset.features[column], datasets.Image):
            raise SchemaError(
                f"column {column!r} is {dataset.features[column]!r}, not datasets.Image; cast it "
                "with dataset.cast_column(column, datasets.Image())."
            )
    subset = dataset.select_columns(list(image_columns))
    for column in image_columns:  # a decode flag change: no data is rewritten
        subset = subset.cast_column(column, datasets.Image(decode=False))
    return subset


def distinct_images(
    images: datasets.Dataset, image_columns: Sequence[str]
) -> tuple[Distinct, np.ndarray]:
    distinct = Distinct()
    index = np.empty((len(images), len(image_columns)), dtype=np.int64)
    row = 0
    for table in _iter_arrow(images, image_columns):
        cells = {column: table.column(column).to_pylist() for column in image_columns}
        for offset in range(table.num_rows):
            for i, column in enumerate(image_columns):
                key = image_key(cells[column][offset], row + offset, column)
                index[row + offset, i] = distinct.add(key, (row + offset, column))
        row += table.num_rows
    return distinct, index


def distinct_captions(
    dataset: datasets.Dataset, caption_columns: Sequence[str]
) -> tuple[Distinct, np.ndarray]:
    missing = [c for c in caption_columns if c not in dataset.column_names]
    if missing:
        raise SchemaError(
            f"the dataset has no caption column(s) {missing} (columns: {dataset.column_names})."
        )
    distinct = Distinct()
    index = np.empty((len(dataset), len(caption_columns)), dtype=np.int64)
    row = 0
    for table in _iter_arrow(dataset, caption_columns):
        texts = {column: table.column(column).to_pylist() for column in caption_columns}
        for offset in range(table.num_rows):
            for j, column in enumerate(caption_columns):
                text = texts[column][offset]
                if not isinstance(text, str):
                    raise SchemaError(
                        f"row {row + offset}, column {column!r}: expected a caption string, "
                        f"got {text!r}."
                    )
                index[row + offset, j] = distinct.add(digest(text), text)
        row += table.num_rows
    return distinct, index


# ---------------------------------------------------------------------------------------------
# data loading: items -> model inputs


class ImageItems(torch.utils.data.Dataset):
    """Distinct images, decoded lazily from the (memory-mapped) dataset by ``(row, column)``."""

    def __init__(self, images: datasets.Dataset, refs: Sequence[tuple[int, str]]) -> None:
        self.columns = {column: images.select_columns([column]) for column in images.column_names}
        self.refs = list(refs)

    def __len__(self) -> int:
        return len(self.refs)

    def image(self, ref: tuple[int, str]) -> Image.Image:
        """The RGB image at ``(row, column)``."""
        row, column = ref
        cell = self.columns[column][row][column]
        source = io.BytesIO(cell["bytes"]) if cell.get("bytes") is not None else cell["path"]
        with Image.open(source) as image:
            image.load()
            return image if image.mode == "RGB" else image.convert("RGB")

    def __getitem__(self, item: int) -> tuple[int, Image.Image]:
        return item, self.image(self.refs[item])


class TextItems(torch.utils.data.Dataset):
    """Distinct captions."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, item: int) -> tuple[int, str]:
        return item, self.texts[item]


class PairItems(torch.utils.data.Dataset):
    """Distinct (image, caption) pairs for a pair scorer: each item is ``(RGB image, caption)``."""

    def __init__(
        self,
        images: datasets.Dataset,
        image_refs: Sequence[tuple[int, str]],
        captions: Sequence[str],
        pairs: Sequence[tuple[int, int]],
    ) -> None:
        self.images = ImageItems(images, image_refs)
        self.captions = list(captions)
        self.pairs = list(pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __getitem__(self, item: int) -> tuple[int, tuple[Image.Image, str]]:
        image, caption = self.pairs[item]
        return item, (self.images.image(self.images.refs[image]), self.captions[caption])


#: What a model runs over: distinct images, captions or pairs, indexable and sized.
Items = ImageItems | TextItems | PairItems


def prefetched(batches: Iterable[Any], depth: int = 2) -> Iterator[Any]:
    """``batches``, produced by a background thread up to ``depth`` ahead. Image decoding and
    preprocessing release the GIL, so they overlap with encoding without worker processes."""
    ready: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                ready.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for batch in batches:
                if not put((True, batch)):
                    return
            put((False, None))
        except BaseException as error:  # re-raised in the consuming thread
            put((False, error))

    thread = threading.Thread(target=produce, name="bindsplit-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            more, value = ready.get()
            if not more:
                if value is not None:
                    raise value
                return
            yield value
    finally:
        stop.set()
        thread.join()


@dataclass
class Collate:
    """Batch ``(index, item)`` pairs through a preprocessing function of the model; with
    ``pairs``, items are ``(image, caption)`` and the function takes the two lists."""

    preprocess: Callable[..., Mapping[str, Any]]
    pairs: bool = False

    def __call__(self, batch: Sequence[tuple[int, Any]]) -> dict[str, Any]:
        indices, items = zip(*batch, strict=True)
        if self.pairs:
            images, captions = zip(*items, strict=True)
            inputs = dict(self.preprocess(list(images), list(captions)))
        else:
            inputs = dict(self.preprocess(list(items)))
        inputs["index"] = torch.tensor(indices, dtype=torch.long)
        return inputs
