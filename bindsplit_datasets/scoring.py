"""Per-sample similarity matrices of any CLIP-like model, computed with Accelerate
(docs/protocol.md, section 5).

A benchmark sample has images ``image_columns`` and captions ``caption_columns``; its score matrix
is ``S[i][j] = cos(image_i, caption_j)``. Benchmarks repeat both images and captions across samples,
so the scorer encodes each *distinct* image (by content hash) and each *distinct* caption (by
string) exactly once, L2-normalises the embeddings and gathers every matrix from them. Cosine
similarity rather than ``logits_per_image`` is used on purpose: the metric only compares entries of
one matrix, and a positive logit scale plus a shared bias (SigLIP) does not change any comparison.

Encoding runs through DataLoaders prepared by an :class:`accelerate.Accelerator`: under
``accelerate launch --num_processes N`` each process encodes its shard, the results are collected
with ``gather_for_metrics`` and reassembled by item index, so every process ends with the same
matrices as a single process would. Feature calls run under ``accelerator.autocast()`` (mixed
precision is a setting of the Accelerator); the model is prepared for evaluation only.

Any model exposing ``get_image_features`` and ``get_text_features`` works (CLIPModel, SiglipModel,
...), whether they return tensors (transformers 4.x) or output objects with ``pooler_output``
(transformers 5.x). With ``cache_dir`` the embeddings are stored on disk under a key made of the
model identity, dtype, mixed precision and preprocessing, so a second run over the same data skips
the encoders.
"""

from __future__ import annotations

import hashlib
import inspect
import io
import json
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
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
from .errors import BindsplitError, SchemaError

__all__ = [
    "TEXT_PADDING",
    "EmbeddingCache",
    "ScoreMatrices",
    "Scorer",
    "UnsupportedModelError",
    "check_model",
    "feature_tensor",
    "load_model",
    "read_scores",
    "text_max_length",
    "write_scores",
]

logger = logging.getLogger(__name__)

#: Text padding per ``config.model_type``; models that pool the last position (SigLIP) need every
#: caption padded to the full text length. Anything else pads to the longest caption of a batch.
TEXT_PADDING: dict[str, str] = {"siglip": "max_length", "siglip2": "max_length"}
DEFAULT_TEXT_PADDING = "longest"

#: Bumped whenever the meaning of a cached embedding changes.
CACHE_VERSION = 1

_ARROW_BATCH = 1024


class UnsupportedModelError(BindsplitError, TypeError):
    """A model the scorer cannot use (it lacks the image/text feature methods)."""


# ---------------------------------------------------------------------------------------------
# model helpers


def check_model(model: Any) -> None:
    """Raise :class:`UnsupportedModelError` unless ``model`` has both feature methods."""
    missing = [
        name
        for name in ("get_image_features", "get_text_features")
        if not callable(getattr(model, name, None))
    ]
    if missing:
        raise UnsupportedModelError(
            f"{type(model).__name__} has no {' or '.join(missing)}; BindSplit scores dual-encoder "
            "models that expose get_image_features(pixel_values=...) and "
            "get_text_features(input_ids=...) (for example CLIPModel or SiglipModel loaded with "
            "AutoModel, not a task head such as CLIPVisionModel)."
        )


def feature_tensor(output: Any) -> torch.Tensor:
    """The embedding tensor of a ``get_*_features`` result.

    transformers 4.x returns the projected embeddings as a tensor; 5.x returns an output object
    whose ``pooler_output`` holds them (some models name them ``image_embeds``/``text_embeds``).
    """
    if isinstance(output, torch.Tensor):
        return output
    for name in ("pooler_output", "image_embeds", "text_embeds"):
        value = getattr(output, name, None)
        if isinstance(value, torch.Tensor):
            return value
    raise UnsupportedModelError(
        f"cannot find embeddings in a {type(output).__name__} returned by a feature method: "
        "expected a tensor or an object with pooler_output, image_embeds or text_embeds."
    )


def _accepted_inputs(method: Callable[..., Any]) -> frozenset[str]:
    """Names of the explicit parameters of ``method`` (processor outputs outside it are dropped)."""
    return frozenset(
        name
        for name, parameter in inspect.signature(method).parameters.items()
        if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
    )


def _text_config_value(model: Any, name: str) -> Any:
    config = getattr(model, "config", None)
    text_config = getattr(config, "text_config", None)
    return getattr(text_config, name, None) or getattr(config, name, None)


