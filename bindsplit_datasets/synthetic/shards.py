"""Writing rows with embedded PNG images as Parquet shards that ``datasets`` reads natively.

Each file carries the ``datasets`` feature metadata, so ``load_dataset("parquet", ...)`` (or
``load_dataset(folder)`` with the folder's README) decodes the image columns as ``PIL`` images.
Rows are written in row groups of a few hundred, so readers can stream a shard without loading it.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
from PIL import Image

__all__ = ["ROW_GROUP_SIZE", "encode_png", "shard_name", "write_shard"]

ROW_GROUP_SIZE = 500


def shard_name(split: str, k: int, n: int) -> str:
    """``train-00003-of-00010.parquet``: the Hub's shard naming, which ``datasets`` recognises."""
    return f"{split}-{k:05d}-of-{n:05d}.parquet"


def encode_png(image: Image.Image) -> dict[str, Any]:
    """A ``datasets.Image`` cell: the PNG bytes (lossless, so pixels round-trip exactly)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return {"bytes": buffer.getvalue(), "path": None}


def write_shard(rows: Iterable[Mapping[str, Any]], features: datasets.Features, path: Path) -> int:
    """Write encoded ``rows`` (see :func:`encode_png`) to ``path``; return the row count."""
    schema = features.arrow_schema
    n = 0
    with pq.ParquetWriter(path, schema) as writer:
        batch: list[Mapping[str, Any]] = []
        for row in rows:
            batch.append(row)
            if len(batch) == ROW_GROUP_SIZE:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                n += len(batch)
                batch = []
        if batch or n == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
            n += len(batch)
    return n
