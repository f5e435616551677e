"""Hugging Face dual encoders: any model with ``get_image_features``/``get_text_features``
(CLIPModel, SiglipModel, ...) and BLIP image-text retrieval checkpoints.

transformers 4.x returns the projected embeddings of a feature method as a tensor, 5.x as an
output object whose ``pooler_output`` holds them; :func:`feature_tensor` accepts both.

Loading (:func:`load`) never scores weights that did not load: any missing, unexpected or reshaped
weight that transformers reports stops with :class:`~bindsplit_datasets.errors.WeightsMismatchError`
naming them. BLIP image-text-matching checkpoints are loaded with ``BlipForImageTextRetrieval``,
whose contrastive (ITC) projections give one embedding per image and caption (``AutoModel`` would
build a ``BlipModel`` and leave its projections random); BLIP-2 scores a caption against 32 query
embeddings of an image, which is not a dual encoder, and is refused.
"""

from __future__ import annotations

import inspect
import json
import logging
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from ..errors import (
    MissingProcessorError,
    ModelNotFoundError,
    NotAModelFolderError,
    UnsupportedModelError,
    corrupt_weights,
    is_corrupt_weights,
    require,
    weights_mismatch,
)
from ..names import is_hub_id
from .identity import ModelIdentity, folder_name, json_digest, weights_digest
from .source import weight_files_digest

__all__ = [
    "DEFAULT_TEXT_PADDING",
    "TEXT_PADDING",
    "HFEncoder",
    "call_loading",
    "check_loading_info",
    "check_model",
    "check_source",
    "display_name",
    "feature_tensor",
    "hub_commit",
    "image_processor_identity",
    "load",
    "text_max_length",
    "tokenizer_identity",
]

logger = logging.getLogger(__name__)

#: Text padding per ``config.model_type``; models that pool the last position (SigLIP) need every
#: caption padded to the full text length. Anything else pads to the longest caption of a batch.
TEXT_PADDING: dict[str, str] = {"siglip": "max_length", "siglip2": "max_length"}
DEFAULT_TEXT_PADDING = "longest"

#: ``config.model_type`` values that are not dual encoders, with the reason given to the user.
REFUSED_MODEL_TYPES: dict[str, str] = {
    "blip-2": (
        "BLIP-2 compares a caption with 32 query embeddings of an image (its retrieval score is "
        "the maximum, computed by Blip2ForImageTextRetrieval), not one embedding per image and "
        "caption; BindSplit scores dual encoders: evaluate a CLIP-like model instead"
    ),
}

#: Captions tokenised per call when counting the truncated ones.
_CHUNK = 1024


# ---------------------------------------------------------------------------------------------
# feature methods


def _blip_itm_image_features(model: Any, pixel_values: torch.Tensor) -> torch.Tensor:
    """BLIP's contrastive image embedding: the projected [CLS] state of the vision model."""
    hidden = model.vision_model(pixel_values=pixel_values).last_hidden_state
    return model.vision_proj(hidden[:, 0, :])


def _blip_itm_text_features(
    model: Any, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None
) -> torch.Tensor:
    """BLIP's contrastive text embedding: the projected [CLS] state of the unimodal text
    encoder (what ``BlipForImageTextRetrieval(use_itm_head=False)`` compares)."""
    hidden = model.text_encoder(input_ids=input_ids, attention_mask=attention_mask)
    return model.text_proj(hidden.last_hidden_state[:, 0, :])


#: Classes without feature methods whose contrastive embeddings are computed here, by class name:
#: (image features, text features), each called as ``f(model, **inputs)``.
FEATURE_FUNCTIONS: dict[str, tuple[Callable[..., torch.Tensor], Callable[..., torch.Tensor]]] = {
    "BlipForImageTextRetrieval": (_blip_itm_image_features, _blip_itm_text_features),
}


def check_model(model: Any) -> None:
    """Raise :class:`UnsupportedModelError` unless the scorer can get embeddings of ``model``."""
    if type(model).__name__ in FEATURE_FUNCTIONS:
        return
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


def _feature_methods(model: Any) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """The image and text feature callables of ``model`` (called with the processor's
    outputs as keywords)."""
    check_model(model)
    functions = FEATURE_FUNCTIONS.get(type(model).__name__)
    if functions is None:
        return model.get_image_features, model.get_text_features
    image, text = functions
    return (
        lambda **inputs: image(model, **inputs),
        lambda **inputs: text(model, **inputs),
    )


