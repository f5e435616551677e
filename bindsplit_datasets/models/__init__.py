"""Models the scorer can drive: the :class:`Encoder` interface, its Hugging Face and open_clip
implementations, and the loader registry that turns a model string into an encoder.

>>> from bindsplit_datasets.models import split_spec
>>> split_spec("open_clip:ViT-B-32/laion2b_s34b_b79k")
('open_clip', 'ViT-B-32/laion2b_s34b_b79k')

Importing this package imports neither torch nor transformers nor open_clip; each is imported
by the module that needs it, and a missing one is reported as the extra to install.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..lazy import lazy_exports

# public name -> module that defines it (imported on first access)
_EXPORTS: dict[str, str] = {
    "Encoder": "encoder",
    "ModelIdentity": "identity",
    "LOADERS": "loaders",
    "as_encoder": "loaders",
    "load_encoder": "loaders",
    "model_id": "loaders",
    "register_loader": "loaders",
    "split_spec": "loaders",
    "HFEncoder": "hf",
    "OpenClipEncoder": "open_clip",
    "CorruptWeightsError": "errors",
    "InvalidModelSpecError": "errors",
    "MissingExtraError": "errors",
    "MissingProcessorError": "errors",
    "ModelNotFoundError": "errors",
    "NotAModelFolderError": "errors",
    "UnknownModelPrefixError": "errors",
    "UnsupportedModelError": "errors",
    "WeightsMismatchError": "errors",
}

__all__ = list(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .encoder import Encoder
    from .errors import (
        CorruptWeightsError,
        InvalidModelSpecError,
        MissingExtraError,
        MissingProcessorError,
        ModelNotFoundError,
        NotAModelFolderError,
        UnknownModelPrefixError,
        UnsupportedModelError,
        WeightsMismatchError,
    )
    from .hf import HFEncoder
    from .identity import ModelIdentity
    from .loaders import (
        LOADERS,
        as_encoder,
        load_encoder,
        model_id,
        register_loader,
        split_spec,
    )
    from .open_clip import OpenClipEncoder


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
