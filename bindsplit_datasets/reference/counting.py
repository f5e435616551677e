"""The counting code both engines run: one unit of raw caption values in, its counts out.

:func:`count_unit` is what a worker does with a unit of work, whichever engine sent it (a local
process or a Ray actor): read it (:meth:`~bindsplit_datasets.reference.units.Unit.read`), check
every value, digest the usable captions for the leakage guard, and count their bindings, parsing
each distinct caption once (:func:`count_block`). The driver adds the results up
(:mod:`~bindsplit_datasets.reference.build`) in any order.

Memory: a block's result holds its distinct bindings and its captions' 8-byte digests, never its
captions.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..parsing import parse_bindings, parse_bindings_and_relations
from .units import Unit

__all__ = [
    "STAGES",
    "COUNT_COLUMNS",
    "RELATION_COUNT_COLUMNS",
    "BlockCount",
    "add_counts",
    "bad_caption_error",
    "caption_digest",
    "caption_problem",
    "count_block",
    "count_unit",
    "counts_table",
    "normalise_caption",
    "relation_counts_table",
]

#: The columns of a table of binding counts.
COUNT_COLUMNS = ("attribute", "object", "count")
#: The columns of a table of relation-triple counts (SPEC section 1b).
RELATION_COUNT_COLUMNS = ("subject", "relation", "object", "count")
#: The stages a worker times (seconds in :attr:`BlockCount.seconds`), and its CPU time.
STAGES = ("read", "parse", "count", "cpu")

_EMPTY_DIGESTS = np.empty(0, dtype=np.uint64)


def normalise_caption(text: str) -> str:
    """The caption form compared by the leakage guard.

    >>> normalise_caption("  A red  Apple.\\n")
    'a red apple'
    """
    return " ".join(text.lower().split()).rstrip(" .")


def caption_digest(text: str) -> int:
    """64-bit digest (BLAKE2b) of :func:`normalise_caption` of ``text``, as an unsigned int."""
    digest = hashlib.blake2b(normalise_caption(text).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def caption_problem(value: Any) -> str | None:
    """Why ``value`` is not a usable caption (``None``, not a string, blank), or ``None``.

    >>> [caption_problem(value) for value in ("a red apple", None, 3, " ")]
    [None, 'None', 'not a string (int)', 'empty']
    """
    if value is None:
        return "None"
    if not isinstance(value, str):
        return f"not a string ({type(value).__name__})"
    if not value.strip():
        return "empty"
    return None


def bad_caption_error(source: str, problem: str, position: int | None) -> ValueError:
    """The error of a strict build that met an unusable caption (``position``: its row in the
    corpus where the engine knows it)."""
    where = f"caption #{position}" if position is not None else "a caption"
    return ValueError(
        f"{source}: {where} is {problem}; fix the corpus or build without strict=True to skip "
        "(and count) such captions"
    )


@dataclass
class BlockCount:
    """What a worker sends back for one block of raw caption values.

    ``problem`` is set only by a strict count: (position in the block, what is wrong) of the
    first unusable value, and the block is then not counted.
    """

    #: ``attribute``, ``object``, ``count`` columns, one row per distinct binding of the block
    #: (a table, so that the driver adds blocks up in Arrow, never binding by binding in Python).
    counts: Any
    digests: np.ndarray
    n_captions: int
    n_skipped: int
    problem: tuple[int, str] | None = None
    #: ``subject``, ``relation``, ``object``, ``count`` columns, one row per distinct triple of
    #: the block; ``None`` when the count leaves triples out (``relations=False``).
    relations: Any = None
    #: Worker seconds by stage (:data:`STAGES`).
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def n_values(self) -> int:
        """Values of the block looked at (usable and skipped)."""
        return self.n_captions + self.n_skipped


def counts_table(counts: Mapping[tuple[str, str], int]) -> Any:
    """``{(attribute, object): count}`` as a table of :data:`COUNT_COLUMNS`."""
    import pyarrow as pa

    return pa.Table.from_arrays(
        [
            pa.array([a for a, _ in counts], pa.string()),
            pa.array([o for _, o in counts], pa.string()),
            pa.array(list(counts.values()), pa.int64()),
        ],
        names=list(COUNT_COLUMNS),
    )


def relation_counts_table(counts: Mapping[tuple[str, str, str], int]) -> Any:
    """``{(subject, relation, object): count}`` as a table of :data:`RELATION_COUNT_COLUMNS`."""
    import pyarrow as pa

    return pa.Table.from_arrays(
        [
            *(pa.array([key[i] for key in counts], pa.string()) for i in range(3)),
            pa.array(list(counts.values()), pa.int64()),
        ],
        names=list(RELATION_COUNT_COLUMNS),
    )


def add_counts(tables: Sequence[Any]) -> Any:
    """Count tables of one kind added up (one row per distinct key), in Arrow: tables of
    :data:`COUNT_COLUMNS` or of :data:`RELATION_COUNT_COLUMNS` (the key is every column but
    ``count``)."""
    import pyarrow as pa

    names = tables[0].column_names
    keys = [name for name in names if name != "count"]
    # one thread: for tables of a few thousand rows, Arrow's thread pool costs 4x the work
    grouped = pa.concat_tables(tables).group_by(keys, use_threads=False)
    total = grouped.aggregate([("count", "sum")])
    columns = [*(total.column(key) for key in keys), total.column("count_sum")]
    return pa.Table.from_arrays(columns, names=names)


def count_block(values: Sequence[Any], strict: bool = False, relations: bool = True) -> BlockCount:
    """Check, digest and count one block of raw caption values.

    Unusable values (:func:`caption_problem`) are skipped and counted, or, with ``strict``, the
    first one is reported in :attr:`BlockCount.problem` and nothing is counted. Each distinct
    caption is parsed once and its bindings (and, with ``relations``, its relation triples, in
    the same pass) counted as often as it occurs. Bindings and triples are plain tuples: they
    cross process boundaries several times cheaper than
    :class:`~bindsplit_datasets.parsing.Binding` instances.
    """
    clock = time.perf_counter()
    texts: list[str] = []
    skipped = 0
    for position, value in enumerate(values):
        problem = caption_problem(value)
        if problem is None:
            texts.append(value)
            continue
        if strict:
            empty = relation_counts_table({}) if relations else None
            return BlockCount(
                counts_table({}), _EMPTY_DIGESTS, 0, 0, problem=(position, problem), relations=empty
            )
        skipped += 1
    distinct = Counter(texts)
    parsed = [
        (*(parse_bindings_and_relations(text) if relations else (parse_bindings(text), ())), times)
        for text, times in distinct.items()
    ]
    parse_seconds = time.perf_counter() - clock
    clock = time.perf_counter()
    counts: Counter[tuple[str, str]] = Counter()
    triples: Counter[tuple[str, str, str]] = Counter()
    for bindings, stated, times in parsed:
        for binding in bindings:
            counts[(binding.attribute, binding.object)] += times
        for triple in stated:
            triples[(triple.subject, triple.relation, triple.object)] += times
    table = counts_table(counts)
    relation_table = relation_counts_table(triples) if relations else None
    digests = np.unique(np.fromiter(map(caption_digest, texts), dtype=np.uint64, count=len(texts)))
    seconds = {"parse": parse_seconds, "count": time.perf_counter() - clock}
    return BlockCount(
        table, digests, len(texts), skipped, seconds=seconds, relations=relation_table
    )


def count_unit(unit: Unit, strict: bool = False, relations: bool = True) -> tuple[Unit, BlockCount]:
    """Read and count one unit; return it without its values (what the driver needs back to
    place the result) with its :class:`BlockCount`."""
    clock, cpu = time.perf_counter(), time.process_time()
    values = unit.read()
    read_seconds = time.perf_counter() - clock
    block = count_block(values, strict, relations)
    block.seconds["read"] = read_seconds
    block.seconds["cpu"] = time.process_time() - cpu
    return dataclasses.replace(unit, values=None, source=None), block
