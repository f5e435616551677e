"""The Ray engine: parse and count a corpus on a Ray cluster (or a local Ray instance).

Parquet shards (:class:`~bindsplit_datasets.reference.corpora.ParquetShards`) are read by Ray
Data in the workers: each block of the caption column is checked, digested and counted there by
the same :func:`~bindsplit_datasets.reference.counting.count_block` the local engine runs, and
only the block's counts and caption digests travel back. A corpus only the driver can read (a
COCO JSON, a text file, a Hub stream, a Python iterable) is streamed from the driver as Ray tasks
over chunks of captions, at most a few per worker in flight. Either way the driver only adds
counts up, so its memory is bounded by the distinct bindings and caption digests, and the result
does not depend on how blocks were split or in which order they finished: it is the local
engine's result.

Failed tasks (a worker or node lost) are retried by Ray: Ray Data re-runs its read and count
tasks until they succeed (its default), driver-streamed tasks are retried ``max_retries`` times.
A failure that is not retried (bad input) ends the build with nothing written.

``address=None`` starts a local Ray instance with ``num_proc`` CPUs and shuts it down afterwards.
An address joins that cluster (``ray://`` addresses need ``ray[client]``): its nodes need the
package installed, and the shards must lie where every node reads them (a shared folder, or an
fsspec URL such as ``s3://`` or ``hf://``). A Ray instance the caller has already started is
used as it is and left running.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..errors import BindsplitError
from .corpora import Corpus, ParquetShards
from .counting import BlockCount, Tally, bad_caption_error, count_block

__all__ = ["DEFAULT_BATCH_SIZE", "DEFAULT_MAX_RETRIES", "RayMissingError", "count"]

logger = logging.getLogger(__name__)

#: Captions per block counted by one task: large enough that a block's counts are much smaller
#: than its captions, small enough to balance the workers.
DEFAULT_BATCH_SIZE = 4096
#: How often Ray re-runs a driver-streamed task whose worker or node failed.
DEFAULT_MAX_RETRIES = 3
#: Tasks in flight per worker when the driver streams the corpus.
_IN_FLIGHT_PER_WORKER = 2


class RayMissingError(BindsplitError, ImportError):
    """The Ray engine was asked for without Ray Data installed."""


def _import_ray() -> Any:
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise RayMissingError(
            "the Ray engine needs Ray Data; install it with pip install "
            "'bindsplit-datasets[distributed]' (or 'ray[data]>=2.9'), or use the local engine"
        ) from None
    return ray


def _count_table(table: Any, column: str, strict: bool) -> Any:
    """Ray Data map function: one block of the caption column -> one row with its counts."""
    import pyarrow as pa

    block = count_block(table.column(column).to_pylist(), strict)
    pairs = list(block.counts.items())
    problem = block.problem
    return pa.table(
        {
            "attribute": pa.array([[a for (a, _), _ in pairs]], pa.list_(pa.string())),
            "object": pa.array([[o for (_, o), _ in pairs]], pa.list_(pa.string())),
            "count": pa.array([[n for _, n in pairs]], pa.list_(pa.int64())),
            "digests": pa.array([block.digests.astype("<u8").tobytes()], pa.binary()),
            "n_captions": pa.array([block.n_captions], pa.int64()),
            "n_skipped": pa.array([block.n_skipped], pa.int64()),
            "problem": pa.array([problem[1] if problem else None], pa.string()),
        }
    )


def _blocks(table: Any) -> Iterator[BlockCount]:
    """The :class:`BlockCount` of every row :func:`_count_table` produced."""
    columns = {name: table.column(name).to_pylist() for name in table.column_names}
    for i in range(table.num_rows):
        bindings = zip(columns["attribute"][i], columns["object"][i], strict=True)
        problem = columns["problem"][i]
        yield BlockCount(
            dict(zip(bindings, columns["count"][i], strict=True)),
            np.frombuffer(columns["digests"][i], dtype="<u8").astype(np.uint64),
            columns["n_captions"][i],
            columns["n_skipped"][i],
            problem=(0, problem) if problem is not None else None,
        )


def _filesystem(shards: ParquetShards) -> Any:
    """The pyarrow file system Ray Data reads the shards with (``None``: local paths)."""
    if shards.local:
        return None
    from pyarrow.fs import FSSpecHandler, PyFileSystem

    return PyFileSystem(FSSpecHandler(shards.filesystem))


def _count_shards(
    ray: Any,
    shards: ParquetShards,
    bar: Any,
    *,
    strict: bool,
    batch_size: int,
) -> Tally:
    tally = Tally()
    dataset = ray.data.read_parquet(shards.files, filesystem=_filesystem(shards))
    dataset = dataset.select_columns([shards.column])
    counted = dataset.map_batches(
        _count_table,
        fn_kwargs={"column": shards.column, "strict": strict},
        batch_size=batch_size,
        batch_format="pyarrow",
        num_cpus=1,
    )
    for table in counted.iter_batches(batch_size=None, batch_format="pyarrow"):
        for block in _blocks(table):
            if block.problem is not None:
                raise bad_caption_error(shards.name, block.problem[1], None)
            tally.add(block)
            bar.update(block.n_values)
    return tally


def _count_stream(
    ray: Any,
    corpus: Corpus,
    bar: Any,
    *,
    workers: int,
    strict: bool,
    batch_size: int,
    max_retries: int,
) -> Tally:
    tally = Tally()
    task = ray.remote(num_cpus=1, max_retries=max_retries)(count_block)
    pending: dict[Any, int] = {}  # task -> row of its first caption

    def collect(ready: list[Any]) -> None:
        for ref in ready:
            start = pending.pop(ref)
            block = ray.get(ref)
            if block.problem is not None:
                raise bad_caption_error(corpus.name, block.problem[1], start + block.problem[0])
            tally.add(block)
            bar.update(block.n_values)

    chunks = corpus.chunks(batch_size)
    if bar.total is None and corpus.total is not None:  # known once reading began (COCO JSON)
        bar.reset(total=corpus.total)
    position = 0
    for chunk in chunks:
        if len(pending) >= workers * _IN_FLIGHT_PER_WORKER:
            collect(ray.wait(list(pending), num_returns=1)[0])
        pending[task.remote(chunk, strict)] = position
        position += len(chunk)
    while pending:
        collect(ray.wait(list(pending), num_returns=1)[0])
    return tally


def count(
    corpus: Corpus,
    *,
    num_proc: int | None = None,
    strict: bool = False,
    progress: bool = True,
    address: str | None = None,
    batch_size: int = DEFAULT_BATCH_SIZE,
    max_retries: int = DEFAULT_MAX_RETRIES,
) -> Tally:
    """Count ``corpus`` on Ray.

    ``address=None`` starts a local Ray instance with ``num_proc`` CPUs (``None``: every CPU)
    for this build; an address (``ray://host:10001``, ``auto``) joins a cluster, where
    ``num_proc`` caps the CPUs the build takes (``None``: all). With ``strict``, an unusable
    caption raises ``ValueError``.
    """
    ray = _import_ray()
    started = not ray.is_initialized()
    if started:
        logger.info("starting Ray (%s)", address or f"local, {num_proc or 'all'} CPUs")
        try:
            ray.init(
                address=address or "local",
                num_cpus=num_proc if address is None else None,
                include_dashboard=False,
                log_to_driver=progress,
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise BindsplitError(
                f"could not start or join Ray at {address or 'this machine'} ({error}); check "
                "the address (ray://HOST:10001, or auto on a cluster node) or leave it out to "
                "run a local Ray instance"
            ) from None
    context = ray.data.DataContext.get_current()
    saved = (context.enable_progress_bars, context.execution_options.resource_limits)
    try:
        context.enable_progress_bars = progress
        if num_proc is not None:
            context.execution_options.resource_limits = ray.data.ExecutionResources(cpu=num_proc)
        workers = num_proc or max(int(ray.cluster_resources().get("CPU", 1)), 1)
        with tqdm(
            total=corpus.total,
            unit=" captions",
            desc=f"indexing {corpus.name} (Ray)",
            disable=not progress,
        ) as bar:
            if isinstance(corpus, ParquetShards):
                return _count_shards(ray, corpus, bar, strict=strict, batch_size=batch_size)
            return _count_stream(
                ray,
                corpus,
                bar,
                workers=workers,
                strict=strict,
                batch_size=batch_size,
                max_retries=max_retries,
            )
    finally:
        context.enable_progress_bars, context.execution_options.resource_limits = saved
        if started:
            ray.shutdown()
