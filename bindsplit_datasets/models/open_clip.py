"""open_clip models, with open_clip's own preprocessing and tokenizer.

A model string is what follows the ``open_clip:`` prefix:

- ``ARCH/PRETRAINED``: a built-in architecture and pretrained tag, e.g.
  ``ViT-B-32/laion2b_s34b_b79k`` (``PRETRAINED`` may also be a checkpoint file);
- ``hf-hub:ORG/NAME``: an open_clip model on the Hugging Face Hub;
- ``local-dir:PATH``: an open_clip folder (``open_clip_config.json`` plus the weights).

Strings starting with ``hf-hub:`` or ``local-dir:`` go to open_clip as they are. Weights are
loaded strictly: a checkpoint that leaves a weight missing, or has one the model lacks, stops
with :class:`~bindsplit_datasets.errors.WeightsMismatchError` naming it, and a model string that
would give a randomly initialised model (no pretrained tag, a folder without weights) is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from ..errors import (
    InvalidModelSpecError,
    ModelNotFoundError,
    NotAModelFolderError,
    corrupt_weights,
    is_corrupt_weights,
    require,
    weights_mismatch,
)
from .hf import tokenizer_identity
from .identity import ModelIdentity, folder_name, weights_digest
from .source import weight_files_digest

__all__ = ["OpenClipEncoder", "display_name", "load", "parse_spec"]

#: Schemas open_clip resolves itself; a string starting with one goes to open_clip unchanged.
SCHEMAS = ("hf-hub:", "local-dir:")

#: Weight files open_clip looks for in a ``local-dir:`` folder.
WEIGHT_PATTERNS = ("*.safetensors", "*.bin", "*.pth")

_CHUNK = 1024
_STATE_DICT_KEYS = {
    "missing": re.compile(r"Missing key\(s\) in state_dict: (.*?)\.\s*(?:\n|$)"),
    "unexpected": re.compile(r"Unexpected key\(s\) in state_dict: (.*?)\.\s*(?:\n|$)"),
}
_SIZE_MISMATCH = re.compile(r"size mismatch for ([^:\s]+):")


def parse_spec(spec: str) -> tuple[str, str | None]:
    """open_clip's ``(model_name, pretrained)`` of what follows ``open_clip:``.

    >>> parse_spec("ViT-B-32/laion2b_s34b_b79k")
    ('ViT-B-32', 'laion2b_s34b_b79k')
    >>> parse_spec("hf-hub:timm/ViT-B-16-SigLIP")
    ('hf-hub:timm/ViT-B-16-SigLIP', None)
    """
    if spec.startswith(SCHEMAS):
        return spec, None
    architecture, _, pretrained = spec.partition("/")
    return architecture, pretrained or None


def display_name(spec: str) -> str:
    """The ``model.id`` of ``open_clip:spec``, without machine paths: a folder or checkpoint
    file by its name.

    >>> display_name("local-dir:/home/me/runs/my-clip"), display_name("ViT-B-32/openai")
    ('open_clip:local-dir:my-clip', 'open_clip:ViT-B-32/openai')
    """
    model_name, pretrained = parse_spec(spec)
    if model_name.startswith("local-dir:"):
        return f"open_clip:local-dir:{folder_name(model_name.removeprefix('local-dir:'))}"
    if pretrained is not None and Path(pretrained).expanduser().is_file():
        return f"open_clip:{model_name}/{Path(pretrained).name}"
    return f"open_clip:{spec}"


def _check_spec(open_clip: Any, spec: str, model_name: str, pretrained: str | None) -> None:
    """Clear errors before open_clip's own: no weights named, unknown architecture or tag, an
    incomplete local folder."""
    if model_name.startswith("local-dir:"):
        folder = Path(model_name.removeprefix("local-dir:")).expanduser()
        if folder.is_file():
            raise NotAModelFolderError(
                f"open_clip:{model_name} is a file; local-dir: takes an open_clip folder "
                "(open_clip_config.json plus weights); for a checkpoint file use "
                "open_clip:ARCH/FILE."
            )
        if not folder.is_dir():
            raise ModelNotFoundError(f"open_clip:{model_name}: no folder {folder}; check the path.")
        if not (folder / "open_clip_config.json").is_file():
            raise NotAModelFolderError(
                f"open_clip:{model_name} has no open_clip_config.json; pass a folder written by "
                "open_clip (config and weights), or the folder without the open_clip: prefix "
                "for a Hugging Face model."
            )
        if not any(next(folder.glob(pattern), None) for pattern in WEIGHT_PATTERNS):
            raise NotAModelFolderError(
                f"open_clip:{model_name} has no weights ({', '.join(WEIGHT_PATTERNS)}); add the "
                "checkpoint next to open_clip_config.json."
            )
        return
    if model_name.startswith("hf-hub:"):
        return
    architectures = open_clip.list_models()
    if model_name not in architectures:
        raise InvalidModelSpecError(
            f"unknown open_clip architecture {model_name!r} in open_clip:{spec}; valid "
            f"architectures: {', '.join(architectures)}."
        )
    tags = open_clip.list_pretrained_tags_by_model(model_name)
    if pretrained is None:
        raise InvalidModelSpecError(
            f"open_clip:{spec} names no weights (a bare architecture is randomly initialised); "
            f"add a pretrained tag, open_clip:{model_name}/TAG with TAG one of: {', '.join(tags)}."
        )
    if pretrained not in tags and not Path(pretrained).expanduser().is_file():
        raise InvalidModelSpecError(
            f"{pretrained!r} is neither a pretrained tag of open_clip {model_name} nor a "
            f"checkpoint file; tags: {', '.join(tags)}."
        )


def _mismatch_from(error: RuntimeError, where: str) -> Exception | None:
    """The :class:`WeightsMismatchError` of torch's strict ``load_state_dict`` error, if it is
    one."""
    message = str(error)
    if "Error(s) in loading state_dict" not in message:
        return None
    keys = {
        label: re.findall(r'"([^"]+)"', match.group(1))
        for label, pattern in _STATE_DICT_KEYS.items()
        if (match := pattern.search(message))
    }
    model_class = message.split("state_dict for ", 1)[-1].split(":", 1)[0]
    return weights_mismatch(
        where,
        model_class,
        missing=keys.get("missing", ()),
        unexpected=keys.get("unexpected", ()),
        reshaped=_SIZE_MISMATCH.findall(message),
    )


def _create(open_clip: Any, where: str, model_name: str, pretrained: str | None) -> Any:
    """``open_clip.create_model_from_pretrained`` (strict, pretrained weights required), with
    its errors made clear."""
    try:
        return open_clip.create_model_from_pretrained(model_name, pretrained)
    except Exception as error:
        if is_corrupt_weights(error):
            raise corrupt_weights(where, error) from None
        mismatch = _mismatch_from(error, where) if isinstance(error, RuntimeError) else None
        if mismatch is not None:
            raise mismatch from None
        if isinstance(error, (RuntimeError, OSError)) and model_name.startswith("hf-hub:"):
            raise ModelNotFoundError(
                f"cannot load {where} from the Hugging Face Hub or its cache "
                f"({str(error).splitlines()[0]}); check the id, or download it once with a "
                "connection (HF_HUB_OFFLINE unset)."
            ) from None
        if isinstance(error, RuntimeError) and "download" in str(error).lower():
            raise ModelNotFoundError(
                f"cannot download the weights of {where} ({str(error).splitlines()[0]}); "
                "connect once to fill the cache, or pass a checkpoint file as PRETRAINED."
            ) from None
        raise


# ---------------------------------------------------------------------------------------------
# preprocessing (picklable: runs in DataLoader workers)


@dataclass
class _ImageInputs:
    transform: Callable[[Any], torch.Tensor]

    def __call__(self, images: Sequence[Any]) -> dict[str, torch.Tensor]:
        return {"pixel_values": torch.stack([self.transform(image) for image in images])}


@dataclass
class _TextInputs:
    tokenizer: Callable[..., torch.Tensor]

    def __call__(self, texts: Sequence[str]) -> dict[str, torch.Tensor]:
        return {"input_ids": self.tokenizer(list(texts))}


class OpenClipEncoder:
    """An open_clip model with its preprocessing and tokenizer, behind the
    :class:`~.encoder.Encoder` interface.

    Args:
        model: an open_clip model (``encode_image``/``encode_text``).
        preprocess: its inference image transform (from ``create_model_from_pretrained``).
        tokenizer: ``open_clip.get_tokenizer(<model name>)``.
        name: display name for results (default: the model's class name).
        weights: the digest of the weights when the caller has one (the digest of the
            checkpoint file), so that they are not digested again.
    """

    def __init__(
        self,
        model: Any,
        preprocess: Any,
        tokenizer: Any,
        *,
        name: str | None = None,
        weights: str | None = None,
    ) -> None:
        self.module = model.eval()
        self._preprocess = preprocess
        self._tokenizer = tokenizer
        self.max_text_length = int(
            getattr(tokenizer, "context_length", None) or model.context_length
        )
        self.preprocess_images = _ImageInputs(preprocess)
        self.tokenize = _TextInputs(tokenizer)
        self.identity = ModelIdentity(
            id=name or type(model).__name__,
            revision=None,
            weights=weights or weights_digest(model),
            cls=type(model).__name__,
            library="open_clip",
        )

    def encode_images(self, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        return self.module.encode_image(inputs["pixel_values"])

    def encode_texts(self, inputs: Mapping[str, torch.Tensor]) -> torch.Tensor:
        return self.module.encode_text(inputs["input_ids"])

    def count_truncated(self, texts: Sequence[str]) -> int:
        # with one more position, a caption that needs more than max_text_length tokens fills
        # the last one; any other caption leaves it at the padding value
        longer = self.max_text_length + 1
        pad = self._tokenizer([""], context_length=longer)[0, -1]
        count = 0
        for start in range(0, len(texts), _CHUNK):
            ids = self._tokenizer(list(texts[start : start + _CHUNK]), context_length=longer)
            count += int((ids[:, -1] != pad).sum())
        return count

    def preprocessing(self) -> dict[str, Any]:
        backend = getattr(self._tokenizer, "tokenizer", None)
        return {
            "transform": repr(self._preprocess),
            "tokenizer": type(self._tokenizer).__name__,
            "vocabulary": tokenizer_identity(backend) if backend is not None else None,
            "vocab_size": getattr(self._tokenizer, "vocab_size", None),
            "context_length": self.max_text_length,
        }


def source(spec: str, revision: str | None = None) -> dict[str, Any]:
    """What identifies the weights of ``open_clip:spec`` without loading them: the string, and
    the digest of a local checkpoint file or folder's weight files; a pretrained tag names fixed
    weights, so the string alone identifies it.

    >>> source("ViT-B-32/openai")
    {'open_clip': 'ViT-B-32/openai'}
    """
    model_name, pretrained = parse_spec(spec)
    if model_name.startswith("local-dir:"):
        folder = Path(model_name.removeprefix("local-dir:")).expanduser()
        return {"open_clip": spec, "files": weight_files_digest(folder)}
    if pretrained is not None and Path(pretrained).expanduser().is_file():
        from ..downloads import file_digest

        return {"open_clip": spec, "checkpoint": file_digest(Path(pretrained).expanduser())}
    return {"open_clip": spec}


def load(
    spec: str,
    *,
    revision: str | None = None,
    name: str | None = None,
    weights: str | None = None,
) -> OpenClipEncoder:
    """Load ``spec`` (what follows ``open_clip:``) as an :class:`OpenClipEncoder`."""
    (open_clip,) = require("openclip", "open_clip", purpose="an open_clip model")
    if revision is not None:
        raise InvalidModelSpecError(
            f"open_clip:{spec}: a revision applies to Hugging Face models only; open_clip loads "
            "hf-hub: models from their main branch (omit --revision)."
        )
    model_name, pretrained = parse_spec(spec)
    _check_spec(open_clip, spec, model_name, pretrained)
    display = display_name(spec)
    model, preprocess = _create(open_clip, display, model_name, pretrained)
    tokenizer = open_clip.get_tokenizer(model_name)
    return OpenClipEncoder(model, preprocess, tokenizer, name=name or display, weights=weights)