def _accepted_inputs(model: Any) -> tuple[frozenset[str], frozenset[str]]:
    """Names of the explicit parameters of the feature methods (other processor outputs, such
    as ``token_type_ids``, are dropped)."""
    functions = FEATURE_FUNCTIONS.get(type(model).__name__)
    methods = functions or (model.get_image_features, model.get_text_features)

    def names(method: Callable[..., Any]) -> frozenset[str]:
        return frozenset(
            name
            for name, parameter in inspect.signature(method).parameters.items()
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
            and name != "model"
        )

    return names(methods[0]), names(methods[1])


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


def count_truncated(tokenizer: Any, texts: Sequence[str], max_length: int) -> int:
    """How many of ``texts`` ``tokenizer`` makes longer than ``max_length`` tokens (they are
    truncated when scored; the record counts them)."""
    count = 0
    for start in range(0, len(texts), _CHUNK):
        chunk = list(texts[start : start + _CHUNK])
        lengths = tokenizer(chunk, truncation=False, verbose=False)["input_ids"]
        count += sum(len(ids) > max_length for ids in lengths)
    return count


def tokenizer_identity(tokenizer: Any) -> str:
    """Digest of a Hugging Face tokenizer's vocabulary and rules (not of its last call's
    padding and truncation)."""
    backend = getattr(tokenizer, "backend_tokenizer", None)
    if backend is not None:
        # the backend also records the padding/truncation of its last call: not part of identity
        state = json.loads(backend.to_str())
        state.pop("padding", None)
        state.pop("truncation", None)
        return json_digest(state)
    return json_digest(sorted(tokenizer.get_vocab().items()))


def image_processor_identity(image_processor: Any) -> str:
    to_dict = getattr(image_processor, "to_dict", None)
    description = to_dict() if callable(to_dict) else repr(image_processor)
    # the fast (torchvision) and PIL processors resize slightly differently
    return json_digest([type(image_processor).__name__, description])


# ---------------------------------------------------------------------------------------------
# preprocessing (picklable: runs in DataLoader workers)


@dataclass
class _ImageInputs:
    image_processor: Any
    accepted: frozenset[str]

    def __call__(self, images: Sequence[Any]) -> dict[str, torch.Tensor]:
        encoded = self.image_processor(images=list(images), return_tensors="pt")
        return {k: v for k, v in encoded.items() if k in self.accepted}


