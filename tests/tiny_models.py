"""Tiny random-init CLIP, SigLIP, BLIP and open_clip models with their processors, built offline
for tests, and the naive per-sample references they are checked against.

Nothing is downloaded: the tokenizer is a character-level ``tokenizers`` model (every lower-case
letter, digit, space and common punctuation mark is a token, so distinct captions get distinct
token sequences) wrapped as a fast tokenizer, and the image processors are constructed from
arguments. Models are seeded, so two calls with the same arguments give identical weights.

>>> model, processor = tiny_clip()
>>> type(model).__name__, model.config.text_config.max_position_embeddings
('CLIPModel', 32)
>>> processor(text=["a red apple"], return_tensors="pt")["input_ids"].shape
torch.Size([1, 13])
"""

from __future__ import annotations

import contextlib
import io
import json
import string
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar

import datasets
import numpy as np
import pytest
import torch
from build_folders import write_configurations
from PIL import Image
from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers
from tokenizers.processors import TemplateProcessing
from transformers import (
    BlipConfig,
    BlipForImageTextRetrieval,
    BlipProcessor,
    CLIPConfig,
    CLIPModel,
    CLIPProcessor,
    PreTrainedTokenizerFast,
    SiglipConfig,
    SiglipModel,
    SiglipProcessor,
)

from bindsplit_datasets import benchmarks
from bindsplit_datasets.benchmarks import BenchmarkAdapter

try:  # transformers 5.x: the PIL backend, without torchvision
    from transformers import BlipImageProcessorPil as BlipImageProcessor
    from transformers import CLIPImageProcessorPil as CLIPImageProcessor
    from transformers import SiglipImageProcessorPil as SiglipImageProcessor
except ImportError:  # transformers 4.x
    from transformers import BlipImageProcessor, CLIPImageProcessor, SiglipImageProcessor

__all__ = [
    "SPECIAL_TOKENS",
    "AroLikeAdapter",
    "BivlcLikeAdapter",
    "TINY_CAPTIONS",
    "TINY_LABELS",
    "VOCABULARY",
    "char_tokenizer",
    "word_level_tokenizer",
    "naive_metrics",
    "naive_open_clip_scores",
    "naive_scores",
    "png_bytes",
    "random_image",
    "register_test_benchmarks",
    "reset_accelerate",
    "tiny_bivlc_like",
    "tiny_blip_retrieval",
    "tiny_clip",
    "tiny_open_clip_dir",
    "tiny_siglip",
    "fake_manifest",
    "write_fake_build",
]

SPECIAL_TOKENS = ("[PAD]", "[UNK]", "[BOS]", "[EOS]")
VOCABULARY: tuple[str, ...] = (
    *SPECIAL_TOKENS,
    *string.ascii_lowercase,
    *string.digits,
    *" .,;:'!?-/()&",
)
PAD_ID, UNK_ID, BOS_ID, EOS_ID = range(4)


def char_tokenizer(model_max_length: int = 32) -> PreTrainedTokenizerFast:
    """A character-level fast tokenizer: ``[BOS] c h a r s [EOS]``, lower-cased, ``[PAD]`` = 0."""
    return word_level_tokenizer(
        VOCABULARY[len(SPECIAL_TOKENS) :],
        pre_tokenizers.Split(Regex("."), behavior="isolated"),
        model_max_length,
    )


