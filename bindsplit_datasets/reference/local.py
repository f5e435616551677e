"""The local engine: count a corpus's units of work with worker processes on this machine.

Units go to ``num_proc`` worker processes (:func:`~bindsplit_datasets.parsing.map_caption_chunks`,
which loads the tagger once per process), which run
:func:`~bindsplit_datasets.reference.counting.count_unit` (units of Parquet shards are read by the
worker itself) and send back only each unit's counts and caption digests, in unit order.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

from ..parsing import map_caption_chunks
from .counting import BlockCount, count_unit
from .units import Unit

__all__ = ["run"]


def run(
    units: Iterable[Unit],
    *,
    strict: bool = False,
    num_proc: int | None = None,
    ray_address: str | None = None,
) -> Iterator[tuple[Unit, BlockCount]]:
    """Count ``units`` with ``num_proc`` processes (``None``: every CPU; 1: this process).

    ``ray_address`` is the Ray engine's; it must be ``None`` here.
    """
    assert ray_address is None
    work = functools.partial(count_unit, strict=strict)
    return map_caption_chunks(work, units, num_proc=num_proc)  # type: ignore[arg-type]
