"""Per-sample score matrices of any dual encoder or pair scorer, computed with Accelerate
(docs/protocol.md, section 5).

A benchmark sample has images ``image_columns`` and captions ``caption_columns``; its score matrix
is ``S[i][j] = score(image_i, caption_j)``. For a dual encoder (:class:`~..models.Encoder`) the
score is the cosine similarity: the scorer encodes each *distinct* image (by content hash) and
each *distinct* caption (by string) exactly once, L2-normalises the embeddings and gathers every
matrix from them. Cosine similarity rather than ``logits_per_image`` is used on purpose: the
metric only compares entries of one matrix, and a positive logit scale plus a shared bias
(SigLIP) does not change any comparison. For a pair scorer (:class:`~..models.PairScorer`) each
distinct (image, caption) pair a sample needs is scored once (:mod:`.pairs`).

Images are decoded and preprocessed ahead of the model, by DataLoader worker processes (the
default on a GPU) or by a background thread (on the CPU, where the model already uses every
core), so that preparing the next batch overlaps with running the current one; the model runs on
the Accelerate device under ``torch.autocast`` when a mixed precision is chosen. Under
``accelerate launch --num_processes N`` (or ``torchrun --nproc_per_node N``) each process runs
every N-th distinct item and the shards are gathered once, so every process ends with the same
matrices as a single process would. With ``cache_dir`` the embeddings (or pair scores) are
stored on disk under a key made of the model identity, dtype, mixed precision and preprocessing
(:mod:`.cache`), so a second run over the same data skips the model.

Throughput (``make bench``): on a CPU the scorer matches the raw encoders of a ViT-B/32-sized
model on the same inputs; on a GPU it is bounded by how fast the CPU decodes and resizes images
(about 5 ms of CPU per photo-sized image), so ``num_workers`` decides the speed of small encoders.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader

from ..errors import BindsplitValueError, SchemaError, ScoringOptionError, UnsupportedModelError
from ..models.encoder import Encoder
from ..models.loaders import ScoringModel
from ..models.pair import PairScorer
from ..progress import progress
from .cache import CACHE_VERSION, EmbeddingCache
from .inputs import (
    Collate,
    Distinct,
    ImageItems,
    Items,
    TextItems,
    distinct_captions,
    distinct_images,
    prefetched,
    undecoded,
)
from .pairs import score_pairs

__all__ = [
    "MIXED_PRECISIONS",
    "SCORED_BY_ENCODER",
    "SCORED_BY_PAIR_SCORER",
    "ScoreMatrices",
    "Scorer",
    "check_mixed_precision",
    "check_launch",
    "default_accelerator",
    "default_num_workers",
    "launched_processes",
    "single_process_launch",
]

logger = logging.getLogger(__name__)

#: Mixed precisions the scorer accepts (``"no"``: float32).
MIXED_PRECISIONS: dict[str, torch.dtype | None] = {
    "no": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
}
#: ``model.scored_by`` of a record scored by a dual encoder, and by a pair scorer.
SCORED_BY_ENCODER = "encoder"
SCORED_BY_PAIR_SCORER = "pair scorer"

_MAX_AUTO_WORKERS = 8


def check_mixed_precision(value: str | None) -> None:
    """Raise :class:`ScoringOptionError` unless ``value`` is ``None`` or a valid mixed
    precision. The scorer applies it with its own ``torch.autocast``, never by configuring
    Accelerate (whose state is fixed once per process), so one call's choice, or a bad value,
    never affects a later call."""
    if value is not None and value not in MIXED_PRECISIONS:
        raise ScoringOptionError(
            f"unknown mixed precision {value!r}; valid: {', '.join(MIXED_PRECISIONS)}."
        )


def launched_processes() -> int:
    """How many processes a launcher (``torchrun``, ``accelerate launch``) started: its
    ``WORLD_SIZE``, 1 without one."""
    world = os.environ.get("WORLD_SIZE", "1")
    return int(world) if world.isdigit() and int(world) > 0 else 1


def default_accelerator(mixed_precision: str | None = None) -> Accelerator:
    """The process's Accelerator. Under a launcher on a machine without GPUs, it runs the
    launched processes as one data-parallel CPU run (gloo), as ``ACCELERATE_USE_CPU=true``
    would; Accelerate on its own would run each as a separate single process."""
    cpu = launched_processes() > 1 and not torch.cuda.is_available()
    return Accelerator(mixed_precision=mixed_precision, cpu=cpu)


def single_process_launch() -> bool:
    """Whether ``accelerate launch --num_processes N`` (N > 1) started this run as one process:
    without GPUs (and without MPI) its simple launcher starts a single process, setting
    ``MASTER_ADDR`` for the N asked for but no ``WORLD_SIZE``."""
    env = os.environ
    return "ACCELERATE_USE_CPU" in env and "MASTER_ADDR" in env and "WORLD_SIZE" not in env


@functools.cache
def _warn_single_process_launch() -> None:
    """The warning of :func:`single_process_launch`, once per process."""
    logger.warning(
        "accelerate launch was asked for several processes (--num_processes) but started one: "
        "without GPUs its simple launcher runs a single process (unless MPI is installed), so "
        "this run scores in 1 process and its record says so; for N CPU processes run "
        "`ACCELERATE_USE_CPU=true accelerate launch --multi_gpu --num_processes N ...` or "
        "`torchrun --nproc_per_node N -m bindsplit_datasets eval ...`"
    )


def check_launch(accelerator: Accelerator) -> None:
    """Raise :class:`ScoringOptionError` when a launcher started several processes but
    Accelerate sees only one: each process would run the whole evaluation and write the same
    outputs. A launcher sets ``WORLD_SIZE``; Accelerate joins those processes into one
    data-parallel run only when a distributed backend is initialised for them. Warn (once) when
    ``accelerate launch`` was asked for several processes but started one
    (:func:`single_process_launch`)."""
    if accelerator.num_processes == 1 and single_process_launch():
        _warn_single_process_launch()
    world = launched_processes()
    if world > 1 and accelerator.num_processes != world:
        raise ScoringOptionError(
            f"the launcher started {world} processes, but Accelerate runs them as "
            f"{accelerator.num_processes} (each would score everything and write the same "
            "files); create the Accelerator with "
            "bindsplit_datasets.scoring.scorer.default_accelerator(), or run one process."
        )


def default_num_workers(device: torch.device) -> int:
    """DataLoader workers for image decoding: on a GPU all CPU cores but one (at most 8), so
    that preprocessing keeps up with the model; on the CPU none (a thread prepares the next
    batch), since the model already uses every core. Workers pass batches through shared
    memory: in a container with a small ``/dev/shm``, pass ``num_workers=0``."""
    if device.type == "cpu":
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(0, min(_MAX_AUTO_WORKERS, (cores or 1) - 1))


@dataclass
class ScoreMatrices:
    """The scorer's output: one ``n_images x n_captions`` matrix per sample, plus bookkeeping."""

    #: ``(n_samples, n_images, n_captions)`` scores, float32.
    scores: np.ndarray
    n_unique_images: int
    n_unique_captions: int
    #: Distinct captions longer than the model's text length (encoded truncated).
    n_truncated_captions: int
    text_max_length: int | None
    cache_hits: int = 0
    cache_misses: int = 0
    encode_s: float = 0.0
    #: Distinct (image, caption) pairs a pair scorer scored (``None`` for an encoder).
    n_unique_pairs: int | None = None

    @property
    def n_samples(self) -> int:
        return int(self.scores.shape[0])


