"""The local engine: count a corpus's units of work with worker processes on this machine.

Units go to ``num_proc`` worker processes (:func:`~bindsplit_datasets.parsing.map_caption_chunks`,
which loads the tagger once per process), which run
:func:`~bindsplit_datasets.reference.counting.count_unit` (units of Parquet shards are read by the
worker itself) and send back only each unit's counts and caption digests, in unit order. At most
:data:`IN_FLIGHT_PER_WORKER` units per worker are read ahead of the results, so a corpus the
driver reads (a text file, a Hub stream) is never held whole.

Stopping (an error, Ctrl-C, the driver closing the results) first tells the pool's feeder thread
to stop and wakes it from the throttle, then stops the pool: the pool's shutdown joins that
thread, which would otherwise wait on the throttle for ever.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Generator, Iterable, Iterator

from ..parsing import map_caption_chunks
from .counting import BlockCount, count_unit
from .units import Unit

__all__ = ["IN_FLIGHT_PER_WORKER", "run"]

#: Units handed out per worker ahead of the results the driver has taken.
IN_FLIGHT_PER_WORKER = 2


def _throttled(
    units: Iterable[Unit], slots: threading.Semaphore, stop: threading.Event
) -> Iterator[Unit]:
    """``units``, each taken only once a slot is free (the pool's feeder thread waits here),
    until ``stop`` is set."""
    for unit in units:
        slots.acquire()
        if stop.is_set():
            return
        yield unit


def run(
    units: Iterable[Unit],
    *,
    strict: bool = False,
    num_proc: int | None = None,
    ray_address: str | None = None,
    relations: bool = True,
) -> Generator[tuple[Unit, BlockCount], None, None]:
    """Count ``units`` with ``num_proc`` processes (``None``: every CPU; 1: this process);
    ``relations``: count relation triples too.

    ``ray_address`` is the Ray engine's; it must be ``None`` here.
    """
    assert ray_address is None
    work = functools.partial(count_unit, strict=strict, relations=relations)
    slots = threading.Semaphore(IN_FLIGHT_PER_WORKER * (num_proc or os.cpu_count() or 1) + 2)
    stop = threading.Event()

    def release_feeder() -> None:  # before the pool's shutdown joins the feeder
        stop.set()
        slots.release()

    results = map_caption_chunks(
        work,
        _throttled(units, slots, stop),  # type: ignore[arg-type]
        num_proc=num_proc,
        on_stop=release_feeder,
    )
    with contextlib.closing(results):  # the pool stops when the driver stops taking results
        for result in results:
            slots.release()
            yield result
