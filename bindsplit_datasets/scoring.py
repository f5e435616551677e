"""Per-sample similarity matrices of any dual encoder, computed with Accelerate
(docs/protocol.md, section 5).

A benchmark sample has images ``image_columns`` and captions ``caption_columns``; its score matrix
is ``S[i][j] = cos(image_i, caption_j)``. Benchmarks repeat both images and captions across samples,
so the scorer encodes each *distinct* image (by content hash) and each *distinct* caption (by
string) exactly once, L2-normalises the embeddings and gathers every matrix from them. Cosine
similarity rather than ``logits_per_image`` is used on purpose: the metric only compares entries of
one matrix, and a positive logit scale plus a shared bias (SigLIP) does not change any comparison.

The scorer drives a :class:`~bindsplit_datasets.models.Encoder` only (Hugging Face, open_clip, or
any object with that interface). Images are decoded and preprocessed ahead of the encoder, by
DataLoader worker processes (the default on a GPU) or by a background thread (on the CPU, where
the encoder already uses every core), so that preparing the next batch overlaps with encoding the
current one; encoding runs on the Accelerate device under ``torch.autocast`` when a mixed
precision is chosen. Under ``accelerate launch --num_processes N`` each process encodes every
N-th distinct item and the shards are gathered once, so every process ends with the same
matrices as a single process would. With ``cache_dir`` the embeddings are stored on disk under a
key made of the model identity, dtype, mixed precision and preprocessing, so a second run over
the same data skips the encoders; a damaged cache entry is discarded with a warning and
recomputed.

Throughput (``make bench``): on a CPU the scorer matches the raw encoders of a ViT-B/32-sized
model on the same inputs; on a GPU it is bounded by how fast the CPU decodes and resizes images
(about 5 ms of CPU per photo-sized image), so ``num_workers`` decides the speed of small encoders.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import datasets
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import torch
from accelerate import Accelerator
from PIL import Image
from torch.utils.data import DataLoader
from tqdm.auto import tqdm

from .atomic import atomic_file, write_text
from .errors import BindsplitError, BindsplitValueError, SchemaError
from .models.encoder import Encoder
from .models.identity import digest, json_digest
from .models.loaders import as_encoder

__all__ = [
    "MIXED_PRECISIONS",
    "EmbeddingCache",
    "ScoreMatrices",
    "Scorer",
    "ScoringOptionError",
    "check_mixed_precision",
    "default_num_workers",
    "is_scores_file",
    "read_scores",
    "write_scores",
]

logger = logging.getLogger(__name__)

#: Mixed precisions the scorer accepts (``"no"``: float32).
MIXED_PRECISIONS: dict[str, torch.dtype | None] = {
    "no": None,
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
}

#: Bumped whenever the meaning of a cached embedding changes.
CACHE_VERSION = 2

#: Largest deviation from unit norm of a valid cached (L2-normalised) embedding.
_NORM_TOLERANCE = 1e-3
_ARROW_BATCH = 1024
_MAX_AUTO_WORKERS = 8


class ScoringOptionError(BindsplitError, ValueError):
    """An invalid scorer option (mixed precision, batch size, workers)."""


def check_mixed_precision(value: str | None) -> None:
    """Raise :class:`ScoringOptionError` unless ``value`` is ``None`` or a valid mixed
    precision. The scorer applies it with its own ``torch.autocast``, never by configuring
    Accelerate (whose state is fixed once per process), so one call's choice, or a bad value,
    never affects a later call."""
    if value is not None and value not in MIXED_PRECISIONS:
        raise ScoringOptionError(
            f"unknown mixed precision {value!r}; valid: {', '.join(MIXED_PRECISIONS)}."
        )


def default_num_workers(device: torch.device) -> int:
    """DataLoader workers for image decoding: on a GPU all CPU cores but one (at most 8), so
    that preprocessing keeps up with the encoder; on the CPU none (a thread prepares the next
    batch), since the encoder already uses every core. Workers pass batches through shared
    memory: in a container with a small ``/dev/shm``, pass ``num_workers=0``."""
    if device.type == "cpu":
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(0, min(_MAX_AUTO_WORKERS, (cores or 1) - 1))


# ---------------------------------------------------------------------------------------------
# embedding cache


class EmbeddingCache:
    """Embeddings on disk, one folder per *run key*, one ``.npz`` per kind (images, captions).

    The run key is a hash of everything that changes an embedding: model identity (Hub id and
    commit, or a digest of the weights), class, dtype, mixed precision and the preprocessing
    (image transform, tokenizer, padding, text length). Items are keyed by content hash, so the
    same image under another row or file name is a hit. Files are written to a temporary sibling
    and renamed into place, so an interrupted run never leaves a torn file; a file or an entry
    that is damaged anyway (unreadable, wrong width, not finite, not unit norm) is discarded with
    a warning, and its items are encoded again.
    """

    def __init__(self, root: str | Path, run_key: Mapping[str, Any]) -> None:
        self.run_key = dict(run_key)
        self.key = json_digest(self.run_key)
        self.directory = Path(root) / self.key
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str) -> Path:
        return self.directory / f"{kind}.npz"

    def has(self, kind: str) -> bool:
        """Whether embeddings of ``kind`` were stored."""
        return self._path(kind).is_file()

    def _read(self, path: Path) -> tuple[np.ndarray, np.ndarray]:
        with np.load(path, allow_pickle=False) as stored:
            keys, embeddings = stored["keys"], stored["embeddings"]
        if keys.ndim != 1 or embeddings.ndim != 2 or len(keys) != len(embeddings):
            raise ValueError(f"{len(keys)} keys for embeddings of shape {embeddings.shape}")
        return keys, embeddings.astype(np.float32, copy=False)

    def load(self, kind: str, width: int | None = None) -> dict[str, np.ndarray]:
        """Every valid stored embedding of ``kind`` (of ``width`` dimensions, when given), by
        item key."""
        path = self._path(kind)
        if not path.is_file():
            return {}
        try:
            keys, embeddings = self._read(path)
        except Exception as error:  # any damage: the file is ours to rewrite
            logger.warning("discarding the unreadable embedding cache %s (%s)", path, error)
            return {}
        if width is not None and embeddings.shape[1] != width:
            logger.warning(
                "discarding the embedding cache %s: its embeddings have %d dimensions, the "
                "model's have %d",
                path,
                embeddings.shape[1],
                width,
            )
            return {}
        with np.errstate(invalid="ignore", over="ignore"):
            norms = np.linalg.norm(embeddings, axis=1)
        valid = np.isfinite(embeddings).all(axis=1) & (np.abs(norms - 1) <= _NORM_TOLERANCE)
        if not valid.all():
            logger.warning(
                "discarding %d damaged entries (not finite or not unit norm) of the embedding "
                "cache %s; they are encoded again",
                int((~valid).sum()),
                path,
            )
        return {str(k): e for k, e, ok in zip(keys.tolist(), embeddings, valid, strict=True) if ok}

    def store(self, kind: str, entries: Mapping[str, np.ndarray]) -> None:
        """Add ``entries`` to the stored embeddings of ``kind`` (atomic rewrite of its file)."""
        if not entries:
            return
        width = len(next(iter(entries.values())))
        merged = {**self.load(kind, width), **entries}
        self.directory.mkdir(parents=True, exist_ok=True)
        write_text(self.directory / "run_key.json", json.dumps(self.run_key, indent=2, default=str))
        keys = np.array(list(merged), dtype=str)
        embeddings = np.stack([np.asarray(v, dtype=np.float32) for v in merged.values()])
        with atomic_file(self._path(kind)) as temporary, open(temporary, "wb") as file:
            np.savez(file, keys=keys, embeddings=embeddings)


# ---------------------------------------------------------------------------------------------
# distinct inputs


@dataclass
class _Distinct:
    """Distinct items of one kind: their keys, where to find each, and every sample's indices."""

    keys: list[str] = field(default_factory=list)
    refs: list[Any] = field(default_factory=list)
    position: dict[str, int] = field(default_factory=dict)

    def add(self, key: str, ref: Any) -> int:
        index = self.position.get(key)
        if index is None:
            index = self.position[key] = len(self.keys)
            self.keys.append(key)
            self.refs.append(ref)
        return index


