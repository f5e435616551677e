"""BLIP image-text matching (ITM) heads as pair scorers: ``itm:ORG/NAME`` or ``itm:<folder>``.

``BlipForImageTextRetrieval`` with ``use_itm_head=True`` reads an image and a caption together
(the caption's text encoder cross-attends to the image's patch states) and returns two logits,
"no match" and "match". The score of a pair is their difference, the log-odds of a match:
monotone in the softmax probability BLIP reports, so every comparison is the same, but it never
saturates at 1.0 in float32, where two confident matches would tie.

Without the prefix, a BLIP retrieval checkpoint is scored as a dual encoder by its contrastive
(ITC) projections (:mod:`.hf`); ``itm:`` selects the cross-encoder head. Loading refuses, naming
them, any missing or unexpected weight (a checkpoint without a trained ITM head would otherwise
score with a random one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from ..errors import UnsupportedModelError, require
from .hf import (
    call_loading,
    check_loading_info,
    check_source,
    count_truncated,
    display_name,
    hub_commit,
    image_processor_identity,
    text_max_length,
    tokenizer_identity,
)
from .identity import ModelIdentity, weights_digest

__all__ = ["ITM_CLASS", "ItmPairScorer", "identify", "load"]

#: The transformers class whose ITM head is scored.
ITM_CLASS = "BlipForImageTextRetrieval"
#: ``config.model_type`` values of checkpoints that class can load.
_MODEL_TYPES = ("blip",)


@dataclass
class _PairInputs:
    """Preprocessing of a batch of pairs (picklable: runs in DataLoader workers)."""

    image_processor: Any
    tokenizer: Any
    max_length: int

    def __call__(self, images: Sequence[Any], captions: Sequence[str]) -> dict[str, torch.Tensor]:
        pixels = self.image_processor(images=list(images), return_tensors="pt")["pixel_values"]
        text = self.tokenizer(
            list(captions),
            return_tensors="pt",
            padding="longest",
            truncation=True,
            max_length=self.max_length,
        )
        return {
            "pixel_values": pixels,
            "input_ids": text["input_ids"],
            "attention_mask": text["attention_mask"],
        }


class ItmPairScorer:
    """A BLIP retrieval model's ITM head behind the :class:`~.pair.PairScorer` interface.

    Args:
        model: a loaded ``BlipForImageTextRetrieval``.
        processor: its ``BlipProcessor``.
        name: display name for results (default: ``itm:`` and the folder's name).
        revision: the Hub commit of the weights; without it, the weights are digested.
    """

    def __init__(
        self,
        model: Any,
        processor: Any,
        *,
        name: str | None = None,
        revision: str | None = None,
        weights: str | None = None,
    ) -> None:
        if type(model).__name__ != ITM_CLASS:
            raise UnsupportedModelError(
                f"{type(model).__name__} has no image-text matching head; itm: scores "
                f"{ITM_CLASS} checkpoints (for example Salesforce/blip-itm-base-coco)."
            )
        self.module = model.eval()
        self._tokenizer = getattr(processor, "tokenizer", processor)
        self._image_processor = getattr(processor, "image_processor", processor)
        self.max_text_length = text_max_length(model, self._tokenizer)
        self.preprocess_pairs = _PairInputs(
            self._image_processor, self._tokenizer, self.max_text_length
        )
        source = str(getattr(model.config, "_name_or_path", "") or "")
        commit = revision or getattr(model.config, "_commit_hash", None)
        self.identity = ModelIdentity(
            id=name or f"itm:{display_name(source) if source else ITM_CLASS}",
            revision=commit,
            weights=None if commit else (weights or weights_digest(model)),
            cls=ITM_CLASS,
            library="transformers",
        )

    def score_pairs(self, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        """Log-odds of a match per pair: BLIP's ITM forward with the image attention mask on
        the model's device."""
        model = self.module
        image_states = model.vision_model(pixel_values=inputs["pixel_values"]).last_hidden_state
        image_mask = torch.ones(
            image_states.shape[:-1], dtype=torch.long, device=image_states.device
        )
        text_states = model.text_encoder(
            input_ids=inputs["input_ids"],
            attention_mask=inputs["attention_mask"],
            encoder_hidden_states=image_states,
            encoder_attention_mask=image_mask,
        ).last_hidden_state
        logits = model.itm_head(text_states[:, 0, :]).float()
        return logits[:, 1] - logits[:, 0]

    def count_truncated(self, texts: Sequence[str]) -> int:
        return count_truncated(self._tokenizer, texts, self.max_text_length)

    def preprocessing(self) -> dict[str, Any]:
        return {
            "head": "itm",
            "image_processor": image_processor_identity(self._image_processor),
            "tokenizer": tokenizer_identity(self._tokenizer),
            "max_length": self.max_text_length,
        }


def identify(identifier: str) -> str:
    """The ``model.id`` of ``itm:identifier``: ``itm:`` and the Hub id or the folder's name."""
    return f"itm:{display_name(identifier)}"


def load(
    identifier: str,
    *,
    revision: str | None = None,
    name: str | None = None,
    weights: str | None = None,
) -> ItmPairScorer:
    """Load a BLIP retrieval checkpoint (Hub id or local folder) as an :class:`ItmPairScorer`,
    refusing a checkpoint whose weights do not all load (missing or unexpected, named)."""
    (transformers,) = require("scoring", "transformers", purpose="a BLIP retrieval model (itm:)")
    folder = check_source(identifier)
    config = call_loading(
        identifier,
        folder,
        lambda: transformers.AutoConfig.from_pretrained(identifier, revision=revision),
    )
    model_type = getattr(config, "model_type", "")
    if model_type not in _MODEL_TYPES:
        raise UnsupportedModelError(
            f"{identifier} is a {model_type or 'model without model_type'} checkpoint; itm: "
            f"scores BLIP image-text matching heads ({ITM_CLASS}, model_type 'blip'): pass a "
            "BLIP ITM checkpoint, or the model without itm: to score it as a dual encoder."
        )
    model_class = getattr(transformers, ITM_CLASS)
    model, info = call_loading(
        identifier,
        folder,
        lambda: model_class.from_pretrained(
            identifier, revision=revision, output_loading_info=True
        ),
    )
    check_loading_info(info, identifier, ITM_CLASS)
    processor = call_loading(
        identifier,
        folder,
        lambda: transformers.AutoProcessor.from_pretrained(identifier, revision=revision),
    )
    display = name or identify(identifier)
    commit = None if folder is not None else hub_commit(identifier, revision)
    return ItmPairScorer(model, processor, name=display, revision=commit, weights=weights)
