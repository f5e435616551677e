"""Scorer throughput: end to end vs a naive per-sample forward and vs the bare encoders.

Measured side by side in one run, on a random-init CLIP (nothing is downloaded) and a synthetic
BiVLC-shaped benchmark (2 JPEG images x 2 captions per sample) whose images and captions repeat
across samples, as real benchmarks' do:

- **scorer**: ``Scorer.score`` end to end (hashing, JPEG decoding, preprocessing, tokenising,
  Accelerate DataLoaders, encoding each distinct image/caption once, gathering the matrices);
- **naive**: one full ``model(**processor(images, text))`` forward per sample, the usual
  evaluation loop (measured on the first ``--naive-rows`` samples; throughput is per sample);
- **raw encoders**: ``get_image_features``/``get_text_features`` alone on pre-batched random
  tensors of exactly the scorer's shapes (distinct images, captions padded per batch as the scorer
  pads them), i.e. the cost of the model with free data loading.

Scorer and raw encoders alternate and the best of ``--rounds`` counts. Targets: scorer at least 5x
naive (samples/s), and at least 0.8x the raw encoders (preprocessing and data loading must not be
the bottleneck). The "small" model is ViT-S/32-sized in vision (the smallest CLIPs evaluated in
practice are ViT-B/32); with a much smaller encoder, image preprocessing (PIL resize, about 5 ms per
photo-sized image on one core) would dominate any scorer.

``--model-size vit-b-32`` uses a ViT-B/32-sized CLIP and also prints images/s and texts/s, for a
GPU run (``--mixed-precision bf16``); on CPU keep ``--rows`` small.
"""

from __future__ import annotations

import argparse
import io
import itertools
import os
import time
from collections.abc import Callable
from typing import Any

import datasets
import numpy as np
import torch
from accelerate import Accelerator
from PIL import Image, ImageDraw
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
from tokenizers.processors import TemplateProcessing
from transformers import CLIPConfig, CLIPModel, CLIPProcessor, PreTrainedTokenizerFast

try:  # transformers 5.x without torchvision
    from transformers import CLIPImageProcessorPil as CLIPImageProcessor
except ImportError:  # transformers 4.x
    from transformers import CLIPImageProcessor

from bindsplit_datasets.scoring import Scorer

TARGET_NAIVE = 5.0
TARGET_RAW = 0.8
IMAGE_COLUMNS = ("image", "negative_image")
CAPTION_COLUMNS = ("caption", "negative_caption")

COLOURS = ("red", "green", "blue", "yellow", "white", "black", "brown", "purple")
OBJECTS = ("apple", "mug", "dog", "cat", "car", "chair", "vase", "bus")
WORDS = ("a", "an", "the", "next", "to", "on", "of", "and", "with", "photo", "table")

#: (vision, text) transformer sizes: hidden, layers, heads; projection dim.
MODEL_SIZES: dict[str, dict[str, Any]] = {
    "small": {"vision": (384, 6, 6), "text": (256, 4, 4), "projection": 256},
    "vit-b-32": {"vision": (768, 12, 12), "text": (512, 12, 8), "projection": 512},
}


# ---------------------------------------------------------------------------- setup
def build_tokenizer() -> PreTrainedTokenizerFast:
    """A word-level tokenizer over the benchmark's vocabulary (CLIP-like token counts)."""
    vocab = {token: i for i, token in enumerate(("[PAD]", "[UNK]", "[BOS]", "[EOS]"))}
    for word in (*COLOURS, *OBJECTS, *WORDS):
        vocab.setdefault(word, len(vocab))
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    backend.normalizer = normalizers.Lowercase()
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.post_processor = TemplateProcessing(
        single="[BOS] $A [EOS]", special_tokens=[("[BOS]", 2), ("[EOS]", 3)]
    )
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        pad_token="[PAD]",
        unk_token="[UNK]",
        bos_token="[BOS]",
        eos_token="[EOS]",
        model_max_length=77,
    )


