"""The local engine: parse and count a corpus with worker processes on this machine.

The driver reads the corpus as a stream and sends chunks of raw caption values to ``num_proc``
worker processes (:func:`~bindsplit_datasets.parsing.map_caption_chunks`), which run
:func:`~bindsplit_datasets.reference.counting.count_block` and send back only each chunk's counts
and caption digests. Memory is bounded by the distinct bindings and caption digests, plus the few
chunks in flight.
"""

from __future__ import annotations

import functools

from tqdm.auto import tqdm

from ..parsing import map_caption_chunks
from .corpora import Corpus
from .counting import Tally, bad_caption_error, count_block

__all__ = ["PARSE_CHUNKSIZE", "count"]

#: Captions per task sent to a worker: big enough to amortise the messages, small enough to
#: balance the workers at the end and to update the progress bar often.
PARSE_CHUNKSIZE = 256


def count(
    corpus: Corpus, *, num_proc: int | None = None, strict: bool = False, progress: bool = True
) -> Tally:
    """Count ``corpus`` with ``num_proc`` processes (``None``: every CPU; 1: this process).

    With ``strict``, the first unusable caption raises ``ValueError`` naming its row.
    """
    tally = Tally()
    work = functools.partial(count_block, strict=strict)
    position = 0
    chunks = corpus.chunks(PARSE_CHUNKSIZE)
    with tqdm(
        total=corpus.total, unit=" captions", desc=f"indexing {corpus.name}", disable=not progress
    ) as bar:
        for block in map_caption_chunks(work, chunks, num_proc=num_proc):
            if block.problem is not None:
                offset, problem = block.problem
                raise bad_caption_error(corpus.name, problem, position + offset)
            tally.add(block)
            position += block.n_values
            bar.update(block.n_values)
    return tally