def _image_key(cell: Mapping[str, Any] | None, row: int, column: str) -> str:
    if cell is None or (cell.get("bytes") is None and not cell.get("path")):
        raise SchemaError(f"row {row} has no image in column {column!r}; every image must be set.")
    data = cell.get("bytes")
    if data is None:
        data = Path(cell["path"]).read_bytes()
    return digest(data)


def _iter_arrow(dataset: datasets.Dataset, columns: Sequence[str]) -> Iterator[pa.Table]:
    yield from dataset.select_columns(list(columns)).with_format("arrow").iter(_ARROW_BATCH)


def _undecoded(dataset: datasets.Dataset, image_columns: Sequence[str]) -> datasets.Dataset:
    """``dataset`` restricted to the image columns, with images left as ``{bytes, path}``."""
    for column in image_columns:
        if column not in dataset.column_names:
            raise SchemaError(
                f"the dataset has no image column {column!r} (columns: {dataset.column_names})."
            )
        if not isinstance(dataset.features[column], datasets.Image):
            raise SchemaError(
                f"column {column!r} is {dataset.features[column]!r}, not datasets.Image; cast it "
                "with dataset.cast_column(column, datasets.Image())."
            )
    subset = dataset.select_columns(list(image_columns))
    for column in image_columns:  # a decode flag change: no data is rewritten
        subset = subset.cast_column(column, datasets.Image(decode=False))
    return subset


