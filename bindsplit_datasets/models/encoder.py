"""The small interface the scorer drives: a dual encoder with its own preprocessing.

The scorer (:mod:`bindsplit_datasets.scoring`) knows nothing about Hugging Face or open_clip; it
uses only an :class:`Encoder`. Two implementations ship: :class:`~.hf.HFEncoder` (any model with
``get_image_features``/``get_text_features``: CLIPModel, SiglipModel, ...) and
:class:`~.open_clip.OpenClipEncoder`. Any other object with these members works too, for
example a wrapper around a custom model::

    class MyEncoder:
        identity = ModelIdentity("my-model", None, "<weights digest>", "MyNet", "custom")
        module = my_net                       # the torch module holding the weights
        max_text_length = 77

        def preprocess_images(self, images):  # list of RGB PIL images -> tensors
            return {"pixels": torch.stack([my_transform(image) for image in images])}

        def tokenize(self, texts):            # list of captions -> tensors
            return {"ids": my_tokenizer(texts)}

        def encode_images(self, inputs):      # inputs on module's device -> (n, d) embeddings
            return my_net.image_tower(inputs["pixels"])

        def encode_texts(self, inputs):
            return my_net.text_tower(inputs["ids"])

        def count_truncated(self, texts):     # captions longer than max_text_length tokens
            return sum(len(my_tokenizer.encode(t)) > 77 for t in texts)

        def preprocessing(self):              # JSON-able: what changes the model's inputs
            return {"transform": repr(my_transform), "tokenizer": "my-bpe-v1"}

The split between ``preprocess_images``/``tokenize`` (CPU, run in DataLoader worker processes
when ``num_workers > 0``, so they must not touch the model) and ``encode_*`` (on the model's
device, under autocast) is what lets decoding and preprocessing overlap with encoding. The
scorer L2-normalises the embeddings itself and compares them by cosine similarity.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .identity import ModelIdentity

if TYPE_CHECKING:  # pragma: no cover
    import torch
    from PIL import Image

__all__ = ["Encoder", "Inputs", "ModelIdentity"]

#: A batch of model inputs: named tensors whose first dimension is the batch.
Inputs = Mapping[str, "torch.Tensor"]


@runtime_checkable
class Encoder(Protocol):
    """A dual encoder the scorer can drive (see the module docstring for an example).

    Attributes:
        identity: what results records and the embedding cache say about the model.
        module: the ``torch.nn.Module`` holding the weights; the scorer puts it in eval mode on
            the Accelerate device and records its dtype.
        max_text_length: the longest caption in tokens; longer ones are truncated.
    """

    identity: ModelIdentity
    module: torch.nn.Module
    max_text_length: int

    def preprocess_images(self, images: Sequence[Image.Image]) -> Inputs:
        """Model inputs of a batch of RGB images (CPU tensors; may run in a worker process)."""
        ...

    def tokenize(self, texts: Sequence[str]) -> Inputs:
        """Model inputs of a batch of captions, truncated to ``max_text_length`` tokens."""
        ...

    def encode_images(self, inputs: Inputs) -> torch.Tensor:
        """``(n, d)`` image embeddings of preprocessed inputs already on the module's device."""
        ...

    def encode_texts(self, inputs: Inputs) -> torch.Tensor:
        """``(n, d)`` caption embeddings of tokenised inputs already on the module's device."""
        ...

    def count_truncated(self, texts: Sequence[str]) -> int:
        """How many of ``texts`` are longer than ``max_text_length`` tokens."""
        ...

    def preprocessing(self) -> dict[str, Any]:
        """A JSON-able description of everything that changes the inputs (image transform,
        tokenizer, padding, text length): part of the embedding-cache key."""
        ...
