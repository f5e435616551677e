"""The tiny CLIPs of the synthetic world: architecture, tokenizer, processor, shipped checkpoints.

A checkpoint folder is a standard Hugging Face model folder (``config.json``, ``model.safetensors``,
``tokenizer.json``, ``tokenizer_config.json``, ``preprocessor_config.json``), so the path that loads
``openai/clip-vit-base-patch32`` loads it::

    model = AutoModel.from_pretrained(checkpoint_path("negclip"))
    processor = AutoProcessor.from_pretrained(checkpoint_path("negclip"))

The tokenizer is a closed word-level vocabulary (the world's words plus four special tokens) built
with ``tokenizers``; out-of-vocabulary words become ``<unk>``. The text tower pools at the first
``<|endoftext|>`` (``eos_token_id`` is set explicitly: transformers' CLIP defaults would pool at the
wrong position with a small vocabulary), and the causal attention makes the pooled embedding
independent of padding, so ``padding=True`` and ``padding="max_length"`` give the same embeddings.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import BindsplitFileNotFoundError, BindsplitValueError
from .world import SyntheticWorld

if TYPE_CHECKING:
    from transformers import CLIPImageProcessor, CLIPModel, CLIPProcessor, PreTrainedTokenizerFast

__all__ = [
    "CHECKPOINTS",
    "CHECKPOINT_DIR",
    "MAX_TEXT_LENGTH",
    "SPECIAL_TOKENS",
    "ModelSize",
    "build_image_processor",
    "build_model",
    "build_processor",
    "build_tokenizer",
    "checkpoint_path",
    "save_processor",
]

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
#: Shipped checkpoints: ``clip`` (plain contrastive loss) and ``negclip`` (swap hard negatives).
CHECKPOINTS: dict[str, Path] = {name: CHECKPOINT_DIR / name for name in ("clip", "negclip")}

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<|startoftext|>", "<|endoftext|>"
SPECIAL_TOKENS: tuple[str, ...] = (PAD, UNK, BOS, EOS)
#: Positions of the text tower: longer inputs are truncated. Captions of the world use at most 11
#: tokens; the half-truth descriptions built from them (an anchor of two units and one more
#: unit, :mod:`bindsplit_datasets.halftruths`) up to 23.
MAX_TEXT_LENGTH = 24


def checkpoint_path(name: str) -> Path:
    """Folder of a shipped checkpoint (``"clip"`` or ``"negclip"``).

    Raises:
        ValueError: unknown name.
        FileNotFoundError: the checkpoint has not been trained into the package.
    """
    try:
        path = CHECKPOINTS[name]
    except KeyError:
        raise BindsplitValueError(
            f"unknown synthetic checkpoint {name!r}; choose one of {sorted(CHECKPOINTS)}"
        ) from None
    if not (path / "model.safetensors").is_file():
        raise BindsplitFileNotFoundError(
            f"checkpoint {name!r} is missing at {path}; train it with "
            f"`bindsplit train-synthetic --model {name}`"
        )
    return path


@dataclass(frozen=True)
class ModelSize:
    """Architecture of a tiny CLIP (defaults: 1.51M parameters, 6.1 MB in float32).

    Vision: 16 x 16 patches, so a 64 x 64 image is 16 tokens plus the class token. Patches of 8
    (64 tokens) learn no faster per step on this world but make each step about three times
    slower on a CPU, which a fixed time budget cannot afford.
    """

    hidden: int = 128
    intermediate: int = 512
    heads: int = 4
    vision_layers: int = 4
    text_layers: int = 3
    patch: int = 16
    projection: int = 64

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


def build_tokenizer(world: SyntheticWorld) -> PreTrainedTokenizerFast:
    """Word-level tokenizer over the world's vocabulary: ``<|startoftext|> words <|endoftext|>``."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    vocab = {token: i for i, token in enumerate((*SPECIAL_TOKENS, *world.vocabulary))}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token=UNK))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.post_processor = processors.TemplateProcessing(
        single=f"{BOS} $A {EOS}", special_tokens=[(BOS, vocab[BOS]), (EOS, vocab[EOS])]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        bos_token=BOS,
        eos_token=EOS,
        pad_token=PAD,
        unk_token=UNK,
        model_max_length=MAX_TEXT_LENGTH,
    )


def build_image_processor(world: SyntheticWorld) -> CLIPImageProcessor:
    """CLIP normalisation at the world's image size: resize to exactly that size; no-op crop."""
    from transformers import CLIPImageProcessor

    side = {"height": world.image_size, "width": world.image_size}
    return CLIPImageProcessor(size=dict(side), crop_size=dict(side))


def build_processor(world: SyntheticWorld) -> CLIPProcessor:
    from transformers import CLIPProcessor

    return CLIPProcessor(
        image_processor=build_image_processor(world), tokenizer=build_tokenizer(world)
    )


def build_model(
    world: SyntheticWorld, size: ModelSize = ModelSize(), *, seed: int = 0
) -> CLIPModel:
    """A randomly initialised (seeded) ``CLIPModel`` for the world's vocabulary and image size."""
    import torch
    from transformers import CLIPConfig, CLIPModel

    n_vocab = len(SPECIAL_TOKENS) + len(world.vocabulary)
    common = {
        "hidden_size": size.hidden,
        "intermediate_size": size.intermediate,
        "num_attention_heads": size.heads,
        "projection_dim": size.projection,
    }
    config = CLIPConfig(
        text_config={
            **common,
            "vocab_size": n_vocab,
            "num_hidden_layers": size.text_layers,
            "max_position_embeddings": MAX_TEXT_LENGTH,
            "pad_token_id": SPECIAL_TOKENS.index(PAD),
            "bos_token_id": SPECIAL_TOKENS.index(BOS),
            "eos_token_id": SPECIAL_TOKENS.index(EOS),
        },
        vision_config={
            **common,
            "num_hidden_layers": size.vision_layers,
            "image_size": world.image_size,
            "patch_size": size.patch,
        },
        projection_dim=size.projection,
    )
    torch.manual_seed(seed)
    return CLIPModel(config)


def save_processor(world: SyntheticWorld, folder: Path) -> None:
    """Write tokenizer and image processor files that ``AutoProcessor`` turns into a CLIPProcessor.

    ``tokenizer_class`` is the generic ``PreTrainedTokenizerFast`` (a word-level vocabulary is not
    CLIP's BPE), and both configs name ``CLIPProcessor`` as their processor class.
    """
    build_tokenizer(world).save_pretrained(folder)
    build_image_processor(world).save_pretrained(folder)
    _update_json(
        folder / "tokenizer_config.json",
        tokenizer_class="PreTrainedTokenizerFast",
        processor_class="CLIPProcessor",
    )
    _update_json(folder / "preprocessor_config.json", processor_class="CLIPProcessor")


def _update_json(path: Path, **values: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    data.update(values)
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
