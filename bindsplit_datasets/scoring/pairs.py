"""Running a pair scorer: only the (image, caption) pairs the samples need, each distinct pair once.

A sample with images ``I`` and captions ``J`` needs the ``|I| x |J|`` pairs of its matrix (2 x 2 for
BiVLC and VisMin, 1 x 2 for ARO and SugarCrepe). Pairs are keyed by the content keys of their image
and caption, so a pair repeated across samples (the same photo with the same caption) is scored
once; the pair scores are cached like embeddings (one-dimensional rows, ``kind="pairs"``), and
the distinct pairs are sharded across processes like images and captions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import datasets
import numpy as np
import torch

from ..errors import SchemaError
from .inputs import Collate, Distinct, PairItems

__all__ = ["PairRunner", "distinct_pairs", "score_pairs"]


class PairRunner(Protocol):
    """What :func:`score_pairs` needs of the scorer that calls it (the
    :class:`~.scorer.Scorer`): its pair scorer, the autocast context, the cached sharded run
    over distinct items. A protocol, so that this module does not import the scorer that
    imports it."""

    model: Any
    num_workers: int

    def autocast(self) -> contextlib.AbstractContextManager[Any]: ...

    @property
    def cached(self) -> Callable[..., np.ndarray]:
        """:meth:`~.scorer.Scorer.cached`: rows of every distinct item, cached or computed."""
        ...


def distinct_pairs(
    image_keys: list[str],
    image_index: np.ndarray,
    caption_keys: list[str],
    caption_index: np.ndarray,
) -> tuple[Distinct, np.ndarray]:
    """The distinct (image, caption) pairs of every sample's matrix and, per sample, the index of
    each matrix cell's pair: ``(n_samples, n_images, n_captions)``.

    >>> pairs, index = distinct_pairs(["a", "b"], np.array([[0, 1], [1, 0]]),
    ...                               ["x", "y"], np.array([[0, 1], [0, 1]]))
    >>> len(pairs.keys), index[1].tolist()
    (4, [[2, 3], [0, 1]])
    """
    n, n_images = image_index.shape
    n_captions = caption_index.shape[1]
    pairs = Distinct()
    index = np.empty((n, n_images, n_captions), dtype=np.int64)
    for s in range(n):
        for i, image in enumerate(image_index[s]):
            for j, caption in enumerate(caption_index[s]):
                key = f"{image_keys[image]}:{caption_keys[caption]}"
                index[s, i, j] = pairs.add(key, (int(image), int(caption)))
    return pairs, index


def score_pairs(
    scorer: PairRunner,
    images: datasets.Dataset,
    image: Distinct,
    image_index: np.ndarray,
    caption: Distinct,
    caption_index: np.ndarray,
) -> tuple[np.ndarray, int]:
    """Every sample's matrix of pair scores (float64, as precise as the scorer gave them: two
    scores 1e-9 apart are not a tie), and how many distinct pairs were needed.

    ``images``: the undecoded image columns; ``image`` and ``caption``: the distinct images and
    captions, which ``image_index`` and ``caption_index`` index per sample.
    """
    pairs, index = distinct_pairs(image.keys, image_index, caption.keys, caption_index)
    model = scorer.model
    captions: list[str] = caption.refs

    def forward(inputs: Mapping[str, Any]) -> torch.Tensor:
        with scorer.autocast():
            scores = model.score_pairs(inputs)
        on_mps = isinstance(scores, torch.Tensor) and scores.device.type == "mps"
        precise = torch.float32 if on_mps else torch.float64  # MPS has no float64
        return torch.as_tensor(scores, dtype=precise).reshape(-1, 1)  # floats: float64 too

    rows = scorer.cached(
        "pairs",
        pairs,
        lambda keep: PairItems(images, image.refs, captions, [pairs.refs[k] for k in keep]),
        Collate(model.preprocess_pairs, pairs=True),
        scorer.num_workers,
        forward,
        unit_norm=False,
    )
    values = rows[:, 0]
    if not np.isfinite(values).all():
        raise SchemaError(
            f"the pair scorer returned {int((~np.isfinite(values)).sum())} scores that are not "
            "finite (NaN or infinite); fix the scoring function."
        )
    return values[index], len(pairs.keys)
