"""The captions of every row of a benchmark's dataset, read for an adapter: row by row through
the adapter's own reading (no image decoded), or every caption at once through a batch form of
the parser (each distinct caption parsed once), regrouped by row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import datasets

from ..progress import progress as progress_bar

__all__ = ["parse_caption_rows", "read_row_by_row"]

_ROW_BATCH = 1000
_T = TypeVar("_T")


def read_row_by_row(
    dataset: datasets.Dataset,
    image_columns: Sequence[str],
    read: Callable[[dict[str, Any]], _T],
    *,
    desc: str,
    progress: bool,
) -> list[_T]:
    """``read`` of every row of ``dataset`` (the row without its ``image_columns``, so that no
    image is decoded), in row order."""
    text = dataset.select_columns(
        [c for c in dataset.column_names if c not in image_columns]
    ).with_format(None)
    read_rows: list[_T] = []
    with progress_bar(total=len(text), desc=desc, unit="row", disable=not progress) as bar:
        for batch in text.iter(batch_size=_ROW_BATCH):
            columns = list(batch)
            for values in zip(*batch.values(), strict=True):
                read_rows.append(read(dict(zip(columns, values, strict=True))))
            bar.update(len(batch[columns[0]]) if columns else 0)
    return read_rows


def parse_caption_rows(
    dataset: datasets.Dataset,
    caption_columns: Sequence[str],
    parse: Callable[..., list[Any]],
    *,
    progress: bool,
) -> list[list[Any]]:
    """``parse`` (a batch form of the parser: ``parse_many``, ``parse_relations_many``, ...)
    over the ``caption_columns`` of every row (a missing caption read as ""), one list a row."""
    columns = dataset.select_columns(list(caption_columns)).to_dict()
    rows = zip(*(columns[c] for c in caption_columns), strict=True)
    parsed = parse([text or "" for row in rows for text in row], progress=progress)
    width = len(caption_columns)
    return [parsed[i : i + width] for i in range(0, len(parsed), width)]
