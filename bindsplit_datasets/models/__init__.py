"""Models the scorer can drive: the :class:`Encoder` interface (dual encoders: Hugging Face,
open_clip), the :class:`PairScorer` interface (cross-encoders such as BLIP's ITM head, any
``score(images, captions)`` callable), and the loader registry that turns a model string into
either.

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
    "PairScorer": "pair",
    "CallablePairScorer": "pair",
    "ItmPairScorer": "itm",
    "ModelIdentity": "identity",
    "LOADERS": "loaders",
    "LoadedModel": "loaders",
    "ModelCache": "loaders",
    "ScoringModel": "loaders",
    "as_encoder": "loaders",
    "as_scoring_model": "loaders",
    "load_encoder": "loaders",
    "load_model": "loaders",
    "model_id": "loaders",
    "model_source": "loaders",
    "register_loader": "loaders",
    "split_spec": "loaders",
    "HFEncoder": "hf",
    "OpenClipEncoder": "open_clip",
}

__all__ = list(_EXPORTS)

if TYPE_CHECKING:  # pragma: no cover
    from .encoder import Encoder
    from .hf import HFEncoder
    from .identity import ModelIdentity
    from .itm import ItmPairScorer
    from .loaders import (
        LOADERS,
        LoadedModel,
        ModelCache,
        ScoringModel,
        as_encoder,
        as_scoring_model,
        load_encoder,
        load_model,
        model_id,
        model_source,
        register_loader,
        split_spec,
    )
    from .open_clip import OpenClipEncoder
    from .pair import CallablePairScorer, PairScorer


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
