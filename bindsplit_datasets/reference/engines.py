"""The engines that count a corpus: ``local`` (processes on this machine) and ``ray`` (a Ray
cluster or local Ray instance). Both run the same counting code and give the same result."""

from __future__ import annotations

from typing import TypedDict

from ..errors import BindsplitValueError
from . import local
from . import ray as ray_engine
from .corpora import Corpus
from .counting import Tally

__all__ = ["ENGINES", "CountOptions", "check_engine", "check_num_proc", "count_corpus"]

#: Engine name -> what it runs on.
ENGINES: dict[str, str] = {
    "local": "worker processes on this machine",
    "ray": "Ray Data on a Ray cluster (or a local Ray instance); needs the distributed extra",
}


class CountOptions(TypedDict, total=False):
    """How a corpus is counted: the keyword arguments of :func:`count_corpus`, which every
    ``ReferenceIndex`` constructor passes on (defaults: ``engine="local"``, ``num_proc=None``
    meaning every CPU, ``strict=False``, ``progress=True``, ``ray_address=None``)."""

    engine: str
    num_proc: int | None
    strict: bool
    progress: bool
    ray_address: str | None


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


def count_corpus(
    corpus: Corpus,
    *,
    engine: str = "local",
    num_proc: int | None = None,
    strict: bool = False,
    progress: bool = True,
    ray_address: str | None = None,
) -> Tally:
    """Count ``corpus`` with ``engine`` and ``num_proc`` workers (``None``: every CPU).

    ``ray_address`` (a Ray cluster to join) applies to the ``ray`` engine only.
    """
    check_num_proc(num_proc)
    check_engine(engine, ray_address)
    if engine == "ray":
        return ray_engine.count(
            corpus, num_proc=num_proc, strict=strict, progress=progress, address=ray_address
        )
    return local.count(corpus, num_proc=num_proc, strict=strict, progress=progress)
