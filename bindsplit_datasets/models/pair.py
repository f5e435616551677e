"""The second interface the scorer drives: a *pair scorer*, which scores given (image, caption)
pairs rather than embedding each side on its own.

Cross-encoders (BLIP's image-text matching head), generative scorers (VQAScore from
t2v_metrics) and large multimodal models asked "does this caption match the image?" cannot embed
an image and a caption separately, so a sample's matrix is made of one score per pair. The scorer
(:mod:`bindsplit_datasets.scoring`) scores only the pairs a sample needs (2 x 2 for BiVLC and
VisMin, 1 x 2 for ARO and SugarCrepe), each distinct (image, caption) pair once, batched, with the
same Accelerate data parallelism and cache as for encoders. Higher scores mean a better match;
the metric only compares entries of one matrix, so any monotone score (a probability, a logit, a
log-odds) gives the same results.

Two implementations ship: :class:`~.itm.ItmPairScorer` (``itm:ORG/NAME``) and
:class:`CallablePairScorer`, which wraps any Python callable ``score(images, captions) ->
scores``, for example VQAScore::

    import t2v_metrics
    from bindsplit_datasets import evaluate_model
    from bindsplit_datasets.models import CallablePairScorer

    vqascore = t2v_metrics.VQAScore(model="clip-flant5-xxl")

    def score(images, captions):  # aligned lists: pair k is (images[k], captions[k])
        return [float(vqascore(images=[i], texts=[c])) for i, c in zip(images, captions)]

    record = evaluate_model(CallablePairScorer(score, name="vqascore-clip-flant5-xxl"), "build/")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .identity import ModelIdentity

if TYPE_CHECKING:  # pragma: no cover
    import torch
    from PIL import Image

__all__ = ["CallablePairScorer", "PairScorer"]


@runtime_checkable
class PairScorer(Protocol):
    """A model that scores (image, caption) pairs (see the module docstring).

    Attributes:
        identity: what results records and the cache say about the model.
        module: the ``torch.nn.Module`` holding the weights (the scorer puts it in eval mode on
            the Accelerate device), or ``None`` when the scorer places nothing (a callable that
            manages its own model).
        max_text_length: the longest caption in tokens, or ``None`` when unknown.
    """

    identity: ModelIdentity
    module: torch.nn.Module | None
    max_text_length: int | None

    def preprocess_pairs(
        self, images: Sequence[Image.Image], captions: Sequence[str]
    ) -> Mapping[str, Any]:
        """Model inputs of a batch of aligned pairs (CPU; may run in a DataLoader worker, so it
        must not touch the model). Tensor values are moved to the device; others pass as is."""
        ...

    def score_pairs(self, inputs: Mapping[str, Any]) -> torch.Tensor | Sequence[float]:
        """One score per pair of the batch (higher: a better match)."""
        ...

    def count_truncated(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` are longer than ``max_text_length`` tokens."""
        ...

    def preprocessing(self) -> dict[str, Any]:
        """A JSON-able description of everything that changes the inputs (cache key)."""
        ...


class CallablePairScorer:
    """A pair scorer around any callable ``score(images, captions) -> scores``.

    Args:
        score: called with aligned lists (RGB PIL images, caption strings) of one batch; returns
            one finite score per pair (a list, a numpy array or a tensor).
        name: the model's name in results records (required: nothing else identifies it).
        revision: the version of the model behind ``score``, recorded beside the name; it is
            also part of the cache key, so change it (or the name) when the model changes.
    """

    module: torch.nn.Module | None = None
    max_text_length: int | None = None

    def __init__(
        self,
        score: Callable[[list[Any], list[str]], Any],
        *,
        name: str,
        revision: str | None = None,
    ) -> None:
        if not callable(score):
            raise TypeError(f"score must be callable, got {type(score).__name__}")
        if not name:
            from ..errors import InvalidModelSpecError

            raise InvalidModelSpecError(
                "a callable pair scorer needs a name for its results: pass name='my-scorer'."
            )
        self._score = score
        self.identity = ModelIdentity(
            id=name,
            revision=revision,
            weights=None,
            cls=getattr(score, "__qualname__", type(score).__name__),
            library="callable",
        )

    def preprocess_pairs(
        self, images: Sequence[Any], captions: Sequence[str]
    ) -> dict[str, list[Any]]:
        return {"images": list(images), "captions": list(captions)}

    def score_pairs(self, inputs: Mapping[str, Any]) -> Any:
        return self._score(inputs["images"], inputs["captions"])

    def count_truncated(self, texts: Sequence[str]) -> int:
        return 0

    def preprocessing(self) -> dict[str, Any]:
        return {"callable": self.identity.cls}