def text_max_length(model: Any, tokenizer: Any) -> int:
    """Longest caption (in tokens) the model accepts: its text positions, capped by the
    tokenizer's ``model_max_length``."""
    candidates = [
        value
        for value in (
            _text_config_value(model, "max_position_embeddings"),
            getattr(tokenizer, "model_max_length", None),
        )
        if isinstance(value, int) and 0 < value < 1_000_000
    ]
    if not candidates:
        raise UnsupportedModelError(
            f"cannot tell the text length of {type(model).__name__}: neither its config "
            "(max_position_embeddings) nor the tokenizer (model_max_length) states it."
        )
    return min(candidates)


def load_model(model_id: str, *, revision: str | None = None) -> tuple[Any, Any]:
    """``AutoModel`` and ``AutoProcessor`` of a Hub id or local folder, at ``revision``."""
    from transformers import AutoModel, AutoProcessor

    model = AutoModel.from_pretrained(model_id, revision=revision)
    processor = AutoProcessor.from_pretrained(model_id, revision=revision)
    return model.eval(), processor


def _digest(data: bytes | str) -> str:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def _weights_digest(model: torch.nn.Module) -> str:
    """Content hash of every parameter and buffer (identity of a model without a Hub commit)."""
    digest = hashlib.blake2b(digest_size=16)
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode("utf-8"))
        digest.update(
            tensor.detach().cpu().reshape(-1).contiguous().view(torch.uint8).numpy().tobytes()
        )
    return digest.hexdigest()


def _tokenizer_identity(tokenizer: Any) -> str:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        # the backend also records the padding/truncation of its last call: not part of identity
        state = json.loads(backend.to_str())
        state.pop("padding", None)
        state.pop("truncation", None)
        return _digest(json.dumps(state, sort_keys=True))
    return _digest(json.dumps(sorted(tokenizer.get_vocab().items())))


def _image_processor_identity(processor: Any) -> str:
    image_processor = getattr(processor, "image_processor", processor)
    to_dict = getattr(image_processor, "to_dict", None)
    description = to_dict() if callable(to_dict) else repr(image_processor)
    return _digest(json.dumps(description, sort_keys=True, default=str))


# ---------------------------------------------------------------------------------------------
# embedding cache


class EmbeddingCache:
    """Embeddings on disk, one folder per *run key*, one ``.npz`` per kind (images, captions).

    The run key is a hash of everything that changes an embedding: model identity (id and
    commit, or a hash of the weights when there is no commit), class, dtype, mixed precision and
    the preprocessing (image processor settings, tokenizer, padding, text length). Items are keyed
    by content hash, so the same image under another row or file name is a hit. Files are written
    to a temporary sibling and renamed into place, so an interrupted run never leaves a torn file.
    """

    def __init__(self, root: str | Path, run_key: Mapping[str, Any]) -> None:
        self.run_key = dict(run_key)
        self.key = _digest(json.dumps(self.run_key, sort_keys=True, default=str))
        self.directory = Path(root) / self.key
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str) -> Path:
        return self.directory / f"{kind}.npz"

    def load(self, kind: str) -> dict[str, np.ndarray]:
        """Every stored embedding of ``kind``, by item key."""
        path = self._path(kind)
        if not path.is_file():
            return {}
        with np.load(path, allow_pickle=False) as stored:
            return dict(zip(stored["keys"].tolist(), stored["embeddings"], strict=True))

    def store(self, kind: str, entries: Mapping[str, np.ndarray]) -> None:
        """Add ``entries`` to the stored embeddings of ``kind`` (atomic rewrite of its file)."""
        if not entries:
            return
        merged = {**self.load(kind), **entries}
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
    return _digest(data)


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
                index[row + offset, j] = distinct.add(_digest(text), text)
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
            return item, image.convert("RGB")


class _TextItems(torch.utils.data.Dataset):
    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = list(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, item: int) -> tuple[int, str]:
        return item, self.texts[item]


