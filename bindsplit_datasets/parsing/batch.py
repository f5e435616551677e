"""Many captions in worker processes: the pool that loads the models once per worker, and the
check of a batch call's arguments (the batch forms themselves are in :mod:`.pipeline`)."""

from __future__ import annotations

import itertools
import logging
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TypeVar

from . import tagger
from .singulars import load_table

__all__ = ["checked_texts", "map_caption_chunks"]

logger = logging.getLogger(__name__)

_R = TypeVar("_R")


def _load_models() -> None:
    """Load the tagger and the singular table: once per process, before any caption."""
    tagger.get_tagger()
    load_table()


def _start_worker() -> None:
    """A worker process's start: Ctrl-C and SIGTERM are the driver's to handle (it stops the
    pool), so a worker ignores SIGINT and dies quietly on SIGTERM rather than printing a
    traceback from wherever it was; then the models are loaded."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _load_models()


def _chunks(texts: list[str], size: int) -> Iterator[list[str]]:
    for start in range(0, len(texts), size):
        yield texts[start : start + size]


def map_caption_chunks(
    func: Callable[[list[str]], _R],
    chunks: Iterable[list[str]],
    *,
    num_proc: int | None = None,
    on_stop: Callable[[], None] | None = None,
) -> Generator[_R, None, None]:
    """``map(func, chunks)`` in chunk order, computed by ``num_proc`` processes (``None``: every
    CPU) that load the tagger and the singular table once each.

    The models are loaded here first (a missing tagger fails before any work, and workers started
    with ``fork`` inherit them). With one worker, or fewer than two chunks, everything runs in
    this process: starting workers would cost more than it saves. ``chunks`` is consumed lazily,
    so a stream of any length is never held in memory; ``func`` must be picklable (module level).
    ``on_stop`` is called when the workers are about to be stopped (finished, an error, Ctrl-C,
    the caller closing the generator), before the pool's shutdown joins the thread that reads
    ``chunks``: a ``chunks`` that may block must be released there. Workers that finished are
    closed, not killed: a worker killed while it holds the task queue's lock can leave another
    waiting on it for ever.
    """
    chunks = iter(chunks)
    head = list(itertools.islice(chunks, 2))
    _load_models()
    workers = num_proc or os.cpu_count() or 1
    if workers == 1 or len(head) < 2:
        yield from map(func, itertools.chain(head, chunks))
        return
    import multiprocessing

    logger.debug("parsing caption chunks with %d processes", workers)
    pool = multiprocessing.get_context().Pool(workers, initializer=_start_worker)
    finished = False
    try:
        yield from pool.imap(func, itertools.chain(head, chunks))
        finished = True
    finally:
        if on_stop is not None:
            on_stop()
        if finished:  # every worker is idle: let each take its stop signal and exit by itself
            pool.close()
        else:  # an error, Ctrl-C or the caller stopping early: the workers are killed
            pool.terminate()
        pool.join()


def checked_texts(
    texts: Iterable[str], name: str, num_proc: int | None, chunksize: int
) -> list[str]:
    """The captions of a batch call ``name`` (``parse_many``, ``parse_relations_many``, ...) as
    a list, after checking them and the worker options: one string instead of a list, a
    non-string item, a ``num_proc`` or ``chunksize`` that is no positive int are refused."""
    if num_proc is not None and (isinstance(num_proc, bool) or not isinstance(num_proc, int)):
        raise TypeError(f"num_proc must be an int or None, got {num_proc!r}")
    if num_proc is not None and num_proc < 1:
        raise ValueError(f"num_proc must be >= 1 (or None for every CPU), got {num_proc}")
    if isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 1:
        raise ValueError(f"chunksize must be an int >= 1, got {chunksize!r}")
    if isinstance(texts, (str, bytes)):
        raise TypeError(
            f"{name} expects a sequence of caption strings, got a single {type(texts).__name__}; "
            f"pass a list ({name}([text]))"
        )
    items = list(texts)
    for position, text in enumerate(items):
        if not isinstance(text, str):
            raise TypeError(
                f"{name} expects caption strings; item {position} is {type(text).__name__}"
            )
    return items
