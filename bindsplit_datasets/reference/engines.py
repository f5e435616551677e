"""The engines that count a corpus: ``local`` (processes on this machine) and ``ray`` (a Ray
cluster or local Ray instance). Both run the same counting code on the same units of work and
give the same result; :func:`count_corpus` is the driver loop they share (progress, strict
errors, adding up in a :class:`~bindsplit_datasets.reference.tally.Tally`, resume)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any, TypedDict

from ..errors import BindsplitValueError
from ..parsing import NORMALISATION, PARSER_VERSION
from ..progress import progress as progress_bar
from . import local
from . import ray as ray_engine
from .corpora import Corpus
from .counting import STAGES, BlockCount, bad_caption_error
from .tally import Tally, TallyResult
from .units import Unit

__all__ = [
    "ENGINES",
    "UNIT_ROWS",
    "CountOptions",
    "check_engine",
    "check_num_proc",
    "count_corpus",
]

logger = logging.getLogger(__name__)

#: Engine name -> what it runs on.
ENGINES: dict[str, str] = {
    "local": "worker processes on this machine",
    "ray": "Ray actors on a Ray cluster (or a local Ray instance); needs the distributed extra",
}
#: Engine name -> its runner: ``(units, strict=, num_proc=, ray_address=, relations=)`` -> the
#: results.
RUNNERS: dict[str, Callable[..., Generator[tuple[Unit, BlockCount], None, None]]] = {
    "local": local.run,
    "ray": ray_engine.run,
}
#: Captions per unit of work: large enough that a unit's result is much smaller than its
#: captions and the driver's share stays small, small enough to balance the workers.
UNIT_ROWS = 8192


class CountOptions(TypedDict, total=False):
    """How a corpus is counted: the keyword arguments of :func:`count_corpus`, which every
    ``ReferenceIndex`` constructor passes on (defaults: ``engine="local"``, ``num_proc=None``
    meaning every CPU, ``strict=False``, ``progress=True``, ``ray_address=None``,
    ``work_dir=None`` meaning a temporary folder, ``resume=False``, ``relations=True``: count
    the relation triples of SPEC section 1b next to the bindings, in the same pass)."""

    engine: str
    num_proc: int | None
    strict: bool
    progress: bool
    ray_address: str | None
    work_dir: str | os.PathLike[str] | None
    resume: bool
    relations: bool


def check_num_proc(num_proc: int | None) -> None:
    """Reject a worker count that is not an integer >= 1 (``None``: every CPU)."""
    if num_proc is not None and (
        isinstance(num_proc, bool) or not isinstance(num_proc, int) or num_proc < 1
    ):
        raise BindsplitValueError(
            f"num_proc must be an integer >= 1 or None (every CPU), got {num_proc!r}"
        )


def check_engine(engine: str, ray_address: str | None = None) -> None:
    """Reject an unknown engine, and a Ray address given to another engine than ``ray``."""
    if engine not in ENGINES:
        raise BindsplitValueError(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if ray_address is not None and engine != "ray":
        raise BindsplitValueError(
            "a Ray address needs the ray engine (engine='ray' / --engine ray)"
        )


def _header(corpus: Corpus, strict: bool, relations: bool) -> dict[str, Any]:
    """What a work folder records of the build, so that ``resume`` continues only the same one:
    the corpus's identity (its content digest), so that a corpus changed since the interrupted
    run is refused rather than counted with the old run's shards."""
    return {
        "corpus": corpus.identity if corpus.identity_up_front else corpus.name,
        "parser_version": PARSER_VERSION,
        "normalisation": json.loads(json.dumps(NORMALISATION)),
        "strict": strict,
        "relations": relations,
    }


def count_corpus(
    corpus: Corpus,
    *,
    engine: str = "local",
    num_proc: int | None = None,
    strict: bool = False,
    progress: bool = True,
    ray_address: str | None = None,
    work_dir: str | os.PathLike[str] | None = None,
    resume: bool = False,
    relations: bool = True,
) -> TallyResult:
    """Count ``corpus`` with ``engine`` and ``num_proc`` workers (``None``: every CPU); with
    ``relations`` the relation triples too, in the same pass (the result's ``relations``).

    ``ray_address`` (a Ray cluster to join) applies to the ``ray`` engine only. ``work_dir`` is
    where the build keeps its digests and checkpoints (default: a temporary folder); it is
    removed when the build succeeds and kept when it fails, so that ``resume=True`` continues it
    from the shards it finished. The result's stage times (worker seconds of ``read``, ``parse``,
    ``count`` and CPU time ``cpu``; driver seconds of ``combine`` and ``merge``; the Ray
    actors' ``startup``) are in ``seconds``.
    """
    check_num_proc(num_proc)
    check_engine(engine, ray_address)
    owned = work_dir is None
    if owned and resume:
        raise BindsplitValueError("resume needs the work folder of the interrupted build")
    if resume and not corpus.identity_up_front:
        logger.info(
            "%s is known only once read, so an interrupted build of it cannot be checked: "
            "counting it from the start",
            corpus.name,
        )
        resume = False
    folder = Path(tempfile.mkdtemp(prefix="bindsplit-reference-") if work_dir is None else work_dir)
    tally = Tally(folder, _header(corpus, strict, relations), resume=resume, relations=relations)
    seconds = dict.fromkeys(STAGES, 0.0)
    finished = False
    try:
        units = (unit for unit in corpus.units(UNIT_ROWS) if unit.shard not in tally.done)
        with (
            progress_bar(
                total=corpus.total,
                initial=tally.n_values_done,
                unit=" captions",
                desc=f"indexing {corpus.name}" + (" (Ray)" if engine == "ray" else ""),
                disable=not progress,
            ) as bar,
            contextlib.closing(  # the workers stop on any error
                RUNNERS[engine](
                    units,
                    strict=strict,
                    num_proc=num_proc,
                    ray_address=ray_address,
                    relations=relations,
                )
            ) as results,
        ):
            for unit, block in results:
                if block.problem is not None:
                    offset, problem = block.problem
                    raise bad_caption_error(corpus.name, problem, unit.start + offset)
                tally.add(unit, block)
                for stage, value in block.seconds.items():
                    seconds[stage] = seconds.get(stage, 0.0) + value
                if bar.total is None and corpus.total is not None:  # known once read began
                    bar.reset(total=corpus.total)
                    bar.update(tally.n_values_done)
                else:
                    bar.update(block.n_values)
        clock = time.perf_counter()
        result = tally.finish(folder.parent if not owned else Path(tempfile.gettempdir()))
        finished = True
        result.seconds = {**seconds, "combine": tally.seconds, "merge": time.perf_counter() - clock}
        return result
    finally:
        if owned or finished:
            tally.remove()
        else:
            tally.close()
        if not (owned or finished) and tally.done:
            logger.warning(
                "the build stopped after %d finished shard(s); they are kept in %s for a rerun "
                "with --resume (resume=True)",
                len(tally.done),
                folder,
            )