def build_model(size: str) -> tuple[CLIPModel, CLIPProcessor]:
    spec = MODEL_SIZES[size]
    tokenizer = build_tokenizer()

    def tower(hidden: int, layers: int, heads: int) -> dict[str, int]:
        return {
            "hidden_size": hidden,
            "num_hidden_layers": layers,
            "num_attention_heads": heads,
            "intermediate_size": 4 * hidden,
        }

    config = CLIPConfig(
        vision_config={**tower(*spec["vision"]), "image_size": 224, "patch_size": 32},
        text_config={
            **tower(*spec["text"]),
            "vocab_size": len(tokenizer),
            "max_position_embeddings": 77,
            "pad_token_id": 0,
            "bos_token_id": 2,
            "eos_token_id": 3,
        },
        projection_dim=spec["projection"],
    )
    torch.manual_seed(0)
    model = CLIPModel(config).eval()
    return model, CLIPProcessor(image_processor=CLIPImageProcessor(), tokenizer=tokenizer)


def jpeg(seed: int, size: int = 320) -> bytes:
    """A JPEG of coloured shapes (decodes like a photo, unlike incompressible noise)."""
    rng = np.random.default_rng(seed)
    image = Image.new("RGB", (size, size * 3 // 4), tuple(int(v) for v in rng.integers(0, 256, 3)))
    draw = ImageDraw.Draw(image)
    for _ in range(8):
        x0, y0 = (int(v) for v in rng.integers(0, size // 2, 2))
        x1, y1 = x0 + int(rng.integers(20, size // 2)), y0 + int(rng.integers(20, size // 2))
        draw.ellipse((x0, y0, x1, y1), fill=tuple(int(v) for v in rng.integers(0, 256, 3)))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


def build_dataset(rows: int, unique_images: int, unique_captions: int) -> datasets.Dataset:
    """BiVLC-shaped rows; images and captions drawn from fixed pools, so both repeat."""
    images = [jpeg(seed) for seed in range(unique_images)]
    pairs = list(itertools.product(COLOURS, OBJECTS))
    captions = [
        f"a photo of a {c1} {o1} next to a {c2} {o2} on the table"
        for (c1, o1), (c2, o2) in itertools.islice(
            itertools.permutations(pairs, 2), unique_captions
        )
    ]
    rng = np.random.default_rng(0)
    data: dict[str, list[Any]] = {column: [] for column in (*IMAGE_COLUMNS, *CAPTION_COLUMNS)}
    for _ in range(rows):
        for column in IMAGE_COLUMNS:
            data[column].append({"bytes": images[rng.integers(unique_images)], "path": None})
        for column in CAPTION_COLUMNS:
            data[column].append(captions[rng.integers(unique_captions)])
    features = datasets.Features(
        {
            **{c: datasets.Image() for c in IMAGE_COLUMNS},
            **{c: datasets.Value("string") for c in CAPTION_COLUMNS},
        }
    )
    return datasets.Dataset.from_dict(data, features=features)


# ---------------------------------------------------------------------------- measures
def timed(function: Callable[[], Any], device: torch.device) -> tuple[float, Any]:
    if device.type == "cuda":
        torch.cuda.synchronize()
    start = time.perf_counter()
    result = function()
    if device.type == "cuda":
        torch.cuda.synchronize()
    return time.perf_counter() - start, result


def naive(
    model: CLIPModel, processor: CLIPProcessor, dataset: datasets.Dataset, accelerator: Accelerator
) -> None:
    with torch.inference_mode():
        for row in dataset:
            inputs = processor(
                images=[row[c] for c in IMAGE_COLUMNS],
                text=[row[c] for c in CAPTION_COLUMNS],
                padding=True,
                truncation=True,
                max_length=77,
                return_tensors="pt",
            ).to(accelerator.device)
            with accelerator.autocast():
                model(**inputs)


def raw_batches(
    dataset: datasets.Dataset, processor: CLIPProcessor, batch_size: int, n_images: int
) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """Random tensors shaped like the scorer's batches of distinct images and captions."""
    captions = list(
        dict.fromkeys(
            text for row in dataset.select_columns(list(CAPTION_COLUMNS)) for text in row.values()
        )
    )
    generator = torch.Generator().manual_seed(0)
    text = []
    for start in range(0, len(captions), batch_size):
        shape = processor.tokenizer(
            captions[start : start + batch_size], padding=True, return_tensors="pt"
        )["input_ids"].shape
        ids = torch.randint(4, len(processor.tokenizer), shape, generator=generator)
        ids[:, -1] = 3  # EOS, where CLIP pools
        text.append(ids)
    pixels = [
        torch.randn(min(batch_size, n_images - start), 3, 224, 224, generator=generator)
        for start in range(0, n_images, batch_size)
    ]
    return pixels, text


def raw(
    model: CLIPModel, pixels: list[torch.Tensor], text: list[torch.Tensor], accelerator: Accelerator
) -> None:
    with torch.inference_mode(), accelerator.autocast():
        for batch in pixels:
            model.get_image_features(pixel_values=batch.to(accelerator.device))
        for batch in text:
            model.get_text_features(input_ids=batch.to(accelerator.device))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model-size", choices=sorted(MODEL_SIZES), default="small")
    parser.add_argument(
        "--rows", type=int, default=None, help="samples (default: 256 small, 32 vit-b-32)"
    )
    parser.add_argument("--unique-images", type=int, default=None)
    parser.add_argument("--unique-captions", type=int, default=None)
    parser.add_argument(
        "--naive-rows", type=int, default=16, help="samples timed for the naive loop"
    )
    parser.add_argument("--rounds", type=int, default=3, help="best of this many (scorer, raw)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--num-workers", type=int, default=0)
    parser.add_argument("--mixed-precision", choices=("no", "bf16", "fp16"), default="no")
    parser.add_argument("--cpu", action="store_true", help="force the CPU even if a GPU is present")
    args = parser.parse_args()
    rows = args.rows or (256 if args.model_size == "small" else 32)
    unique_images = args.unique_images or max(2, rows // 4)
    unique_captions = args.unique_captions or max(2, rows // 8)

    accelerator = Accelerator(mixed_precision=args.mixed_precision, cpu=args.cpu)
    model, processor = build_model(args.model_size)
    model = accelerator.prepare_model(model, evaluation_mode=True)
    dataset = build_dataset(rows, unique_images, unique_captions)
    pixels, text = raw_batches(dataset, processor, args.batch_size, unique_images)
    device = accelerator.device

    # warm-up (first calls allocate and pick kernels), then the measures side by side
    naive(model, processor, dataset.select(range(2)), accelerator)
    raw(model, pixels[:1], text[:1], accelerator)
    scorer = Scorer(
        model,
        processor,
        accelerator=accelerator,
        batch_size=args.batch_size,
        num_workers=args.num_workers,
    )
    # scorer and raw encoders alternate, best of --rounds (the machine may be shared)
    scorer_times, raw_times = [], []
    for _ in range(args.rounds):
        seconds, result = timed(
            lambda: scorer.score(dataset, IMAGE_COLUMNS, CAPTION_COLUMNS), device
        )
        scorer_times.append(seconds)
        raw_times.append(timed(lambda: raw(model, pixels, text, accelerator), device)[0])
    scorer_s, raw_s = min(scorer_times), min(raw_times)
    naive_rows = min(args.naive_rows, rows)
    naive_s, _ = timed(
        lambda: naive(model, processor, dataset.select(range(naive_rows)), accelerator), device
    )

    n_images, n_captions = result.n_unique_images, result.n_unique_captions
    throughput = {
        "scorer": rows / scorer_s,
        "raw encoders": rows / raw_s,
        "naive forward": naive_rows / naive_s,
    }
    print(
        f"Scorer throughput: {args.model_size} random-init CLIP on {device} "
        f"(torch threads {torch.get_num_threads()}, precision {args.mixed_precision}), "
        f"{rows} samples of 2 images x 2 captions, {n_images} distinct images, "
        f"{n_captions} distinct captions, batch {args.batch_size}"
    )
    print(f"{'measure':<16}{'seconds':>10}{'samples/s':>12}{'images/s':>12}{'texts/s':>12}")
    for name, seconds, samples in (
        ("scorer", scorer_s, rows),
        ("raw encoders", raw_s, rows),
        ("naive forward", naive_s, naive_rows),
    ):
        encoded = (
            (n_images, n_captions) if name != "naive forward" else (2 * naive_rows, 2 * naive_rows)
        )
        print(
            f"{name:<16}{seconds:>10.2f}{samples / seconds:>12.1f}"
            f"{encoded[0] / seconds:>12.1f}{encoded[1] / seconds:>12.1f}"
        )
    print()
    speedup = throughput["scorer"] / throughput["naive forward"]
    efficiency = throughput["scorer"] / throughput["raw encoders"]
    print(f"scorer / naive forward: {speedup:.1f}x (target >= {TARGET_NAIVE}x)")
    print(f"scorer / raw encoders:  {efficiency:.2f} (target >= {TARGET_RAW})")
    print("images/s and texts/s count distinct items encoded (the naive loop encodes every one).")


if __name__ == "__main__":
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    main()
