"""Hand-made caption corpora for the reference-index tests, in every source format.

:data:`CAPTIONS` states the bindings written beside each caption (docs/protocol.md, section 1);
:data:`EXPECTED` is their hand-computed count. :func:`write_coco`, :func:`write_shards` write the
same captions as an official COCO caption file and as Parquet caption shards.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from bindsplit_datasets.parsing import Binding, parse_bindings, parse_relations

CAPTIONS = [
    "A red apple and a ceramic mug.",  # (red, apple), (ceramic, mug)
    "a large brown dog",  # (large, dog), (brown, dog)
    "The sky is blue.",  # (blue, sky)
    "a red apple on the grass",  # (red, apple)
    "A red apple and a ceramic mug",  # duplicate of caption 0 once normalised
]
EXPECTED = {
    Binding("red", "apple"): 3,
    Binding("ceramic", "mug"): 2,
    Binding("large", "dog"): 1,
    Binding("brown", "dog"): 1,
    Binding("blue", "sky"): 1,
}
#: Values that are not usable captions: skipped and counted.
BAD = [None, 42, "", "   \n"]


def naive_counts(captions: Sequence[str]) -> Counter:
    """The obvious implementation: parse every caption, count every binding."""
    counts: Counter = Counter()
    for caption in captions:
        counts.update(parse_bindings(caption))
    return counts


def naive_relation_counts(captions: Sequence[Any]) -> Counter:
    """The obvious implementation for triples: parse every usable caption, count every triple."""
    counts: Counter = Counter()
    for caption in captions:
        if isinstance(caption, str) and caption.strip():
            counts.update(parse_relations(caption))
    return counts


def write_coco(path: Path, captions: Sequence[Any], *, with_annotations: bool = True) -> Path:
    """A caption file in the official COCO layout (info, licenses, images, annotations)."""
    data: dict[str, Any] = {
        "info": {"description": "test", "version": "1.0", "year": 2017},
        "licenses": [{"url": "http://example.org", "id": 1, "name": "test"}],
        "images": [{"license": 1, "file_name": "000000000001.jpg", "id": 1}],
    }
    if with_annotations:
        data["annotations"] = [
            {"image_id": 1, "id": i + 1, "caption": c} for i, c in enumerate(captions)
        ]
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write_shards(
    folder: Path,
    captions: Sequence[Any],
    *,
    n_shards: int = 3,
    column: str = "caption",
    row_group_size: int = 2,
) -> Path:
    """``captions`` dealt round-robin into ``n_shards`` Parquet files ``part-0000i.parquet``
    (small row groups, so a reader meets several batches per file), with an ``id`` column
    beside the caption column, as a web-scale caption dump has."""
    folder.mkdir(parents=True, exist_ok=True)
    for shard in range(n_shards):
        part = list(captions[shard::n_shards])
        table = pa.table(
            {
                "id": pa.array(range(shard, len(captions), n_shards), pa.int64()),
                column: pa.array(part, pa.string()),
            }
        )
        pq.write_table(table, folder / f"part-{shard:05d}.parquet", row_group_size=row_group_size)
    return folder