@dataclass
class _TextInputs:
    tokenizer: Any
    accepted: frozenset[str]
    options: dict[str, Any]

    def __call__(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        encoded = self.tokenizer(list(texts), return_tensors="pt", **self.options)
        return {k: v for k, v in encoded.items() if k in self.accepted}


# ---------------------------------------------------------------------------------------------
# the encoder


def _identity(
    model: Any, name: str | None, revision: str | None, weights: str | None = None
) -> ModelIdentity:
    config = getattr(model, "config", None)
    # transformers 4.x records the Hub commit on the config; 5.x leaves it to the loader
    commit = getattr(config, "_commit_hash", None) or revision
    source = str(getattr(config, "_name_or_path", "") or "")
    if name is None and source:
        is_path = os.path.isabs(source) or Path(source).exists()
        name = folder_name(source) if is_path else source
    return ModelIdentity(
        id=name or type(model).__name__,
        revision=commit,
        # without a Hub commit (local folder, model built in Python) the weights are the identity
        weights=None if commit else (weights or weights_digest(model)),
        cls=type(model).__name__,
        library="transformers",
    )


class HFEncoder:
    """A Hugging Face dual encoder and its processor, behind the :class:`~.encoder.Encoder`
    interface.

    Args:
        model: a loaded model with ``get_image_features``/``get_text_features`` (or a
            ``BlipForImageTextRetrieval``).
        processor: its processor (``processor.image_processor`` and ``processor.tokenizer``).
        name: display name for results (default: the Hub id, or the folder's name).
        revision: the Hub commit the weights were loaded at; it pins them, so no digest of
            the weights is computed (without it, the weights are digested).
        weights: the digest of the weights when the caller has one (the registry passes the
            digest of a folder's weight files), so that they are not digested again.
        text_padding: override the padding chosen from ``model.config.model_type``.
    """

    def __init__(
        self,
        model: Any,
        processor: Any,
        *,
        name: str | None = None,
        revision: str | None = None,
        text_padding: str | None = None,
        weights: str | None = None,
    ) -> None:
        self._image_features, self._text_features = _feature_methods(model)
        if processor is None:
            raise MissingProcessorError(
                f"a processor is needed to score a loaded {type(model).__name__}: pass "
                "processor=AutoProcessor.from_pretrained(<model id>), or pass the model id."
            )
        self.module = model.eval()
        self._tokenizer = getattr(processor, "tokenizer", processor)
        self._image_processor = getattr(processor, "image_processor", processor)
        model_type = str(getattr(getattr(model, "config", None), "model_type", ""))
        self.text_padding = text_padding or TEXT_PADDING.get(model_type, DEFAULT_TEXT_PADDING)
        self.max_text_length = text_max_length(model, self._tokenizer)
        image_inputs, text_inputs = _accepted_inputs(model)
        self.preprocess_images = _ImageInputs(self._image_processor, image_inputs)
        self.tokenize = _TextInputs(
            self._tokenizer,
            text_inputs,
            {"padding": self.text_padding, "truncation": True, "max_length": self.max_text_length},
        )
        self.identity = _identity(model, name, revision, weights)

    def encode_images(self, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        return feature_tensor(self._image_features(**inputs))

    def encode_texts(self, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        return feature_tensor(self._text_features(**inputs))

    def count_truncated(self, texts: Sequence[str]) -> int:
        return count_truncated(self._tokenizer, texts, self.max_text_length)

    def preprocessing(self) -> dict[str, Any]:
        return {
            "image_processor": image_processor_identity(self._image_processor),
            "tokenizer": tokenizer_identity(self._tokenizer),
            "padding": self.text_padding,
            "max_length": self.max_text_length,
        }


# ---------------------------------------------------------------------------------------------
# loading


def check_loading_info(info: Mapping[str, Any], where: str, model_class: str) -> None:
    """Raise :class:`WeightsMismatchError` unless every weight of the checkpoint filled the
    model (``info``: transformers' ``output_loading_info``)."""
    error = weights_mismatch(
        where,
        model_class,
        missing=info.get("missing_keys") or (),
        unexpected=info.get("unexpected_keys") or (),
        reshaped=(str(entry[0]) for entry in info.get("mismatched_keys") or ()),
        errors=(str(message) for message in info.get("error_msgs") or ()),
    )
    if error is not None:
        raise error


def check_source(identifier: str) -> Path | None:
    """The local folder ``identifier`` names (``None``: a Hub id), after the checks that give
    clear errors before transformers' own."""
    path = Path(identifier).expanduser()
    if path.is_file():
        raise NotAModelFolderError(
            f"{identifier} is a file; pass the folder that holds config.json and the weights "
            "(model.save_pretrained(folder) writes one), or open_clip:ARCH/FILE for an open_clip "
            "checkpoint file."
        )
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise NotAModelFolderError(
                f"{identifier} has no config.json; pass a folder written by "
                "model.save_pretrained(folder) and processor.save_pretrained(folder), or "
                "open_clip:local-dir:FOLDER for an open_clip folder."
            )
        _check_model_type(path / "config.json")
        return path
    if not is_hub_id(identifier, require_org=False):
        raise ModelNotFoundError(
            f"{identifier} is neither a local folder nor a Hub model id (owner/name); check the "
            "path or the id."
        )
    return None


def _check_model_type(config: Path) -> None:
    """Raise :class:`NotAModelFolderError` unless ``config`` is a JSON object with a
    ``model_type`` (transformers cannot tell which class to build without it)."""
    try:
        value = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise NotAModelFolderError(
            f"{config} is not readable JSON ({error}); save the model again with "
            "model.save_pretrained(folder)."
        ) from None
    if not isinstance(value, dict) or not value.get("model_type"):
        raise NotAModelFolderError(
            f"{config} has no model_type, so transformers cannot tell which model to build; "
            'add it (for example "model_type": "clip") or save the model again with '
            "model.save_pretrained(folder)."
        )


def _offline() -> bool:
    from huggingface_hub import constants

    return bool(constants.HF_HUB_OFFLINE)


def _not_found(identifier: str, error: OSError) -> ModelNotFoundError:
    reason = str(error).splitlines()[0] if str(error) else type(error).__name__
    if _offline() or "couldn't connect" in reason.lower() or "offline" in reason.lower():
        return ModelNotFoundError(
            f"{identifier} is not a local folder and is not in the Hugging Face cache, and the "
            "Hub cannot be reached (offline); download it once with a connection (or unset "
            "HF_HUB_OFFLINE), or pass a local model folder."
        )
    return ModelNotFoundError(
        f"cannot load the Hub model {identifier} ({reason}); check the id and revision, or log "
        "in with `hf auth login` for a private or gated model."
    )


def call_loading(identifier: str, folder: Path | None, function: Callable[[], Any]) -> Any:
    """``function()``, with the errors of a missing model, an incomplete folder or damaged
    weights made clear."""
    try:
        return function()
    except Exception as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        if is_corrupt_weights(error):
            raise corrupt_weights(identifier, error) from None
        if isinstance(error, OSError) and folder is not None:
            raise NotAModelFolderError(
                f"{identifier} cannot be loaded ({reason}); the folder needs the files written "
                "by model.save_pretrained(folder) and processor.save_pretrained(folder)."
            ) from None
        if isinstance(error, OSError):
            raise _not_found(identifier, error) from None
        raise


def hub_commit(identifier: str, revision: str | None) -> str | None:
    """The commit of ``identifier`` at ``revision`` in the local Hub cache (``from_pretrained``
    has just filled it), or ``None``."""
    from huggingface_hub import try_to_load_from_cache

    path = try_to_load_from_cache(identifier, "config.json", revision=revision)
    if not isinstance(path, str):
        return None
    parts = Path(path).parts
    return parts[parts.index("snapshots") + 1] if "snapshots" in parts[:-1] else None


def display_name(identifier: str) -> str:
    """The ``model.id`` of a Hub id (itself) or a local folder (its name, never its path)."""
    path = Path(identifier).expanduser()
    return folder_name(path) if path.exists() else identifier


def resolved_commit(identifier: str, revision: str | None) -> str | None:
    """The commit ``revision`` of a Hub model resolves to: asked of the Hub, else the cache."""
    from huggingface_hub import HfApi, constants

    if not constants.HF_HUB_OFFLINE:
        try:
            return HfApi().model_info(identifier, revision=revision).sha
        except Exception as error:  # no network, private: fall back to the local cache
            logger.debug("cannot ask the Hub for %s (%s); using the local cache", identifier, error)
    return hub_commit(identifier, revision)


def source(identifier: str, revision: str | None = None) -> dict[str, Any]:
    """What identifies the weights of a Hub id or local folder without loading them: a
    folder's weight files (their digest), a Hub id's resolved commit."""
    folder = check_source(identifier)
    if folder is not None:
        return {"files": weight_files_digest(folder)}
    return {"hub": identifier, "commit": resolved_commit(identifier, revision)}


def load(
    identifier: str,
    *,
    revision: str | None = None,
    name: str | None = None,
    weights: str | None = None,
) -> HFEncoder:
    """Load a Hub id or local folder as an :class:`HFEncoder`, refusing checkpoints whose
    weights do not all load.

    The class comes from the config: ``AutoModel`` (CLIPModel, SiglipModel, ...), or a class of
    :data:`FEATURE_FUNCTIONS` named in ``config.architectures`` (BLIP retrieval checkpoints).
    """
    (transformers,) = require("scoring", "transformers", purpose="a Hugging Face model")
    folder = check_source(identifier)
    config = call_loading(
        identifier,
        folder,
        lambda: transformers.AutoConfig.from_pretrained(identifier, revision=revision),
    )
    refusal = REFUSED_MODEL_TYPES.get(getattr(config, "model_type", ""))
    if refusal:
        raise UnsupportedModelError(f"{identifier} cannot be scored: {refusal}.")
    named = [a for a in (config.architectures or ()) if a in FEATURE_FUNCTIONS]
    model_class = getattr(transformers, named[0]) if named else transformers.AutoModel
    model, info = call_loading(
        identifier,
        folder,
        lambda: model_class.from_pretrained(
            identifier, revision=revision, output_loading_info=True
        ),
    )
    check_model(model)
    check_loading_info(info, identifier, type(model).__name__)
    processor = call_loading(
        identifier,
        folder,
        lambda: transformers.AutoProcessor.from_pretrained(identifier, revision=revision),
    )
    display = name or display_name(identifier)
    if folder is not None:
        return HFEncoder(model, processor, name=display, weights=weights)
    return HFEncoder(model, processor, name=display, revision=hub_commit(identifier, revision))
