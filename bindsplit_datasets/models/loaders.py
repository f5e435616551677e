"""The model registry: one entry per model family, owning how a model string of the family is
resolved, loaded, named in records and identified by its weights.

Model strings are routed by prefix: ``open_clip:...`` to :mod:`.open_clip`, ``itm:...`` to
:mod:`.itm` (a BLIP image-text matching head, a pair scorer), ``hf:...`` or no prefix (a Hub id
or local folder: CLIP-like dual encoders) to :mod:`.hf`. A model given as an object (an encoder,
a pair scorer, a loaded Hugging Face model with its processor, a plain scoring function) needs no
string: :func:`as_scoring_model` wraps it. Family modules are imported only when used, so a
missing optional extra fails only for the models that need it.

:func:`load_model` is the one way a run loads a model string: it resolves the family once,
describes the weights once (:func:`model_source`: a folder's weight files are digested, a Hub
id's commit resolved) and loads the model with that digest as its identity, so the weights are
never digested twice; :class:`ModelCache` keeps the loaded model for every build a run scores.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InvalidModelSpecError, UnknownModelPrefixError, UnsupportedModelError
from .encoder import Encoder
from .pair import CallablePairScorer, PairScorer
from .source import source_weights

#: What the scorer drives: a dual encoder or a pair scorer.
ScoringModel = Encoder | PairScorer

__all__ = [
    "DEFAULT_PREFIX",
    "LOADERS",
    "LoadedModel",
    "Loader",
    "ModelCache",
    "ScoringModel",
    "as_encoder",
    "as_scoring_model",
    "load_encoder",
    "load_model",
    "model_id",
    "model_source",
    "register_loader",
    "split_spec",
]


def _resolve(target: str | Callable[..., Any]) -> Callable[..., Any]:
    """A function, or the ``"module:function"`` it names (imported now)."""
    if callable(target):
        return target
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Loader:
    """One model family of the registry.

    ``target`` loads: ``"module:function"`` (imported on first use) or the function itself,
    called as ``f(rest_of_string, revision=..., name=...)`` (and ``weights=`` the digest
    ``source`` gave, when it gave one) and returning an :class:`~.encoder.Encoder` or a
    :class:`~.pair.PairScorer`. ``identify``, ``f(rest_of_string) -> str``: the ``model.id``
    its records carry (default: the whole model string). ``source``, ``f(rest_of_string,
    revision) -> dict``: what identifies the weights without loading them (default: nothing)."""

    target: str | Callable[..., ScoringModel]
    #: The forms it accepts, shown in the error for an unknown prefix.
    usage: str
    identify: str | Callable[[str], str] | None = None
    source: str | Callable[[str, str | None], dict[str, Any]] | None = None

    def __call__(
        self,
        spec: str,
        *,
        revision: str | None,
        name: str | None,
        weights: str | None = None,
    ) -> ScoringModel:
        extra = {} if weights is None else {"weights": weights}
        return _resolve(self.target)(spec, revision=revision, name=name, **extra)

    def describe(self, spec: str, revision: str | None) -> dict[str, Any] | None:
        """What identifies the weights of ``spec`` (``None``: the family cannot say)."""
        return None if self.source is None else dict(_resolve(self.source)(spec, revision))


#: Prefix (without the colon) -> its model family.
LOADERS: dict[str, Loader] = {
    "hf": Loader(
        f"{__package__}.hf:load",
        "hf:OWNER/NAME or a local folder (the default, no prefix)",
        f"{__package__}.hf:display_name",
        f"{__package__}.hf:source",
    ),
    "open_clip": Loader(
        f"{__package__}.open_clip:load",
        "open_clip:ARCH/PRETRAINED, open_clip:hf-hub:ORG/NAME, open_clip:local-dir:PATH",
        f"{__package__}.open_clip:display_name",
        f"{__package__}.open_clip:source",
    ),
    "itm": Loader(
        f"{__package__}.itm:load",
        "itm:ORG/NAME or itm:FOLDER (a BLIP image-text matching head, scored per pair)",
        f"{__package__}.itm:identify",
        # the same files and Hub commits as any Hugging Face checkpoint
        f"{__package__}.hf:source",
    ),
}

#: The loader of a string without a prefix.
DEFAULT_PREFIX = "hf"

# two or more characters (so that a Windows drive letter is no prefix), and not a URL
_PREFIX = re.compile(r"^([A-Za-z][\w.-]+):(?!//)(.*)$", re.DOTALL)


def register_loader(
    prefix: str,
    target: str | Callable[..., ScoringModel],
    usage: str,
    identify: str | Callable[[str], str] | None = None,
    source: str | Callable[[str, str | None], dict[str, Any]] | None = None,
) -> None:
    """Route ``prefix:...`` model strings to a new model family (see :class:`Loader`)."""
    LOADERS[prefix] = Loader(target, usage, identify, source)


def split_spec(spec: str) -> tuple[str, str]:
    """``(prefix, rest)`` of a model string; an existing path has no prefix.

    >>> split_spec("open_clip:ViT-B-32/openai"), split_spec("openai/clip-vit-base-patch32")
    (('open_clip', 'ViT-B-32/openai'), ('hf', 'openai/clip-vit-base-patch32'))
    """
    if not spec.strip():
        raise InvalidModelSpecError(
            "the model string is empty; pass a Hub id (org/name), a local folder or a prefixed "
            "model string such as open_clip:ARCH/PRETRAINED."
        )
    match = _PREFIX.match(spec)
    if match is None or Path(spec).expanduser().exists():
        return DEFAULT_PREFIX, spec
    prefix, rest = match.groups()
    if prefix not in LOADERS:
        valid = "; ".join(f"{name}: {loader.usage}" for name, loader in LOADERS.items())
        raise UnknownModelPrefixError(
            f"unknown model prefix {prefix!r} in {spec!r}; valid prefixes: {valid}."
        )
    return prefix, rest


def _family(spec: str | os.PathLike[str]) -> tuple[Loader, str]:
    """The model family of ``spec`` and the rest of the string it reads."""
    if isinstance(spec, os.PathLike):
        prefix, rest = DEFAULT_PREFIX, os.fspath(spec)
    else:
        prefix, rest = split_spec(spec)
    return LOADERS[prefix], rest


def model_source(spec: str | os.PathLike[str], revision: str | None = None) -> dict[str, Any]:
    """What identifies the weights of model string ``spec`` at ``revision``, without loading
    them (:mod:`.source`): the record's ``model.source``, compared before a run is skipped.

    >>> model_source("open_clip:ViT-B-32/openai")
    {'open_clip': 'ViT-B-32/openai'}
    """
    family, rest = _family(spec)
    return family.describe(rest, revision) or {"spec": str(spec)}


@dataclass(frozen=True)
class LoadedModel:
    """A model string loaded once: the model the scorer drives, and what identifies its weights
    (``source``, the record's ``model.source``)."""

    spec: str
    model: ScoringModel
    source: dict[str, Any]


def load_model(
    spec: str | os.PathLike[str],
    *,
    revision: str | None = None,
    name: str | None = None,
    source: dict[str, Any] | None = None,
) -> LoadedModel:
    """Load model string ``spec``: its family resolved once, its weights described once
    (``source``, when the caller has it already, e.g. from planning a run) and that digest
    given to the model as its identity, so that nothing digests the weights again."""
    family, rest = _family(spec)
    if source is None:
        source = family.describe(rest, revision) or {"spec": str(spec)}
    model = family(rest, revision=revision, name=name, weights=source_weights(source))
    return LoadedModel(os.fspath(spec), model, source)


class ModelCache:
    """The model of a run, loaded once for all the builds it scores: :meth:`get` loads a model
    string the first time and returns the same :class:`LoadedModel` after that. Holds one
    model (runs score model by model), so a run over many models holds one at a time.
    ``sources``: what identifies the weights of model strings, when planning already
    described them (``(spec, revision) -> source``)."""

    def __init__(self, sources: dict[tuple[str, str | None], dict[str, Any]] | None = None):
        self.sources = dict(sources or {})
        self._key: tuple[str, str | None, str | None] | None = None
        self._loaded: LoadedModel | None = None

    def get(
        self, spec: str | os.PathLike[str], *, revision: str | None = None, name: str | None = None
    ) -> LoadedModel:
        key = (os.fspath(spec), revision, name)
        if key != self._key or self._loaded is None:
            self._loaded = None  # the previous model is released before the next one loads
            source = self.sources.get((key[0], revision))
            self._loaded = load_model(spec, revision=revision, name=name, source=source)
            self._key = key
        return self._loaded


def load_encoder(
    spec: str | os.PathLike[str], *, revision: str | None = None, name: str | None = None
) -> ScoringModel:
    """Load a model string (or a local folder path) with its family's loader: an encoder, or a
    pair scorer for ``itm:`` (:func:`load_model`, without the source description)."""
    family, rest = _family(spec)
    return family(rest, revision=revision, name=name)


def model_id(spec: str | os.PathLike[str], *, name: str | None = None) -> str:
    """The ``model.id`` the results record of a model string will carry, without loading it:
    ``name`` when given, else what the loader records (a Hub id, an open_clip string, a local
    folder's name).

    >>> model_id("openai/clip-vit-base-patch32"), model_id("x/y", name="mine")
    ('openai/clip-vit-base-patch32', 'mine')
    """
    family, rest = _family(spec)
    if name:
        return name
    return str(spec) if family.identify is None else _resolve(family.identify)(rest)


def as_encoder(
    model: Any,
    processor: Any = None,
    *,
    revision: str | None = None,
    name: str | None = None,
) -> Encoder:
    """An :class:`Encoder` of ``model``: an encoder as is, a model string or path loaded by
    prefix, or a loaded Hugging Face model with its ``processor``."""
    if isinstance(model, (str, os.PathLike)):
        loaded = load_encoder(model, revision=revision, name=name)
        if not isinstance(loaded, Encoder):
            raise UnsupportedModelError(
                f"{model} loads a pair scorer, not an encoder; use as_scoring_model for it."
            )
        return loaded
    if isinstance(model, Encoder):
        if processor is not None:
            raise InvalidModelSpecError(
                f"{type(model).__name__} is an encoder with its own preprocessing; pass it "
                "without a processor."
            )
        return model
    if callable(getattr(model, "encode_image", None)) and processor is None:
        raise UnsupportedModelError(
            f"{type(model).__name__} looks like an open_clip model; pass "
            "OpenClipEncoder(model, preprocess, tokenizer) from bindsplit_datasets.models, or "
            "the string open_clip:ARCH/PRETRAINED."
        )
    from .hf import HFEncoder

    return HFEncoder(model, processor, name=name, revision=revision)


def as_scoring_model(
    model: Any,
    processor: Any = None,
    *,
    revision: str | None = None,
    name: str | None = None,
) -> ScoringModel:
    """What the scorer drives for ``model``: a :class:`~.pair.PairScorer` as is, a plain
    callable ``score(images, captions) -> scores`` wrapped as a
    :class:`~.pair.CallablePairScorer` (named ``name``), else :func:`as_encoder`."""
    if isinstance(model, PairScorer):
        if processor is not None:
            raise InvalidModelSpecError(
                f"{type(model).__name__} is a pair scorer with its own preprocessing; pass it "
                "without a processor."
            )
        return model
    if _is_plain_callable(model):
        if not name:
            raise InvalidModelSpecError(
                "a scoring function needs a name for its results: pass name='my-scorer'."
            )
        return CallablePairScorer(model, name=name, revision=revision)
    if isinstance(model, (str, os.PathLike)):
        return load_encoder(model, revision=revision, name=name)
    return as_encoder(model, processor, revision=revision, name=name)


def _is_plain_callable(model: Any) -> bool:
    """A function or callable object that is not a model (torch modules are callable too)."""
    if not callable(model) or isinstance(model, (str, os.PathLike, Encoder)):
        return False
    try:
        import torch
    except ImportError:
        return True
    return not isinstance(model, torch.nn.Module)
