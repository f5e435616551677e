"""The Ray engine: count a corpus's units of work with Ray actors, on a cluster or a local Ray
instance.

Why not Ray Data: ``read_parquet`` bundles small files into one read task, and ``map_batches``
then counts that single block in a single task, so a build ran on one core whatever the workers
(measured: 8 shards of 40,000 captions became 1 read task, 1 block, 1 counting task). This engine
schedules the work itself:

- one actor per worker CPU (``num_proc``, or every CPU of the cluster), which loads the tagger
  once when it starts;
- units of work (:mod:`~bindsplit_datasets.reference.units`): for Parquet shards, a file name
  and a run of its row groups, read by the actor itself, so reading is parallel too and nothing
  but counts and 8-byte caption digests travels back; for a corpus only the driver can read (a
  COCO JSON, a text file, a Hub stream), the driver's chunks of captions;
- at most :data:`IN_FLIGHT_PER_WORKER` units queued per actor, each new unit given to the actor
  with the fewest, and results taken as they finish: the driver only adds them up
  (:class:`~bindsplit_datasets.reference.tally.Tally`), which costs it about 2 % of a worker's
  time per unit.

A lost actor (a preempted node) is restarted and its units retried by Ray
(:data:`DEFAULT_MAX_RETRIES` times); bad input ends the build with the work folder kept for
``--resume``.

``ray_address=None`` starts a local Ray instance with ``num_proc`` CPUs and shuts it down
afterwards. An address (``auto`` on a cluster node, ``ray://HOST:10001``) joins that cluster:
its nodes need the package installed, and the shards must lie where every node reads them (a
shared folder, or an fsspec URL such as ``s3://`` or ``hf://``). A Ray instance the caller has
already started is used as it is and left running.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator, Iterable
from typing import Any

from ..errors import BindsplitError, require
from .counting import BlockCount, count_unit
from .units import Unit

__all__ = ["DEFAULT_MAX_RETRIES", "IN_FLIGHT_PER_WORKER", "run"]

logger = logging.getLogger(__name__)

#: How often Ray restarts a lost actor and retries its units.
DEFAULT_MAX_RETRIES = 3
#: Units queued per actor: one counting, one waiting, so an actor never idles for the driver.
IN_FLIGHT_PER_WORKER = 2


class _CountingActor:
    """A Ray actor that counts units; the parser's models are loaded once, when it starts."""

    def __init__(self) -> None:
        from ..parsing import parse_bindings, parse_relations

        parse_bindings("a red apple")
        parse_relations("a dog sitting on a couch")

    def ready(self) -> bool:
        return True

    def count(self, unit: Unit, strict: bool, relations: bool) -> tuple[Unit, BlockCount]:
        return count_unit(unit, strict, relations)


def _start(ray: Any, address: str | None, num_proc: int | None) -> bool:
    """Start or join Ray unless it runs already; whether this call started it."""
    if ray.is_initialized():
        return False
    logger.info("starting Ray (%s)", address or f"local, {num_proc or 'all'} CPUs")
    try:
        ray.init(
            address=address or "local",
            num_cpus=num_proc if address is None else None,
            include_dashboard=False,
            log_to_driver=False,
        )
    except (ConnectionError, RuntimeError, ValueError) as error:
        raise BindsplitError(
            f"could not start or join Ray at {address or 'this machine'} ({error}); check the "
            "address (ray://HOST:10001, or auto on a cluster node) or leave it out to run a "
            "local Ray instance"
        ) from None
    return True


def _result(ray: Any, ref: Any) -> tuple[Unit, BlockCount]:
    """``ray.get(ref)``, with BindSplit's own errors raised as themselves (one line)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        if isinstance(error.cause, BindsplitError):
            raise error.cause from None
        raise


def run(
    units: Iterable[Unit],
    *,
    strict: bool = False,
    num_proc: int | None = None,
    ray_address: str | None = None,
    relations: bool = True,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> Generator[tuple[Unit, BlockCount], None, None]:
    """Count ``units`` on Ray with ``num_proc`` actors (``None``: one per CPU of the cluster),
    yielding each result as it finishes; ``relations``: count relation triples too."""
    (ray,) = require("distributed", "ray", purpose="the Ray engine", instead="use the local engine")
    started = _start(ray, ray_address, num_proc)
    actors: list[Any] = []
    try:
        workers = num_proc or max(int(ray.cluster_resources().get("CPU", 1)), 1)
        actor_class = ray.remote(num_cpus=1, max_restarts=max_retries)(_CountingActor)
        actors = [
            actor_class.options(max_task_retries=max_retries).remote() for _ in range(workers)
        ]
        clock = time.perf_counter()
        ray.get([actor.ready.remote() for actor in actors])  # started, models loaded
        startup = time.perf_counter() - clock
        queued = [0] * workers
        pending: dict[Any, int] = {}  # result -> its actor
        iterator = iter(units)
        exhausted = False
        while True:
            while not exhausted and len(pending) < workers * IN_FLIGHT_PER_WORKER:
                unit = next(iterator, None)
                if unit is None:
                    exhausted = True
                    break
                actor = queued.index(min(queued))
                pending[actors[actor].count.remote(unit, strict, relations)] = actor
                queued[actor] += 1
            if not pending:
                break
            [ready], _ = ray.wait(list(pending), num_returns=1)
            queued[pending.pop(ready)] -= 1
            unit, block = _result(ray, ready)
            block.seconds["startup"], startup = startup, 0.0  # reported once
            yield unit, block
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()