def _distinct_images(
    images: datasets.Dataset, image_columns: Sequence[str]
) -> tuple[_Distinct, np.ndarray]:
    distinct = _Distinct()
    index = np.empty((len(images), len(image_columns)), dtype=np.int64)
    row = 0
    for table in _iter_arrow(images, image_columns):
        cells = {column: table.column(column).to_pylist() for column in image_columns}
        for offset in range(table.num_rows):
            for i, column in enumerate(image_columns):
                key = _image_key(cells[column][offset], row + offset, column)
                index[row + offset, i] = distinct.add(key, (row + offset, column))
        row += table.num_rows
    return distinct, index


def _distinct_captions(
    dataset: datasets.Dataset, caption_columns: Sequence[str]
) -> tuple[_Distinct, np.ndarray]:
    missing = [c for c in caption_columns if c not in dataset.column_names]
    if missing:
        raise SchemaError(
            f"the dataset has no caption column(s) {missing} (columns: {dataset.column_names})."
        )
    distinct = _Distinct()
    index = np.empty((len(dataset), len(caption_columns)), dtype=np.int64)
    row = 0
    for table in _iter_arrow(dataset, caption_columns):
        texts = {column: table.column(column).to_pylist() for column in caption_columns}
        for offset in range(table.num_rows):
            for j, column in enumerate(caption_columns):
                text = texts[column][offset]
                if not isinstance(text, str):
                    raise SchemaError(
                        f"row {row + offset}, column {column!r}: expected a caption string, "
                        f"got {text!r}."
                    )
                index[row + offset, j] = distinct.add(digest(text), text)
        row += table.num_rows
    return distinct, index


# ---------------------------------------------------------------------------------------------
# data loading: items -> model inputs