@dataclass
class _Collate:
    """Batch ``(index, item)`` pairs through the processor; keeps only inputs the model takes."""

    processor: Any
    argument: str
    accepted: frozenset[str]
    options: dict[str, Any]

    def __call__(self, batch: Sequence[tuple[int, Any]]) -> dict[str, torch.Tensor]:
        indices, items = zip(*batch, strict=True)
        encoded = self.processor(
            **{self.argument: list(items)}, return_tensors="pt", **self.options
        )
        inputs = {k: v for k, v in encoded.items() if k in self.accepted}
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
        model: a loaded model with ``get_image_features`` and ``get_text_features``.
        processor: its processor (``processor(images=...)`` / ``processor(text=...)``).
        accelerator: an existing :class:`accelerate.Accelerator`; by default one is created
            with ``mixed_precision`` (Accelerate allows one configuration per process).
        batch_size: items per encoder batch (per process).
        mixed_precision: ``"no"``, ``"bf16"`` or ``"fp16"`` when creating the Accelerator.
        cache_dir: folder of the embedding cache; ``None`` disables it.
        model_id, revision: the model's identity for the cache (default: from its config).
        num_workers: DataLoader workers that decode and preprocess images.
        text_padding: override the padding chosen from ``model.config.model_type``.
    """

    def __init__(
        self,
        model: Any,
        processor: Any,
        *,
        accelerator: Accelerator | None = None,
        batch_size: int = 64,
        mixed_precision: str = "no",
        cache_dir: str | Path | None = None,
        model_id: str | None = None,
        revision: str | None = None,
        num_workers: int = 0,
        text_padding: str | None = None,
    ) -> None:
        check_model(model)
        if processor is None:
            raise ValueError(
                f"a processor is needed to score a loaded {type(model).__name__}: pass "
                "processor=AutoProcessor.from_pretrained(<model id>), or pass the model id."
            )
        if batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size}.")
        self.accelerator = accelerator or Accelerator(mixed_precision=mixed_precision)
        self.model = self.accelerator.prepare_model(model.eval(), evaluation_mode=True)
        self.processor = processor
        self.tokenizer = getattr(processor, "tokenizer", processor)
        self.batch_size = batch_size
        self.num_workers = num_workers
        model_type = getattr(getattr(model, "config", None), "model_type", None)
        self.text_padding = text_padding or TEXT_PADDING.get(model_type, DEFAULT_TEXT_PADDING)
        self.max_length = text_max_length(model, self.tokenizer)
        self._image_inputs = _accepted_inputs(model.get_image_features)
        self._text_inputs = _accepted_inputs(model.get_text_features)
        self.model_id = (
            model_id or getattr(getattr(model, "config", None), "_name_or_path", None) or None
        )
        self.revision = getattr(getattr(model, "config", None), "_commit_hash", None) or revision
        self.cache = (
            EmbeddingCache(cache_dir, self._run_key(model)) if cache_dir is not None else None
        )

    @property
    def mixed_precision(self) -> str:
        return str(self.accelerator.mixed_precision)

    def _run_key(self, model: Any) -> dict[str, Any]:
        commit = getattr(getattr(model, "config", None), "_commit_hash", None)
        return {
            "cache_version": CACHE_VERSION,
            "model": self.model_id,
            "revision": self.revision,
            # without a Hub commit (local folder, in-memory model) the weights are the identity
            "weights": None if commit else _weights_digest(model),
            "class": type(model).__name__,
            "dtype": str(next(model.parameters()).dtype),
            "mixed_precision": self.mixed_precision,
            "image_processor": _image_processor_identity(self.processor),
            "tokenizer": _tokenizer_identity(self.tokenizer),
            "padding": self.text_padding,
            "max_length": self.max_length,
        }

    # -- encoding ---------------------------------------------------------------------------

    def count_truncated(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` are longer than the model's text length (in tokens)."""
        if not texts:
            return 0
        lengths = self.tokenizer(list(texts), truncation=False, verbose=False)["input_ids"]
        return sum(len(ids) > self.max_length for ids in lengths)

    def _run_encoder(
        self, kind: str, items: torch.utils.data.Dataset, collate: _Collate
    ) -> np.ndarray:
        """Normalised embeddings of every item, in item order (identical on every process)."""
        loader = DataLoader(
            items,
            batch_size=self.batch_size,
            shuffle=False,
            collate_fn=collate,
            num_workers=self.num_workers,
        )
        loader = self.accelerator.prepare_data_loader(loader)
        method = getattr(
            self.model, "get_image_features" if kind == "images" else "get_text_features"
        )
        result: np.ndarray | None = None
        progress = tqdm(
            loader,
            desc=f"encoding {kind}",
            unit="batch",
            disable=None if self.accelerator.is_main_process else True,
        )
        with torch.inference_mode():
            for batch in progress:
                index = batch.pop("index")
                with self.accelerator.autocast():
                    features = feature_tensor(method(**batch))
                features = torch.nn.functional.normalize(features.float(), dim=-1)
                index, features = self.accelerator.gather_for_metrics((index, features))
                if result is None:
                    result = np.zeros((len(items), features.shape[-1]), dtype=np.float32)
                result[index.cpu().numpy()] = features.cpu().numpy()
        assert result is not None
        return result

    def _embed(
        self,
        kind: str,
        distinct: _Distinct,
        make_items: Callable[[list[int]], Any],
        collate: _Collate,
    ) -> np.ndarray:
        cached = self.cache.load(kind) if self.cache is not None else {}
        # every process must see the same cache state before the main process may rewrite it
        self.accelerator.wait_for_everyone()
        missing = [k for k, key in enumerate(distinct.keys) if key not in cached]
        fresh = (
            self._run_encoder(kind, make_items(missing), collate) if missing else np.zeros((0, 0))
        )
        if self.cache is not None:
            self.cache.hits += len(distinct.keys) - len(missing)
            self.cache.misses += len(missing)
            if self.accelerator.is_main_process:
                self.cache.store(kind, {distinct.keys[k]: fresh[n] for n, k in enumerate(missing)})
            self.accelerator.wait_for_everyone()
        dim = fresh.shape[1] if missing else next(iter(cached.values())).shape[0]
        embeddings = np.empty((len(distinct.keys), dim), dtype=np.float32)
        if missing:
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
            raise ValueError("at least one image column and one caption column are needed.")
        if len(dataset) == 0:
            raise ValueError("the dataset has no rows to score.")
        start = time.perf_counter()
        counted = (self.cache.hits, self.cache.misses) if self.cache is not None else (0, 0)
        images = _undecoded(dataset, image_columns)
        distinct_images, image_index = _distinct_images(images, image_columns)
        distinct_captions, caption_index = _distinct_captions(dataset, caption_columns)
        captions: list[str] = distinct_captions.refs
        n_truncated = self.count_truncated(captions)
        if n_truncated:
            logger.warning(
                "%d of %d distinct captions are longer than %d tokens and are truncated",
                n_truncated,
                len(captions),
                self.max_length,
            )
        image_collate = _Collate(self.processor, "images", self._image_inputs, {})
        text_collate = _Collate(
            self.processor,
            "text",
            self._text_inputs,
            {"padding": self.text_padding, "truncation": True, "max_length": self.max_length},
        )
        image_embeddings = self._embed(
            "images",
            distinct_images,
            lambda keep: _ImageItems(images, [distinct_images.refs[k] for k in keep]),
            image_collate,
        )
        text_embeddings = self._embed(
            "captions",
            distinct_captions,
            lambda keep: _TextItems([captions[k] for k in keep]),
            text_collate,
        )
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
        ("bindsplit_label", pa.string()),
        ("category", pa.string()),
        ("macro_group", pa.string()),
        ("scores", pa.list_(pa.list_(pa.float32()))),
    ]
)