def word_level_tokenizer(
    vocabulary: Iterable[str], pre_tokenizer: Any, model_max_length: int
) -> PreTrainedTokenizerFast:
    """A fast tokenizer over :data:`SPECIAL_TOKENS` then ``vocabulary`` (lower case, each token
    once): ``[BOS] tokens [EOS]``, lower-cased, ``[PAD]`` = 0, anything else ``[UNK]``;
    ``pre_tokenizer`` (a ``tokenizers.pre_tokenizers`` object) cuts the text into tokens
    (characters for :func:`char_tokenizer`, words for the scorer's benchmark in perf/)."""
    vocab: dict[str, int] = {}
    for token in (*SPECIAL_TOKENS, *vocabulary):
        vocab.setdefault(token, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizer
    backend.post_processor = TemplateProcessing(
        single="[BOS] $A [EOS]", special_tokens=[("[BOS]", BOS_ID), ("[EOS]", EOS_ID)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token="[PAD]",
        unk_token="[UNK]",
        bos_token="[BOS]",
        eos_token="[EOS]",
        model_max_length=model_max_length,
    )


def _text_config(max_positions: int, width: int) -> dict[str, int]:
    return {
        "vocab_size": len(VOCABULARY),
        "hidden_size": width,
        "intermediate_size": 2 * width,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "max_position_embeddings": max_positions,
        "pad_token_id": PAD_ID,
        "bos_token_id": BOS_ID,
        "eos_token_id": EOS_ID,
    }


def _vision_config(image_size: int, width: int) -> dict[str, int]:
    return {
        "hidden_size": width,
        "intermediate_size": 2 * width,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "image_size": image_size,
        "patch_size": image_size // 2,
    }


def tiny_clip(
    *, seed: int = 0, max_text_positions: int = 32, image_size: int = 16, width: int = 16
) -> tuple[CLIPModel, CLIPProcessor]:
    """A seeded random-init ``CLIPModel`` (eval mode) and a matching ``CLIPProcessor``."""
    config = CLIPConfig(
        text_config=_text_config(max_text_positions, width),
        vision_config=_vision_config(image_size, width),
        projection_dim=8,
    )
    torch.manual_seed(seed)
    model = CLIPModel(config).eval()
    image_processor = CLIPImageProcessor(
        size={"shortest_edge": image_size}, crop_size={"height": image_size, "width": image_size}
    )
    return model, CLIPProcessor(
        image_processor=image_processor, tokenizer=char_tokenizer(max_text_positions)
    )


def tiny_siglip(
    *, seed: int = 0, max_text_positions: int = 32, image_size: int = 16, width: int = 16
) -> tuple[SiglipModel, SiglipProcessor]:
    """A seeded random-init ``SiglipModel`` (eval mode, non-trivial logit scale and bias) and a
    matching ``SiglipProcessor``. SigLIP pools the last text position, so it needs
    ``padding="max_length"`` (the scorer chooses that from ``model_type``)."""
    config = SiglipConfig(
        text_config=_text_config(max_text_positions, width),
        vision_config=_vision_config(image_size, width),
    )
    torch.manual_seed(seed)
    model = SiglipModel(config).eval()
    with torch.no_grad():
        model.logit_scale.fill_(2.0)
        model.logit_bias.fill_(-1.5)
    image_processor = SiglipImageProcessor(size={"height": image_size, "width": image_size})
    return model, SiglipProcessor(
        image_processor=image_processor, tokenizer=char_tokenizer(max_text_positions)
    )


def tiny_blip_retrieval(
    *, seed: int = 0, max_text_positions: int = 32, image_size: int = 16, width: int = 16
) -> tuple[BlipForImageTextRetrieval, BlipProcessor]:
    """A seeded random BLIP image-text retrieval model (an ITM checkpoint's class) and a matching
    ``BlipProcessor``. Every weight is drawn from N(0, 0.1): BLIP's own initialisation gives all
    inputs nearly the same [CLS] state at this size."""
    config = BlipConfig(
        text_config={
            **_text_config(max_text_positions, width),
            "sep_token_id": EOS_ID,
            "encoder_hidden_size": width,
        },
        vision_config=_vision_config(image_size, width),
        projection_dim=8,
        image_text_hidden_size=8,
    )
    torch.manual_seed(seed)
    model = BlipForImageTextRetrieval(config).eval()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.normal_(0, 0.1)
    image_processor = BlipImageProcessor(size={"height": image_size, "width": image_size})
    return model, BlipProcessor(
        image_processor=image_processor, tokenizer=char_tokenizer(max_text_positions)
    )


#: open_clip's ``model_cfg`` of the tiny open_clip model (open_clip's own BPE tokenizer).
TINY_OPEN_CLIP_CONFIG: dict[str, Any] = {
    "embed_dim": 8,
    "vision_cfg": {"image_size": 16, "layers": 1, "width": 16, "head_width": 8, "patch_size": 8},
    "text_cfg": {"context_length": 8, "vocab_size": 49408, "width": 16, "heads": 2, "layers": 1},
}


def tiny_open_clip_dir(folder: Path, *, seed: int = 0) -> Path:
    """Write a seeded random-init open_clip model as an open_clip ``local-dir:`` folder
    (``open_clip_config.json`` + ``open_clip_model.safetensors``) and return the folder.

    Its text length is 8 tokens, so captions of seven or more words are truncated.
    """
    import open_clip
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "model_cfg": TINY_OPEN_CLIP_CONFIG,
        "preprocess_cfg": {"mean": [0.5, 0.4, 0.3], "std": [0.2, 0.25, 0.3]},
    }
    (folder / "open_clip_config.json").write_text(json.dumps(config))
    torch.manual_seed(seed)
    model = open_clip.create_model(f"local-dir:{folder}", load_weights=False)
    state = {name: tensor.contiguous() for name, tensor in model.state_dict().items()}
    save_file(state, str(folder / "open_clip_model.safetensors"))
    return folder


def random_image(seed: int, size: tuple[int, int] = (24, 20)) -> Image.Image:
    """A seeded RGB noise image of ``size`` (width, height)."""
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), dtype=np.uint8)
    return Image.fromarray(pixels)