class _ImageItems(torch.utils.data.Dataset):
    """Distinct images, decoded lazily from the (memory-mapped) dataset by ``(row, column)``."""

    def __init__(self, images: datasets.Dataset, refs: Sequence[tuple[int, str]]) -> None:
        self.columns = {column: images.select_columns([column]) for column in images.column_names}
        self.refs = list(refs)

    def __len__(self) -> int:
        return len(self.refs)

    def __getitem__(self, item: int) -> tuple[int, Image.Image]:
        row, column = self.refs[item]
        cell = self.columns[column][row][column]
        source = io.BytesIO(cell["bytes"]) if cell.get("bytes") is not None else cell["path"]
        with Image.open(source) as image:
            image.load()
            return item, image if image.mode == "RGB" else image.convert("RGB")


class _TextItems(torch.utils.data.Dataset):
    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, item: int) -> tuple[int, str]:
        return item, self.texts[item]


#: What the encoder runs over: distinct images or distinct captions, indexable and sized.
_Items = _ImageItems | _TextItems


def _prefetched(batches: Iterable[Any], depth: int = 2) -> Iterator[Any]:
    """``batches``, produced by a background thread up to ``depth`` ahead. Image decoding and
    preprocessing release the GIL, so they overlap with encoding without worker processes."""
    ready: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry: tuple[bool, Any]) -> bool:
        while not stop.is_set():
            try:
                ready.put(entry, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for batch in batches:
                if not put((True, batch)):
                    return
            put((False, None))
        except BaseException as error:  # re-raised in the consuming thread
            put((False, error))

    thread = threading.Thread(target=produce, name="bindsplit-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            more, value = ready.get()
            if not more:
                if value is not None:
                    raise value
                return
            yield value
    finally:
        stop.set()
        thread.join()


@dataclass
class _Collate:
    """Batch ``(index, item)`` pairs through a preprocessing function of the encoder."""

    preprocess: Callable[[list[Any]], Mapping[str, torch.Tensor]]

    def __call__(self, batch: Sequence[tuple[int, Any]]) -> dict[str, torch.Tensor]:
        indices, items = zip(*batch, strict=True)
        inputs = dict(self.preprocess(list(items)))
        inputs["index"] = torch.tensor(indices, dtype=torch.long)
        return inputs


# ---------------------------------------------------------------------------------------------
# results


@dataclass
class ScoreMatrices:
    """The scorer's output: one ``n_images x n_captions`` matrix per sample, plus bookkeeping."""

    #: ``(n_samples, n_images, n_captions)`` cosine similarities, float32.
    scores: np.ndarray
    n_unique_images: int
    n_unique_captions: int
    #: Distinct captions longer than the model's text length (encoded truncated).
    n_truncated_captions: int
    text_max_length: int
    cache_hits: int = 0
    cache_misses: int = 0
    encode_s: float = 0.0

    @property
    def n_samples(self) -> int:
        return int(self.scores.shape[0])


# ---------------------------------------------------------------------------------------------
# the scorer


class Scorer:
    """Encode distinct images and captions once and gather per-sample score matrices.

    Args:
        model: an :class:`~bindsplit_datasets.models.Encoder`, a model string (``open_clip:...``,
            a Hub id or a local folder), or a loaded Hugging Face model with ``processor``.
        processor: the processor of a loaded Hugging Face model.
        accelerator: an existing :class:`accelerate.Accelerator` (default: the process's, as
            ``accelerate launch`` configured it).
        batch_size: items per encoder batch (per process).
        mixed_precision: ``"no"``, ``"bf16"`` or ``"fp16"`` (autocast of the encoders);
            ``None``: the accelerator's setting.
        cache_dir: folder of the embedding cache; ``None`` disables it.
        num_workers: DataLoader workers that decode and preprocess images; ``None``:
            :func:`default_num_workers` of the device.
        name, revision: identity of a loaded model (see
            :func:`~bindsplit_datasets.models.as_encoder`).
    """

    def __init__(
        self,
        model: Any,
        processor: Any = None,
        *,
        accelerator: Accelerator | None = None,
        batch_size: int = 64,
        mixed_precision: str | None = None,
        cache_dir: str | Path | None = None,
        num_workers: int | None = None,
        name: str | None = None,
        revision: str | None = None,
    ) -> None:
        check_mixed_precision(mixed_precision)
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ScoringOptionError(f"batch_size must be a positive integer, got {batch_size}.")
        if num_workers is not None and (not isinstance(num_workers, int) or num_workers < 0):
            raise ScoringOptionError(
                f"num_workers must be a non-negative integer or None, got {num_workers}."
            )
        self.encoder: Encoder = as_encoder(model, processor, name=name, revision=revision)
        # no arguments: Accelerate keeps one configuration per process, and this reuses it
        self.accelerator = accelerator or Accelerator()
        self.mixed_precision = mixed_precision or str(self.accelerator.mixed_precision)
        check_mixed_precision(self.mixed_precision)
        self.device = self.accelerator.device
        self.module = self.encoder.module.eval().to(self.device)
        self.batch_size = batch_size
        self.num_workers = default_num_workers(self.device) if num_workers is None else num_workers
        self.max_length = int(self.encoder.max_text_length)
        self.cache = EmbeddingCache(cache_dir, self._run_key()) if cache_dir is not None else None

    def _run_key(self) -> dict[str, Any]:
        identity = self.encoder.identity
        return {
            "cache_version": CACHE_VERSION,
            # a display name does not change embeddings; it identifies only Hub weights
            "model": identity.id if identity.weights is None else None,
            "revision": identity.revision,
            "weights": identity.weights,
            "class": identity.cls,
            "library": identity.library,
            "dtype": str(next(self.module.parameters()).dtype),
            "mixed_precision": self.mixed_precision,
            "preprocessing": self.encoder.preprocessing(),
        }

    def _autocast(self) -> contextlib.AbstractContextManager[Any]:
        dtype = MIXED_PRECISIONS[self.mixed_precision]
        if dtype is None:
            return contextlib.nullcontext()
        return torch.autocast(device_type=self.device.type, dtype=dtype)

    # -- encoding ---------------------------------------------------------------------------

    def _encode(self, kind: str, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        encode = self.encoder.encode_images if kind == "images" else self.encoder.encode_texts
        with self._autocast():
            features = encode(inputs)
        return torch.nn.functional.normalize(features.float(), dim=-1)

    def _run_encoder(
        self, kind: str, items: _Items, collate: _Collate, num_workers: int
    ) -> np.ndarray:
        """Normalised embeddings of every item, in item order (identical on every process).

        Each process encodes every ``num_processes``-th item; the shards are gathered once at
        the end. Batches are prepared ahead, by worker processes or else by a thread, so that
        decoding and preprocessing overlap with encoding.
        """
        accelerator = self.accelerator
        shard = range(accelerator.process_index, len(items), accelerator.num_processes)
        loader: Iterable[dict[str, torch.Tensor]] = DataLoader(
            torch.utils.data.Subset(items, shard),
            batch_size=self.batch_size,
            shuffle=False,
            collate_fn=collate,
            num_workers=num_workers,
            pin_memory=self.device.type == "cuda",
        )
        indices: list[torch.Tensor] = []
        features: list[torch.Tensor] = []
        progress = tqdm(
            loader if num_workers else _prefetched(loader),
            total=math.ceil(len(shard) / self.batch_size),
            desc=f"encoding {kind}",
            unit="batch",
            disable=None if accelerator.is_main_process else True,
        )
        with torch.inference_mode():
            for batch in progress:
                indices.append(batch.pop("index"))
                inputs = {k: v.to(self.device, non_blocking=True) for k, v in batch.items()}
                # stays on the device: one transfer at the end, no synchronisation per batch
                features.append(self._encode(kind, inputs))
        index = torch.cat(indices).numpy() if indices else np.zeros(0, dtype=np.int64)
        local = torch.cat(features).cpu().numpy() if features else None
        if accelerator.num_processes > 1:
            from accelerate.utils import gather_object

            shards = [part for part in gather_object([(index, local)]) if part[1] is not None]
            index = np.concatenate([part[0] for part in shards])
            local = np.concatenate([part[1] for part in shards])
        assert local is not None and len(index) == len(items)
        result = np.empty((len(items), local.shape[1]), dtype=np.float32)
        result[index] = local
        return result

    def _embed(
        self,
        kind: str,
        distinct: _Distinct,
        make_items: Callable[[list[int]], Any],
        collate: _Collate,
        num_workers: int,
        width: int | None = None,
    ) -> np.ndarray:
        """Embeddings of every distinct item: cached ones (of ``width`` dimensions, when
        given) and the rest encoded, then stored."""
        cached = self.cache.load(kind, width) if self.cache is not None else {}
        # every process must see the same cache state before the main process may rewrite it
        self.accelerator.wait_for_everyone()
        missing = [k for k, key in enumerate(distinct.keys) if key not in cached]
        fresh = None
        if missing:
            fresh = self._run_encoder(kind, make_items(missing), collate, num_workers)
            stored_width = len(next(iter(cached.values()))) if cached else fresh.shape[1]
            if stored_width != fresh.shape[1]:
                logger.warning(
                    "discarding the cached %s embeddings: %d dimensions, the model's have %d",
                    kind,
                    stored_width,
                    fresh.shape[1],
                )
                cached, missing = {}, list(range(len(distinct.keys)))
                fresh = self._run_encoder(kind, make_items(missing), collate, num_workers)
        if self.cache is not None:
            self.cache.hits += len(distinct.keys) - len(missing)
            self.cache.misses += len(missing)
            if self.accelerator.is_main_process and fresh is not None:
                self.cache.store(kind, {distinct.keys[k]: fresh[n] for n, k in enumerate(missing)})
            self.accelerator.wait_for_everyone()
        dim = fresh.shape[1] if fresh is not None else len(next(iter(cached.values())))
        embeddings = np.empty((len(distinct.keys), dim), dtype=np.float32)
        if fresh is not None:
            embeddings[missing] = fresh
        for k, key in enumerate(distinct.keys):
            if key in cached:
                embeddings[k] = cached[key]
        return embeddings

    # -- scoring ----------------------------------------------------------------------------

    def score(
        self,
        dataset: datasets.Dataset,
        image_columns: Sequence[str],
        caption_columns: Sequence[str],
    ) -> ScoreMatrices:
        """Score every row: ``S[i][j] = cos(image of image_columns[i], caption_columns[j])``."""
        if not image_columns or not caption_columns:
            raise BindsplitValueError(
                "at least one image column and one caption column are needed."
            )
        if len(dataset) == 0:
            raise BindsplitValueError("the dataset has no rows to score.")
        start = time.perf_counter()
        counted = (self.cache.hits, self.cache.misses) if self.cache is not None else (0, 0)
        images = _undecoded(dataset, image_columns)
        distinct_images, image_index = _distinct_images(images, image_columns)
        distinct_captions, caption_index = _distinct_captions(dataset, caption_columns)
        captions: list[str] = distinct_captions.refs
        n_truncated = self.encoder.count_truncated(captions)
        if n_truncated:
            logger.warning(
                "%d of %d distinct captions are longer than %d tokens and are truncated",
                n_truncated,
                len(captions),
                self.max_length,
            )

        def embed_images(width: int | None) -> np.ndarray:
            return self._embed(
                "images",
                distinct_images,
                lambda keep: _ImageItems(images, [distinct_images.refs[k] for k in keep]),
                _Collate(self.encoder.preprocess_images),
                self.num_workers,
                width,
            )

        image_embeddings = embed_images(None)
        # tokenising is cheap next to decoding images: no worker processes for captions
        text_embeddings = self._embed(
            "captions",
            distinct_captions,
            lambda keep: _TextItems([captions[k] for k in keep]),
            _Collate(self.encoder.tokenize),
            0,
            image_embeddings.shape[1],
        )
        if text_embeddings.shape[1] != image_embeddings.shape[1]:
            # the cached images had another width than the model's captions: encode them again
            image_embeddings = embed_images(text_embeddings.shape[1])
        scores = np.einsum(
            "sid,sjd->sij", image_embeddings[image_index], text_embeddings[caption_index]
        ).astype(np.float32)
        return ScoreMatrices(
            scores=scores,
            n_unique_images=len(distinct_images.keys),
            n_unique_captions=len(captions),
            n_truncated_captions=n_truncated,
            text_max_length=self.max_length,
            cache_hits=self.cache.hits - counted[0] if self.cache is not None else 0,
            cache_misses=self.cache.misses - counted[1] if self.cache is not None else 0,
            encode_s=time.perf_counter() - start,
        )


# ---------------------------------------------------------------------------------------------
# per-sample scores on disk


_SCORES_SCHEMA = pa.schema(
    [
        ("sample", pa.int64()),
        ("id", pa.string()),
        ("bindsplit_label", pa.string()),
        ("category", pa.string()),
        ("macro_group", pa.string()),
        ("balanced", pa.bool_()),
        ("scores", pa.list_(pa.list_(pa.float32()))),
    ]
)
#: Columns :func:`read_scores` needs (files written before ``id``/``balanced`` lack those).
_REQUIRED_SCORE_COLUMNS = ("sample", "bindsplit_label", "category", "macro_group", "scores")


def write_scores(
    path: str | Path,
    scores: np.ndarray | Sequence[Sequence[Sequence[float]]],
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    macro_groups: Sequence[str | None] | None = None,
    *,
    ids: Sequence[str] | None = None,
    balanced: Sequence[bool] | None = None,
) -> Path:
    """Write per-sample matrices and labels as Parquet (read them with :func:`read_scores`).

    ``ids``: each sample's stable id in the build (its source id, or its row in ``full``), so
    the scores can be joined back to the rows; default: the sample index.
    """
    path = Path(path)
    n = len(splits)
    matrices = [np.asarray(matrix, dtype=np.float32).tolist() for matrix in scores]
    if len(matrices) != n:
        raise BindsplitValueError(f"{len(matrices)} score matrices for {n} split labels.")
    table = pa.table(
        {
            "sample": list(range(n)),
            "id": [str(i) for i in ids] if ids is not None else [str(i) for i in range(n)],
            "bindsplit_label": list(splits),
            "category": list(categories) if categories is not None else [None] * n,
            "macro_group": list(macro_groups) if macro_groups is not None else [None] * n,
            "balanced": list(balanced) if balanced is not None else [None] * n,
            "scores": matrices,
        },
        schema=_SCORES_SCHEMA,
    )
    with atomic_file(path) as temporary:
        pq.write_table(table, temporary)
    return path


def is_scores_file(path: str | Path) -> bool:
    """Whether ``path`` is a scores file :func:`write_scores` wrote (so it may be replaced)."""
    try:
        names = pq.read_schema(path).names
    except (OSError, pa.ArrowException):
        return False
    return all(name in names for name in _REQUIRED_SCORE_COLUMNS)


def read_scores(path: str | Path) -> dict[str, list[Any]]:
    """Per-sample scores written by :func:`write_scores`, as keyword arguments of the metric's
    ``accumulate(scores, splits, categories, macro_groups)`` (plus ``balanced`` when the file
    has that column filled)."""
    table = pq.read_table(path)
    missing = [name for name in _REQUIRED_SCORE_COLUMNS if name not in table.column_names]
    if missing:
        raise SchemaError(f"{path} is not a BindSplit scores file: missing column(s) {missing}.")
    table = table.sort_by("sample")
    arguments = {
        "scores": table.column("scores").to_pylist(),
        "splits": table.column("bindsplit_label").to_pylist(),
        "categories": table.column("category").to_pylist(),
        "macro_groups": table.column("macro_group").to_pylist(),
    }
    if "balanced" in table.column_names and table.column("balanced").null_count < len(table):
        arguments["balanced"] = table.column("balanced").to_pylist()
    return arguments