#: A function that runs the model on one batch of inputs on the device: ``(n, d)`` rows.
Forward = Callable[[Mapping[str, Any]], torch.Tensor]


class Scorer:
    """Score every sample of a dataset with a dual encoder or a pair scorer.

    Args:
        model: a loaded model: an :class:`~bindsplit_datasets.models.Encoder` or a
            :class:`~bindsplit_datasets.models.PairScorer`. The model registry loads a model
            string (:func:`~bindsplit_datasets.models.loaders.load_model`) and wraps a loaded
            Hugging Face model or a scoring function
            (:func:`~bindsplit_datasets.models.as_scoring_model`); the scorer loads nothing.
        accelerator: an existing :class:`accelerate.Accelerator` (default: the process's, as
            ``accelerate launch`` configured it).
        batch_size: items (images, captions or pairs) per model batch (per process).
        mixed_precision: ``"no"``, ``"bf16"`` or ``"fp16"`` (autocast of the model);
            ``None``: the accelerator's setting.
        cache_dir: folder of the embedding cache; ``None`` disables it.
        num_workers: DataLoader workers that decode and preprocess images; ``None``:
            :func:`default_num_workers` of the device.
        name: the model's name in records and the cache key (default: its own identity's).
    """

    def __init__(
        self,
        model: ScoringModel,
        *,
        accelerator: Accelerator | None = None,
        batch_size: int = 64,
        mixed_precision: str | None = None,
        cache_dir: str | Path | None = None,
        num_workers: int | None = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(model, (Encoder, PairScorer)):
            raise UnsupportedModelError(
                f"the Scorer takes a loaded model (an Encoder or a PairScorer), not a "
                f"{type(model).__name__}; load a model string with "
                "bindsplit_datasets.models.loaders.load_model(spec).model, or wrap a loaded "
                "model or scoring function with bindsplit_datasets.models.as_scoring_model."
            )
        check_mixed_precision(mixed_precision)
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ScoringOptionError(f"batch_size must be a positive integer, got {batch_size}.")
        if num_workers is not None and (not isinstance(num_workers, int) or num_workers < 0):
            raise ScoringOptionError(
                f"num_workers must be a non-negative integer or None, got {num_workers}."
            )
        self.model: ScoringModel = model
        #: The model's identity in records; ``name`` renames an encoder or pair scorer object
        #: (which otherwise carries its own).
        self.identity = self.model.identity
        if name and self.identity.id != name:
            self.identity = replace(self.identity, id=name)
        self.is_pair_scorer = isinstance(self.model, PairScorer)
        #: ``model.scored_by`` of the record this scorer makes.
        self.scored_by = SCORED_BY_PAIR_SCORER if self.is_pair_scorer else SCORED_BY_ENCODER
        # no arguments: Accelerate keeps one configuration per process, and this reuses it
        self.accelerator = accelerator or default_accelerator()
        check_launch(self.accelerator)
        self.mixed_precision = mixed_precision or str(self.accelerator.mixed_precision)
        check_mixed_precision(self.mixed_precision)
        self.device = self.accelerator.device
        module = self.model.module
        self.module = module.eval().to(self.device) if module is not None else None
        self.batch_size = batch_size
        self.num_workers = default_num_workers(self.device) if num_workers is None else num_workers
        length = self.model.max_text_length
        self.max_length = None if length is None else int(length)
        self.cache = EmbeddingCache(cache_dir, self._run_key()) if cache_dir is not None else None

    def _run_key(self) -> dict[str, Any]:
        identity = self.identity
        return {
            "cache_version": CACHE_VERSION,
            "scored_by": self.scored_by,
            # a display name does not change embeddings; it identifies only Hub weights (and a
            # callable, which has nothing else)
            "model": identity.id if identity.weights is None else None,
            "revision": identity.revision,
            "weights": identity.weights,
            "class": identity.cls,
            "library": identity.library,
            "dtype": str(next(self.module.parameters()).dtype) if self.module else None,
            "mixed_precision": self.mixed_precision,
            "preprocessing": self.model.preprocessing(),
        }

    def autocast(self) -> contextlib.AbstractContextManager[Any]:
        """The autocast context of the chosen mixed precision (none for ``"no"``)."""
        dtype = MIXED_PRECISIONS[self.mixed_precision]
        if dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(device_type=self.device.type, dtype=dtype)

    # -- running the model over items -------------------------------------------------------

    def _run(
        self, kind: str, items: Items, collate: Collate, num_workers: int, forward: Forward
    ) -> np.ndarray:
        """``forward``'s rows for every item, in item order (identical on every process).

        Each process runs every ``num_processes``-th item; the shards are gathered once at
        the end. Batches are prepared ahead, by worker processes or else by a thread, so that
        decoding and preprocessing overlap with the model.
        """
        accelerator = self.accelerator
        shard = range(accelerator.process_index, len(items), accelerator.num_processes)
        loader: Iterable[dict[str, Any]] = DataLoader(
            torch.utils.data.Subset(items, shard),
            batch_size=self.batch_size,
            shuffle=False,
            collate_fn=collate,
            num_workers=num_workers,
            pin_memory=self.device.type == "cuda",
        )
        indices: list[torch.Tensor] = []
        rows: list[torch.Tensor] = []
        bar = progress(
            loader if num_workers else prefetched(loader),
            total=math.ceil(len(shard) / self.batch_size),
            desc=f"{'scoring' if kind == 'pairs' else 'encoding'} {kind}",
            unit="batch",
            disable=not accelerator.is_main_process,
        )
        with torch.inference_mode():
            for batch in bar:
                indices.append(batch.pop("index"))
                inputs = {
                    key: value.to(self.device, non_blocking=True)
                    if isinstance(value, torch.Tensor)
                    else value
                    for key, value in batch.items()
                }
                # stays on the device: one transfer at the end, no synchronisation per batch
                rows.append(forward(inputs))
                if rows[-1].shape[0] != len(indices[-1]):
                    raise SchemaError(
                        f"the model returned {rows[-1].shape[0]} rows for a batch of "
                        f"{len(indices[-1])} {kind}; it must return one per item (a pair "
                        "scorer: one score per (image, caption) pair)."
                    )
        index = torch.cat(indices).numpy() if indices else np.zeros(0, dtype=np.int64)
        local = torch.cat(rows).cpu().numpy() if rows else None
        if accelerator.num_processes > 1:
            from accelerate.utils import gather_object

            shards = [part for part in gather_object([(index, local)]) if part[1] is not None]
            index = np.concatenate([part[0] for part in shards])
            local = np.concatenate([part[1] for part in shards])
        assert local is not None and len(index) == len(items)
        result = np.empty((len(items), local.shape[1]), dtype=local.dtype)
        result[index] = local
        return result

    def cached(
        self,
        kind: str,
        distinct: Distinct,
        make_items: Callable[[list[int]], Items],
        collate: Collate,
        num_workers: int,
        forward: Forward,
        width: int | None = None,
        *,
        unit_norm: bool = True,
    ) -> np.ndarray:
        """``forward``'s rows for every distinct item: cached ones (of ``width`` dimensions,
        when given) and the rest computed, then stored (by the main process only)."""
        cache = self.cache
        cached = cache.load(kind, width, unit_norm=unit_norm) if cache is not None else {}
        # every process must see the same cache state before the main process may rewrite it
        self.accelerator.wait_for_everyone()
        missing = [k for k, key in enumerate(distinct.keys) if key not in cached]
        fresh = None
        if missing:
            fresh = self._run(kind, make_items(missing), collate, num_workers, forward)
            stored_width = len(next(iter(cached.values()))) if cached else fresh.shape[1]
            if stored_width != fresh.shape[1]:
                logger.warning(
                    "discarding the cached %s embeddings: %d dimensions, the model's have %d",
                    kind,
                    stored_width,
                    fresh.shape[1],
                )
                cached, missing = {}, list(range(len(distinct.keys)))
                fresh = self._run(kind, make_items(missing), collate, num_workers, forward)
        if cache is not None:
            cache.hits += len(distinct.keys) - len(missing)
            cache.misses += len(missing)
            if self.accelerator.is_main_process and fresh is not None:
                entries = {distinct.keys[k]: fresh[n] for n, k in enumerate(missing)}
                cache.store(kind, entries, unit_norm=unit_norm)
            self.accelerator.wait_for_everyone()
        dim = fresh.shape[1] if fresh is not None else len(next(iter(cached.values())))
        # embeddings in float32; pair scores kept as precise as the scorer gave them
        result = np.empty((len(distinct.keys), dim), dtype=np.float32 if unit_norm else np.float64)
        if fresh is not None:
            result[missing] = fresh
        for k, key in enumerate(distinct.keys):
            if key in cached:
                result[k] = cached[key]
        return result

    # -- scoring ----------------------------------------------------------------------------

    def score(
        self,
        dataset: datasets.Dataset,
        image_columns: Sequence[str],
        caption_columns: Sequence[str],
    ) -> ScoreMatrices:
        """Score every row: ``S[i][j] = score(image of image_columns[i], caption_columns[j])``."""
        if not image_columns or not caption_columns:
            raise BindsplitValueError(
                "at least one image column and one caption column are needed."
            )
        if len(dataset) == 0:
            raise BindsplitValueError("the dataset has no rows to score.")
        start = time.perf_counter()
        counted = (self.cache.hits, self.cache.misses) if self.cache is not None else (0, 0)
        images = undecoded(dataset, image_columns)
        distinct_image, image_index = distinct_images(images, image_columns)
        distinct_caption, caption_index = distinct_captions(dataset, caption_columns)
        captions: list[str] = distinct_caption.refs
        n_truncated = self.model.count_truncated(captions)
        if n_truncated:
            logger.warning(
                "%d of %d distinct captions are longer than %d tokens and are truncated",
                n_truncated,
                len(captions),
                self.max_length,
            )
        n_pairs = None
        if self.is_pair_scorer:
            scores, n_pairs = score_pairs(
                self, images, distinct_image, image_index, distinct_caption, caption_index
            )
        else:
            scores = self._cosine_matrices(
                images, distinct_image, image_index, distinct_caption, caption_index
            )
        return ScoreMatrices(
            scores=scores,
            n_unique_images=len(distinct_image.keys),
            n_unique_captions=len(captions),
            n_truncated_captions=n_truncated,
            text_max_length=self.max_length,
            cache_hits=self.cache.hits - counted[0] if self.cache is not None else 0,
            cache_misses=self.cache.misses - counted[1] if self.cache is not None else 0,
            encode_s=time.perf_counter() - start,
            n_unique_pairs=n_pairs,
        )

    def _encoder_forward(self, kind: str) -> Forward:
        encoder = self.model
        encode = encoder.encode_images if kind == "images" else encoder.encode_texts  # type: ignore[union-attr]

        def forward(inputs: Mapping[str, Any]) -> torch.Tensor:
            with self.autocast():
                features = encode(inputs)
            return torch.nn.functional.normalize(features.float(), dim=-1)

        return forward

    def _cosine_matrices(
        self,
        images: datasets.Dataset,
        distinct_image: Distinct,
        image_index: np.ndarray,
        distinct_caption: Distinct,
        caption_index: np.ndarray,
    ) -> np.ndarray:
        """Cosine similarities of the encoder's embeddings of every sample's images and
        captions."""
        encoder = self.model
        captions: list[str] = distinct_caption.refs

        def embed_images(width: int | None) -> np.ndarray:
            return self.cached(
                "images",
                distinct_image,
                lambda keep: ImageItems(images, [distinct_image.refs[k] for k in keep]),
                Collate(encoder.preprocess_images),  # type: ignore[union-attr]
                self.num_workers,
                self._encoder_forward("images"),
                width,
            )

        image_embeddings = embed_images(None)
        # tokenising is cheap next to decoding images: no worker processes for captions
        text_embeddings = self.cached(
            "captions",
            distinct_caption,
            lambda keep: TextItems([captions[k] for k in keep]),
            Collate(encoder.tokenize),  # type: ignore[union-attr]
            0,
            self._encoder_forward("captions"),
            image_embeddings.shape[1],
        )
        if text_embeddings.shape[1] != image_embeddings.shape[1]:
            # the cached images had another width than the model's captions: encode them again
            image_embeddings = embed_images(text_embeddings.shape[1])
        return np.einsum(
            "sid,sjd->sij", image_embeddings[image_index], text_embeddings[caption_index]
        ).astype(np.float32)