def png_bytes(image: Image.Image) -> bytes:
    """``image`` encoded as PNG (lossless, so decoding gives the same pixels back)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


#: Captions of the tiny BiVLC-like benchmark; rows reuse them, as real benchmarks do.
TINY_CAPTIONS = (
    "a red apple on a table",
    "a green apple on a table",
    "a blue mug next to a dog",
    "a dog next to a blue mug",
    "two white cats",
)
TINY_LABELS = ("seen", "unseen", "partial", "seen", "none", "unseen")
#: The configurations of a fake build.
CONFIGS = ("full", "seen", "unseen", "partial")


def tiny_bivlc_like(n_rows: int = 12, *, n_images: int = 5) -> datasets.Dataset:
    """A BiVLC-shaped dataset (2 images x 2 captions per row) with BindSplit's annotation columns.

    Columns ``image``/``negative_image`` (PNG noise, ``n_images`` distinct), ``caption``/
    ``negative_caption`` (drawn from :data:`TINY_CAPTIONS`), ``type``/``subtype`` and the
    annotations of ``features.ANNOTATION_FEATURES``; ``bindsplit_label`` cycles through
    :data:`TINY_LABELS`, stored as a build stores it (the ClassLabel's index). Both images and
    captions repeat across rows.
    """
    from bindsplit_datasets.builds.features import ANNOTATION_FEATURES, LABEL_FEATURE
    from bindsplit_datasets.labels import is_balanced

    images = [png_bytes(random_image(seed)) for seed in range(n_images)]
    rows: dict[str, list[Any]] = {name: [] for name in (*_SOURCE_FEATURES, *ANNOTATION_FEATURES)}
    for r in range(n_rows):
        label = TINY_LABELS[r % len(TINY_LABELS)]
        seen = label in ("seen", "partial")
        rows["image"].append({"bytes": images[r % n_images], "path": None})
        rows["negative_image"].append({"bytes": images[(r * 2 + 1) % n_images], "path": None})
        rows["caption"].append(TINY_CAPTIONS[r % len(TINY_CAPTIONS)])
        rows["negative_caption"].append(TINY_CAPTIONS[(r + 1) % len(TINY_CAPTIONS)])
        rows["type"].append(("replace", "swap")[r % 2])
        rows["subtype"].append(("att", "obj", "rel")[r % 3])
        binding = (
            []
            if label == "none"
            else [{"attribute": "red", "object": "apple", "count": int(seen), "seen": seen}]
        )
        rows["caption_bindings"].append([binding, binding])
        familiarity = None if label == "none" else float(seen)
        rows["caption_familiarity"].append([familiarity, familiarity])
        rows["asymmetric"].append(label == "partial")
        rows["balanced"].append(is_balanced([familiarity, familiarity]))
        rows["bindsplit_label"].append(LABEL_FEATURE.str2int(label))
    return datasets.Dataset.from_dict(
        rows, features=datasets.Features({**_SOURCE_FEATURES, **ANNOTATION_FEATURES})
    )


_SOURCE_FEATURES = {
    "image": datasets.Image(),
    "caption": datasets.Value("string"),
    "negative_image": datasets.Image(),
    "negative_caption": datasets.Value("string"),
    "type": datasets.Value("string"),
    "subtype": datasets.Value("string"),
}


def reset_accelerate() -> None:
    """Forget Accelerate's per-process configuration, so a test may create a new Accelerator with
    another mixed precision (Accelerate allows one configuration per process)."""
    from accelerate.state import AcceleratorState, GradientState

    AcceleratorState._reset_state(reset_partial_state=True)
    GradientState._reset_state()


def naive_scores(
    model: Any,
    processor: Any,
    dataset: datasets.Dataset,
    image_columns: tuple[str, ...],
    caption_columns: tuple[str, ...],
    *,
    padding: bool | str = True,
    max_length: int | None = None,
) -> np.ndarray:
    """Reference score matrices: one full forward per sample, no deduplication, no batching.

    The cosine similarity is recovered from the model's own logits,
    ``(logits_per_image - logit_bias) / exp(logit_scale)`` (CLIP has no bias).
    """
    matrices = []
    with torch.no_grad():
        bias = getattr(model, "logit_bias", torch.zeros(1))
        for row in dataset:
            inputs = processor(
                images=[row[c] for c in image_columns],
                text=[row[c] for c in caption_columns],
                padding=padding,
                truncation=max_length is not None,
                max_length=max_length,
                return_tensors="pt",
            )
            logits = model(**inputs).logits_per_image
            matrices.append(((logits - bias) / model.logit_scale.exp()).numpy())
    return np.stack(matrices)


def naive_metrics(
    scores: np.ndarray, dataset: datasets.Dataset, adapter: BenchmarkAdapter, n_bootstrap: int
) -> dict[str, Any]:
    """The metric of reference ``scores`` (one matrix per row of ``dataset``), with the labels,
    categories, macro groups and ``balanced`` flags read from the rows as the evaluation reads
    them: what a record's ``metrics`` must equal."""
    from fixtures_sources import label_names

    from bindsplit_datasets.metric_core import accumulate, compute_metrics

    categories = [adapter.category(row) for row in dataset]
    groups = [adapter.macro_group(row) for row in dataset]
    stats = accumulate(
        scores,
        label_names(dataset),
        categories if any(categories) else None,
        groups if any(groups) else None,
        balanced=dataset["balanced"],
    )
    return compute_metrics(stats, n_bootstrap=n_bootstrap, seed=0)


def naive_open_clip_scores(
    model: Any,
    preprocess: Any,
    tokenizer: Any,
    dataset: datasets.Dataset,
    image_columns: tuple[str, ...],
    caption_columns: tuple[str, ...],
) -> torch.Tensor:
    """Reference score matrices of an open_clip model: one full ``model(image, text)`` forward
    per sample (normalised features), no deduplication, no batching."""
    matrices = []
    with torch.no_grad():
        for row in dataset:
            images = torch.stack([preprocess(row[c].convert("RGB")) for c in image_columns])
            image_features, text_features, _ = model(
                images, tokenizer([row[c] for c in caption_columns])
            )
            matrices.append(image_features @ text_features.T)
    return torch.stack(matrices)


def write_fake_build(
    folder: Path, dataset: datasets.Dataset, benchmark: str, configs: tuple[str, ...] = CONFIGS
) -> Path:
    """A folder in the layout of `bindsplit build` (README configs, manifest, Parquet shards);
    ``dataset`` stores ``bindsplit_label`` as a build does (the ClassLabel's index). The group
    columns the adapter defines are added as a build adds them."""

    dataset = with_group_columns(dataset, benchmark)
    sizes = write_configurations(folder, dataset, configs, "test build")
    (folder / "bindsplit.json").write_text(json.dumps(fake_manifest(dataset, benchmark, sizes)))
    return folder


def fake_manifest(
    dataset: datasets.Dataset, benchmark: str, sizes: Mapping[str, int]
) -> dict[str, Any]:
    """The manifest :func:`write_fake_build` writes (the fields loading checks and evaluation
    reads), with the real fingerprint of the rows."""
    from bindsplit_datasets.benchmarks import get_benchmark
    from bindsplit_datasets.builds.features import CATEGORY_COLUMN, MACRO_GROUP_COLUMN
    from bindsplit_datasets.builds.manifest import BuildColumns, rows_fingerprint
    from bindsplit_datasets.builds.provenance_digest import with_provenance

    adapter = get_benchmark(benchmark)
    columns = BuildColumns(
        image=tuple(adapter.image_columns),
        caption=tuple(adapter.caption_columns),
        id=adapter.id_column,
        category=CATEGORY_COLUMN if CATEGORY_COLUMN in dataset.column_names else None,
        macro_group=MACRO_GROUP_COLUMN if MACRO_GROUP_COLUMN in dataset.column_names else None,
    )
    return with_provenance(  # as a build records it, so that its provenance is checked too
        {
            "format": "bindsplit-build/2",
            "benchmark": benchmark,
            "pretty_name": adapter.pretty_name,
            "reference": {"corpus": "test"},
            "configs": dict(sizes),
            "fingerprint": rows_fingerprint(dataset, adapter.image_columns),
            "columns": columns.to_dict(),
        }
    )


def with_group_columns(dataset: datasets.Dataset, benchmark: str) -> datasets.Dataset:
    """``dataset`` with ``bindsplit_category`` / ``bindsplit_macro_group`` where the adapter
    defines them for some row (as the builder writes them)."""
    from bindsplit_datasets.benchmarks import get_benchmark
    from bindsplit_datasets.builds.features import CATEGORY_COLUMN, MACRO_GROUP_COLUMN

    adapter = get_benchmark(benchmark)
    rows = dataset.remove_columns(list(adapter.image_columns)).to_list()
    for column, group in (
        (CATEGORY_COLUMN, adapter.category),
        (MACRO_GROUP_COLUMN, adapter.macro_group),
    ):
        values = [group(row) for row in rows]
        if column not in dataset.column_names and any(v is not None for v in values):
            dataset = dataset.add_column(column, values, feature=datasets.Value("string"))
    return dataset


class _TestAdapter(BenchmarkAdapter):
    """Test-only adapter: rows are made in the test, there is no source to load."""

    pretty_name: ClassVar[str] = "test benchmark"
    required_columns: ClassVar[tuple[str, ...]] = ()
    license: ClassVar[str] = "other"
    citation: ClassVar[str] = ""

    def load(self, source: Any = None, *, strict: bool = False, **options: Any) -> Any:
        raise NotImplementedError("test adapter: rows are made in the test")

    def caption_bindings(self, row: Mapping[str, Any]) -> list[list[Any]]:
        return [[] for _ in self.caption_columns]


class BivlcLikeAdapter(_TestAdapter):
    """``_test_bivlc_like``: 2 images x 2 captions, categories ``type/subtype``."""

    name: ClassVar[str] = "_test_bivlc_like"
    image_columns: ClassVar[tuple[str, ...]] = ("image", "negative_image")
    caption_columns: ClassVar[tuple[str, ...]] = ("caption", "negative_caption")
    category_columns: ClassVar[tuple[str, ...]] = ("type", "subtype")


class AroLikeAdapter(_TestAdapter):
    """``_test_aro_like``: 1 image x 2 captions (no T2I), macro group = ``subtype``."""

    name: ClassVar[str] = "_test_aro_like"
    image_columns: ClassVar[tuple[str, ...]] = ("image",)
    caption_columns: ClassVar[tuple[str, ...]] = ("caption", "negative_caption")

    def macro_group(self, row: Mapping[str, Any]) -> str | None:
        return row["subtype"]


@contextlib.contextmanager
def register_test_benchmarks() -> Iterator[None]:
    """Register the test-only adapters over :func:`tiny_bivlc_like` rows while the context is
    open, so that they never show up in other tests' registry listings."""
    with pytest.MonkeyPatch.context() as patch:
        for adapter in (BivlcLikeAdapter, AroLikeAdapter):
            patch.setitem(benchmarks._REGISTRY, adapter.name, adapter)
        yield