def write_scores(
    path: str | Path,
    scores: np.ndarray | Sequence[Sequence[Sequence[float]]],
    splits: Sequence[str],
    categories: Sequence[str | None] | None = None,
    macro_groups: Sequence[str | None] | None = None,
) -> Path:
    """Write per-sample matrices and labels as Parquet (read them with :func:`read_scores`)."""
    path = Path(path)
    n = len(splits)
    matrices = [np.asarray(matrix, dtype=np.float32).tolist() for matrix in scores]
    if len(matrices) != n:
        raise ValueError(f"{len(matrices)} score matrices for {n} split labels.")
    table = pa.table(
        {
            "sample": list(range(n)),
            "bindsplit_label": list(splits),
            "category": list(categories) if categories is not None else [None] * n,
            "macro_group": list(macro_groups) if macro_groups is not None else [None] * n,
            "scores": matrices,
        },
        schema=_SCORES_SCHEMA,
    )
    with atomic_file(path) as temporary:
        pq.write_table(table, temporary)
    return path


def read_scores(path: str | Path) -> dict[str, list[Any]]:
    """Per-sample scores written by :func:`write_scores`, as keyword arguments of the metric's
    ``accumulate(scores, splits, categories, macro_groups)``."""
    table = pq.read_table(path)
    missing = [name for name in _SCORES_SCHEMA.names if name not in table.column_names]
    if missing:
        raise SchemaError(f"{path} is not a BindSplit scores file: missing column(s) {missing}.")
    table = table.sort_by("sample")
    return {
        "scores": table.column("scores").to_pylist(),
        "splits": table.column("bindsplit_label").to_pylist(),
        "categories": table.column("category").to_pylist(),
        "macro_groups": table.column("macro_group").to_pylist(),
    }
